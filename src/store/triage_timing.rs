//! Rough timings of the default view and the triage reads over a large store with one item in
//! 20 triaged (ignored: run by hand with `TRIAGE_TIMING_ITEMS=200000 cargo test --lib
//! store::triage::timing -- --ignored --nocapture`; `TRIAGE_TIMING_SEEN_EVERY=2` marks every
//! second item seen instead, for a store with 100k+ seen items).
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use jiff::{SignedDuration, Timestamp};

use super::TriageChange;
use crate::query::parse;
use crate::store::search::{Context, compile};
use crate::store::{Store, ViewQuery};

fn at() -> Timestamp {
    "2026-11-02T00:00:00Z".parse().unwrap()
}

fn new_items() -> ViewQuery {
    ViewQuery {
        status: Some("new".into()),
        ..ViewQuery::default()
    }
}

/// A store of `count` generated items in `dir`, one item in 20 seen, a third of those done, a
/// few snoozed, one starred.
fn triaged_store(dir: &tempfile::TempDir, count: usize) -> Store {
    let mut store = Store::open(&dir.path().join("timing.db")).unwrap();
    let data = crate::sim::data::generate(3, count, at());
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().collect();
    for chunk in items.rchunks(5000) {
        let page: Vec<_> = chunk.iter().rev().map(|d| d.feedback.clone()).collect();
        store.put_items(&page, at()).unwrap();
    }
    let every = std::env::var("TRIAGE_TIMING_SEEN_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let ids: Vec<String> = items
        .iter()
        .step_by(every)
        .map(|d| d.feedback.id.0.clone())
        .collect();
    let started = Instant::now();
    store
        .set_triage(&ids, &TriageChange::Seen(true), at())
        .unwrap();
    println!(
        "{} items seen in one write: {:?}",
        ids.len(),
        started.elapsed()
    );
    let done: Vec<String> = ids
        .iter()
        .step_by((3 * 20 / every).max(1))
        .cloned()
        .collect();
    store
        .set_triage(&done, &TriageChange::Done(true), at())
        .unwrap();
    let later = at() + SignedDuration::from_hours(5);
    let snoozed: Vec<String> = ids
        .iter()
        .skip(1)
        .step_by((7 * 20 / every).max(1))
        .cloned()
        .collect();
    let snooze = TriageChange::Snooze(Some(later));
    store.set_triage(&snoozed, &snooze, at()).unwrap();
    let started = Instant::now();
    store
        .set_triage(&ids[..1], &TriageChange::Starred(true), at())
        .unwrap();
    println!("one star: {:?}", started.elapsed());
    store
}

/// The median of three runs of `f`, with what it counted.
fn time(what: &str, f: &mut dyn FnMut() -> usize) {
    let mut runs: Vec<_> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let n = f();
            (started.elapsed(), n)
        })
        .collect();
    runs.sort();
    println!("{what:40} {:>9.1?}  {:>8}", runs[1].0, runs[1].1);
}

#[test]
#[ignore = "timing, run by hand"]
fn timing_of_the_default_view_with_triage() {
    let count: usize = std::env::var("TRIAGE_TIMING_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let store = triaged_store(&dir, count);
    for (name, view) in [
        ("whole", new_items().hide_triaged(at())),
        ("per row", new_items().hide_triaged_per_row(at())),
    ] {
        println!(
            "plan: {}",
            store.view_plan(&view, Some(60)).unwrap().join(" | ")
        );
        time(&format!("default view ({name}), first screen"), &mut || {
            store.view_keys(&view, Some(60)).unwrap().len()
        });
        time(&format!("default view ({name}), every key"), &mut || {
            store.view_keys(&view, None).unwrap().len()
        });
    }
    time("new, every key (no triage)", &mut || {
        store.view_keys(&new_items(), None).unwrap().len()
    });
    let first = new_items().hide_triaged_per_row(at());
    time("first screen: keys and unseen count", &mut || {
        let keys = store.view_keys(&first, Some(60)).unwrap();
        store.unseen_among(&keys).unwrap()
    });
    let keys = store
        .view_keys(&new_items().hide_triaged(at()), None)
        .unwrap();
    time("unseen in the default view", &mut || {
        store.unseen_among(&keys).unwrap()
    });
    time("unseen in a search's 500 matches", &mut || {
        store.unseen_among(&keys[..500.min(keys.len())]).unwrap()
    });
    time("next snooze end", &mut || {
        usize::from(store.next_wake(at()).unwrap().is_some())
    });
    let cx = Context {
        now: at(),
        tz: jiff::tz::TimeZone::UTC,
    };
    for input in [
        "is:starred",
        "is:unseen",
        "is:done",
        "is:snoozed",
        "has:note",
    ] {
        let sql = compile(store.conn(), &parse(input).unwrap(), &cx).unwrap();
        let searched = new_items().search(sql);
        time(&format!("{input}, first screen"), &mut || {
            store.view_keys(&searched, Some(60)).unwrap().len()
        });
    }
}
