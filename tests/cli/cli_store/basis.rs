//! `search` with a query that reads details (`version:`, `os:`, `locale:`, `meta.KEY:`,
//! `has:link`): the list endpoint brings no metadata, so the answer says on how many of the
//! items it is about the store holds details, and offers `--with-detail`.

use std::path::Path;

use super::item;
use super::webhook_support::{bin, text};
use feedback_api::{FeedbackDetail, Metadata, Status};
use feedback_store::Store;
use jiff::Timestamp;

/// 300 items, the newest 3 with details: two of version 3.10.0, one of 3.2.0. The 100 newest
/// are tagged `bug`.
fn three_of_300_with_details(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let start: Timestamp = "2026-10-01T00:00:00Z".parse().unwrap();
    let items: Vec<_> = (0..300)
        .map(|n| {
            let at = start + jiff::SignedDuration::from_mins(n);
            let mut it = item(&format!("fb_{n:03}"), &at.to_string(), Status::New);
            if n >= 200 {
                it.tags = vec!["bug".to_owned()];
            }
            it
        })
        .collect();
    store.put_items(&items, Timestamp::now()).unwrap();
    for (n, version) in [(299, "3.10.0"), (298, "3.2.0"), (297, "3.10.0")] {
        let mut metadata = Metadata::default();
        metadata
            .built_in
            .insert("appVersion".to_owned(), version.to_owned());
        let detail = FeedbackDetail {
            feedback: items[n].clone(),
            metadata,
            delivery: vec![],
        };
        store.put_detail(&detail, Timestamp::now()).unwrap();
    }
    path
}

fn ok(output: &std::process::Output) -> String {
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    text(&output.stdout)
}

fn search(home: &Path, store: &Path, args: &[&str]) -> std::process::Output {
    bin(home)
        .env("TZ", "UTC")
        .args(["search", "--store"])
        .arg(store)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_metadata_search_names_how_many_items_have_details_and_offers_with_detail() {
    let home = tempfile::tempdir().unwrap();
    let store = three_of_300_with_details(home.path());
    let out = search(home.path(), &store, &["version:3.10.0"]);
    assert_eq!(ok(&out).lines().count(), 3, "a header and two rows");
    let err = text(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "2 matches in new and archived, done and snoozed left out · based on 3 of 300 items with details",
        "{err}"
    );
    assert!(
        lines[1].contains("--with-detail fetches the 297 missing details"),
        "{err}"
    );
    // The items a query is about are those its other parts select.
    let out = search(home.path(), &store, &["tag:bug -os:17"]);
    let err = text(&out.stderr);
    assert!(
        err.starts_with(
            "100 matches in new and archived, done and snoozed left out · based on 3 of 100 items with details\n"
        ),
        "{err}"
    );
    // Other formats keep stdout for the data and say it on stderr.
    let out = search(home.path(), &store, &["--format", "jsonl", "has:link"]);
    assert_eq!(ok(&out), "");
    let err = text(&out.stderr);
    assert!(
        err.starts_with("note: based on 3 of 300 items with details\n"),
        "{err}"
    );
    // A query the list's rows answer alone says nothing of details.
    let out = search(home.path(), &store, &["tag:bug"]);
    assert_eq!(
        text(&out.stderr),
        "100 matches in new and archived, done and snoozed left out\n"
    );
}

#[test]
fn with_every_detail_stored_the_answer_says_so_without_a_hint() {
    let home = tempfile::tempdir().unwrap();
    let store = three_of_300_with_details(home.path());
    let out = search(home.path(), &store, &["version:3.2.0", "message"]);
    let err = text(&out.stderr);
    assert!(
        err.starts_with("1 match in new and archived, done and snoozed left out · based on 3 of 300 items with details\nhint:"),
        "{err}"
    );
    let out = search(
        home.path(),
        &store,
        &["version:3.2.0", "--since", "2026-10-01T04:57"],
    );
    assert_eq!(
        text(&out.stderr),
        "1 match in new and archived, done and snoozed left out · based on 3 of 3 items with details\n"
    );
}
