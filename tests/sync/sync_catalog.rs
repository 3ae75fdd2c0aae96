//! The catalog (projects, apps, tags) and the account check at the cost the issue allows a
//! re-sync: while the stored catalog is fresh and names everything a page holds, a re-sync
//! with k new items costs ceil(k/100) + 1 requests in all; a stale catalog, or a page naming a
//! project or app the store does not know, brings discovery (three requests) first; another
//! account's items are refused before any of them is stored.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use common::rig;
use feedback_api::{Project, Status};
use feedback_sim::submit::Submitter;
use feedback_sim::{FaultKind, Route};
use feedback_store::StoreError;
use feedback_sync::{CATALOG_FRESH, Priority, SyncError, SyncSettings, Syncer};
use std::time::{Duration, Instant};
use sync_support::{memory_syncer, mirror, sim_ids, stored_ids};

fn catalog_requests(r: &common::Rig) -> u64 {
    let stats = r.sim.stats();
    stats.route(Route::Projects) + stats.route(Route::Apps) + stats.route(Route::Tags)
}

/// What the inbox and `sync` do on every run: discovery when due, then the head walk.
async fn resync(syncer: &Syncer) -> u32 {
    let found = syncer.discovery_if_due().await.unwrap();
    let head = syncer.head(&Status::New, Priority::User).await.unwrap();
    found.requests + head.requests
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_within_the_catalogs_freshness_sends_no_catalog_request() {
    let r = rig(250, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    assert_eq!(syncer.discovery_if_due().await.unwrap().requests, 3);
    mirror(&syncer, &Status::New).await;
    let mut submitter = Submitter::new(r.sim.state().clone(), 5, None);
    for (k, cost) in [(0, 1), (30, 1), (100, 2), (150, 2)] {
        for _ in 0..k {
            r.clock.advance(std::time::Duration::from_secs(1));
            submitter.submit();
        }
        let before = r.sim.stats().requests;
        let requests = resync(&syncer).await;
        assert_eq!(r.sim.stats().requests - before, cost, "k = {k}");
        assert_eq!(u64::from(requests), cost);
    }
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
    assert_eq!(catalog_requests(&r), 3);
    // An hour on, the catalog is read again, once.
    r.clock.advance(CATALOG_FRESH);
    assert_eq!(resync(&syncer).await, 3 + 1);
    assert_eq!(resync(&syncer).await, 1);
    assert_eq!(catalog_requests(&r), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_naming_an_app_the_store_does_not_know_brings_discovery_first() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    syncer.discovery_if_due().await.unwrap();
    // The catalog lost an app (as if the service added it after the last discovery).
    let newest = sim_ids(&r.sim, &Status::New)[0].clone();
    let app = r
        .sim
        .state()
        .read()
        .get(&newest)
        .unwrap()
        .feedback
        .app
        .clone()
        .unwrap();
    shared
        .write(|s| {
            let others: Vec<_> = s
                .apps(None)?
                .into_iter()
                .filter(|a| a.id != app.id)
                .collect();
            s.put_apps(&others, None)
        })
        .unwrap();
    let report = syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!(report.requests, 3 + 1, "discovery, then the page");
    let apps = shared.read(|s| s.apps(None).unwrap());
    assert!(apps.iter().any(|a| a.id == app.id), "{apps:?}");
    assert_eq!(catalog_requests(&r), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_accounts_items_are_refused_before_any_is_stored_with_a_fresh_catalog() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    syncer.discovery_if_due().await.unwrap();
    // The store now says it belongs to another account (as if the key had been swapped for
    // one of another account since the last run), and its catalog is fresh.
    let other = Project {
        id: "00000000-0000-4000-8000-00000000dead".to_owned(),
        name: "Someone else's".to_owned(),
        slug: None,
        created_at: None,
    };
    shared
        .write(|s| {
            s.tamper("DELETE FROM meta WHERE key = 'account_project_ids'; DELETE FROM projects;")
        })
        .unwrap();
    shared
        .write(|s| s.check_account(std::slice::from_ref(&other)))
        .unwrap();
    assert_eq!(syncer.discovery_if_due().await.unwrap().requests, 0);
    let refused = syncer.head(&Status::New, Priority::User).await;
    assert!(
        matches!(
            refused,
            Err(SyncError::Store(StoreError::AccountMismatch { .. }))
        ),
        "{refused:?}"
    );
    assert!(stored_ids(&shared, "new").is_empty());
    assert_eq!(shared.read(|s| s.projects().unwrap()), vec![other]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn items_of_apps_and_projects_the_service_does_not_list_cost_one_discovery() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    // The service lists no app and all projects but one.
    let (unlisted, listed) = {
        let data = r.sim.state().read();
        (data.projects[0].id.clone(), data.projects[1..].to_vec())
    };
    let body = |data: String| FaultKind::Body {
        status: 200,
        body: format!("{{\"data\": {data}}}"),
    };
    let faults = r.sim.faults();
    faults.add(Route::Apps, body("[]".to_owned()), None);
    let projects = serde_json::to_string(&listed).unwrap();
    faults.add(Route::Projects, body(projects), None);
    let first = syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!(first.requests, 3 + 1, "discovery, then the page");
    assert!(
        shared
            .read(|s| s.known_project_ids().unwrap())
            .contains(&unlisted)
    );
    let mut submitter = Submitter::new(r.sim.state().clone(), 9, None);
    for _ in 0..30 {
        r.clock.advance(std::time::Duration::from_secs(1));
        submitter.submit();
    }
    let again = syncer.head(&Status::New, Priority::User).await.unwrap();
    assert_eq!((again.added, again.requests), (30, 1));
    assert_eq!(catalog_requests(&r), 3);
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_start_asks_the_catalog_and_the_top_page_at_once_and_stores_the_page_after() {
    let r = rig(430, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    // Every answer waits 3 s: the four requests are in flight together, none answered yet.
    r.sim
        .faults()
        .add(Route::Any, FaultKind::Latency(Duration::from_secs(3)), None);
    let start = tokio::spawn({
        let syncer = syncer.clone();
        async move { syncer.start(&Status::New).await }
    });
    let deadline = Instant::now() + Duration::from_secs(2);
    while r.sim.stats().arrived < 4 {
        assert!(
            Instant::now() < deadline && r.sim.stats().requests == 0,
            "the start asked one at a time: {:?}",
            r.sim.stats()
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert_eq!(r.sim.stats().requests, 0, "{:?}", r.sim.stats());
    let report = start.await.unwrap().unwrap();
    assert_eq!(report.requests, 4);
    assert_eq!(report.added, 100);
    assert_eq!(r.sim.stats().arrived, 4);
    assert_eq!(catalog_requests(&r), 3);
    assert_eq!(
        stored_ids(&shared, "new"),
        sim_ids(&r.sim, &Status::New)[..100]
    );
    // The rest of the status is a gap for backfill; a second start is a head walk only.
    let again = syncer.start(&Status::New).await.unwrap();
    assert_eq!((again.requests, again.added), (1, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_start_with_another_accounts_key_stores_nothing_of_its_page() {
    let r = rig(120, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    shared
        .write(|s| {
            s.check_account(&[Project {
                id: "another-account-project".into(),
                name: "Elsewhere".into(),
                slug: None,
                created_at: None,
            }])
        })
        .unwrap();
    let refused = syncer.start(&Status::New).await.unwrap_err();
    assert!(
        matches!(
            refused,
            SyncError::Store(StoreError::AccountMismatch { .. })
        ),
        "{refused:?}"
    );
    // The page was asked for beside the catalog, and then dropped.
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 1);
    assert!(stored_ids(&shared, "new").is_empty());
}
