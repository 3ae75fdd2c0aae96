//! Links from scripts, in a store in no team: `link ID… URL [--title]` keeps a ticket on every
//! item named (refusing anything but an http(s) address, and ids the store does not hold),
//! `unlink` removes it by its address, and `search` finds and prints them (`has:ticket`,
//! `ticket:TEXT`, `--fields links`).

use std::path::{Path, PathBuf};
use std::process::Output;

use super::item;
use super::webhook_support::{bin, text};
use feedback_api::Status;
use feedback_store::Store;
use jiff::Timestamp;

const TICKET: &str = "https://tracker.example/TICKET-26944";

fn filled(dir: &Path) -> PathBuf {
    let path = dir.join("s.sqlite3");
    let mut store = Store::open(&path).unwrap();
    let items = [
        item("fb_1", "2026-11-01T09:00:00Z", Status::New),
        item("fb_2", "2026-11-02T09:00:00Z", Status::New),
        item("fb_3", "2026-11-03T09:00:00Z", Status::New),
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

fn ids(home: &Path, store: &Path, query: &str) -> Vec<String> {
    let out = ok(&run(
        home,
        store,
        &["search", "--fields", "id", "--format", "jsonl", "--", query],
    ));
    let mut ids: Vec<String> = out
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap_or_else(|e| panic!("{e}: {l:?} of {out:?}"))["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_link_is_kept_on_every_item_named_found_by_search_and_unlinked_by_its_address() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    let out = ok(&run(
        home.path(),
        &store,
        &["link", "fb_1", "fb_2", TICKET, "--title", "Crash on start"],
    ));
    assert_eq!(
        out,
        "fb_1  done  links: TICKET-26944\nfb_2  done  links: TICKET-26944\n"
    );
    // Linked again from JSON: the same address is one link, with the new title.
    let out = ok(&run(
        home.path(),
        &store,
        &[
            "link",
            "--format",
            "json",
            "fb_1",
            "HTTPS://Tracker.Example/TICKET-26944",
            "--title",
            "Crash at launch",
        ],
    ));
    let reports: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let links = &reports[0]["links"];
    assert_eq!(links.as_array().unwrap().len(), 1, "{reports}");
    assert_eq!(links[0]["url"], TICKET);
    assert_eq!(links[0]["title"], "Crash at launch");
    assert_eq!(links[0]["by"], serde_json::Value::Null);
    assert_eq!(reports[0]["outcome"], "done");

    assert_eq!(ids(home.path(), &store, "has:ticket"), ["fb_1", "fb_2"]);
    assert_eq!(ids(home.path(), &store, "-has:ticket"), ["fb_3"]);
    assert_eq!(ids(home.path(), &store, "ticket:launch"), ["fb_1"]);
    assert_eq!(
        ids(home.path(), &store, "ticket:ticket-26944"),
        ["fb_1", "fb_2"]
    );
    let rows = ok(&run(
        home.path(),
        &store,
        &[
            "search", "id:fb_2", "--fields", "id,links", "--format", "jsonl",
        ],
    ));
    let row: serde_json::Value = serde_json::from_str(rows.trim()).unwrap();
    assert_eq!(row["links"][0]["url"], TICKET, "{row}");
    let table = ok(&run(
        home.path(),
        &store,
        &["search", "has:ticket", "--fields", "id,links"],
    ));
    assert!(table.contains("TICKET-26944"), "{table}");
    let csv = ok(&run(
        home.path(),
        &store,
        &[
            "search", "id:fb_1", "--fields", "id,links", "--format", "csv",
        ],
    ));
    assert!(csv.contains(TICKET), "{csv}");

    let out = ok(&run(home.path(), &store, &["unlink", "fb_2", TICKET]));
    assert_eq!(out, "fb_2  done\n");
    assert_eq!(ids(home.path(), &store, "has:ticket"), ["fb_1"]);
}

#[test]
fn only_an_http_address_after_stored_ids_is_linked_and_a_refusal_changes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let store = filled(home.path());
    for bad in [
        &["link", "fb_1", "javascript:alert(1)"][..],
        &["link", "fb_1", "file:///etc/passwd"],
        &["link", "fb_1", "https://x.example/a b"],
        &["link", TICKET],
        &["link", "fb_1"],
        &["link", TICKET, "fb_1", "https://x.example/2"],
        &["link", "fb_1", TICKET, "--title", "two\nlines"],
        &["link", "fb_1", "fb_9\u{1b}[2J", TICKET],
        &["unlink", "fb_1", "ftp://x.example/a"],
    ] {
        let out = run(home.path(), &store, bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(!err.contains('\u{1b}'), "{bad:?}: {err}");
    }
    let err = text(&run(home.path(), &store, &["link", "fb_1", "fb_9", TICKET]).stderr);
    assert!(err.contains("not in the local store: fb_9"), "{err}");
    let err = text(
        &run(
            home.path(),
            &store,
            &["link", "fb_1", "javascript:alert(1)"],
        )
        .stderr,
    );
    assert!(err.contains("http:// or https://"), "{err}");
    assert!(ids(home.path(), &store, "has:ticket").is_empty());
}
