//! Searches over a store whose items are all stored with their detail, made by the simulator's
//! data generator: for each query the cost of compiling it (name lookups and distinct-value
//! walks), of every key in order, and of the first 200; SQLite's plan and the match count are
//! printed for each, and everything runs again after `ANALYZE`. `SEARCH_BENCH_ITEMS` sets the
//! store's size (100,000 items by default); `SEARCH_BENCH_STATUS` narrows the view to a status.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use feedback_core::query::parse;
use feedback_sim as sim;
use feedback_store::search::Context;
use feedback_store::{Sighting, Store, ViewQuery};
use jiff::Timestamp;

const QUERIES: &[&str] = &[
    "crashes",
    "the",
    "\"dark mode\"",
    "reinstalling",
    "sync -offline",
    "crash*",
    "tag:billing",
    "tag:bug status:new",
    "app:trailhead-ios refund",
    "locale:ko-KR",
    "email:yuki",
    "age:<2d",
    "has:link crash",
    "-crash",
    "stürzt",
];

fn anchor() -> Timestamp {
    "2026-11-20T12:00:00Z".parse().unwrap()
}

/// A store of `count` generated items in `dir`, every one stored with its detail.
fn store(dir: &tempfile::TempDir, count: usize) -> Store {
    let mut store = Store::open(&dir.path().join("search.db")).unwrap();
    let data = sim::data::generate(3, count, anchor());
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let started = Instant::now();
    let items: Vec<_> = data.items().collect();
    for chunk in items.rchunks(5000) {
        let sightings: Vec<Sighting<'_>> = chunk.iter().rev().map(Sighting::detail).collect();
        store.put(&sightings, anchor()).unwrap();
    }
    eprintln!("stored {count} items in {:?}", started.elapsed());
    store
}

/// A benchmark name for a query: its letters and digits, anything else as `_`.
fn name(input: &str) -> String {
    input
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect()
}

fn searches(c: &mut Criterion) {
    let count = std::env::var("SEARCH_BENCH_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let store = store(&dir, count);
    let cx = Context {
        now: anchor(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for analyzed in [false, true] {
        if analyzed {
            store.analyze().unwrap();
        }
        let phase = if analyzed { "analyzed_" } else { "" };
        for input in QUERIES {
            let query = parse(input).unwrap();
            let sql = store.compile(&query, &cx).unwrap();
            let view = ViewQuery::default()
                .in_status(std::env::var("SEARCH_BENCH_STATUS").ok())
                .search(sql);
            eprintln!(
                "{phase}{input}: {} match\n    {}",
                store.view_keys(&view, None).unwrap().len(),
                store.view_plan(&view, Some(200)).unwrap().join(" | ")
            );
            let name = name(input);
            group.bench_function(format!("{phase}{name}_compile"), |b| {
                b.iter(|| store.compile(&query, &cx).unwrap());
            });
            group.bench_function(format!("{phase}{name}_all_keys"), |b| {
                b.iter(|| store.view_keys(&view, None).unwrap());
            });
            group.bench_function(format!("{phase}{name}_first_200"), |b| {
                b.iter(|| store.view_keys(&view, Some(200)).unwrap());
            });
        }
    }
    group.finish();
}

criterion_group!(benches, searches);
criterion_main!(benches);
