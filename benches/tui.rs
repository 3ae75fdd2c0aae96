//! Inbox performance: drawing a frame with a huge list (only visible rows are built) over
//! `TestBackend` and over crossterm writing to a sink, with a still screen and with the
//! selection moving each frame, compared with building a ratatui `List` of every row; resident
//! memory per loaded item; the `/` filter per keystroke over 100,000 items; prepending new
//! items into a million.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::io::{Sink, sink};
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use feedback_inbox::tui::action::{Action, Msg};
use feedback_inbox::tui::keymap::Keymap;
use feedback_inbox::tui::state::AppState;
use feedback_inbox::tui::store::Store;
use feedback_inbox::tui::testkit::{item, started};
use feedback_inbox::tui::update::update;
use feedback_inbox::tui::view;
use ratatui::backend::{CrosstermBackend, TestBackend};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::widgets::{List, ListItem};
use ratatui::{Terminal, TerminalOptions, Viewport};

/// A started 200x50 inbox (panes loaded, first page through `update`) with `items` items and
/// the selection in the middle of the list.
fn state_with(items: usize) -> AppState {
    let mut state = started(200, 50, items.min(100), false);
    let mut n = state.list.store.len();
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

/// Median and 99th percentile of `runs` timings.
fn timed(runs: usize, mut run: impl FnMut() -> Duration) -> (Duration, Duration) {
    percentiles((0..runs).map(|_| run()).collect())
}

fn report(what: &str, items: usize, (median, p99): (Duration, Duration)) -> Duration {
    eprintln!("frame {what}, {items} items: median {median:?}, p99 {p99:?}");
    median
}

/// The selection one row down (the list scrolls once it reaches the bottom of the screen),
/// back to the top at the end: every frame then differs from the last.
fn move_selection(state: &mut AppState) {
    let last = state.visible_len().saturating_sub(1);
    let action = if state.list.selected >= last {
        Action::Top
    } else {
        Action::MoveDown
    };
    update(state, Msg::Action(action));
}

/// A terminal over crossterm writing its escape sequences to `io::sink()`: the real backend's
/// output work without a tty.
fn sink_terminal() -> Terminal<CrosstermBackend<Sink>> {
    let viewport = Viewport::Fixed(Rect::new(0, 0, 200, 50));
    Terminal::with_options(CrosstermBackend::new(sink()), TerminalOptions { viewport }).unwrap()
}

/// Draws with a screen that does not change (the diff finds nothing to send); returns the
/// median over `TestBackend`.
fn still_frames(c: &mut BenchmarkGroup<'_, WallTime>, state: &AppState, items: usize) -> Duration {
    let keymap = Keymap::default();
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut draw = || {
        let start = Instant::now();
        terminal.draw(|f| view::render(f, state, &keymap)).unwrap();
        start.elapsed()
    };
    let median = report("drawn (TestBackend)", items, timed(1000, &mut draw));
    c.bench_function(format!("visible_rows_{items}_items"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| draw()).sum());
    });
    // The same screen rendered into the frame's buffer only, without the terminal's diff
    // and flush: the part of a frame that is this program's work.
    let mut render = || {
        let start = Instant::now();
        let mut frame = terminal.get_frame();
        view::render(&mut frame, state, &keymap);
        black_box(frame.area());
        start.elapsed()
    };
    report("render only", items, timed(1000, &mut render));
    c.bench_function(format!("render_only_{items}_items"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| render()).sum());
    });
    let mut terminal = sink_terminal();
    let mut draw = || {
        let start = Instant::now();
        terminal.draw(|f| view::render(f, state, &keymap)).unwrap();
        start.elapsed()
    };
    report("drawn (crossterm to sink)", items, timed(1000, &mut draw));
    c.bench_function(format!("crossterm_sink_{items}_items"), |b| {
        b.iter_custom(|iters| (0..iters).map(|_| draw()).sum());
    });
    median
}

/// Draws with the selection moved before each (not timed), so the diff has rows to send.
fn moving_frames(c: &mut BenchmarkGroup<'_, WallTime>, state: &mut AppState, items: usize) {
    let keymap = Keymap::default();
    let mut test = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut sink = sink_terminal();
    let mut draw = |state: &mut AppState, sink_backend: bool| {
        move_selection(state);
        let start = Instant::now();
        if sink_backend {
            sink.draw(|f| view::render(f, state, &keymap)).unwrap();
        } else {
            test.draw(|f| view::render(f, state, &keymap)).unwrap();
        }
        start.elapsed()
    };
    for (sink_backend, name) in [(false, "test_backend"), (true, "crossterm_sink")] {
        let what = format!("drawn, selection moving ({name})");
        report(&what, items, timed(1000, || draw(state, sink_backend)));
        c.bench_function(format!("moving_{name}_{items}_items"), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| draw(state, sink_backend)).sum());
        });
    }
}

/// A ratatui `List` of every loaded row, drawn: what building all rows costs.
fn every_row(c: &mut BenchmarkGroup<'_, WallTime>, state: &AppState) -> Duration {
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut draw = || {
        let start = Instant::now();
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
            .unwrap();
        start.elapsed()
    };
    let median = report(
        "List of every row",
        state.list.store.len(),
        timed(5, &mut draw),
    );
    c.sample_size(10);
    c.bench_function("list_widget_of_every_row_1000000_items", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| draw()).sum());
    });
    median
}

fn frames(c: &mut Criterion) {
    memory_report();
    let mut group = c.benchmark_group("frame_200x50");
    for items in [10usize, 1_000_000] {
        let mut state = state_with(items);
        let visible = still_frames(&mut group, &state, items);
        if items == 1_000_000 {
            let all = every_row(&mut group, &state);
            eprintln!(
                "frame: building every row takes {:.0}x the visible-rows frame ({all:?} / {visible:?})",
                all.as_secs_f64() / visible.as_secs_f64()
            );
        }
        moving_frames(&mut group, &mut state, items);
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
