//! `--since`/`--until` on `list`: the walk stops at the first older item and says what it
//! saved; `--until` reads every newer page; an age counts back from now.

use feedback_api::{Feedback, Status};
use feedback_sim::{self as sim, Route, SimConfig, SimHandle};
use jiff::Timestamp;

use super::{ids, ok, requests, run, text};
use crate::common::rig;

fn new_items(sim: &SimHandle) -> Vec<Feedback> {
    sim.state()
        .read()
        .items()
        .filter(|it| it.feedback.status == Status::New)
        .map(|it| it.feedback)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_since_stops_the_walk_at_the_first_older_item_and_counts_what_it_saved() {
    let r = rig(1_000, 100_000).await;
    let base = r.sim.base_url();
    let all = new_items(&r.sim);
    assert!(all.len() > 400, "{}", all.len());
    // Inside the second page of 100.
    let since = all[150].received_at;
    let expected: Vec<String> = all
        .iter()
        .filter(|f| f.received_at >= since)
        .map(|f| f.id.0.clone())
        .collect();
    let arg = since.to_string();
    let args = [
        "list",
        "--all",
        "--format",
        "jsonl",
        "--since",
        arg.as_str(),
    ];
    let out = run(&base, None, &args);
    assert_eq!(ids(&out), expected);
    assert_eq!(requests(&r.sim, Route::FeedbackList), 2);
    assert_eq!(
        text(&out.stderr),
        format!(
            "--since: stopped after 2 requests at the first item older than {since}; the older \
             pages were not fetched\n"
        )
    );

    // With a store that mirrors `new` to its end, the saving is counted.
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite3");
    ok(&run(&base, Some(&store), &["sync", "--status", "new"]));
    let before = requests(&r.sim, Route::FeedbackList);
    let out = run(&base, Some(&store), &args);
    assert_eq!(ids(&out), expected);
    assert_eq!(requests(&r.sim, Route::FeedbackList) - before, 2);
    let older = all.len() - expected.len();
    let dropped = 200 - expected.len();
    let saved = (older - dropped).div_ceil(100);
    let walked = all.len().div_ceil(100);
    assert_eq!(saved, walked - 2, "the count is exact here");
    assert_eq!(
        text(&out.stderr),
        format!(
            "--since: stopped after 2 requests at the first item older than {since}; about \
             {saved} requests saved (the local store holds {older} older items of this list)\n"
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_until_skips_newer_items_reading_every_page_and_claims_no_saving() {
    let r = rig(400, 100_000).await;
    let base = r.sim.base_url();
    let all = new_items(&r.sim);
    let until = all[30].received_at;
    let since = all[all.len() - 20].received_at;
    let (until_arg, since_arg) = (until.to_string(), since.to_string());
    let out = run(
        &base,
        None,
        &["list", "--all", "--format", "jsonl", "--until", &until_arg],
    );
    let expected: Vec<String> = all
        .iter()
        .filter(|f| f.received_at < until)
        .map(|f| f.id.0.clone())
        .collect();
    assert_eq!(ids(&out), expected);
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    assert_eq!(
        requests(&r.sim, Route::FeedbackList),
        u64::try_from(all.len().div_ceil(100)).unwrap()
    );
    // Both: the window, as a table too (the same rows).
    let window = [
        "list", "--all", "--since", &since_arg, "--until", &until_arg,
    ];
    let table = ok(&run(&base, None, &window));
    let expected = all
        .iter()
        .filter(|f| f.received_at >= since && f.received_at < until)
        .count();
    assert_eq!(table.lines().count(), expected + 1, "{table}");
    let out = run(
        &base,
        None,
        &["list", "--since", &until_arg, "--until", &since_arg],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("is not before --until"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_age_counts_back_from_now() {
    let now = Timestamp::now();
    let sim = sim::start(SimConfig {
        items: 300,
        rate_per_minute: 100_000,
        anchor: Some(now),
        seed: 5,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let all = new_items(&sim);
    let out = run(
        &sim.base_url(),
        None,
        &["list", "--all", "--format", "jsonl", "--since", "60d"],
    );
    let after = Timestamp::now();
    let listed = ids(&out);
    let day = jiff::SignedDuration::from_hours(24);
    let (earliest, latest) = (now - day * 60, after - day * 60);
    // The listed items are the newest ones, every one younger than 60 days by the binary's now
    // (between the test's two readings), and the next one is not.
    assert!(!listed.is_empty() && listed.len() < all.len());
    let ids: Vec<&str> = all.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(listed, ids[..listed.len()]);
    assert!(all[listed.len() - 1].received_at >= earliest);
    assert!(all[listed.len()].received_at < latest);
}
