//! Client-side performance: decoding a 100-item page, and `list --all` against the simulator
//! (request count and pacing, then wall time per full walk).
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use feedback_api::{ApiKey, Client, Feedback, FeedbackQuery, Page};
use feedback_core::clock::ManualClock;
use feedback_sim::{self as sim, DEMO_KEY, Route, SimConfig};
use jiff::Timestamp;

fn page_json(items: usize) -> Vec<u8> {
    let anchor: Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
    let data = sim::data::generate(3, items, anchor);
    let page = Page {
        data: data.items().map(|d| d.feedback).collect::<Vec<_>>(),
        next_cursor: Some(feedback_api::Cursor(
            "MS4xNzYxOTk5MjAwMDAwMDAwMDAwLmFiY2QuMTIzNA".into(),
        )),
    };
    serde_json::to_vec(&page).unwrap()
}

fn decode(c: &mut Criterion) {
    let body = page_json(100);
    let mut group = c.benchmark_group("decode");
    group.throughput(Throughput::Elements(100));
    group.bench_function("page_of_100_feedback", |b| {
        b.iter(|| serde_json::from_slice::<Page<Feedback>>(black_box(&body)).unwrap());
    });
    group.finish();
}

/// Walks every `new` item of a 5,000-item simulator with a 30/minute budget. Prints the request
/// count against ceil(N/100) and the number of 429s, then times the walk.
fn list_all(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let walk = |items: usize, rate: u32| {
        rt.block_on(async move {
            let clock = ManualClock::new("2026-11-01T12:00:00Z".parse().unwrap());
            let config = SimConfig {
                items,
                rate_per_minute: rate,
                clock: clock.clone(),
                ..SimConfig::default()
            };
            let handle = sim::start(config).await.unwrap();
            let client = Client::builder(&handle.base_url(), ApiKey::parse(DEMO_KEY).unwrap())
                .unwrap()
                .clock(Arc::clone(&clock) as _)
                .build()
                .unwrap();
            let mut walker = client.walk(FeedbackQuery {
                limit: Some(100),
                ..Default::default()
            });
            while let Some(batch) = walker.next_page().await {
                black_box(batch.unwrap());
            }
            let stats = handle.stats();
            (
                walker.yielded(),
                stats.route(Route::FeedbackList),
                stats.status(429),
            )
        })
    };
    let (items, requests, limited) = walk(5000, 30);
    eprintln!(
        "list --all: {items} items, {requests} list requests (ceil(N/100) = {}), {limited} answers 429",
        items.div_ceil(100)
    );
    assert_eq!(usize::try_from(requests).unwrap(), items.div_ceil(100));
    assert_eq!(limited, 0);
    let mut group = c.benchmark_group("list_all");
    group.sample_size(20);
    group.bench_function("walk_5000_items_rate_30_per_minute", |b| {
        b.iter(|| walk(5000, 30));
    });
    group.finish();
}

criterion_group!(benches, decode, list_all);
criterion_main!(benches);
