//! A receiver with a store keeps the ids of the deliveries it acknowledged in the store, in the
//! transaction that stores what each brought: a redelivery to a new receiver on the same store
//! is recognised, a delivery whose write fails is answered 500 with neither its id nor its item
//! kept, and a delivery of another account's project has its id kept but not its item.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::sync::Arc;

use feedback_api::webhook::{DEFAULT_TOLERANCE, Secret, sign};
use feedback_core::clock::{ManualClock, SharedClock};
use feedback_store::Store;
use feedback_webhook::receiver::{self, Jsonl, Notice, ReceiverConfig, ReceiverHandle};
use feedback_webhook::seen::Seen;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

const SECRET: &str = "whsec_store_seen";

fn clock() -> Arc<ManualClock> {
    ManualClock::new(common::ANCHOR.parse().unwrap())
}

async fn receiver_on(
    dir: &Path,
    clock: SharedClock,
) -> (ReceiverHandle, UnboundedReceiver<Notice>) {
    let (tx, rx) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: Secret::new(SECRET.as_bytes()).unwrap(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::memory(),
        store: Some(Store::open(&dir.join("store.db")).unwrap()),
        jsonl: Some(Jsonl::File(dir.join("events.jsonl"))),
        clock,
    };
    (receiver::start(config, tx).await.unwrap(), rx)
}

fn body(id: &str, project: &str) -> Vec<u8> {
    format!(
        r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"{project}","projectName":"Acme","message":"Crash on start","email":"a@example.com","metadata":{{"builtin":{{"appVersion":"2.4.1"}},"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#
    )
    .into_bytes()
}

async fn deliver(url: &str, now: i64, body: &[u8]) -> u16 {
    let signature = sign(&Secret::new(SECRET.as_bytes()).unwrap(), now, body);
    common::raw_http()
        .post(url)
        .header("X-Service-Timestamp", now.to_string())
        .header("X-Service-Signature", signature)
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn journal_lines(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .count()
}

/// Changes the store's file behind its back, as a test's stand-in for a failing disk.
fn raw_sql(dir: &Path, sql: &str) {
    let conn = rusqlite::Connection::open(dir.join("store.db")).unwrap();
    conn.execute_batch(sql).unwrap();
}

fn store(dir: &Path) -> Store {
    Store::open(&dir.join("store.db")).unwrap()
}

#[tokio::test]
async fn a_redelivery_to_a_new_receiver_on_the_same_store_is_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let now = feedback_core::clock::Clock::now(&*clock).as_second();
    let (handle, mut notices) = receiver_on(dir.path(), clock.clone()).await;
    assert_eq!(
        deliver(&handle.url(), now, &body("fb_1", "prj_1")).await,
        204
    );
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    // Durable before the answer: the id and the item are in the store once it is answered.
    let stored = store(dir.path());
    assert!(stored.delivery_seen("fb_1").unwrap());
    assert!(stored.item("fb_1").unwrap().is_some());
    handle.shutdown().await;

    let (handle, mut notices) = receiver_on(dir.path(), clock.clone()).await;
    assert_eq!(
        deliver(&handle.url(), now + 60, &body("fb_1", "prj_1")).await,
        204
    );
    assert_eq!(notices.recv().await, Some(Notice::Duplicate("fb_1".into())));
    assert_eq!(journal_lines(dir.path()), 1, "recorded once");
    assert!(!dir.path().join("seen.txt").exists());
    handle.shutdown().await;
}

#[tokio::test]
async fn a_delivery_the_store_cannot_take_is_answered_500_and_neither_its_id_nor_item_kept() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let now = feedback_core::clock::Clock::now(&*clock).as_second();
    // The store refuses every id, as a full disk would.
    drop(store(dir.path()));
    raw_sql(
        dir.path(),
        "CREATE TRIGGER refuse BEFORE INSERT ON webhook_seen BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    );
    let (handle, mut notices) = receiver_on(dir.path(), clock.clone()).await;
    assert_eq!(
        deliver(&handle.url(), now, &body("fb_2", "prj_1")).await,
        500
    );
    // Its line is in the journal and it was reported; the retry is a duplicate in this process.
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Rejected { status: 500, .. })
    ));
    assert_eq!(
        deliver(&handle.url(), now + 60, &body("fb_2", "prj_1")).await,
        204
    );
    assert_eq!(notices.recv().await, Some(Notice::Duplicate("fb_2".into())));
    let stored = store(dir.path());
    assert!(!stored.delivery_seen("fb_2").unwrap());
    assert!(
        stored.item("fb_2").unwrap().is_none(),
        "the item rolled back with its id"
    );
    handle.shutdown().await;

    // Once the store takes writes again, a new receiver records the next redelivery.
    raw_sql(dir.path(), "DROP TRIGGER refuse;");
    let (handle, mut notices) = receiver_on(dir.path(), clock.clone()).await;
    assert_eq!(
        deliver(&handle.url(), now + 120, &body("fb_2", "prj_1")).await,
        204
    );
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    let stored = store(dir.path());
    assert!(stored.delivery_seen("fb_2").unwrap());
    assert!(stored.item("fb_2").unwrap().is_some());
    handle.shutdown().await;
}

#[tokio::test]
async fn another_accounts_delivery_has_its_id_kept_but_not_its_item() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let now = feedback_core::clock::Clock::now(&*clock).as_second();
    let project = feedback_api::Project {
        id: "prj_1".into(),
        name: "Acme".into(),
        slug: None,
        created_at: None,
    };
    store(dir.path()).check_account(&[project]).unwrap();
    let (handle, mut notices) = receiver_on(dir.path(), clock.clone()).await;
    assert_eq!(
        deliver(&handle.url(), now, &body("fb_x", "prj_other")).await,
        204
    );
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    assert_eq!(
        notices.recv().await,
        Some(Notice::OtherAccount("fb_x".into()))
    );
    let stored = store(dir.path());
    assert!(stored.delivery_seen("fb_x").unwrap());
    assert!(stored.item("fb_x").unwrap().is_none());
    handle.shutdown().await;
}
