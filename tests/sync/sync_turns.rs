//! Turn-taking against the simulator: a background request in flight (a list page or a
//! re-read, waiting out a retry's backoff) gives way to the user at once, and writes nothing.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use std::time::Duration;

use common::rig;
use feedback_api::Status;
use feedback_sync::{Priority, SyncSettings};
use sync_support::{mirror, set_status, sim_ids, stored_ids, stored_status};

/// A syncer whose client runs on the real clock with a minute's retry backoff (a 503 makes it
/// wait), and a counter of its waits.
fn slow_retry_syncer(
    r: &common::Rig,
    settings: SyncSettings,
) -> (
    feedback_sync::Syncer,
    feedback_store::Shared,
    std::sync::Arc<std::sync::Mutex<usize>>,
) {
    use feedback_api::{ApiKey, Client, RetryPolicy, Wait};
    use std::sync::{Arc, Mutex};
    let waits = Arc::new(Mutex::new(0_usize));
    let seen = Arc::clone(&waits);
    let client = Client::builder(
        &r.sim.base_url(),
        ApiKey::parse(feedback_sim::DEMO_KEY).unwrap(),
    )
    .unwrap()
    .retry_policy(RetryPolicy {
        base_delay: Duration::from_secs(60),
        max_delay: Duration::from_secs(60),
        ..RetryPolicy::default()
    })
    .on_wait(Arc::new(move |_: &Wait| *seen.lock().unwrap() += 1))
    .build()
    .unwrap();
    let shared =
        feedback_store::Shared::new(feedback_store::Store::open_memory().unwrap()).unwrap();
    let syncer = feedback_sync::Syncer::new(client, shared.clone(), r.clock.clone(), settings);
    (syncer, shared, waits)
}

async fn wait_for_a_wait(waits: &std::sync::Mutex<usize>) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while *waits.lock().unwrap() == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the background never waited"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_re_read_in_a_retry_wait_gives_way_to_the_user_at_once() {
    use feedback_sim::{FaultKind, Route};
    let r = rig(300, 100_000).await;
    let (syncer, shared, waits) = slow_retry_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let new = sim_ids(&r.sim, &Status::New);
    set_status(&r.sim, std::slice::from_ref(&new[50]), &Status::Archived);
    r.clock.advance(Duration::from_secs(60));
    r.sim
        .faults()
        .add(Route::FeedbackItem, FaultKind::Status(503), Some(1));
    let background = {
        let syncer = syncer.clone();
        tokio::spawn(async move { syncer.reconcile_page(Priority::Background).await })
    };
    wait_for_a_wait(&waits).await;
    tokio::time::timeout(Duration::from_secs(10), syncer.restart(&Status::Archived))
        .await
        .expect("the user waited for the background's re-read")
        .unwrap();
    let report = tokio::time::timeout(Duration::from_secs(10), background)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(report.changed, 0);
    // Still queued: the next step re-reads it (now without a fault).
    assert_eq!(stored_status(&shared, &new[50]), "new");
    syncer.reconcile_page(Priority::User).await.unwrap();
    assert_eq!(stored_status(&shared, &new[50]), "archived");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_page_in_a_retry_wait_gives_way_to_the_user_at_once() {
    use feedback_sim::{FaultKind, Route};
    let r = rig(300, 100_000).await;
    let settings = SyncSettings {
        head_page_cap: 1,
        ..SyncSettings::default()
    };
    let (syncer, shared, waits) = slow_retry_syncer(&r, settings);
    syncer.head(&Status::New, Priority::User).await.unwrap();
    let stored = stored_ids(&shared, "new").len();
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Status(503), Some(1));
    let background = {
        let syncer = syncer.clone();
        tokio::spawn(async move {
            syncer
                .backfill_page(&Status::New, Priority::Background)
                .await
        })
    };
    wait_for_a_wait(&waits).await;
    // The user's operation gets the turn without waiting out the background's backoff.
    tokio::time::timeout(Duration::from_secs(10), syncer.restart(&Status::Archived))
        .await
        .expect("the user waited for the background's retry")
        .unwrap();
    let yielded = tokio::time::timeout(Duration::from_secs(10), background)
        .await
        .unwrap()
        .unwrap()
        .unwrap()
        .unwrap();
    // Nothing of the dropped page was written; the gap is still there for the next step.
    assert_eq!(yielded.added, 0);
    assert_eq!(stored_ids(&shared, "new").len(), stored);
    assert!(!syncer.state(&Status::New).unwrap().complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_automatic_refresh_keeps_the_budget_floor() {
    use feedback_tui::action::SyncJob;
    use feedback_tui::runtime::SyncPort;

    // Ten requests a minute: 20% of it, two, always stay for what the user asks.
    let r = rig(300, 10).await;
    let (syncer, _shared) = sync_support::memory_syncer(&r, SyncSettings::default());
    for _ in 0..12 {
        SyncPort::run(&syncer, SyncJob::Refresh(Status::New))
            .await
            .unwrap();
        let rate = syncer.rate_limit();
        assert!(rate.remaining.unwrap() >= 2, "{rate:?}");
    }
    assert!(
        !r.clock.sleeps().is_empty(),
        "it waited for the window to reset"
    );
    assert_eq!(r.sim.stats().status(429), 0);
}
