//! Head walks, gaps and backfill against the simulator over loopback: request counts of a first
//! mirror and of a re-sync, walks interrupted by errors and resumed, rejected and repeated
//! cursors, 5xx and 429 mid-sync, pacing without a 429.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use common::rig;
use feedback_api::{ApiError, Status};
use feedback_sim::submit::Submitter;
use feedback_sim::{FaultKind, Route};
use feedback_sync::{Priority, SyncError, SyncSettings};
use std::time::{Duration, Instant};
use sync_support::{list_requests, memory_syncer, mirror, pages, sim_ids, stored_ids};

const N: usize = 430;

fn capped(pages: u32) -> SyncSettings {
    SyncSettings {
        head_page_cap: pages,
        ..SyncSettings::default()
    }
}

/// `k` new submissions, a second apart (so the list's order is by time alone).
fn submit(r: &common::Rig, submitter: &mut Submitter, k: usize) {
    for _ in 0..k {
        r.clock.advance(std::time::Duration::from_secs(1));
        submitter.submit();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_mirror_costs_one_request_per_hundred_items_per_status() {
    for cap in [1, 10] {
        let r = rig(N, 100_000).await;
        let (syncer, shared) = memory_syncer(&r, capped(cap));
        let (new, archived) = (
            sim_ids(&r.sim, &Status::New),
            sim_ids(&r.sim, &Status::Archived),
        );
        assert!(
            new.len() > 200 && archived.len() > 100,
            "{} {}",
            new.len(),
            archived.len()
        );
        for status in [Status::New, Status::Archived] {
            let report = mirror(&syncer, &status).await;
            assert_eq!(report.added, sim_ids(&r.sim, &status).len());
            let state = syncer.state(&status).unwrap();
            assert!(state.complete, "{state:?}");
            assert_eq!(state.pending_walks, 0);
            assert!(state.synced_at.is_some());
        }
        assert_eq!(
            list_requests(&r.sim),
            pages(new.len()) + pages(archived.len())
        );
        assert_eq!(stored_ids(&shared, "new"), new);
        assert_eq!(stored_ids(&shared, "archived"), archived);
        // Mirrored to the end: backfill has nothing left, and asks nothing.
        assert!(
            syncer
                .backfill_page(&Status::New, Priority::User)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            list_requests(&r.sim),
            pages(new.len()) + pages(archived.len())
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_with_k_new_items_costs_ceil_k_over_100_plus_at_most_one() {
    let r = rig(N, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let mut submitter = Submitter::new(r.sim.state().clone(), 5, None);
    for (k, cost) in [(0, 1), (30, 1), (100, 2), (150, 2), (200, 3)] {
        submit(&r, &mut submitter, k);
        let before = list_requests(&r.sim);
        let report = syncer.head(&Status::New, Priority::User).await.unwrap();
        assert_eq!(list_requests(&r.sim) - before, cost, "k = {k}");
        assert_eq!(u64::from(report.requests), cost);
        assert_eq!(report.added, k);
        assert!(report.reached_end);
        assert!(syncer.state(&Status::New).unwrap().complete);
        assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_head_walk_leaves_a_gap_that_the_next_sync_fills() {
    let r = rig(N, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, capped(2));
    mirror(&syncer, &Status::New).await;
    let mut submitter = Submitter::new(r.sim.state().clone(), 6, None);
    submit(&r, &mut submitter, 450);
    // The cap stops the walk after two pages: the rest is a gap, not a hole.
    let report = syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!(
        (report.added, report.requests, report.reached_end),
        (200, 2, false)
    );
    let state = syncer.state(&Status::New).unwrap();
    assert_eq!(state.pending_walks, 1);
    assert!(!state.complete);
    // A server failing mid-gap: an error, the gap kept as it was.
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Status(500), None);
    let failed = syncer.backfill_page(&Status::New, Priority::User).await;
    assert!(
        matches!(failed, Err(SyncError::Api(ref e)) if matches!(**e, ApiError::Server { status: 500, .. })),
        "{failed:?}"
    );
    assert_eq!(syncer.state(&Status::New).unwrap().pending_walks, 1);
    r.sim.faults().clear();
    let before = list_requests(&r.sim);
    while syncer
        .backfill_page(&Status::New, Priority::User)
        .await
        .unwrap()
        .is_some()
    {}
    // 250 items left in the gap: three pages, the last reaching what was stored.
    assert_eq!(list_requests(&r.sim) - before, 3);
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert!(syncer.state(&Status::New).unwrap().complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_cursor_restarts_the_walk_from_the_head_without_duplicate_or_gap() {
    let r = rig(N, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, capped(2));
    syncer.head(&Status::New, Priority::User).await.unwrap();
    let body = r#"{"error":"invalid_cursor","message":"cursor keys rotated"}"#.to_owned();
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        Some(1),
    );
    let before = list_requests(&r.sim);
    let first = syncer
        .backfill_page(&Status::New, Priority::User)
        .await
        .unwrap()
        .unwrap();
    // The rejected request, then the head page again (nothing new on it).
    assert_eq!(first.requests, 2);
    assert_eq!(first.added, 0);
    while syncer
        .backfill_page(&Status::New, Priority::User)
        .await
        .unwrap()
        .is_some()
    {}
    let new = sim_ids(&r.sim, &Status::New);
    assert_eq!(stored_ids(&shared, "new"), new);
    // The rejected request, then every page from the top: the two already stored once more.
    assert_eq!(list_requests(&r.sim) - before, 1 + pages(new.len()));
    assert!(syncer.state(&Status::New).unwrap().complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_cursor_or_a_server_stuck_on_a_page_is_an_error_not_a_loop() {
    for fault in [FaultKind::RepeatCursor, FaultKind::FreshCursor] {
        let r = rig(N, 100_000).await;
        let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
        r.sim.faults().add(Route::FeedbackList, fault.clone(), None);
        let failed = syncer.head(&Status::New, Priority::User).await;
        assert!(
            matches!(failed, Err(SyncError::Api(ref e)) if matches!(**e, ApiError::Paging { .. })),
            "{fault:?}: {failed:?}"
        );
        // The first page (no cursor) is real and stored; the second was refused.
        assert_eq!(list_requests(&r.sim), 2, "{fault:?}");
        assert_eq!(stored_ids(&shared, "new").len(), 100);
        let again = syncer.backfill_page(&Status::New, Priority::User).await;
        assert!(again.is_err(), "{fault:?}");
        r.sim.faults().clear();
        while syncer
            .backfill_page(&Status::New, Priority::User)
            .await
            .unwrap()
            .is_some()
        {}
        assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_or_429_mid_sync_is_retried_and_the_mirror_completes() {
    let r = rig(N, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::Status(503), 1, Some(1));
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::RateLimited(Some(2)),
        2,
        Some(1),
    );
    mirror(&syncer, &Status::New).await;
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert_eq!(r.sim.stats().status(503), 1);
    assert_eq!(r.sim.stats().status(429), 1);
    assert!(syncer.state(&Status::New).unwrap().complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_paced_by_the_budget_gets_no_429() {
    let r = rig(900, 3).await;
    let (syncer, shared) = memory_syncer(&r, capped(1));
    for status in [Status::New, Status::Archived] {
        mirror(&syncer, &status).await;
        assert_eq!(
            stored_ids(&shared, status.as_str()),
            sim_ids(&r.sim, &status)
        );
    }
    assert!(list_requests(&r.sim) > 6);
    assert_eq!(r.sim.stats().status(429), 0);
    assert!(
        !r.clock.sleeps().is_empty(),
        "the client waited for the window"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_account_is_mirrored_with_one_request_per_status() {
    let r = rig(0, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    for status in [Status::New, Status::Archived] {
        let report = mirror(&syncer, &status).await;
        assert_eq!(
            (report.added, report.requests, report.reached_end),
            (0, 1, true)
        );
        let state = syncer.state(&status).unwrap();
        assert!(state.complete && state.synced_at.is_some(), "{state:?}");
        assert!(
            syncer
                .backfill_page(&status, Priority::Background)
                .await
                .unwrap()
                .is_none()
        );
    }
    assert_eq!(list_requests(&r.sim), 2);
    assert!(stored_ids(&shared, "new").is_empty());
    // The first item to arrive is found by the next head sync.
    let mut submitter = Submitter::new(r.sim.state().clone(), 7, None);
    submit(&r, &mut submitter, 1);
    let report = syncer.head(&Status::New, Priority::User).await.unwrap();
    // Its project is one the store has never seen: discovery confirms it first.
    assert_eq!((report.added, report.requests), (1, 3 + 1));
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_top_page_with_no_readable_item_still_leaves_a_gap_not_a_hole() {
    let r = rig(N, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    let body =
        r#"{"data":[{"message":"no id"},{"status":"new"}],"next_cursor":"not-a-real-cursor"}"#;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body {
            status: 200,
            body: body.to_owned(),
        },
        Some(1),
    );
    let report = syncer.head(&Status::New, Priority::User).await.unwrap();
    // The odd page, the server rejecting its cursor, then the list from the top.
    assert!(report.reached_end, "{report:?}");
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert!(syncer.state(&Status::New).unwrap().complete);
    // The head is known: the next sync costs one request.
    let before = list_requests(&r.sim);
    syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!(list_requests(&r.sim) - before, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_walk_stops_at_the_retention_cutoff_and_keeps_nothing_older() {
    let r = rig(N, 100_000).await;
    let now = feedback_core::clock::Clock::now(&*r.clock);
    let all = {
        let data = r.sim.state().read();
        data.items()
            .filter(|it| it.feedback.status == Status::New)
            .map(|it| (it.feedback.id.0.clone(), it.feedback.received_at))
            .collect::<Vec<_>>()
    };
    // Keep about the newest 150 new items.
    let cutoff = all[150].1;
    let keep = std::time::Duration::try_from(now.duration_since(cutoff)).unwrap();
    let settings = SyncSettings {
        retention: Some(keep),
        ..SyncSettings::default()
    };
    let (syncer, shared) = memory_syncer(&r, settings);
    mirror(&syncer, &Status::New).await;
    let kept: Vec<String> = all
        .iter()
        .filter(|(_, at)| *at >= cutoff)
        .map(|(id, _)| id.clone())
        .collect();
    assert_eq!(stored_ids(&shared, "new"), kept);
    assert_eq!(list_requests(&r.sim), 2);
    assert!(syncer.state(&Status::New).unwrap().complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_fetched_while_a_write_waits_are_stored_together_and_the_walk_stays_exact() {
    let r = rig(2500, 1_000_000).await;
    let (syncer, shared) = memory_syncer(&r, capped(1));
    let new = sim_ids(&r.sim, &Status::New);
    assert!(new.len() > 1200, "{}", new.len());
    // The top page; the rest of `new` is the deep end.
    syncer.head(&Status::New, Priority::User).await.unwrap();
    let requests = list_requests(&r.sim);
    let rev = shared.read(|s| s.revs().unwrap().items);
    // Once the walk's first page is answered, another writer takes the store and holds it
    // until the walk has fetched six more pages. Each page takes 20 ms, so the store is taken
    // before the second page comes back, however busy the machine.
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Latency(Duration::from_millis(20)),
        None,
    );
    let holder = {
        let (shared, sim) = (shared.clone(), std::sync::Arc::clone(r.sim.state()));
        let asked = move |n: u64| {
            let deadline = Instant::now() + Duration::from_secs(30);
            while sim.stats().route(Route::FeedbackList) < requests + n {
                assert!(
                    Instant::now() < deadline,
                    "the walk did not ask for page {n}"
                );
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        std::thread::spawn(move || {
            asked(1);
            shared.write(|_| asked(7));
        })
    };
    let report = syncer
        .backfill_pages(&Status::New, Priority::User, 100)
        .await
        .unwrap()
        .unwrap();
    holder.join().unwrap();
    assert!(report.reached_end, "{report:?}");
    assert_eq!(report.added, new.len() - 100);
    assert_eq!(stored_ids(&shared, "new"), new);
    let state = syncer.state(&Status::New).unwrap();
    assert!(state.complete && state.pending_walks == 0, "{state:?}");
    // Every page once, and fewer writes than pages: the five that waited behind the one in
    // hand went in together.
    let walked = list_requests(&r.sim) - requests;
    assert_eq!(walked, pages(new.len()) - 1);
    assert_eq!(u64::from(report.requests), walked);
    let writes = shared.read(|s| s.revs().unwrap().items) - rev;
    assert!(
        u64::try_from(writes).unwrap() + 4 <= walked,
        "{writes} writes for {walked} pages"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_of_pages_stops_at_its_count_and_the_next_goes_on_from_its_cursor() {
    let r = rig(1000, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, capped(1));
    let new = sim_ids(&r.sim, &Status::New);
    assert!(new.len() > 400, "{}", new.len());
    syncer.head(&Status::New, Priority::User).await.unwrap();
    let first = syncer
        .backfill_pages(&Status::New, Priority::User, 2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((first.added, first.requests), (200, 2));
    assert!(!first.reached_end);
    assert_eq!(stored_ids(&shared, "new"), new[..300].to_vec());
    let rest = syncer
        .backfill_pages(&Status::New, Priority::User, 100)
        .await
        .unwrap()
        .unwrap();
    assert!(rest.reached_end);
    assert_eq!(stored_ids(&shared, "new"), new);
    assert_eq!(list_requests(&r.sim), pages(new.len()));
}
