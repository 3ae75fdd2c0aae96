//! A key of one account on the store of another: nothing of either is written or removed before
//! the account is confirmed. Two simulators with different seeds are two accounts (their
//! projects differ); the store is filled from one (B) and then used with the other's (A) URL.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use std::process::Output;
use std::sync::Arc;
use std::time::Duration;

use feedback_api::{ApiKey, Client, RetryPolicy, Status};
use feedback_core::clock::{Clock, ManualClock};
use feedback_sim::{self as sim, DEMO_KEY, Route, SimConfig, SimHandle};
use feedback_store::{Shared, Store, StoreError, ViewQuery};
use feedback_sync::{Priority, SyncError, SyncSettings, Syncer};
use sync_support::{mirror, sim_ids, stored_ids};

/// One account: a simulator of `items` items whose projects come from `seed`, and a client.
struct Account {
    sim: SimHandle,
    client: Client,
    clock: Arc<ManualClock>,
}

async fn account(seed: u64, items: usize) -> Account {
    let anchor: jiff::Timestamp = common::ANCHOR.parse().unwrap();
    let clock = ManualClock::new(anchor);
    let sim = sim::start(SimConfig {
        items,
        rate_per_minute: 100_000,
        clock: clock.clone(),
        anchor: Some(anchor),
        seed,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let client = Client::builder(&sim.base_url(), ApiKey::parse(DEMO_KEY).unwrap())
        .unwrap()
        .clock(clock.clone())
        .retry_policy(RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(4),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    Account { sim, client, clock }
}

fn syncer(account: &Account, store: &Shared) -> Syncer {
    Syncer::new(
        account.client.clone(),
        store.clone(),
        account.clock.clone(),
        SyncSettings::default(),
    )
}

/// Account B's store, its `new` items mirrored from B's list (no details).
async fn store_of(b: &Account, path: &std::path::Path) -> Shared {
    let store = Shared::new(Store::open(path).unwrap()).unwrap();
    let sync = syncer(b, &store);
    sync.discovery().await.unwrap();
    mirror(&sync, &Status::New).await;
    store
}

fn item_count(store: &Shared) -> i64 {
    let count = store.read(|s| s.view_count(&ViewQuery::default()).unwrap());
    i64::try_from(count).unwrap()
}

fn is_wrong_account(result: &Result<impl std::fmt::Debug, SyncError>) -> bool {
    matches!(
        result,
        Err(SyncError::Store(StoreError::AccountMismatch { .. }))
    )
}

/// The inbox's preview asks for the detail of B's newest item with A's key: A answers 404,
/// which says nothing about B's item. The answer is the account error, and the item stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_404_from_another_accounts_key_removes_nothing_and_says_wrong_account() {
    let (a, b) = (account(11, 30).await, account(12, 40).await);
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(&b, &dir.path().join("store.sqlite3")).await;
    let before = stored_ids(&store, "new");
    assert_eq!(before, sim_ids(&b.sim, &Status::New));
    let result = syncer(&a, &store).detail(&before[0]).await;
    assert!(is_wrong_account(&result), "{result:?}");
    assert_eq!(stored_ids(&store, "new"), before);
    assert_eq!(a.sim.stats().route(Route::FeedbackItem), 1);
}

/// The reconcile walk re-reads the items it queued by their detail: with another account's key
/// every one answers 404. Nothing is removed; the walk stops at the account error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_re_reads_with_another_accounts_key_remove_nothing() {
    let (a, b) = (account(11, 30).await, account(12, 40).await);
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(&b, &dir.path().join("store.sqlite3")).await;
    let before = stored_ids(&store, "new");
    // B's last walk found every stored item missing from its range (queued for a re-read).
    let asked = b.clock.now().as_second() + 60;
    store.write(|s| {
        s.write(|tx| feedback_store::sync_state::queue_missing(tx, "new", None, None, asked))
            .unwrap();
    });
    let result = syncer(&a, &store).reconcile_page(Priority::User).await;
    assert!(is_wrong_account(&result), "{result:?}");
    assert_eq!(stored_ids(&store, "new"), before);
}

/// With the account's own key a 404 is proof: the item is removed (the check costs one
/// request when nothing else has confirmed the account yet).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_404_from_the_stores_own_account_removes_the_item() {
    let b = account(12, 40).await;
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(&b, &dir.path().join("store.sqlite3")).await;
    let before = stored_ids(&store, "new");
    let kept: Vec<_> = b
        .sim
        .state()
        .read()
        .items()
        .filter(|it| it.feedback.id.0 != before[0])
        .collect();
    b.sim.state().write().replace_items(kept);
    let result = syncer(&b, &store).detail(&before[0]).await;
    assert!(
        matches!(&result, Err(SyncError::Api(e)) if matches!(**e, feedback_api::ApiError::NotFound { .. })),
        "{result:?}"
    );
    assert_eq!(stored_ids(&store, "new"), before[1..].to_vec());
    assert_eq!(item_count(&store), i64::try_from(before.len() - 1).unwrap());
}

/// The whole inbox, 160 columns wide (its preview on), with A's key on B's store: it stops on
/// the account screen, and B's items are all still there after the preview's detail request
/// (a 404 from A) was sent and the inbox quit. (Whether the 404's handling ran before the quit
/// is up to the scheduler; the syncer's tests above pin that handling down.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbox_with_another_accounts_key_stops_and_removes_nothing() {
    use feedback_clipboard::MemoryClipboard;
    use feedback_tui::{self as tui, keymap::Keymap};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    let (a, b) = (account(11, 30).await, account(12, 40).await);
    let dir = tempfile::tempdir().unwrap();
    let store = store_of(&b, &dir.path().join("store.sqlite3")).await;
    let before = stored_ids(&store, "new");
    let (keys, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std::sync::mpsc::channel();
    let options = tui::Options {
        store: store.clone(),
        syncer: Arc::new(syncer(&a, &store)),
        keymap: Keymap::default(),
        refresh_seconds: 0,
        triage: feedback_config::triage::TriageSettings::default(),
        views: feedback_config::views::ViewsSettings::default(),
        preview: feedback_config::preview::PreviewSetting::default(),
        clipboard: Box::new(MemoryClipboard::default()),
        arrivals: None,
        waits: None,
        looks: feedback_config::looks::LooksSettings::default(),
        team: None,
        mail: None,
        templates: Vec::new(),
    };
    let task = tokio::spawn(async move {
        let mut terminal = Terminal::new(TestBackend::new(160, 40)).unwrap();
        tui::drive(&mut terminal, events, options, |buffer| {
            let _ = frame_tx.send(common::inbox::text(buffer));
        })
        .await
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut last = String::new();
    // The account screen, and the preview's request for B's newest item answered.
    while !(last.contains("another account") && a.sim.stats().route(Route::FeedbackItem) > 0) {
        assert!(
            std::time::Instant::now() < deadline,
            "no account screen after the detail request; last frame:\n{last}"
        );
        if let Ok(frame) = frames.recv_timeout(Duration::from_millis(50)) {
            last = frame;
        }
    }
    keys.send(Ok(Event::Key(KeyEvent::new(
        KeyCode::Char('q'),
        KeyModifiers::NONE,
    ))))
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(stored_ids(&store, "new"), before);
}

/// The binary in a clean environment under `home`, with `base_url`'s account and `store`.
fn run(home: &std::path::Path, base_url: &str, store: &std::path::Path, args: &[&str]) -> Output {
    common::command_on(home, base_url, store, args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every command that writes the store refuses another account's store (exit 2) and leaves it
/// as it was: `list --with-detail` (which stores the details it fetches) as `sync` does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_with_detail_refuses_another_accounts_store_as_sync_does() {
    let (a, b) = (account(11, 30).await, account(12, 40).await);
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("store.sqlite3");
    let store = store_of(&b, &path).await;
    let before = item_count(&store);
    drop(store);
    let url = a.sim.base_url();
    let list = [
        "list",
        "--limit",
        "5",
        "--format",
        "jsonl",
        "--fields",
        "id,metadata",
        "--with-detail",
    ];
    for args in [&["sync"][..], &list[..]] {
        let out = run(home.path(), &url, &path, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("another account"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        let store = Shared::new(Store::open(&path).unwrap()).unwrap();
        assert_eq!(item_count(&store), before, "{args:?}");
    }
}

/// With the store's own account, `list --with-detail` keeps the details it fetched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_with_detail_keeps_the_details_of_the_stores_own_account() {
    let b = account(12, 40).await;
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("store.sqlite3");
    drop(store_of(&b, &path).await);
    let out = run(
        home.path(),
        &b.sim.base_url(),
        &path,
        &[
            "list",
            "--limit",
            "3",
            "--fields",
            "id,metadata",
            "--with-detail",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let store = Store::open(&path).unwrap();
    let newest = sim_ids(&b.sim, &Status::New);
    for id in &newest[..3] {
        assert!(
            store.detail(id).unwrap().unwrap().detail_at.is_some(),
            "{id}"
        );
    }
    // The store's projects confirmed the items: no project list asked for.
    assert_eq!(
        b.sim.stats().route(Route::Projects),
        1,
        "the first sync's only"
    );
}
