//! Status moves, the account check, the lock and the budget floor against the simulator:
//! archive edits found by the reconcile walk, a detail updating an item at once, a store of
//! another account refused, two syncs at once, background work above the floor and after the
//! user's.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use std::time::Duration;

use common::rig;
use feedback_api::{ApiError, Project, Status};
use feedback_store::StoreError;
use feedback_sync::{Priority, SyncError, SyncSettings};
use sync_support::{
    file_syncer, list_requests, memory_syncer, mirror, pages, set_status, sim_ids, stored_ids,
    stored_status,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reconcile_walk_finds_items_archived_and_unarchived_on_the_service() {
    let r = rig(430, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    mirror(&syncer, &Status::Archived).await;
    let new = sim_ids(&r.sim, &Status::New);
    // The newest, one on a page boundary, one mid-list and the oldest leave `new`; one
    // archived item comes back.
    let archived: Vec<String> = [0, 99, 150, new.len() - 1]
        .iter()
        .map(|i| new[*i].clone())
        .collect();
    let back = sim_ids(&r.sim, &Status::Archived)[7].clone();
    set_status(&r.sim, &archived, &Status::Archived);
    set_status(&r.sim, std::slice::from_ref(&back), &Status::New);
    r.clock.advance(Duration::from_secs(60));
    // A head sync sees none of it: the list's top did not change.
    syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!(stored_status(&shared, &archived[0]), "new");
    let before = list_requests(&r.sim);
    let before_details = r.sim.stats().route(feedback_sim::Route::FeedbackItem);
    let mut requests = 0;
    loop {
        let report = syncer.reconcile_page(Priority::User).await.unwrap();
        requests += report.requests;
        if report.reached_end {
            break;
        }
    }
    let walked = pages(sim_ids(&r.sim, &Status::New).len());
    assert_eq!(list_requests(&r.sim) - before, walked);
    // One detail per item that left `new`, none for the others.
    assert_eq!(
        r.sim.stats().route(feedback_sim::Route::FeedbackItem) - before_details,
        4
    );
    assert_eq!(u64::from(requests), walked + 4);
    for id in &archived {
        assert_eq!(stored_status(&shared, id), "archived", "{id}");
    }
    assert_eq!(stored_status(&shared, &back), "new");
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert_eq!(
        stored_ids(&shared, "archived"),
        sim_ids(&r.sim, &Status::Archived)
    );
    assert!(syncer.state(&Status::New).unwrap().reconciled_at.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_walk_resumes_from_its_stored_cursor_after_an_error() {
    let r = rig(430, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let new = sim_ids(&r.sim, &Status::New);
    let moved = vec![new[250].clone()];
    set_status(&r.sim, &moved, &Status::Archived);
    r.clock.advance(Duration::from_secs(60));
    let first = syncer.reconcile_page(Priority::User).await.unwrap();
    assert!(!first.reached_end);
    r.sim.faults().add(
        feedback_sim::Route::FeedbackList,
        feedback_sim::FaultKind::Status(500),
        None,
    );
    assert!(syncer.reconcile_page(Priority::User).await.is_err());
    r.sim.faults().clear();
    let before = list_requests(&r.sim);
    loop {
        if syncer
            .reconcile_page(Priority::User)
            .await
            .unwrap()
            .reached_end
        {
            break;
        }
    }
    // It went on from the second page, not from the top.
    assert_eq!(list_requests(&r.sim) - before, pages(new.len() - 1) - 1);
    assert_eq!(stored_status(&shared, &moved[0]), "archived");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_detail_updates_status_tags_and_delivery_at_once() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let id = sim_ids(&r.sim, &Status::New)[3].clone();
    {
        let mut data = r.sim.state().write();
        let mut items: Vec<_> = data.items().collect();
        let item = items.iter_mut().find(|it| it.feedback.id.0 == id).unwrap();
        item.feedback.status = Status::Archived;
        item.feedback.tags = vec!["moved-today".to_owned()];
        data.replace_items(items);
    }
    let stored = syncer.detail(&id).await.unwrap();
    assert_eq!(stored.item.feedback.status, Status::Archived);
    assert_eq!(stored.item.feedback.tags, vec!["moved-today".to_owned()]);
    assert!(stored.delivery.is_some());
    assert_eq!(stored_status(&shared, &id), "archived");
    // An item the service does not have is an error, and nothing is stored for it.
    let missing = syncer.detail("no-such-item").await;
    assert!(
        matches!(missing, Err(SyncError::Api(ref e)) if matches!(**e, ApiError::NotFound { .. }))
    );
    assert!(shared.read(|s| s.item("no-such-item").unwrap()).is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_another_account_is_refused_and_nothing_is_written() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    let other = Project {
        id: "00000000-0000-4000-8000-00000000dead".to_owned(),
        name: "Someone else's".to_owned(),
        slug: None,
        created_at: None,
    };
    shared
        .write(|s| s.check_account(std::slice::from_ref(&other)))
        .unwrap();
    let refused = syncer.discovery().await;
    assert!(
        matches!(
            refused,
            Err(SyncError::Store(StoreError::AccountMismatch { .. }))
        ),
        "{refused:?}"
    );
    let projects = shared.read(|s| s.projects().unwrap());
    assert_eq!(projects, vec![other]);
    assert!(shared.read(|s| s.apps(None).unwrap()).is_empty());
    assert!(shared.read(|s| s.server_tags().unwrap()).is_empty());
    // The same account is welcome.
    let (fresh, fresh_store) = memory_syncer(&r, SyncSettings::default());
    fresh.discovery().await.unwrap();
    assert!(!fresh_store.read(|s| s.projects().unwrap()).is_empty());
    fresh.discovery().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sync_on_the_same_store_is_told_another_is_running() {
    let r = rig(120, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stores").join("default.sqlite3");
    let (first, _) = file_syncer(&r, &path, SyncSettings::default());
    let (second, shared) = file_syncer(&r, &path, SyncSettings::default());
    let session = first.session().unwrap();
    // The first's own operations go on under its session.
    first.head(&Status::New, Priority::User).await.unwrap();
    let busy = second.head(&Status::New, Priority::User).await;
    assert!(matches!(busy, Err(SyncError::Busy)), "{busy:?}");
    assert!(matches!(
        second
            .backfill_page(&Status::Archived, Priority::Background)
            .await,
        Err(SyncError::Busy)
    ));
    // Reading is never locked out.
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    drop(session);
    second
        .backfill_page(&Status::New, Priority::User)
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn background_backfill_keeps_the_budget_above_the_floor() {
    let r = rig(2000, 10).await;
    let settings = SyncSettings {
        head_page_cap: 1,
        ..SyncSettings::default()
    };
    let (syncer, shared) = memory_syncer(&r, settings);
    syncer.head(&Status::New, Priority::User).await.unwrap();
    let mut pages_fetched = 0;
    while let Some(page) = syncer
        .backfill_page(&Status::New, Priority::Background)
        .await
        .unwrap()
    {
        pages_fetched += page.requests;
        let rate = syncer.rate_limit();
        // 20% of 10: two requests always stay for the user.
        assert!(rate.remaining.unwrap() >= 2, "{rate:?}");
    }
    assert!(pages_fetched > 10, "{pages_fetched}");
    assert!(
        !r.clock.sleeps().is_empty(),
        "it waited for the window to reset"
    );
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert_eq!(r.sim.stats().status(429), 0);
    // Turned off, the background does nothing.
    let (off, _) = memory_syncer(
        &r,
        SyncSettings {
            background: false,
            ..settings
        },
    );
    assert!(matches!(
        off.backfill_page(&Status::New, Priority::Background).await,
        Err(SyncError::BackgroundOff)
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn background_steps_fill_both_statuses_whose_first_walk_is_the_reconcile_then_rest() {
    let r = rig(430, 100_000).await;
    let settings = SyncSettings {
        head_page_cap: 1,
        ..SyncSettings::default()
    };
    let (syncer, shared) = memory_syncer(&r, settings);
    let mut steps = 0;
    while let Some(step) = syncer.background_step().await.unwrap() {
        steps += 1;
        assert!(step.requests >= 1);
        assert!(steps < 100, "it should rest once done");
    }
    let (new, archived) = (
        sim_ids(&r.sim, &Status::New),
        sim_ids(&r.sim, &Status::Archived),
    );
    assert_eq!(stored_ids(&shared, "new"), new);
    assert_eq!(stored_ids(&shared, "archived"), archived);
    // Mirror pages of both statuses and nothing more: the first walk of `new` was also its
    // reconcile walk.
    assert_eq!(
        list_requests(&r.sim),
        pages(new.len()) + pages(archived.len())
    );
    assert!(syncer.state(&Status::New).unwrap().reconciled_at.is_some());
    // Resting until the next reconcile is due.
    r.clock.advance(Duration::from_secs(14 * 60));
    assert!(syncer.background_step().await.unwrap().is_none());
    r.clock.advance(Duration::from_secs(2 * 60));
    assert!(syncer.background_step().await.unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_walk_whose_cursor_is_rejected_starts_again_at_the_top() {
    use feedback_sim::{FaultKind, Route};

    let r = rig(430, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    let new = sim_ids(&r.sim, &Status::New);
    let moved = vec![new[20].clone(), new[260].clone()];
    set_status(&r.sim, &moved, &Status::Archived);
    r.clock.advance(Duration::from_secs(60));
    assert!(
        !syncer
            .reconcile_page(Priority::User)
            .await
            .unwrap()
            .reached_end
    );
    let body = r#"{"error":"invalid_cursor","message":"rotated"}"#.to_owned();
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        Some(1),
    );
    let before = list_requests(&r.sim);
    while !syncer
        .reconcile_page(Priority::User)
        .await
        .unwrap()
        .reached_end
    {}
    // The rejected request, then the whole list from the top.
    assert_eq!(list_requests(&r.sim) - before, 1 + pages(new.len() - 2));
    for id in &moved {
        assert_eq!(stored_status(&shared, id), "archived");
    }
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reconcile_walk_stops_at_the_retention_cutoff_and_stores_nothing_older() {
    let r = rig(430, 100_000).await;
    let now = feedback_core::clock::Clock::now(&*r.clock);
    let new = sim_ids(&r.sim, &Status::New);
    let received = |id: &str| {
        let data = r.sim.state().read();
        data.items()
            .find(|it| it.feedback.id.0 == id)
            .unwrap()
            .feedback
            .received_at
    };
    // Keep about the newest 150 new items.
    let cutoff = received(&new[150]);
    let keep = std::time::Duration::try_from(now.duration_since(cutoff)).unwrap();
    let settings = SyncSettings {
        retention: Some(keep),
        ..SyncSettings::default()
    };
    let (syncer, shared) = memory_syncer(&r, settings);
    mirror(&syncer, &Status::New).await;
    let kept = stored_ids(&shared, "new");
    assert_eq!(kept.len(), 151);
    // One kept item leaves `new` on the service.
    set_status(&r.sim, std::slice::from_ref(&new[120]), &Status::Archived);
    r.clock.advance(Duration::from_secs(60));
    let before = list_requests(&r.sim);
    let mut walked = 0;
    loop {
        let report = syncer.reconcile_page(Priority::User).await.unwrap();
        walked += 1;
        if report.reached_end {
            break;
        }
    }
    // Two pages reach the cutoff; the walk ends there, not at the end of the list.
    assert_eq!(walked, 2);
    assert_eq!(list_requests(&r.sim) - before, 2);
    assert_eq!(stored_status(&shared, &new[120]), "archived");
    let mut expected = kept.clone();
    expected.retain(|id| *id != new[120]);
    assert_eq!(stored_ids(&shared, "new"), expected);
    assert!(syncer.state(&Status::New).unwrap().reconciled_at.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_item_with_a_status_this_version_does_not_know_stays_in_the_list_it_is_listed_in() {
    let r = rig(250, 100_000).await;
    // The service's enum grew: a new item says "escalated" and is listed under `new`.
    let id = {
        let mut data = r.sim.state().write();
        let newest = data.items().next().unwrap();
        let mut odd = newest.clone();
        odd.feedback.id = feedback_api::FeedbackId("fb_escalated".into());
        odd.feedback.received_at = newest.feedback.received_at + Duration::from_secs(1);
        odd.feedback.status = Status::Other("escalated".into());
        data.insert_listed(odd, &Status::New);
        "fb_escalated".to_owned()
    };
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    mirror(&syncer, &Status::New).await;
    mirror(&syncer, &Status::Archived).await;
    let stored_new = stored_ids(&shared, "new");
    assert_eq!(stored_new.first(), Some(&id));
    assert_eq!(stored_status(&shared, &id), "escalated");
    // A reconcile walk finds it where it was listed: nothing moves, nothing is asked again.
    let before = r.sim.stats().route(feedback_sim::Route::FeedbackItem);
    loop {
        let report = syncer.reconcile_page(Priority::User).await.unwrap();
        assert_eq!(report.changed, 0);
        if report.reached_end {
            break;
        }
    }
    assert_eq!(
        r.sim.stats().route(feedback_sim::Route::FeedbackItem),
        before
    );
    assert_eq!(stored_ids(&shared, "new"), stored_new);
}
