//! `feedback-inbox store export`: every stored item, newest first, in the API's item shape
//! (JSONL by default), read from the store alone; `--since`/`--until` narrow it; a reader that
//! stops early (`| head`) ends it quietly.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use super::webhook_support::{bin, text};
use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};
use feedback_store::Store;
use jiff::Timestamp;

/// `count` items an hour apart from 2026-10-01, every fifth archived, some messages holding
/// what a terminal would run.
fn items(count: usize) -> Vec<Feedback> {
    let start: Timestamp = "2026-10-01T00:00:00Z".parse().unwrap();
    (0..count)
        .map(|n| Feedback {
            id: FeedbackId(format!("fb_{n:05}")),
            message: if n % 7 == 0 {
                format!("item {n} \u{1b}[2J\u{202e}cleared")
            } else {
                format!("item {n}")
            },
            reporter_email: (n % 2 == 0).then(|| format!("u{n}@example.com")),
            status: if n % 5 == 0 {
                Status::Archived
            } else {
                Status::New
            },
            received_at: start + jiff::SignedDuration::from_hours(i64::try_from(n).unwrap()),
            tags: vec![format!("t{}", n % 3)],
            app: None,
            project: ProjectRef {
                id: "prj_1".into(),
                name: "Acme".into(),
            },
        })
        .collect()
}

fn filled(dir: &Path, items: &[Feedback]) -> PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    for chunk in items.chunks(1000) {
        store.put_items(chunk, Timestamp::now()).unwrap();
    }
    path
}

fn export(home: &Path, store: &Path, args: &[&str]) -> Output {
    bin(home)
        .env("TZ", "UTC")
        .args(["--store"])
        .arg(store)
        .args(["store", "export"])
        .args(args)
        .output()
        .unwrap()
}

/// The items as the API writes them, newest first: what an export must be, line by line.
fn expected(items: &[Feedback], keep: impl Fn(&Feedback) -> bool) -> Vec<serde_json::Value> {
    let mut kept: Vec<&Feedback> = items.iter().filter(|i| keep(i)).collect();
    kept.sort_by_key(|i| std::cmp::Reverse(i.received_at));
    kept.iter()
        .map(|i| serde_json::to_value(i).unwrap())
        .collect()
}

fn lines(output: &Output) -> Vec<serde_json::Value> {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn export_writes_every_stored_item_newest_first_in_the_apis_shape() {
    let home = tempfile::tempdir().unwrap();
    let all = items(3000);
    let store = filled(home.path(), &all);
    let out = export(home.path(), &store, &[]);
    let written = text(&out.stdout);
    // Inert on a terminal: the escape and the bidi override are JSON escapes, not bytes.
    assert!(!written.contains('\u{1b}') && !written.contains('\u{202e}'));
    assert_eq!(lines(&out), expected(&all, |_| true));
}

#[test]
fn since_and_until_narrow_the_export_to_a_window() {
    let home = tempfile::tempdir().unwrap();
    let all = items(200);
    let store = filled(home.path(), &all);
    let out = export(
        home.path(),
        &store,
        &["--since", "2026-10-02", "--until", "2026-10-04T12:00"],
    );
    let since: Timestamp = "2026-10-02T00:00:00Z".parse().unwrap();
    let until: Timestamp = "2026-10-04T12:00:00Z".parse().unwrap();
    let want = expected(&all, |i| i.received_at >= since && i.received_at < until);
    assert_eq!(want.len(), 60);
    assert_eq!(lines(&out), want);
    // CSV, as `list` writes it.
    let out = export(
        home.path(),
        &store,
        &["--format", "csv", "--fields", "id,status"],
    );
    let csv = text(&out.stdout);
    assert_eq!(csv.lines().next(), Some("id,status"));
    assert_eq!(csv.lines().nth(1), Some("fb_00199,new"));
    assert_eq!(csv.lines().count(), 201);
}

#[test]
fn a_reader_that_stops_early_ends_the_export_quietly() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path(), &items(20_000));
    let mut child = bin(home.path())
        .arg("--store")
        .arg(&store)
        .args(["store", "export"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("\"fb_19999\""), "{first}");
    // The pipe closed after one line (like `| head -1`).
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn without_a_store_the_export_says_so_and_makes_none() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("none.sqlite3");
    let out = export(home.path(), &path, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("no store yet")
            && text(&out.stderr).contains("feedback-inbox sync"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty() && !path.exists());
    let out = bin(home.path())
        .args(["--no-store", "store", "export"])
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains("store export reads the local store"),
        "{}",
        text(&out.stderr)
    );
}
