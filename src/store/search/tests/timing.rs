//! Rough timings of compiled searches over a large store (ignored: run by hand with
//! `SEARCH_TIMING_ITEMS=200000 cargo test --lib search::tests::timing -- --ignored --nocapture`).
//! The figures that count come from the benches; this shows the query plans and the cost
//! of compiling (name lookups and distinct-value walks).

use std::time::Instant;

use super::super::{Context, compile};
use super::brute::anchor;
use crate::query::parse;
use crate::sim::data::generate;
use crate::store::{Sighting, Store, ViewQuery};

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

#[test]
#[ignore = "timing, run by hand"]
fn timing_of_searches() {
    let count: usize = std::env::var("SEARCH_TIMING_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("timing.db")).unwrap();
    let data = generate(3, count, anchor());
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let started = Instant::now();
    let items: Vec<_> = data.items().collect();
    for chunk in items.rchunks(5000) {
        let sightings: Vec<Sighting<'_>> = chunk.iter().rev().map(Sighting::detail).collect();
        store.put(&sightings, anchor()).unwrap();
    }
    println!("stored {count} items in {:?}", started.elapsed());
    let cx = Context {
        now: anchor(),
        tz: jiff::tz::TimeZone::UTC,
    };
    time_queries(&store, &cx);
    store.conn().execute_batch("ANALYZE").unwrap();
    println!("after ANALYZE:");
    time_queries(&store, &cx);
}

fn time_queries(store: &Store, cx: &Context) {
    for input in QUERIES {
        let started = Instant::now();
        let sql = compile(store.conn(), &parse(input).unwrap(), cx).unwrap();
        let compiled = started.elapsed();
        let view = ViewQuery {
            status: std::env::var("SEARCH_TIMING_STATUS").ok(),
            ..ViewQuery::default()
        }
        .search(sql);
        let plan = plan(store, &view);
        let mut runs = Vec::new();
        for _ in 0..3 {
            let started = Instant::now();
            let keys = store.view_keys(&view, None).unwrap().len();
            let all = started.elapsed();
            let started = Instant::now();
            let _ = store.view_keys(&view, Some(200)).unwrap();
            runs.push((all, started.elapsed(), keys));
        }
        runs.sort();
        let (all, first, matched) = runs[1];
        println!(
            "{input:28} compile {compiled:>9.1?}  all keys {all:>9.1?}  first 200 {first:>9.1?}  {matched:>8} match\n    {plan}"
        );
    }
}

fn plan(store: &Store, view: &ViewQuery) -> String {
    store.view_plan(view, Some(200)).unwrap().join(" | ")
}
