//! The default view and the triage reads over a store with one item in 20 triaged: one item in
//! 20 seen, a third of those done, a few snoozed, one starred, made by the simulator's data
//! generator. `TRIAGE_BENCH_ITEMS` sets the store's size (100,000 items by default);
//! `TRIAGE_BENCH_SEEN_EVERY=2` marks every second item seen instead, for a store with 100k+
//! seen items. The triage writes that build it are timed once, as they run.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use feedback_core::query::parse;
use feedback_sim as sim;
use feedback_store::search::Context;
use feedback_store::{Store, TriageChange, ViewQuery};
use jiff::{SignedDuration, Timestamp};

fn at() -> Timestamp {
    "2026-11-02T00:00:00Z".parse().unwrap()
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn new_items() -> ViewQuery {
    ViewQuery::listed(Some("new"))
}

/// A store of `count` generated items in `dir`, one item in `every` seen, a third of those
/// done (for the default 20), a few snoozed, one starred.
fn triaged_store(dir: &tempfile::TempDir, count: usize, every: usize) -> Store {
    let mut store = Store::open(&dir.path().join("triage.db")).unwrap();
    let data = sim::data::generate(3, count, at());
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().collect();
    for chunk in items.rchunks(5000) {
        let page: Vec<_> = chunk.iter().rev().map(|d| d.feedback.clone()).collect();
        store.put_items(&page, at()).unwrap();
    }
    let ids: Vec<String> = items
        .iter()
        .step_by(every)
        .map(|d| d.feedback.id.0.clone())
        .collect();
    let started = Instant::now();
    store
        .set_triage(&ids, &TriageChange::Seen(true), at())
        .unwrap();
    eprintln!(
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
    eprintln!("one star: {:?}", started.elapsed());
    store
}

/// The default view (done and snoozed items left out, the whole set at once or row by row) for
/// its first screen and every key; the unseen counts; the next snooze end; and the triage
/// qualifiers' first screens.
fn triage(c: &mut Criterion) {
    let count = env_or("TRIAGE_BENCH_ITEMS", 100_000);
    let every = env_or("TRIAGE_BENCH_SEEN_EVERY", 20).max(1);
    let dir = tempfile::tempdir().unwrap();
    let store = triaged_store(&dir, count, every);
    let mut group = c.benchmark_group("triage");
    group.sample_size(10);
    for (name, view) in [
        ("whole", new_items().hide_triaged(at())),
        ("per_row", new_items().hide_triaged_per_row(at())),
    ] {
        eprintln!(
            "default view ({name}) plan: {}",
            store.view_plan(&view, Some(60)).unwrap().join(" | ")
        );
        group.bench_function(format!("default_view_{name}_first_screen"), |b| {
            b.iter(|| store.view_keys(&view, Some(60)).unwrap().len());
        });
        group.bench_function(format!("default_view_{name}_every_key"), |b| {
            b.iter(|| store.view_keys(&view, None).unwrap().len());
        });
    }
    group.bench_function("new_every_key_no_triage", |b| {
        b.iter(|| store.view_keys(&new_items(), None).unwrap().len());
    });
    let first = new_items().hide_triaged_per_row(at());
    group.bench_function("first_screen_keys_and_unseen_count", |b| {
        b.iter(|| {
            let keys = store.view_keys(&first, Some(60)).unwrap();
            store.unseen_among(&keys).unwrap()
        });
    });
    let keys = store
        .view_keys(&new_items().hide_triaged(at()), None)
        .unwrap();
    group.bench_function("unseen_in_the_default_view", |b| {
        b.iter(|| store.unseen_among(&keys).unwrap());
    });
    group.bench_function("unseen_in_500_matches", |b| {
        b.iter(|| store.unseen_among(&keys[..500.min(keys.len())]).unwrap());
    });
    group.bench_function("next_snooze_end", |b| {
        b.iter(|| store.next_wake(at()).unwrap());
    });
    let cx = Context {
        now: at(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    for input in [
        "is:starred",
        "is:unseen",
        "is:done",
        "is:snoozed",
        "has:note",
    ] {
        let sql = store.compile(&parse(input).unwrap(), &cx).unwrap();
        let searched = new_items().search(sql);
        let name = input.replace(':', "_");
        group.bench_function(format!("{name}_first_screen"), |b| {
            b.iter(|| store.view_keys(&searched, Some(60)).unwrap().len());
        });
    }
    group.finish();
}

criterion_group!(benches, triage);
criterion_main!(benches);
