//! `sync --app/--project`: a head walk of one app's (or project's) part of a status. It stores
//! exactly that part, costs that part's pages alone (k new items of the app: k/100 + 1
//! requests), stops at the status's head or its own, and never makes a later whole-status sync
//! miss anything.
#![allow(
    clippy::unwrap_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use crate::common;
use crate::sync_support;

use std::collections::BTreeMap;

use common::{Rig, expected_ids, rig};
use feedback_api::{FeedbackDetail, Status};
use feedback_sim::submit::Submitter;
use feedback_sync::{Scope, SyncSettings, Syncer};
use sync_support::{list_requests, memory_syncer, mirror, sim_ids, stored_ids};

/// The app with the most items of `new`.
fn busiest_app(r: &Rig) -> String {
    let mut counts = BTreeMap::<String, usize>::new();
    for item in r.sim.state().read().items() {
        if let (Some(app), Status::New) = (&item.feedback.app, &item.feedback.status) {
            *counts.entry(app.id.clone()).or_default() += 1;
        }
    }
    counts.into_iter().max_by_key(|(_, n)| *n).unwrap().0
}

fn of_app(app: &str) -> impl Fn(&FeedbackDetail) -> bool + '_ {
    move |it| {
        it.feedback.status == Status::New && it.feedback.app.as_ref().is_some_and(|a| a.id == app)
    }
}

fn app_scope(app: &str) -> Scope {
    Scope {
        app: Some(app.to_owned()),
        project: None,
    }
}

/// Submits `n` new items (one a second) and returns how many belong to `app`.
fn submit(r: &Rig, n: usize, app: &str) -> usize {
    let mut submitter = Submitter::new(r.sim.state().clone(), 11, None);
    (0..n)
        .filter(|_| {
            r.clock.advance(std::time::Duration::from_secs(1));
            of_app(app)(&submitter.submit())
        })
        .count()
}

/// Pages of 20 so that an app of the rig spans several.
const PAGE: u64 = 20;

fn small_pages() -> SyncSettings {
    SyncSettings {
        page_size: 20,
        ..SyncSettings::default()
    }
}

async fn scoped(syncer: &Syncer, r: &Rig, scope: &Scope, full: bool) -> u64 {
    let before = list_requests(&r.sim);
    let report = syncer.head_scoped(&Status::New, scope, full).await.unwrap();
    assert!(report.reached_end);
    let sent = list_requests(&r.sim) - before;
    assert_eq!(u64::from(report.requests), sent, "no discovery expected");
    sent
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_sync_stores_its_app_alone_and_then_costs_its_new_pages_alone() {
    let r = rig(700, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, small_pages());
    syncer.discovery().await.unwrap();
    let app = busiest_app(&r);
    let scope = app_scope(&app);
    let first = scoped(&syncer, &r, &scope, false).await;
    let want = expected_ids(&r.sim, of_app(&app));
    assert!(
        want.len() > PAGE as usize,
        "the rig's busiest app has {}",
        want.len()
    );
    assert_eq!(
        stored_ids(&shared, "new"),
        want,
        "that app's items, nothing else"
    );
    assert_eq!(first, want.len() as u64 / PAGE + 1);

    for n in [0, 40, 400] {
        let k = submit(&r, n, &app);
        assert_eq!(
            scoped(&syncer, &r, &scope, false).await,
            k as u64 / PAGE + 1,
            "k = {k}"
        );
        assert_eq!(
            stored_ids(&shared, "new"),
            expected_ids(&r.sim, of_app(&app))
        );
    }
    // --full reads the app's whole list again, adding nothing.
    let total = expected_ids(&r.sim, of_app(&app)).len() as u64;
    assert_eq!(scoped(&syncer, &r, &scope, true).await, total / PAGE + 1);

    // A whole-status sync afterwards mirrors everything else.
    mirror(&syncer, &Status::New).await;
    assert_eq!(stored_ids(&shared, "new"), sim_ids(&r.sim, &Status::New));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_sync_stops_at_the_status_head_and_the_next_head_walk_still_finds_the_rest() {
    let r = rig(400, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, small_pages());
    syncer.discovery().await.unwrap();
    mirror(&syncer, &Status::New).await;
    let app = busiest_app(&r);
    let k = submit(&r, 180, &app);
    assert!(k > 0 && k < 180, "some of the new items are the app's: {k}");
    assert_eq!(
        scoped(&syncer, &r, &app_scope(&app), false).await,
        k as u64 / PAGE + 1
    );
    let stored = stored_ids(&shared, "new");
    let all = sim_ids(&r.sim, &Status::New);
    assert_eq!(
        stored.len(),
        all.len() - (180 - k),
        "the app's new items only"
    );

    // The whole-status head walk is not misled by the app's items above its head.
    let head = syncer
        .head(&Status::New, feedback_sync::Priority::User)
        .await
        .unwrap();
    assert_eq!(head.added as usize, 180 - k);
    assert_eq!(stored_ids(&shared, "new"), all);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_scope_reads_the_projects_list() {
    let r = rig(300, 100_000).await;
    let (syncer, shared) = memory_syncer(&r, SyncSettings::default());
    syncer.discovery().await.unwrap();
    let project = r
        .sim
        .state()
        .read()
        .items()
        .next()
        .unwrap()
        .feedback
        .project
        .id
        .clone();
    let scope = Scope {
        app: None,
        project: Some(project.clone()),
    };
    scoped(&syncer, &r, &scope, false).await;
    let want = expected_ids(&r.sim, |it| {
        it.feedback.status == Status::New && it.feedback.project.id == project
    });
    assert!(!want.is_empty());
    assert_eq!(stored_ids(&shared, "new"), want);
}

/// `feedback-inbox sync --app NAME` from the command line: the name resolved from the catalog,
/// both statuses walked for that app alone, a line per status; an unknown name is exit 2.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sync_command_takes_an_app_by_name() {
    let r = rig(300, 100_000).await;
    let app = busiest_app(&r);
    let name = {
        let data = r.sim.state().read();
        data.apps.iter().find(|a| a.id == app).unwrap().name.clone()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .env("FEEDBACK_BASE_URL", r.sim.base_url())
            .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY)
            .env("FEEDBACK_STORE", &path)
            .output()
            .unwrap()
    };
    let out = run(&["sync", "--app", &name]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [format!("new: {name}: "), format!("archived: {name}: ")] {
        assert!(stdout.contains(&line), "{line:?} in {stdout}");
    }
    assert!(!stdout.contains("reconciled"), "{stdout}");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let stored: i64 = conn
        .query_row("SELECT count(*) FROM items", [], |row| row.get(0))
        .unwrap();
    let want = expected_ids(&r.sim, |it| {
        it.feedback.app.as_ref().is_some_and(|a| a.id == app)
    });
    assert_eq!(stored as usize, want.len());

    let out = run(&["sync", "--app", "no such app"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("no app named \"no such app\""), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_gap_left_below_the_head_a_scoped_sync_reads_the_scopes_whole_list() {
    let r = rig(500, 100_000).await;
    // One head page only: the rest of the status is a gap for the backfill.
    let (syncer, shared) = memory_syncer(
        &r,
        SyncSettings {
            head_page_cap: 1,
            ..small_pages()
        },
    );
    syncer.discovery().await.unwrap();
    syncer
        .head(&Status::New, feedback_sync::Priority::User)
        .await
        .unwrap();
    let app = busiest_app(&r);
    let want = expected_ids(&r.sim, of_app(&app));
    let first = scoped(&syncer, &r, &app_scope(&app), false).await;
    assert_eq!(first, want.len() as u64 / PAGE + 1, "the app's whole list");
    let stored: Vec<String> = stored_ids(&shared, "new")
        .into_iter()
        .filter(|id| want.contains(id))
        .collect();
    assert_eq!(stored, want, "all of the app, the gap notwithstanding");
    // Its own head then stops the next run at once.
    assert_eq!(scoped(&syncer, &r, &app_scope(&app), false).await, 1);
}
