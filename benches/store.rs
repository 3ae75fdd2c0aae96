//! The local store at scale: storing (items per second, full-text index included), its size per
//! item, and the queries the inbox runs on a view, at 1,000,000 items made by the simulator's
//! data generator. The 1M-item store is built once and kept under `target/bench-data/` (it is
//! rebuilt when the schema changes); `STORE_BENCH_ITEMS` sets another size. One item in four is
//! stored with its detail (metadata and delivery, as opening it or a webhook delivery stores
//! them), so the metadata pivots have something to count.
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)] // figures for people, not for arithmetic

use std::path::PathBuf;
use std::time::Instant;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use feedback_api::Feedback;
use feedback_sim as sim;
use feedback_store::{Sighting, Store, TIES_PER_MICROSECOND, ViewQuery, schema};
use jiff::Timestamp;

const SEED: u64 = 11;
/// One item in this many is stored with its detail.
const DETAIL_EVERY: usize = 4;
/// One item in this many is marked done, and one in `SNOOZED_EVERY` snoozed past the anchor:
/// the inbox's views leave them out (a team that triages keeps tens of thousands done).
const DONE_EVERY: usize = 20;
const SNOOZED_EVERY: usize = 97;

fn anchor() -> Timestamp {
    "2026-11-01T12:00:00Z".parse().unwrap()
}

fn items(count: usize) -> Vec<Feedback> {
    sim::data::generate(SEED, count, anchor())
        .items()
        .map(|d| d.feedback)
        .collect()
}

fn scale() -> usize {
    std::env::var("STORE_BENCH_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

/// The big store, built (and timed, and measured) on first use.
fn big_store() -> Store {
    let n = scale();
    let dir = PathBuf::from(std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into()))
        .join("bench-data");
    // Named after the schema's SQL and the key scheme, so a changed schema gets a new store.
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(
        &(
            schema::STEPS,
            TIES_PER_MICROSECOND,
            DETAIL_EVERY,
            DONE_EVERY,
            SNOOZED_EVERY,
        ),
        &mut hasher,
    );
    let schema = std::hash::Hasher::finish(&hasher);
    let path = dir.join(format!("store-{n}-seed{SEED}-{schema:016x}.sqlite3"));
    if !path.exists() {
        let partial = path.with_extension("partial");
        let _ = std::fs::remove_file(&partial);
        let started = Instant::now();
        let data = sim::data::generate(SEED, n, anchor());
        let generated = started.elapsed();
        let mut store = Store::open(&partial).unwrap();
        store.put_projects(&data.projects).unwrap();
        store.put_apps(&data.apps, None).unwrap();
        let started = Instant::now();
        // Pages of 100 as the generator gives them (details made one page at a time: all of
        // them at once would take gigabytes).
        let mut page = Vec::with_capacity(100);
        let mut stored_items = 0;
        for detail in data.items() {
            page.push(detail);
            if page.len() == 100 {
                put_page(&mut store, &page, stored_items);
                stored_items += page.len();
                page.clear();
            }
        }
        put_page(&mut store, &page, stored_items);
        let stored = started.elapsed();
        triage(&mut store, &data);
        rusqlite::Connection::open(&partial)
            .unwrap()
            // No VACUUM: the size is what a store written page by page takes.
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        drop(store);
        std::fs::rename(&partial, &path).unwrap();
        eprintln!(
            "built {n} items: generated in {:.1}s, stored in {:.1}s ({:.0} items/s, pages of 100, one transaction each)",
            generated.as_secs_f64(),
            stored.as_secs_f64(),
            n as f64 / stored.as_secs_f64()
        );
    }
    let store = Store::open(&path).unwrap();
    let info = store.info().unwrap();
    let stored: u64 = info.by_status.values().sum();
    eprintln!(
        "store of {stored} items ({} with a detail): {} bytes, {:.0} bytes per item (index included)",
        info.with_detail,
        info.bytes,
        info.bytes as f64 / stored as f64
    );
    store
}

/// Marks every `DONE_EVERY`th item done and every `SNOOZED_EVERY`th snoozed for a week after
/// the anchor.
fn triage(store: &mut Store, data: &sim::data::Dataset) {
    use feedback_store::Triage;
    let states: Vec<(String, Triage)> = data
        .items()
        .enumerate()
        .filter_map(|(i, d)| {
            let triage = if i % DONE_EVERY == 0 {
                Triage {
                    done: true,
                    ..Triage::default()
                }
            } else if i % SNOOZED_EVERY == 0 {
                Triage {
                    snoozed_until: Some(anchor() + jiff::SignedDuration::from_hours(24 * 7)),
                    ..Triage::default()
                }
            } else {
                return None;
            };
            Some((d.feedback.id.as_str().to_owned(), triage))
        })
        .collect();
    store.restore_triage(&states, anchor()).unwrap();
}

/// One page: every `DETAIL_EVERY`th item (counted over the whole store) with its detail.
fn put_page(store: &mut Store, page: &[feedback_api::FeedbackDetail], before: usize) {
    let sightings: Vec<Sighting<'_>> = page
        .iter()
        .enumerate()
        .map(|(i, d)| {
            if (before + i).is_multiple_of(DETAIL_EVERY) {
                Sighting::detail(d)
            } else {
                Sighting::listed(&d.feedback, &d.feedback.status)
            }
        })
        .collect();
    store.put(&sightings, anchor()).unwrap();
}

/// Storing pages of 100 into a fresh file store, full-text index included.
fn storing(c: &mut Criterion) {
    let batch = items(10_000);
    let mut group = c.benchmark_group("store");
    group.throughput(Throughput::Elements(batch.len() as u64));
    group.sample_size(10);
    // One transaction per list page (what a sync writes as pages arrive), and per ten pages
    // (what a bulk write of pages already at hand costs): each commit syncs the log to disk and
    // writes the full-text index's new segment.
    for per_transaction in [100, 1000] {
        let name = format!("put_10k_items_{per_transaction}_per_transaction");
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let dir = tempfile::tempdir().unwrap();
                    let store = Store::open(&dir.path().join("s.sqlite3")).unwrap();
                    (dir, store)
                },
                |(dir, mut store)| {
                    for page in batch.chunks(per_transaction) {
                        store.put_items(page, anchor()).unwrap();
                    }
                    (dir, store)
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

/// The queries behind a view at scale: a status's first screen, all its keys, its count.
fn views(c: &mut Criterion) {
    let store = big_store();
    let new = ViewQuery::listed(Some("new"));
    let project = store.counts(Some("new")).unwrap().projects[1].id.clone();
    let by_project = new.clone().in_project(Some(project));
    let mut group = c.benchmark_group("view_1m");
    group.sample_size(10);
    group.bench_function("first_screen_new", |b| {
        b.iter(|| {
            store
                .items(&store.view_keys(&new, Some(60)).unwrap())
                .unwrap()
        });
    });
    group.bench_function("all_keys_new", |b| {
        b.iter(|| store.view_keys(&new, None).unwrap());
    });
    group.bench_function("first_screen_new_one_project", |b| {
        b.iter(|| {
            store
                .items(&store.view_keys(&by_project, Some(60)).unwrap())
                .unwrap()
        });
    });
    group.bench_function("all_keys_new_one_project", |b| {
        b.iter(|| store.view_keys(&by_project, None).unwrap());
    });
    group.bench_function("count_new", |b| b.iter(|| store.view_count(&new).unwrap()));
    group.bench_function("pane_counts_new", |b| {
        b.iter(|| store.counts(Some("new")).unwrap());
    });
    group.finish();
}

/// Searches at scale, compiled by the search language, within the `new` view as `/` runs them:
/// a selective word (about 0.6% of items, per the simulator's vocabulary), a word in about half
/// of all items, a qualifier with a word, and a prefix. Each is timed for the first screen
/// (what appears first) and for every key in order (the count and the scroll range).
fn searches(c: &mut Criterion) {
    use feedback_core::query::parse;
    use feedback_store::search::Context;
    let store = big_store();
    let cx = Context {
        now: anchor(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let mut group = c.benchmark_group("search_1m");
    group.sample_size(10);
    for (name, input) in [
        ("selective_word", "fairphone"),
        ("half_of_items_word", "thanks"),
        ("qualifier_and_word", "tag:billing refund"),
        ("prefix", "notif*"),
    ] {
        let sql = store.compile(&parse(input).unwrap(), &cx).unwrap();
        let view = ViewQuery::listed(Some("new")).search(sql);
        let matched = store.view_keys(&view, None).unwrap().len();
        eprintln!("{input:?}: {matched} matches among new items");
        group.bench_function(format!("{name}_first_screen"), |b| {
            b.iter(|| {
                store
                    .items(&store.view_keys(&view, Some(60)).unwrap())
                    .unwrap()
            });
        });
        group.bench_function(format!("{name}_all_keys"), |b| {
            b.iter(|| store.view_keys(&view, None).unwrap());
        });
    }
    group.finish();
}

/// Pivots at scale: the whole store and the `new` view as the inbox shows it (done and
/// snoozed items left out), by app, platform, tag, a metadata key, the built-in ones (version,
/// OS), day and week; and the trends panel's one query per view change. Each builds the groups
/// with their 30-day series.
fn pivots(c: &mut Criterion) {
    use feedback_store::pivot::By;
    use feedback_store::search::Context;
    let store = big_store();
    let cx = Context {
        now: anchor(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let views = [
        ("all", ViewQuery::default()),
        ("new", ViewQuery::listed(Some("new")).hide_triaged(anchor())),
    ];
    let mut group = c.benchmark_group("pivot_1m");
    group.sample_size(10);
    for (name, view) in &views {
        for by in [
            By::App,
            By::Platform,
            By::Tag,
            By::Meta("plan".into()),
            By::Version,
            By::Os,
            By::Day,
            By::Week,
        ] {
            let pivot = store.pivot(view, &by, &cx).unwrap();
            eprintln!(
                "{name} by {}: {} groups, {} items, covered {:?}",
                by.name(),
                pivot.groups.len(),
                pivot.total,
                pivot.covered
            );
            group.bench_function(format!("{name}_by_{}", by.name()), |b| {
                b.iter(|| store.pivot(view, &by, &cx).unwrap());
            });
        }
        group.bench_function(format!("{name}_trend_by_tag"), |b| {
            b.iter(|| store.trend(view, &By::Tag, &cx).unwrap());
        });
    }
    group.finish();
}

/// Similar items for one item, and Top issues over the newest 100,000 items.
fn similar(c: &mut Criterion) {
    use feedback_store::pivot::{SERIES_DAYS, Window};
    let store = big_store();
    let keys = store.view_keys(&ViewQuery::default(), Some(2000)).unwrap();
    let sample: Vec<i64> = keys.iter().step_by(40).copied().collect();
    // The worst of 50 items, each timed once (the cache warm from the first).
    let mut worst = std::time::Duration::ZERO;
    for &key in &sample {
        let started = Instant::now();
        let found = store.similar(key, 100).unwrap().unwrap();
        let took = started.elapsed();
        worst = worst.max(took);
        if key == sample[0] {
            eprintln!(
                "similar to {key}: {} above the threshold, {} apps, terms {:?}, {took:?}",
                found.total,
                found.apps.len(),
                found.terms
            );
        }
    }
    eprintln!("similar: worst of {} items {worst:?}", sample.len());
    let mut group = c.benchmark_group("similar_1m");
    group.sample_size(10);
    group.bench_function("similar_one_item", |b| {
        let mut at = 0;
        b.iter(|| {
            at = (at + 1) % sample.len();
            store.similar(sample[at], 100).unwrap()
        });
    });
    let window = Window::ending(anchor(), &jiff::tz::TimeZone::UTC, SERIES_DAYS);
    let view = ViewQuery::default();
    let top = store
        .top_issues(&view, &window, 100_000, 200, &mut |_| {})
        .unwrap();
    eprintln!(
        "top issues: {} items, {} clusters, largest {:?}",
        top.items,
        top.total_clusters,
        top.clusters
            .iter()
            .take(3)
            .map(|c| c.keys.len())
            .collect::<Vec<_>>()
    );
    group.bench_function("top_issues_100k", |b| {
        b.iter(|| {
            store
                .top_issues(&view, &window, 100_000, 200, &mut |_| {})
                .unwrap()
        });
    });
    group.finish();
}

criterion_group!(benches, storing, views, searches, pivots, similar);
criterion_main!(benches);
