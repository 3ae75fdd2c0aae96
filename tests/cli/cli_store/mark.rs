//! Triage from scripts: `mark` sets the state the inbox's keys set (every item must be stored,
//! or nothing changes), `search --fields` reads it back, `note:` finds notes, and a table piped
//! to a program is tab-separated with the field names.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::item;
use super::webhook_support::{bin, text};
use feedback_api::Status;
use feedback_store::Store;
use jiff::Timestamp;

fn filled(dir: &Path) -> PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let items = [
        item("fb_1", "2026-11-01T09:00:00Z", Status::New),
        item("fb_2", "2026-11-02T09:00:00Z", Status::New),
        item("fb_3", "2026-11-03T09:00:00Z", Status::Archived),
    ];
    store.put_items(&items, Timestamp::now()).unwrap();
    path
}

fn run(home: &Path, store: &Path, args: &[&str]) -> Output {
    bin(home)
        .env("TZ", "UTC")
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .unwrap()
}

fn ok(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

/// `search QUERY --fields … --format jsonl` as values.
fn found(home: &Path, store: &Path, query: &str, fields: &str) -> Vec<serde_json::Value> {
    let out = run(
        home,
        store,
        &["search", query, "--fields", fields, "--format", "jsonl"],
    );
    ok(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn mark_sets_the_state_and_search_reads_it_back() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let out = run(
        home.path(),
        &store,
        &[
            "mark",
            "fb_1",
            "fb_2",
            "--seen",
            "--star",
            "--note",
            "call back\nafter 5 \u{1b}[2J",
        ],
    );
    let said = ok(&out);
    assert_eq!(
        said,
        "fb_1  seen  starred  note: call back\nfb_2  seen  starred  note: call back\n"
    );
    // Twice leaves what once does: the flags set, they do not toggle.
    let again = run(home.path(), &store, &["mark", "fb_1", "--seen", "--star"]);
    assert!(ok(&again).starts_with("fb_1  seen  starred"));

    let rows = found(
        home.path(),
        &store,
        "note:CALL",
        "id,seen,starred,done,snoozed_until,note",
    );
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!(rows[0]["id"], "fb_2", "newest first");
    assert_eq!(rows[0]["seen"], true);
    assert_eq!(rows[0]["starred"], true);
    assert_eq!(rows[0]["done"], false);
    assert_eq!(rows[0]["snoozed_until"], serde_json::Value::Null);
    // The note as written; the JSON text escapes the control character.
    assert_eq!(rows[0]["note"], "call back\nafter 5 \u{1b}[2J");
    let untouched = found(home.path(), &store, "status:archived", "id,seen,note");
    assert_eq!(
        untouched,
        [serde_json::json!({"id": "fb_3", "seen": false, "note": null})]
    );

    // Done and snoozed leave the default search; naming them finds them.
    let out = run(
        home.path(),
        &store,
        &["mark", "fb_1", "--done", "--snooze", "2h", "--note", ""],
    );
    assert!(ok(&out).starts_with("fb_1  seen  starred  done  snoozed until "));
    let snoozed = found(
        home.path(),
        &store,
        "is:snoozed",
        "id,done,snoozed_until,note",
    );
    assert_eq!(snoozed.len(), 1, "{snoozed:?}");
    assert_eq!(snoozed[0]["done"], true);
    assert!(snoozed[0]["snoozed_until"].is_string());
    assert_eq!(
        snoozed[0]["note"],
        serde_json::Value::Null,
        "an empty note removes it"
    );
    assert!(found(home.path(), &store, "note:call", "id")[0]["id"] == "fb_2");

    let json = run(
        home.path(),
        &store,
        &["mark", "fb_1", "--undone", "--wake", "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&json)).unwrap();
    assert_eq!(
        json,
        serde_json::json!([{
            "id": "fb_1", "seen": true, "starred": true, "done": false,
            "snoozed_until": null, "note": null
        }])
    );
}

#[test]
fn an_item_the_store_lacks_or_a_bad_flag_changes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let out = run(
        home.path(),
        &store,
        &["mark", "fb_1", "fb_9\u{1b}[2J", "--seen"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("not in the local store: fb_9␛") && !err.contains('\u{1b}'),
        "{err}"
    );
    for bad in [
        &["mark", "fb_1", "--snooze", "2y"][..],
        &["mark", "fb_1", "--seen", "--unseen"],
        &["mark", "fb_1"],
    ] {
        let out = run(home.path(), &store, bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stderr));
    }
    let rows = found(home.path(), &store, "status:new", "id,seen");
    assert!(rows.iter().all(|r| r["seen"] == false), "{rows:?}");
}

#[test]
fn a_piped_table_is_tab_separated_with_the_field_names() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    ok(&run(
        home.path(),
        &store,
        &["mark", "fb_2", "--star", "--note", "a\tb"],
    ));
    let out = run(
        home.path(),
        &store,
        &[
            "search",
            "is:starred",
            "--fields",
            "id,received_at,starred,note",
        ],
    );
    assert_eq!(
        ok(&out),
        "id\treceived_at\tstarred\tnote\nfb_2\t2026-11-02T09:00:00Z\tyes\ta b\n"
    );
    let out = run(home.path(), &store, &["search", "status:archived"]);
    let table = ok(&out);
    let lines: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        lines[0],
        [
            "id",
            "received_at",
            "status",
            "app",
            "tags",
            "reporter_email",
            "message"
        ]
    );
    assert_eq!(lines[1][0], "fb_3");
    assert_eq!(lines[1][6], "message of fb_3");
}

/// Runs `args` with `input` on stdin.
fn run_with_stdin(home: &Path, store: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write as _;
    let mut child = bin(home)
        .env("TZ", "UTC")
        .arg("--store")
        .arg(store)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn the_ids_a_search_prints_are_marked_and_linked_through_a_pipe() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let ids = ok(&run(
        home.path(),
        &store,
        &["search", "status:new", "--fields", "id"],
    ));
    // Piped, the table has its header: `mark -` skips it.
    assert_eq!(ids.lines().collect::<Vec<_>>(), ["id", "fb_2", "fb_1"]);
    let marked = run_with_stdin(home.path(), &store, &["mark", "-", "--done"], &ids);
    let said = ok(&marked);
    assert!(
        said.contains("fb_1") && said.contains("fb_2") && !said.contains("fb_3"),
        "{said}"
    );
    let done = found(home.path(), &store, "is:done", "id");
    assert_eq!(done.len(), 2, "{done:?}");
    let ticket = "https://tracker.example/TICKET-7";
    let linked = run_with_stdin(home.path(), &store, &["link", "-", ticket], "fb_3\n\n");
    ok(&linked);
    let with = found(home.path(), &store, "has:ticket", "id");
    assert_eq!(with, [serde_json::json!({"id": "fb_3"})]);
    // An id stdin names that the store lacks is refused before anything changes.
    let refused = run_with_stdin(
        home.path(),
        &store,
        &["mark", "-", "--star"],
        "fb_1\nfb_9\n",
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(found(home.path(), &store, "is:starred", "id").is_empty());
    // Nothing on stdin is no ids at all.
    let empty = run_with_stdin(home.path(), &store, &["mark", "-", "--star"], "\n");
    assert_eq!(empty.status.code(), Some(2));
    assert!(
        text(&empty.stderr).contains("no item ids given"),
        "{}",
        text(&empty.stderr)
    );
}
