//! The store on the command line: `store info` and `store forget`, `--store` / `FEEDBACK_STORE`
//! / `--no-store`, `retention_days`, the store's permissions, and `webhook listen` writing
//! accepted deliveries into the store, and `search` over it. Stores are filled through the
//! `Store` API directly, or by a sync against the simulator.
#![allow(clippy::unwrap_used)]

mod basis;
use crate::common;
mod export;
mod history;
mod links;
mod mark;
mod reply;
mod search;
use crate::shell_completion;
mod synced;
mod versions;
mod views;
mod webhook;
use crate::webhook_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use feedback_api::{Feedback, FeedbackDetail, FeedbackId, Metadata, ProjectRef, Status};
use feedback_store::Store;
use jiff::Timestamp;
use webhook_support::{BIN, bin, in_clean_env, text};

pub(crate) const PATIENCE: Duration = Duration::from_secs(10);

pub(crate) fn item(id: &str, at: &str, status: Status) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: format!("message of {id}"),
        reporter_email: None,
        status,
        received_at: at.parse().unwrap(),
        tags: vec![],
        app: None,
        project: ProjectRef {
            id: "prj_1".into(),
            name: "Acme".into(),
        },
    }
}

/// The default store of the top-level account under the test's home.
pub(crate) fn default_store(home: &Path) -> PathBuf {
    home.join("data/feedback-inbox/stores/default.sqlite3")
}

/// A store at `path` with two new items, one archived one (with a detail) and one of a status
/// this version does not know.
fn fill(path: &Path) {
    let mut store = Store::open(path).unwrap();
    let now = Timestamp::now();
    let items = [
        item("fb_1", "2026-10-01T10:00:00Z", Status::New),
        item("fb_2", "2026-11-01T10:00:00Z", Status::New),
        item(
            "fb_4",
            "2026-11-02T10:00:00Z",
            Status::from("escalated\u{1b}[31m"),
        ),
    ];
    store.put_items(&items, now).unwrap();
    let detail = FeedbackDetail {
        feedback: item("fb_3", "2026-09-01T10:00:00Z", Status::Archived),
        metadata: Metadata::default(),
        delivery: vec![],
    };
    store.put_detail(&detail, now).unwrap();
}

pub(crate) fn run(home: &Path, args: &[&str]) -> Output {
    bin(home).env("TZ", "UTC").args(args).output().unwrap()
}

pub(crate) fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&output.stdout), text(&output.stderr)))
}

#[test]
fn info_on_a_missing_store_says_there_is_none_and_creates_nothing() {
    let home = tempfile::tempdir().unwrap();
    let out = run(home.path(), &["store", "info"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let path = default_store(home.path());
    assert!(
        shown.starts_with(&format!("No store yet at {}", path.display())),
        "{shown}"
    );
    assert!(shown.contains("everything is kept"), "{shown}");
    let out = run(home.path(), &["store", "info", "--format", "json"]);
    let report = json(&out);
    assert_eq!(report["exists"], false);
    assert_eq!(report["path"], path.display().to_string());
    assert!(report.get("items").is_none());
    assert!(!path.exists() && !path.parent().unwrap().exists());
}

#[test]
fn info_on_a_filled_store_counts_each_status_and_keeps_unknown_ones_safe() {
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    fill(&path);
    let report = json(&run(home.path(), &["store", "info", "--format", "json"]));
    assert_eq!(report["exists"], true);
    assert_eq!(report["items"], 4);
    assert_eq!(report["with_detail"], 1);
    assert_eq!(report["mode"], "0600");
    assert_eq!(report["oldest"], "2026-09-01T10:00:00Z");
    assert_eq!(report["newest"], "2026-11-02T10:00:00Z");
    let statuses: Vec<(String, u64)> = report["statuses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["status"].as_str().unwrap().to_owned(),
                s["stored"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            ("new".to_owned(), 2),
            ("archived".to_owned(), 1),
            ("escalated\u{1b}[31m".to_owned(), 1)
        ]
    );
    assert!(report["bytes"].as_u64().unwrap() > 0);

    let out = run(home.path(), &["store", "info"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(!shown.contains('\u{1b}'), "sanitized: {shown:?}");
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines[0],
        format!("Store      {} (0600)", path.display()),
        "{shown}"
    );
    assert!(lines.contains(&"Items      4"), "{shown}");
    assert!(
        lines.contains(&"  new        2 stored; never synced"),
        "{shown}"
    );
    assert!(
        lines.contains(&"  archived   1 stored; never synced"),
        "{shown}"
    );
    assert!(lines.contains(&"  escalated␛ 1 stored"), "{shown}");
    assert!(
        lines.contains(&"Details    1 with metadata and delivery"),
        "{shown}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Oldest     2026-09-01 10:00:00 UTC (")),
        "{shown}"
    );
}

#[test]
fn store_flag_beats_the_env_var_and_no_store_beats_both() {
    let home = tempfile::tempdir().unwrap();
    let from_env = home.path().join("env.sqlite3");
    let from_flag = home.path().join("flag.sqlite3");
    let path_of = |out: &Output| json(out)["path"].as_str().unwrap().to_owned();
    let info = ["store", "info", "--format", "json"];
    let out = bin(home.path())
        .env("FEEDBACK_STORE", &from_env)
        .args(info)
        .output()
        .unwrap();
    assert_eq!(path_of(&out), from_env.display().to_string());
    let out = bin(home.path())
        .env("FEEDBACK_STORE", &from_env)
        .args(info)
        .arg("--store")
        .arg(&from_flag)
        .output()
        .unwrap();
    assert_eq!(path_of(&out), from_flag.display().to_string());
    let out = bin(home.path())
        .env("FEEDBACK_STORE", &from_env)
        .args(["store", "info", "--no-store"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--no-store"),
        "{}",
        text(&out.stderr)
    );
    let out = bin(home.path())
        .args(["--store", "x.sqlite3", "--no-store", "store", "info"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot be used with"),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        home.path(),
        &["--profile", "client-b", "store", "info", "--format", "json"],
    );
    assert!(
        path_of(&out).ends_with("stores/client-b.sqlite3"),
        "{}",
        path_of(&out)
    );
}

#[test]
fn forget_refuses_without_a_terminal_or_yes_and_deletes_only_the_store_with_yes() {
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    fill(&path);
    let folder = path.parent().unwrap();
    // Another process has it open (its -wal and -shm exist), and a sync left its lock file.
    let mut open = Store::open(&path).unwrap();
    open.put_items(
        &[item("fb_9", "2026-11-03T10:00:00Z", Status::New)],
        Timestamp::now(),
    )
    .unwrap();
    let sidecars =
        ["-wal", "-shm", ".lock"].map(|s| PathBuf::from(format!("{}{s}", path.display())));
    std::fs::write(&sidecars[2], b"").unwrap();
    let neighbour = folder.join("client-b.sqlite3");
    std::fs::write(&neighbour, b"another profile's store").unwrap();
    let out = run(home.path(), &["store", "forget"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("pass --yes"), "{err}");
    assert!(path.exists() && sidecars.iter().all(|f| f.exists()));

    let out = run(home.path(), &["store", "forget", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("Deleted {} (4 files).\n", path.display())
    );
    assert!(!path.exists() && sidecars.iter().all(|f| !f.exists()));
    assert!(neighbour.exists() && folder.exists());
    drop(open);
    let out = run(home.path(), &["store", "forget", "--yes"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).starts_with("No store at"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn forget_refuses_a_path_that_is_not_a_store() {
    let home = tempfile::tempdir().unwrap();
    let notes = home.path().join("notes.txt");
    std::fs::write(&notes, b"my notes").unwrap();
    let other_db = home.path().join("other.sqlite3");
    rusqlite::Connection::open(&other_db)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    for (path, why) in [
        (&notes, "is not a SQLite database"),
        (&other_db, "not a feedback-inbox store"),
        (&home.path().to_owned(), "is not a regular file"),
    ] {
        let out = bin(home.path())
            .args(["store", "forget", "--yes", "--store"])
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", path.display());
        assert!(text(&out.stderr).contains(why), "{}", text(&out.stderr));
        assert!(path.exists());
    }
}

#[test]
fn info_neither_opens_another_programs_file_nor_upgrades_an_older_store() {
    let home = tempfile::tempdir().unwrap();
    let other_db = home.path().join("other.sqlite3");
    rusqlite::Connection::open(&other_db)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let before = std::fs::read(&other_db).unwrap();
    let info = |path: &Path| {
        bin(home.path())
            .args(["store", "info", "--store"])
            .arg(path)
            .output()
            .unwrap()
    };
    let out = info(&other_db);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a feedback-inbox store"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&other_db).unwrap(), before);
    // A store of schema 1: reported as such, left at schema 1.
    let old = home.path().join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&old).unwrap();
        conn.execute_batch(feedback_store::schema::STEPS[0])
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let out = info(&old);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("older version"),
        "{}",
        text(&out.stderr)
    );
    let version: i64 = rusqlite::Connection::open(&old)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 1);
    // An empty file stays empty.
    let empty = home.path().join("empty.sqlite3");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(info(&empty).status.code(), Some(0));
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

/// `store forget` on a terminal (a pty from `script`): the answer decides.
#[test]
fn forget_on_a_terminal_asks_and_keeps_the_store_unless_told_yes() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("script (util-linux) not installed; skipping");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    fill(&path);
    let forget = |answer: &str| {
        let mut child = in_clean_env(Command::new("script"), home.path())
            .arg("-qec")
            .arg(format!("'{BIN}' store forget"))
            .arg("/dev/null")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(answer.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        text(&out.stdout)
    };
    let shown = forget("n\n");
    assert!(
        shown.contains("(4 items)? It holds customer emails"),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("Kept {}.", path.display())),
        "{shown}"
    );
    assert!(path.exists());
    let shown = forget("y\n");
    assert!(
        shown.contains(&format!("Deleted {}", path.display())),
        "{shown}"
    );
    assert!(!path.exists());
}
