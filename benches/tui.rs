//! Inbox performance: a frame with a million keys in view against the same screen with ten
//! (only the visible rows are drawn, and only the rows near the screen are held) over
//! `TestBackend` and over crossterm writing to a sink, with a still screen and with the
//! selection moving each frame; resident memory of a million-key view; what the UI thread does
//! per `/` keystroke (the query itself runs off it); applying a requery's answer of a million
//! keys.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::io::{Sink, sink};
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::state::{AppState, InFlight};
use std::sync::Arc;

use feedback_tui::action::ViewData;
use feedback_tui::render;
use feedback_tui::rows::{Row, Window};
use feedback_tui::testkit::{started, stored};
use feedback_tui::update::update;
use ratatui::backend::{CrosstermBackend, TestBackend};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};

/// The keys of a view of `items` items and the window of rows around position `at`, as the
/// store's reads give them (built here without a store: the UI side is what is measured).
fn view(items: usize, at: usize) -> ViewData {
    let keys: Arc<[i64]> = (1..=i64::try_from(items).unwrap()).collect();
    let start = at.saturating_sub(64);
    let end = (at + 50 + 64).min(items);
    let rows: Vec<Row> = (start..end).map(|n| Row::new(&stored(n))).collect();
    ViewData {
        keys,
        selected: Some(at),
        top: Some(at),
        first: Some(0),
        woken: 0,
        window: Window {
            start,
            rows,
            triage: std::collections::HashMap::new(),
            team: std::collections::HashMap::new(),
        },
        freshness: None,
        partial: false,
        triage: feedback_tui::action::TriageFigures::default(),
        basis: None,
    }
}

/// A started 200x50 inbox with `items` keys in view and the selection in the middle.
fn state_with(items: usize) -> AppState {
    let mut state = started(200, 50, 10, false);
    let data = view(items, items / 2);
    state.list.keys = data.keys;
    state.list.window = data.window;
    state.list.selected = items / 2;
    state.list.offset = items / 2;
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

/// What a view of a million keys holds on the UI side (the keys and the window's rows).
fn memory_report() {
    for items in [100_000, 1_000_000] {
        let before = resident_bytes();
        let state = state_with(items);
        let after = resident_bytes();
        eprintln!(
            "memory: a view of {items} keys: {} MiB resident growth, {} bytes per key",
            after.saturating_sub(before) / 1_048_576,
            after.saturating_sub(before) / items
        );
        black_box(&state);
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

/// The selection one row down, back up a screen before it leaves the rows held (the bench has
/// no store to read more from): every frame then differs from the last.
fn move_selection(state: &mut AppState) {
    let window = &state.list.window;
    let held_end = window.start + window.rows.len();
    let action = if state.list.selected + 2 >= held_end {
        Action::PageUp
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
        terminal
            .draw(|f| render::render(f, state, &keymap))
            .unwrap();
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
        render::render(&mut frame, state, &keymap);
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
        terminal
            .draw(|f| render::render(f, state, &keymap))
            .unwrap();
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
            sink.draw(|f| render::render(f, state, &keymap)).unwrap();
        } else {
            test.draw(|f| render::render(f, state, &keymap)).unwrap();
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

fn frames(c: &mut Criterion) {
    memory_report();
    let mut group = c.benchmark_group("frame_200x50");
    let mut medians = Vec::new();
    for items in [10usize, 1_000_000] {
        let mut state = state_with(items);
        medians.push(still_frames(&mut group, &state, items));
        moving_frames(&mut group, &mut state, items);
    }
    eprintln!(
        "frame: a million keys in view draws in {:.2}x the time of ten ({:?} / {:?})",
        medians[1].as_secs_f64() / medians[0].as_secs_f64(),
        medians[1],
        medians[0]
    );
    group.finish();
}

/// The UI thread's work per `/` keystroke: parsing the text and asking for the query (which
/// runs off it), with a million keys in view.
fn search_keystroke(c: &mut Criterion) {
    let mut state = state_with(1_000_000);
    update(&mut state, Msg::Action(Action::Filter));
    let key = |c| Msg::FilterInput(KeyEvent::new(c, KeyModifiers::NONE));
    for ch in "tag:bug sync butto".chars() {
        update(&mut state, key(KeyCode::Char(ch)));
    }
    let mut group = c.benchmark_group("search_1000000_keys");
    group.bench_function("keystroke_on_the_ui_thread", |b| {
        b.iter(|| {
            black_box(update(&mut state, key(KeyCode::Char('n'))));
            black_box(update(&mut state, key(KeyCode::Backspace)));
        });
    });
    group.finish();
}

/// Applying a requery's answer of a million keys (a sync stored new rows): the keys arrive as
/// one shared slice, the selection kept by the position the worker found.
fn apply_answer(c: &mut Criterion) {
    let mut state = state_with(1_000_000);
    let mut group = c.benchmark_group("requery_answer_1000000_keys");
    group.bench_function("apply", |b| {
        b.iter_custom(|iters| {
            let answers: Vec<Msg> = (0..iters)
                .map(|_| Msg::ViewLoaded {
                    request_id: state.list.query_id,
                    result: Ok(Box::new(view(1_000_000, 500_000))),
                })
                .collect();
            let mut took = std::time::Duration::ZERO;
            for msg in answers {
                // Each answer is the answer to the query in flight (a second answer to one
                // query would be dropped, not applied).
                state.list.in_flight = Some(InFlight {
                    spec: state.view.clone(),
                    ..InFlight::default()
                });
                let start = Instant::now();
                black_box(update(&mut state, msg));
                took += start.elapsed();
            }
            took
        });
    });
    group.finish();
}

// A frame with the trends panel open over a million-item view's trend (the draw is
// what is measured: the trend is computed off the UI thread and cached in state).
fn trends_frame(c: &mut Criterion) {
    use feedback_store::pivot::{Growth, Shown, Trend};
    use feedback_tui::insight::TrendsPanel;
    let items = 1_000_000;
    let mut state = state_with(items);
    // A million items over 30 days: about 33,000 a day, rising.
    let daily: Vec<u32> = (0..30u32).map(|d| 30_000 + d * 200).collect();
    let growing = (0..5u32)
        .map(|n| {
            let (key, label) = (format!("app-{n}"), format!("App number {n}"));
            Growth {
                text: Shown::of(Some(&key), Some(&label)),
                key: Some(key),
                label: Some(label),
                this_week: u64::from(40_000 - n * 5_000),
                weekly_average: 10_000.0,
                added: f64::from(30_000 - n * 5_000),
                percent: Some(f64::from(300 - n * 50)),
                previous: 40_000,
                baseline_days: 28,
            }
        })
        .collect();
    state.insight.trends = Some(TrendsPanel {
        trend: Some(Trend {
            today: daily[29],
            first_day: jiff::civil::date(2026, 10, 3),
            daily,
            growing,
            held_from: 0,
            no_baseline: false,
            based_on: None,
        }),
        ..TrendsPanel::default()
    });
    update(
        &mut state,
        Msg::Resize {
            width: 200,
            height: 50,
        },
    );
    let keymap = Keymap::default();
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).unwrap();
    let mut draw = || {
        let start = Instant::now();
        terminal
            .draw(|f| render::render(f, &state, &keymap))
            .unwrap();
        start.elapsed()
    };
    let median = report(
        "with the trends panel (TestBackend)",
        items,
        timed(1000, &mut draw),
    );
    assert!(
        median <= Duration::from_millis(2),
        "a frame with the trends panel takes {median:?} (at most 2 ms)"
    );
    let mut group = c.benchmark_group("trends_panel_1000000_items");
    group.bench_function("frame", |b| {
        b.iter(|| {
            terminal
                .draw(|f| render::render(f, black_box(&state), &keymap))
                .unwrap();
        });
    });
    group.finish();
}

criterion_group!(
    benches,
    frames,
    search_keystroke,
    apply_answer,
    trends_frame
);
criterion_main!(benches);
