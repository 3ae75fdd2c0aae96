//! `feedback-inbox search`: the query language over a store filled through the `Store` API, in
//! every output format (table sanitized, JSON raw), query errors shown with a caret (exit 2),
//! and the store it reads (`--store`, none with `--no-store`, retention applied on open).

use std::path::Path;
use std::process::Output;

use super::webhook_support::{bin, text};
use feedback_api::{AppRef, Feedback, FeedbackId, Platform, ProjectRef, Status};
use feedback_store::Store;
use jiff::Timestamp;

fn item(id: &str, at: &str, message: &str, tags: &[&str]) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: message.to_owned(),
        reporter_email: Some(format!("{id}@example.com")),
        status: Status::New,
        received_at: at.parse().unwrap(),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        app: Some(AppRef {
            id: "app_1".into(),
            name: "Trailhead iOS".into(),
            platform: Platform::Ios,
        }),
        project: ProjectRef {
            id: "prj_1".into(),
            name: "Trailhead".into(),
        },
    }
}

/// A store with three items that mention a refund (one with an escape sequence in its
/// message, one archived) and one that does not.
pub(super) fn filled(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let mut archived = item("fb_3", "2026-11-03T09:00:00Z", "Refund please", &[]);
    archived.status = Status::Archived;
    let items = [
        item(
            "fb_1",
            "2026-11-01T09:00:00Z",
            "I want a refund\nnow",
            &["billing"],
        ),
        item(
            "fb_2",
            "2026-11-02T09:00:00Z",
            "refund \u{1b}[2Jcleared?",
            &["billing", "bug"],
        ),
        archived,
        item("fb_4", "2026-11-04T09:00:00Z", "the app crashes", &["bug"]),
    ];
    store.put_items(&items, Timestamp::now()).unwrap();
    path
}

pub(super) fn search(home: &Path, store: &Path, args: &[&str]) -> Output {
    bin(home)
        .env("TZ", "UTC")
        .arg("search")
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .unwrap()
}

pub(super) fn ok(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

#[test]
fn table_is_newest_first_sanitized_and_followed_by_the_count() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let out = search(home.path(), &store, &["refund"]);
    let table = ok(&out);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("id\t"), "{table}");
    let ids: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(ids, ["fb_3", "fb_2", "fb_1"]);
    assert!(!table.contains('\u{1b}'), "{table:?}");
    assert!(lines[2].contains("refund ␛cleared?"), "{table}");
    assert_eq!(
        text(&out.stderr),
        "3 matches in new and archived, done and snoozed left out\n"
    );
    // --limit shows the newest; the count is still of every match.
    let out = search(home.path(), &store, &["--limit", "2", "refund"]);
    assert_eq!(ok(&out).lines().count(), 3, "a header and two rows");
    assert_eq!(
        text(&out.stderr),
        "first 2 of 3 matches in new and archived, done and snoozed left out\n"
    );
    let out = search(home.path(), &store, &["--limit", "3", "refund"]);
    assert_eq!(
        text(&out.stderr),
        "3 matches in new and archived, done and snoozed left out\n"
    );
    let out = search(home.path(), &store, &["refund -tag:bug", "status:new"]);
    let table = ok(&out);
    assert_eq!(table.lines().count(), 2, "{table}");
    assert!(
        table.lines().nth(1).unwrap().starts_with("fb_1\t"),
        "{table}"
    );
    assert_eq!(text(&out.stderr), "1 match, done and snoozed left out\n");
    // A query that starts with "-" comes after "--".
    let out = search(home.path(), &store, &["--format", "jsonl", "--", "-refund"]);
    let ids: Vec<String> = ok(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["fb_4"]);
}

#[test]
fn json_jsonl_and_csv_have_the_shapes_of_list_with_the_raw_text() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let shown = ok(&search(
        home.path(),
        &store,
        &["refund", "--format", "json"],
    ));
    let json: serde_json::Value =
        serde_json::from_str(&shown).unwrap_or_else(|e| panic!("{e}: {shown}"));
    let data = json["data"].as_array().unwrap();
    assert_eq!(data.len(), 3);
    assert_eq!(data[1]["id"], "fb_2");
    assert_eq!(data[1]["message"], "refund \u{1b}[2Jcleared?");
    assert_eq!(data[1]["tags"], serde_json::json!(["billing", "bug"]));
    assert_eq!(data[1]["app"]["name"], "Trailhead iOS");
    assert!(json["next_cursor"].is_null());

    let jsonl = ok(&search(
        home.path(),
        &store,
        &["tag:bug", "--format", "jsonl"],
    ));
    let ids: Vec<String> = jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(ids, ["fb_4", "fb_2"]);

    let csv = ok(&search(
        home.path(),
        &store,
        &["refund", "--limit", "1", "--format", "csv"],
    ));
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(&rows[0][0], "fb_3");
    assert_eq!(&reader.headers().unwrap()[0], "id");
}

#[test]
fn a_query_error_shows_the_query_with_a_caret_and_exits_2() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let out = search(home.path(), &store, &["refund", "colour:red"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("error: unknown qualifier"), "{err}");
    assert_eq!(lines[1], "  refund colour:red");
    assert_eq!(lines[2], "         ^^^^^^^");
    // An unknown app name is an error at its value, found against the store.
    let out = search(home.path(), &store, &["app:Nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.ends_with("  app:Nowhere\n      ^^^^^^^\n"), "{err}");
    // A control character in the query is shown safely, the caret still under the span.
    let out = search(home.path(), &store, &["\u{1b}[1mbold\u{7} \"open"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(
        err.ends_with("  ␛bold\u{fffd} \"open\n         ^^^^^\n"),
        "{err}"
    );
}

#[test]
fn search_needs_a_store_and_applies_retention_when_it_opens_one() {
    let home = tempfile::tempdir().unwrap();
    let out = search(home.path(), &home.path().join("none.sqlite3"), &["refund"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no store yet at"),
        "{}",
        text(&out.stderr)
    );
    assert!(!home.path().join("none.sqlite3").exists());
    let out = bin(home.path())
        .args(["search", "--no-store", "refund"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--no-store"),
        "{}",
        text(&out.stderr)
    );

    let store = filled(home.path());
    Store::open(&store)
        .unwrap()
        .put_items(
            &[item("fb_old", "2019-05-01T00:00:00Z", "an old refund", &[])],
            Timestamp::now(),
        )
        .unwrap();
    assert_eq!(
        text(&search(home.path(), &store, &["old"]).stderr),
        "1 match in new and archived, done and snoozed left out\n"
    );
    let config = home.path().join("config/feedback-inbox/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "retention_days = 3650\n").unwrap();
    assert_eq!(
        text(&search(home.path(), &store, &["refund"]).stderr),
        "4 matches in new and archived, done and snoozed left out\n"
    );
    std::fs::write(&config, "retention_days = 365\n").unwrap();
    let out = search(home.path(), &store, &["old"]);
    assert_eq!(ok(&out).lines().count(), 1, "only the header");
    assert_eq!(
        text(&out.stderr),
        "0 matches in new and archived, done and snoozed left out\n"
    );
    assert!(
        Store::open(&store)
            .unwrap()
            .item("fb_old")
            .unwrap()
            .is_none()
    );
}

#[test]
fn search_leaves_out_done_and_snoozed_items_as_the_inbox_does_and_store_export_keeps_them() {
    use feedback_store::TriageChange;
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    {
        let mut s = Store::open(&store).unwrap();
        s.set_triage(
            &["fb_2".to_owned()],
            &TriageChange::Done(true),
            Timestamp::now(),
        )
        .unwrap();
        let later = Timestamp::now() + jiff::SignedDuration::from_hours(24);
        s.set_triage(
            &["fb_1".to_owned()],
            &TriageChange::Snooze(Some(later)),
            Timestamp::now(),
        )
        .unwrap();
    }
    let ids = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["--format", "jsonl", "--fields", "id"];
        all.extend(args);
        ok(&search(home.path(), &store, &all))
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].to_string())
            .collect()
    };
    assert_eq!(ids(&["refund"]), ["\"fb_3\""]);
    assert_eq!(ids(&["refund", "is:done"]), ["\"fb_2\""]);
    assert_eq!(ids(&["refund", "is:snoozed"]), ["\"fb_1\""]);
    assert_eq!(ids(&["--", "refund", "(is:done OR -is:done)"]).len(), 3);
    let out = search(home.path(), &store, &["refund"]);
    assert_eq!(
        text(&out.stderr),
        "1 match in new and archived, done and snoozed left out\n"
    );
    // `store export` writes every stored item.
    let out = bin(home.path())
        .arg("--store")
        .arg(&store)
        .args(["store", "export", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(ok(&out).lines().count(), 4);
}
