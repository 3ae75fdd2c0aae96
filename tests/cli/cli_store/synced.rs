//! `store info` after a real sync against the simulator: how far each status is mirrored and
//! when it last synced; `store forget` refuses while a sync holds the store.

use std::path::Path;
use std::process::Output;

use feedback_sim::DEMO_KEY;
use feedback_store::{Shared, Store};
use feedback_sync::{SyncSettings, Syncer};

use super::common::rig;
use super::webhook_support::{bin, text};

/// The binary against the simulator at `base_url`, with `store` as its store.
fn against(base_url: &str, home: &Path, store: &Path, args: &[&str]) -> Output {
    bin(home)
        .env("TZ", "UTC")
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", DEMO_KEY)
        .arg("--store")
        .arg(store)
        .args(args)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn info_says_how_far_each_status_is_mirrored_and_when_it_synced() {
    let r = rig(150, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let base = r.sim.base_url();
    let out = against(&base, home.path(), &store, &["sync", "--status", "new"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = against(
        &base,
        home.path(),
        &store,
        &["store", "info", "--format", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    let new = &report["statuses"][0];
    assert_eq!(new["status"], "new");
    assert!(new["stored"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(new["complete"], true, "{report}");
    assert_eq!(new["pending_walks"], 0, "{report}");
    assert!(new["synced_at"].is_string(), "{report}");
    let archived = &report["statuses"][1];
    assert_eq!(archived["status"], "archived");
    assert_eq!(archived["complete"], false, "{report}");
    assert!(archived["synced_at"].is_null(), "{report}");

    let out = against(&base, home.path(), &store, &["store", "info"]);
    let shown = text(&out.stdout);
    let line = |status: &str| {
        shown
            .lines()
            .find(|l| l.starts_with(&format!("  {status} ")))
            .unwrap()
            .to_owned()
    };
    assert!(
        line("new").contains(" stored; mirrored to its end, synced "),
        "{shown}"
    );
    assert!(
        line("archived").ends_with("0 stored; never synced"),
        "{shown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forget_refuses_while_a_sync_holds_the_store() {
    let r = rig(10, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let shared = Shared::new(Store::open(&store).unwrap()).unwrap();
    let syncer = Syncer::new(
        r.client.clone(),
        shared,
        r.clock.clone(),
        SyncSettings::default(),
    );
    let session = syncer.session().unwrap();
    let out = against(
        &r.sim.base_url(),
        home.path(),
        &store,
        &["store", "forget", "--yes"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("a sync is running"),
        "{}",
        text(&out.stderr)
    );
    assert!(store.exists());
    drop(session);
    drop(syncer);
    let out = against(
        &r.sim.base_url(),
        home.path(),
        &store,
        &["store", "forget", "--yes"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!store.exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_sync_fetches_what_is_new_first_and_a_bad_query_costs_no_request() {
    let r = rig(150, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let base = r.sim.base_url();
    let bad = against(
        &base,
        home.path(),
        &store,
        &["search", "--sync", "colour:red"],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(r.sim.stats().requests, 0);
    assert!(!store.exists());

    let args = ["search", "--sync", "--format", "jsonl", "status:new"];
    let out = against(&base, home.path(), &store, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let found = text(&out.stdout).lines().count();
    let by_status = Store::open(&store).unwrap().info().unwrap().by_status;
    assert_eq!(u64::try_from(found).unwrap(), by_status["new"]);
    assert!(found > 0 && by_status["archived"] > 0);
    let err = text(&out.stderr);
    let total: u64 = by_status.values().sum();
    assert!(
        err.starts_with(&format!("synced: {total} items added in ")),
        "{err}"
    );

    let again = against(&base, home.path(), &store, &args);
    assert_eq!(text(&again.stdout).lines().count(), found);
    assert!(
        // One head page per status: the catalog read by the first run is still fresh.
        text(&again.stderr).starts_with("synced: 0 items added in 2 requests"),
        "{}",
        text(&again.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_sync_while_another_sync_runs_warns_and_searches_what_is_stored() {
    let r = rig(10, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let shared = Shared::new(Store::open(&store).unwrap()).unwrap();
    let syncer = Syncer::new(
        r.client.clone(),
        shared,
        r.clock.clone(),
        SyncSettings::default(),
    );
    let session = syncer.session().unwrap();
    let out = against(
        &r.sim.base_url(),
        home.path(),
        &store,
        &["search", "--sync", "status:new"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("another sync is running"), "{err}");
    // Nothing mirrored: the results are partial, and it says so.
    assert!(
        err.contains("note: new: partly mirrored — run `feedback-inbox sync`"),
        "{err}"
    );
    assert!(
        err.ends_with("0 matches, done and snoozed left out\n"),
        "{err}"
    );
    assert_eq!(r.sim.stats().requests, 0);
    drop(session);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn info_of_a_partial_mirror_says_how_far_back_it_reaches() {
    let r = rig(450, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let settings = SyncSettings {
        head_page_cap: 1,
        ..SyncSettings::default()
    };
    let shared = Shared::new(Store::open(&store).unwrap()).unwrap();
    let syncer = Syncer::new(r.client.clone(), shared.clone(), r.clock.clone(), settings);
    syncer
        .head(&feedback_api::Status::New, feedback_sync::Priority::User)
        .await
        .unwrap();
    let state = syncer.state(&feedback_api::Status::New).unwrap();
    let (newest, back) = (state.head_at.unwrap(), state.deep_at.unwrap());
    drop(syncer);
    drop(shared);
    let base = r.sim.base_url();
    let out = against(
        &base,
        home.path(),
        &store,
        &["store", "info", "--format", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    let new = &report["statuses"][0];
    assert_eq!(new["complete"], false, "{report}");
    assert_eq!(new["newest_at"], newest.to_string(), "{report}");
    assert_eq!(new["back_to"], back.to_string(), "{report}");
    let out = against(&base, home.path(), &store, &["store", "info"]);
    let shown = text(&out.stdout);
    let utc = jiff::tz::TimeZone::UTC;
    let span = format!(
        "partly mirrored (1 walk to go: newest {}, back to {})",
        feedback_core::timefmt::local(newest, &utc),
        feedback_core::timefmt::local(back, &utc)
    );
    assert!(shown.contains(&span), "{span} in {shown}");
}

/// A store `quick_check` finds damaged (here its header page) is not synced into: SQLite reads
/// and writes past the damage, and the rows a sync wrote over it would bury it. The file is left as it was for a copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_refuses_a_store_with_a_damaged_header_page_and_says_what_to_do() {
    let r = rig(400, 100_000).await;
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    let base = r.sim.base_url();
    let out = against(&base, home.path(), &store, &["sync", "--status", "new"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    {
        // Everything in the main file, so the damage below is not covered by the log.
        let conn = rusqlite::Connection::open(&store).unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
    }
    let mut bytes = std::fs::read(&store).unwrap();
    // The header's count of free pages (bytes 36..40 of page 1) no longer matches the free
    // list: every read and write still works, only `quick_check` sees it.
    bytes[36..40].copy_from_slice(&5u32.to_be_bytes());
    std::fs::write(&store, &bytes).unwrap();

    let out = against(&base, home.path(), &store, &["sync", "--status", "new"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("is damaged, so nothing was synced into it (quick_check: "),
        "{err}"
    );
    assert!(err.contains("`feedback-inbox store forget`"), "{err}");
    assert_eq!(
        std::fs::read(&store).unwrap(),
        bytes,
        "the damaged store is left as it was"
    );
}
