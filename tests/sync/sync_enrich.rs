//! Enrichment against the simulator: the details of a view's items, fetched newest first in
//! the background, paced by the budget and never under its floor, surviving 429 and 5xx, and
//! resumed after a restart without fetching anything twice.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use common::rig;
use feedback_api::Status;
use feedback_core::clock::Clock;
use feedback_core::query::Basis;
use feedback_sim::{FaultKind, Route};
use feedback_store::{Shared, Store, ViewQuery};
use feedback_sync::{SyncError, SyncSettings, Syncer};
use sync_support::{file_syncer, memory_syncer, mirror};

fn new_items() -> ViewQuery {
    ViewQuery::listed(Some("new"))
}

fn detail_requests(r: &common::Rig) -> u64 {
    r.sim.stats().route(Route::FeedbackItem)
}

/// Steps until the queue is empty; errors are counted and the step tried again, as the
/// inbox's background loop does after its backoff.
async fn drain(syncer: &Syncer) -> (u32, u32) {
    let (mut requests, mut errors) = (0, 0);
    loop {
        match syncer.enrich_step().await {
            Ok(Some(step)) => requests += step.requests,
            Ok(None) => return (requests, errors),
            Err(SyncError::Api(_)) => errors += 1,
            Err(other) => panic!("{other}"),
        }
        assert!(errors < 20, "it should get through");
    }
}

fn keys_with_detail(shared: &Shared, view: &ViewQuery) -> Vec<i64> {
    shared.read(|s| {
        let keys = s.view_keys(view, None).unwrap();
        keys.into_iter()
            .filter(|k| {
                let item = &s.items(&[*k]).unwrap()[0];
                s.detail(item.feedback.id.as_str())
                    .unwrap()
                    .unwrap()
                    .detail_at
                    .is_some()
            })
            .collect()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_view_is_enriched_newest_first_and_resumes_after_a_restart() {
    let r = rig(160, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let view = new_items();
    let (total, first_five) = {
        let (syncer, shared) = file_syncer(&r, &path, SyncSettings::default());
        mirror(&syncer, &Status::New).await;
        let queued = shared
            .write(|s| s.queue_details(&view, Basis::Metadata))
            .unwrap();
        let total = shared.read(|s| s.view_count(&view)).unwrap();
        assert_eq!((queued.added, queued.pending), (total, total));
        // Queueing again adds nothing.
        assert_eq!(
            shared
                .write(|s| s.queue_details(&view, Basis::Metadata))
                .unwrap()
                .added,
            0
        );
        for _ in 0..5 {
            assert_eq!(syncer.enrich_step().await.unwrap().unwrap().requests, 1);
        }
        let newest: Vec<i64> = shared.read(|s| s.view_keys(&view, Some(5))).unwrap();
        assert_eq!(keys_with_detail(&shared, &view), newest, "newest first");
        let coverage = shared.read(|s| s.detail_coverage(&view)).unwrap();
        assert_eq!((coverage.with_detail, coverage.total), (5, total));
        (total, newest)
    };
    // A restart: a new store handle and syncer over the same file continue the queue.
    let (syncer, shared) = file_syncer(&r, &path, SyncSettings::default());
    assert_eq!(shared.read(Store::queued_details).unwrap(), total - 5);
    let (requests, errors) = drain(&syncer).await;
    assert_eq!((u64::from(requests), errors), (total - 5, 0));
    assert_eq!(detail_requests(&r), total, "no detail fetched twice");
    assert_eq!(keys_with_detail(&shared, &view).len() as u64, total);
    assert!(keys_with_detail(&shared, &view).starts_with(&first_five));
    assert!(syncer.enrich_step().await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enrichment_keeps_the_floor_and_survives_429_and_5xx() {
    let r = rig(120, 10).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let view = ViewQuery::listed(Some("new"));
    let queued = shared
        .write(|s| s.queue_details(&view, Basis::Metadata))
        .unwrap()
        .pending;
    assert!(queued > 30, "{queued}");
    r.sim
        .faults()
        .add(Route::FeedbackItem, FaultKind::Status(503), Some(3));
    r.sim.faults().add(
        Route::FeedbackItem,
        FaultKind::RateLimited(Some(2)),
        Some(2),
    );
    let mut fetched = 0;
    let mut errors = 0;
    loop {
        match syncer.enrich_step().await {
            Ok(Some(step)) => {
                fetched += step.requests;
                // 20% of 10: two requests always stay for the user.
                let rate = syncer.rate_limit();
                assert!(rate.remaining.unwrap() >= 2, "{rate:?}");
            }
            Ok(None) => break,
            Err(SyncError::Api(_)) => errors += 1,
            Err(other) => panic!("{other}"),
        }
        assert!(errors < 20);
    }
    assert_eq!(u64::from(fetched), queued);
    assert_eq!(shared.read(Store::queued_details).unwrap(), 0);
    let coverage = shared.read(|s| s.detail_coverage(&view)).unwrap();
    assert_eq!(coverage.with_detail, coverage.total);
    assert!(!r.clock.sleeps().is_empty(), "it waited for the window");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_detail_fetched_another_way_leaves_the_queue_unfetched_again() {
    let r = rig(60, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let view = new_items();
    let queued = shared
        .write(|s| s.queue_details(&view, Basis::Metadata))
        .unwrap()
        .pending;
    let keys = shared.read(|s| s.view_keys(&view, Some(3))).unwrap();
    for key in &keys {
        let id = shared.read(|s| s.items(&[*key]).unwrap()[0].feedback.id.clone());
        syncer.detail(id.as_str()).await.unwrap();
    }
    let before = detail_requests(&r);
    let (requests, _) = drain(&syncer).await;
    assert_eq!(u64::from(requests), queued - 3);
    assert_eq!(detail_requests(&r) - before, queued - 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cleared_queue_sends_nothing() {
    let r = rig(60, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let queued = shared
        .write(|s| s.queue_details(&new_items(), Basis::Metadata))
        .unwrap()
        .pending;
    assert!(queued > 0);
    assert_eq!(shared.write(Store::clear_queue).unwrap(), queued);
    assert!(syncer.enrich_step().await.unwrap().is_none());
    assert_eq!(detail_requests(&r), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_item_whose_detail_cannot_be_had_leaves_the_queue_and_the_rest_go_on() {
    let r = rig(40, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let view = new_items();
    let queued = shared
        .write(|s| s.queue_details(&view, Basis::Metadata))
        .unwrap()
        .pending;
    // The first detail's body is not JSON: asking again would not help.
    r.sim
        .faults()
        .add(Route::FeedbackItem, FaultKind::Malformed, Some(1));
    let (requests, errors) = drain(&syncer).await;
    assert_eq!((u64::from(requests), errors), (queued, 0));
    let coverage = shared.read(|s| s.detail_coverage(&view)).unwrap();
    assert_eq!(
        coverage.with_detail,
        queued - 1,
        "all but the malformed one"
    );
    assert_eq!(shared.read(Store::queued_details).unwrap(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_error_parks_its_item_while_the_others_go_on_then_it_is_tried_again() {
    let r = rig(40, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let view = new_items();
    let queued = shared
        .write(|s| s.queue_details(&view, Basis::Metadata))
        .unwrap()
        .pending;
    let newest = shared.read(|s| s.view_keys(&view, Some(1))).unwrap();
    // Every try of the first detail fails (the client's own retries included).
    let tries = feedback_api::RetryPolicy::default().max_tries;
    r.sim
        .faults()
        .add(Route::FeedbackItem, FaultKind::Status(500), Some(tries));
    let (requests, errors) = drain(&syncer).await;
    assert_eq!((u64::from(requests), errors), (queued, 0));
    // The parked one still waits; the rest are done.
    assert_eq!(shared.read(Store::queued_details).unwrap(), 1);
    assert_eq!(keys_with_detail(&shared, &view).len() as u64, queued - 1);
    assert!(!keys_with_detail(&shared, &view).contains(&newest[0]));
    // After the park, it is fetched.
    r.clock.advance(feedback_sync::ENRICH_PARK);
    assert_eq!(drain(&syncer).await, (1, 0));
    assert_eq!(keys_with_detail(&shared, &view).len() as u64, queued);
}

/// `has:link` rests on delivery links, which only a detail brings: items whose metadata a
/// webhook delivery brought are queued and fetched too, and stay queued until the detail is in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn items_queued_for_their_links_are_fetched_even_with_their_metadata_known() {
    let r = rig(30, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let view = new_items();
    let total = shared.read(|s| s.view_count(&view)).unwrap();
    // Metadata known for every item (as a webhook delivery brings it), no delivery links.
    let items: Vec<_> = r.sim.state().read().items().collect();
    for d in &items {
        let sighting = feedback_store::Sighting {
            feedback: &d.feedback,
            listed: None,
            metadata: Some(&d.metadata),
            delivery: None,
        };
        shared.write(|s| s.put(&[sighting], r.clock.now())).unwrap();
    }
    let for_metadata = shared
        .write(|s| s.queue_details(&view, Basis::Metadata))
        .unwrap();
    assert_eq!(for_metadata.pending, 0, "their metadata is known");
    let for_links = shared
        .write(|s| s.queue_details(&view, Basis::Delivery))
        .unwrap();
    assert_eq!((for_links.added, for_links.pending), (total, total));
    let (requests, errors) = drain(&syncer).await;
    assert_eq!((u64::from(requests), errors), (total, 0));
    let coverage = shared.read(|s| s.detail_coverage(&view)).unwrap();
    assert_eq!(coverage.with_detail, total);
    assert_eq!(shared.read(Store::queued_details).unwrap(), 0);
}
