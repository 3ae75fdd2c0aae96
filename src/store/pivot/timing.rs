//! Rough timings of pivots and trends over a large store, a quarter of its items stored with
//! their detail (ignored: run by hand with `PIVOT_TIMING_ITEMS=200000 cargo test --lib
//! store::pivot::timing -- --ignored --nocapture`). The figures of record come from
//! `cargo bench --bench store` (1,000,000 items, release build).
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use jiff::Timestamp;

use super::By;
use crate::store::search::Context;
use crate::store::{Sighting, Store, ViewQuery};

fn at() -> Timestamp {
    "2026-11-02T00:00:00Z".parse().unwrap()
}

#[test]
#[ignore = "timing, run by hand"]
fn timing() {
    let count = std::env::var("PIVOT_TIMING_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200_000);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("timing.db")).unwrap();
    fill(&mut store, count);
    report(&store);
}

/// `count` generated items, a quarter with their detail.
fn fill(store: &mut Store, count: usize) {
    let data = crate::sim::data::generate(3, count, at());
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().collect();
    let started = Instant::now();
    for (n, chunk) in items.rchunks(1000).enumerate() {
        let page: Vec<Sighting<'_>> = chunk
            .iter()
            .rev()
            .enumerate()
            .map(|(i, d)| {
                if (n * 1000 + i).is_multiple_of(4) {
                    Sighting::detail(d)
                } else {
                    Sighting::listed(&d.feedback, &d.feedback.status)
                }
            })
            .collect();
        store.put(&page, at()).unwrap();
    }
    eprintln!("{count} items stored in {:?}", started.elapsed());
}

fn report(store: &Store) {
    let cx = Context {
        now: at(),
        tz: jiff::tz::TimeZone::UTC,
    };
    let views = [
        ("all", ViewQuery::default()),
        (
            "new",
            ViewQuery {
                status: Some("new".into()),
                ..ViewQuery::default()
            }
            .hide_triaged(at()),
        ),
    ];
    for (name, view) in &views {
        for by in [
            By::App,
            By::Platform,
            By::Tag,
            By::Version,
            By::Os,
            By::Meta("plan".into()),
            By::Day,
            By::Week,
        ] {
            let started = Instant::now();
            let pivot = store.pivot(view, &by, &cx).unwrap();
            eprintln!(
                "{name} by {}: {:?} ({} groups, {} items)",
                by.name(),
                started.elapsed(),
                pivot.groups.len(),
                pivot.total
            );
        }
        let started = Instant::now();
        let trend = store.trend(view, &By::Tag, &cx).unwrap();
        eprintln!(
            "{name} trend by tag: {:?} ({} today)",
            started.elapsed(),
            trend.today
        );
    }
}

/// SQLite's plans for the pivots' main statements over a small store, to read by hand.
#[test]
#[ignore = "plans, read by hand"]
fn plans() {
    let mut store = Store::open_memory().unwrap();
    fill(&mut store, 2_000);
    for sql in [
        "SELECT items.app, count(*) FROM items WHERE items.status = 'new' GROUP BY 1",
        "SELECT items.app, count(*) FROM items INDEXED BY items_by_app WHERE items.status = 'new' GROUP BY 1",
        "SELECT items.app, count(*) FROM items WHERE 1 GROUP BY 1",
        "SELECT t.tag, NULL, count(*) FROM items LEFT JOIN item_tags t ON t.k = items.k WHERE 1 GROUP BY 1, 2",
        "SELECT t.tag, NULL, count(*) FROM items LEFT JOIN item_tags t ON t.k = items.k WHERE items.status = 'new' GROUP BY 1, 2",
        "SELECT m.value, NULL, count(*) FROM items JOIN item_meta m ON m.k = items.k AND m.custom = 1 AND m.key IN ('plan') WHERE 1 GROUP BY 1, 2",
        "SELECT count(*), count(CASE WHEN EXISTS (SELECT 1 FROM item_meta WHERE item_meta.k = items.k) THEN 1 END) FROM items WHERE 1",
        "SELECT items.k FROM items WHERE items.status = 'new' ORDER BY items.k",
        "SELECT mt.value, NULL, count(*) FROM item_meta mt JOIN items INDEXED BY items_by_status ON items.k = mt.k WHERE mt.custom = 1 AND mt.key IN ('plan') AND items.status = 'new' AND mt.k NOT IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE t.done = 1 OR t.snoozed_until > 5) GROUP BY 1, 2",
        "SELECT tg.tag, NULL, count(*) FROM item_tags tg WHERE tg.status = 'new' AND tg.k NOT IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE t.done = 1 OR t.snoozed_until > 5) GROUP BY tg.tag",
    ] {
        let mut stmt = store
            .conn()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let plan: Vec<String> = stmt
            .query_map([], |row| row.get(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        eprintln!("{sql}\n    {}", plan.join("\n    "));
    }
}
