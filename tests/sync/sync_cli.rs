//! `feedback-inbox sync`, the built binary against the simulator: plain output and exit codes,
//! a failure keeping what was stored, another sync running, and kill -9 mid-walk then a resume
//! with nothing lost or duplicated.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::rig;
use feedback_api::Status;
use feedback_sim::{DEMO_KEY, FaultKind, Route};
use feedback_store::{Shared, Store};
use feedback_sync::{SyncSettings, Syncer};
use sync_support::{list_requests, pages, sim_ids, stored_in as stored};

/// The binary with a clean environment, the simulator's account and `store` as its store.
fn command(base_url: &str, store: &Path, args: &[&str]) -> (Command, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    cmd.args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", DEMO_KEY)
        .env("FEEDBACK_STORE", store);
    (cmd, home)
}

fn run(base_url: &str, store: &Path, args: &[&str]) -> Output {
    let (mut cmd, _home) = command(base_url, store, args);
    cmd.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Items stored so far; 0 while the store is not made yet.
fn count(path: &Path) -> usize {
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return 0;
    };
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.query_row("SELECT count(*) FROM items", [], |r| r.get::<_, i64>(0))
        .map_or(0, |n| usize::try_from(n).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_mirrors_both_statuses_and_says_so_in_plain_lines() {
    let r = rig(430, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let out = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let (new, archived) = (
        sim_ids(&r.sim, &Status::New),
        sim_ids(&r.sim, &Status::Archived),
    );
    // Every request in the total: discovery's three and the list pages.
    let total = format!(
        "synced: 430 added, 0 changed, {} requests",
        pages(new.len()) + pages(archived.len()) + 3
    );
    for line in [
        "discovery",
        "new: head:",
        "archived: head:",
        "mirrored to the end",
        total.as_str(),
    ] {
        assert!(stdout.contains(line), "{line:?} in {stdout}");
    }
    // A complete first mirror of `new` is a reconcile walk: no page more.
    assert!(stdout.contains("new: reconciled"), "{stdout}");
    assert!(
        !stdout.contains('\u{1b}'),
        "no terminal codes off a terminal: {stdout:?}"
    );
    assert_eq!(
        list_requests(&r.sim),
        pages(new.len()) + pages(archived.len())
    );
    assert_eq!(stored(&path, "new"), new);
    assert_eq!(stored(&path, "archived"), archived);
    // Again, the walk not due: one request per status (nothing moved: no detail).
    let again = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    let shown = text(&again.stdout);
    assert!(shown.contains("synced: 0 added"), "{shown}");
    assert!(!shown.contains("reconciled"), "{shown}");
    assert_eq!(
        list_requests(&r.sim),
        pages(new.len()) + pages(archived.len()) + 2
    );
    assert_eq!(r.sim.stats().route(Route::FeedbackItem), 0);
    // --full --status archived reads every archived page again.
    let full = run(
        &r.sim.base_url(),
        &path,
        &["sync", "--status", "archived", "--full"],
    );
    assert!(full.status.success(), "{}", text(&full.stderr));
    assert!(!text(&full.stdout).contains("new:"));
    assert_eq!(
        list_requests(&r.sim),
        pages(new.len()) + 2 * pages(archived.len()) + 2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_sync_exits_non_zero_and_keeps_what_was_stored() {
    let r = rig(430, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let body = r#"{"error":"invalid_query","message":"injected"}"#.to_owned();
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        1,
        None,
    );
    let out = run(&r.sim.base_url(), &path, &["sync", "--status", "new"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("invalid_query"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(stored(&path, "new").len(), 100);
    r.sim.faults().clear();
    let out = run(&r.sim.base_url(), &path, &["sync", "--status", "new"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stored(&path, "new"), sim_ids(&r.sim, &Status::New));
    assert!(stored(&path, "archived").is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sync_with_no_wait_says_another_is_running_and_changes_nothing() {
    let r = rig(120, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let shared = Shared::new(Store::open(&path).unwrap()).unwrap();
    let holder = Syncer::new(
        r.client.clone(),
        shared,
        r.clock.clone(),
        SyncSettings::default(),
    );
    let session = holder.session().unwrap();
    let out = run(&r.sim.base_url(), &path, &["sync", "--no-wait"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("another sync is running"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(r.sim.stats().requests, 0);
    drop(session);
    assert!(run(&r.sim.base_url(), &path, &["sync"]).status.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_killed_mid_walk_resumes_with_nothing_lost_or_duplicated() {
    let r = rig(3000, 1_000_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Latency(Duration::from_millis(40)),
        None,
    );
    let (new, archived) = (
        sim_ids(&r.sim, &Status::New),
        sim_ids(&r.sim, &Status::Archived),
    );
    // Killed three times, each run going on from where the last stopped: in the first
    // status's walk, in the second's, and near the end. Each time the store is whole, and
    // what it holds of a status is that status's newest items without a hole.
    for at in [500, 1500, 2500] {
        let (mut cmd, _home) = command(&r.sim.base_url(), &path, &["sync"]);
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while count(&path) < at {
            assert!(Instant::now() < deadline, "the sync stored {at} in time");
            assert!(
                child.try_wait().unwrap().is_none(),
                "the sync ended before the kill at {at}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        let kept = count(&path);
        assert!(kept < new.len() + archived.len(), "killed mid-walk: {kept}");
        let check: String = rusqlite::Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok", "after the kill at {at}");
        for (status, ids) in [("new", &new), ("archived", &archived)] {
            let held = stored(&path, status);
            assert_eq!(
                held[..],
                ids[..held.len()],
                "{status} after the kill at {at}"
            );
        }
    }
    let kept = count(&path);
    r.sim.faults().clear();
    let before = list_requests(&r.sim);
    let out = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(stored(&path, "new"), new);
    assert_eq!(stored(&path, "archived"), archived);
    // The resume read what was missing, plus at most the head page of each status and the
    // page in flight at the kill.
    let resumed = list_requests(&r.sim) - before;
    let missing = u64::try_from(new.len() + archived.len() - kept).unwrap();
    assert!(
        resumed <= missing.div_ceil(100) + 4,
        "{resumed} requests for {missing} items"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_sync_of_new_finds_the_items_that_left_it() {
    let r = rig(430, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    // The first mirror is the first reconcile walk.
    let out = run(&r.sim.base_url(), &path, &["sync", "--status", "new"]);
    assert!(text(&out.stdout).contains("new: reconciled"));
    let new = sim_ids(&r.sim, &Status::New);
    let moved = vec![new[5].clone(), new[230].clone()];
    sync_support::set_status(&r.sim, &moved, &Status::Archived);
    // A plain sync sees nothing: the top of the list did not change, and the walk is not due.
    assert!(
        run(&r.sim.base_url(), &path, &["sync", "--status", "new"])
            .status
            .success()
    );
    assert_eq!(stored(&path, "new").len(), new.len());
    let before = list_requests(&r.sim);
    let out = run(
        &r.sim.base_url(),
        &path,
        &["sync", "--status", "new", "--full"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("new: reconciled"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(stored(&path, "new"), sim_ids(&r.sim, &Status::New));
    let archived = stored(&path, "archived");
    assert!(moved.iter().all(|id| archived.contains(id)), "{archived:?}");
    // The walk that read every page again was the reconcile walk: no page read twice.
    assert_eq!(
        list_requests(&r.sim) - before,
        pages(sim_ids(&r.sim, &Status::New).len())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_sync_runs_the_reconcile_walk_when_it_is_due() {
    let r = rig(430, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    assert!(run(&r.sim.base_url(), &path, &["sync"]).status.success());
    let new = sim_ids(&r.sim, &Status::New);
    let moved = vec![new[5].clone(), new[230].clone()];
    sync_support::set_status(&r.sim, &moved, &Status::Archived);
    // A cron sync an hour after the first mirror (its reconcile walk): the next is due, and
    // finds both.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE sync_status SET reconciled_at = reconciled_at - 3600 WHERE status = 'new'",
            [],
        )
        .unwrap();
    let out = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("new: reconciled"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(stored(&path, "new"), sim_ids(&r.sim, &Status::New));
    let archived = stored(&path, "archived");
    assert!(moved.iter().all(|id| archived.contains(id)), "{archived:?}");
    // At most one detail each (one may have been seen on top of the archived list first).
    assert!(r.sim.stats().route(Route::FeedbackItem) <= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_of_another_account_exits_2_before_any_item_is_written() {
    let r = rig(120, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let other = feedback_api::Project {
        id: "00000000-0000-4000-8000-00000000dead".to_owned(),
        name: "Someone else's".to_owned(),
        slug: None,
        created_at: None,
    };
    Store::open(&path)
        .unwrap()
        .check_account(std::slice::from_ref(&other))
        .unwrap();
    let out = run(&r.sim.base_url(), &path, &["sync"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("another account"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(count(&path), 0);
    assert_eq!(list_requests(&r.sim), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_refuses_a_file_that_is_not_a_store_and_leaves_it_as_it_was() {
    let r = rig(10, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let out = run(&r.sim.base_url(), &path, &["sync"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("not a feedback-inbox store"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(!dir.path().join("other.db-wal").exists());
    assert_eq!(r.sim.stats().requests, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resync_right_after_a_first_mirror_reads_only_the_new_pages() {
    let r = rig(1500, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let first = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let (new, archived) = (
        sim_ids(&r.sim, &Status::New),
        sim_ids(&r.sim, &Status::Archived),
    );
    assert_eq!(
        list_requests(&r.sim),
        pages(new.len()) + pages(archived.len())
    );
    let mut submitter = feedback_sim::submit::Submitter::new(r.sim.state().clone(), 5, None);
    for _ in 0..150 {
        r.clock.advance(Duration::from_secs(1));
        submitter.submit();
    }
    let before = list_requests(&r.sim);
    let again = run(&r.sim.base_url(), &path, &["sync"]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains("synced: 150 added"),
        "{}",
        text(&again.stdout)
    );
    // The complete first walk of `new` was a reconcile: two pages of `new` (the 150 and the
    // stored head), one of `archived`.
    let cost = list_requests(&r.sim) - before;
    assert!(cost <= 4, "{cost} list requests");
    assert_eq!(stored(&path, "new"), sim_ids(&r.sim, &Status::New));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_waits_for_the_running_one_to_end_then_syncs() {
    use std::io::BufRead;

    let r = rig(120, 100_000).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.sqlite3");
    let shared = Shared::new(Store::open(&path).unwrap()).unwrap();
    let holder = Syncer::new(
        r.client.clone(),
        shared,
        r.clock.clone(),
        SyncSettings::default(),
    );
    let session = holder.session().unwrap();
    let (mut cmd, _home) = command(&r.sim.base_url(), &path, &["sync"]);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    assert!(first.contains("waiting for it to end"), "{first}");
    // It waits: nothing asked of the service, still running.
    assert_eq!(r.sim.stats().requests, 0);
    assert!(child.try_wait().unwrap().is_none());
    drop(session);
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let status = child.wait().unwrap();
    assert!(status.success(), "{rest:?}");
    assert!(
        rest.iter().any(|l| l.contains("the other sync ended")),
        "{rest:?}"
    );
    assert_eq!(stored(&path, "new"), sim_ids(&r.sim, &Status::New));
}
