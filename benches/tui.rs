//! Inbox performance: drawing a frame with a huge list (only visible rows are built), compared
//! with building a ratatui `List` of every row; resident memory per loaded item; the `/` filter
//! per keystroke over 100,000 items; prepending new items into a million.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use feedback_inbox::tui::action::{Action, Msg};
use feedback_inbox::tui::keymap::Keymap;
use feedback_inbox::tui::state::AppState;
use feedback_inbox::tui::store::Store;
use feedback_inbox::tui::testkit::{item, now};
use feedback_inbox::tui::update::update;
use feedback_inbox::tui::view;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::widgets::{List, ListItem};

fn state_with(items: usize) -> AppState {
    let mut state = AppState::new(now(), 200, 50);
    update(
        &mut state,
        Msg::Resize {
            width: 200,
            height: 50,
        },
    );
    let mut n = 0;
    while n < items {
        let to = (n + 10_000).min(items);
        state.list.store.append((n..to).map(item));
        n = to;
    }
    state.list.selected = items / 2;
    update(&mut state, Msg::Action(Action::MoveDown));
    state
}

fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn memory_report() {
    for items in [100_000, 1_000_000] {
        let before = resident_bytes();
        let mut store = Store::default();
        let mut n = 0;
        while n < items {
            let to = (n + 10_000).min(items);
            store.append((n..to).map(item));
            n = to;
        }
        let after = resident_bytes();
        eprintln!(
            "memory: {items} items: {} MiB resident growth, {} bytes per item",
            after.saturating_sub(before) / 1_048_576,
            after.saturating_sub(before) / items
        );
        black_box(&store);
    }
}

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    (
        samples[samples.len() / 2],
        samples[samples.len() * 99 / 100],
    )
}

fn frames(c: &mut Criterion) {
    memory_report();
    let keymap = Keymap::default();
    let mut group = c.benchmark_group("frame_200x50");
    for items in [10usize, 1_000_000] {
        let state = state_with(items);
        let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
        let samples: Vec<Duration> = (0..1000)
            .map(|_| {
                let start = Instant::now();
                terminal.draw(|f| view::render(f, &state, &keymap)).unwrap();
                start.elapsed()
            })
            .collect();
        let (median, p99) = percentiles(samples);
        eprintln!("frame with {items} items: median {median:?}, p99 {p99:?} (1000 draws)");
        group.bench_function(format!("visible_rows_{items}_items"), |b| {
            b.iter(|| {
                terminal
                    .draw(|f| view::render(f, &state, &keymap))
                    .unwrap()
                    .area
            });
        });
        // The same screen rendered into the frame's buffer only, without the terminal's diff
        // and flush: the part of a frame that is this program's work.
        group.bench_function(format!("render_only_{items}_items"), |b| {
            b.iter(|| {
                let mut frame = terminal.get_frame();
                view::render(&mut frame, &state, &keymap);
                frame.area()
            });
        });
        if items == 1_000_000 {
            group.sample_size(10);
            group.bench_function("list_widget_of_every_row_1000000_items", |b| {
                b.iter(|| {
                    terminal
                        .draw(|f| {
                            let rows: Vec<ListItem> = state
                                .list
                                .store
                                .window(0, usize::MAX)
                                .map(|r| ListItem::new(&*r.message))
                                .collect();
                            f.render_widget(List::new(rows), f.area());
                        })
                        .unwrap()
                        .area
                });
            });
        }
    }
    group.finish();
}

fn text_filter(c: &mut Criterion) {
    let mut state = state_with(100_000);
    update(&mut state, Msg::Action(Action::Filter));
    let key = |c| Msg::FilterInput(KeyEvent::new(c, KeyModifiers::NONE));
    for ch in "sync butto".chars() {
        update(&mut state, key(KeyCode::Char(ch)));
    }
    let mut group = c.benchmark_group("filter_100000_items");
    group.bench_function("keystroke_narrowing", |b| {
        b.iter(|| {
            update(&mut state, key(KeyCode::Char('n')));
            update(&mut state, key(KeyCode::Backspace));
        });
    });
    group.finish();
    // A lone keystroke that narrows (the common case), timed separately from the pair above.
    let start = Instant::now();
    update(&mut state, key(KeyCode::Char('n')));
    eprintln!(
        "filter: one narrowing keystroke over 100000 items: {:?}",
        start.elapsed()
    );
}

fn prepend(c: &mut Criterion) {
    let mut store = Store::default();
    let mut n = 0;
    while n < 1_000_000 {
        let to = n + 10_000;
        store.append((n..to).map(item));
        n = to;
    }
    let mut next = 2_000_000;
    let mut group = c.benchmark_group("prepend_into_1000000_items");
    group.bench_function("three_new_items", |b| {
        b.iter_custom(|iters| {
            let batches: Vec<Vec<_>> = (0..iters)
                .map(|_| {
                    next += 3;
                    (next - 3..next).map(item).collect()
                })
                .collect();
            let start = Instant::now();
            for batch in batches {
                black_box(store.prepend(batch));
            }
            start.elapsed()
        });
    });
    group.finish();
}

criterion_group!(benches, frames, text_filter, prepend);
criterion_main!(benches);
