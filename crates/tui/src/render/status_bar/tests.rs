//! The rate-limit budget in the status bar goes by the same predicate as paging: low only
//! until the window resets, with the countdown shown only while the reset is ahead.

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::action::Msg;
use crate::testkit::{budget, now, started, started_harness};
use feedback_core::text::Clean;

/// The budget part of the bar: its text, style and priority.
fn budget_part(state: &AppState) -> (String, Style, u8) {
    let theme = Theme::new(true);
    right_parts(state, theme)
        .into_iter()
        .find(|p| p.text.starts_with("2/60"))
        .map(|p| (p.text, p.style, p.priority))
        .expect("the budget is shown")
}

fn bottom_row(state: &AppState) -> String {
    let backend = TestBackend::new(state.width, state.height);
    let mut terminal = Terminal::new(backend).unwrap();
    terminal
        .draw(|frame| crate::render::render(frame, state, &Keymap::default()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    (0..state.width)
        .map(|x| buffer[(x, state.height - 1)].symbol())
        .collect()
}

#[test]
fn a_low_budget_is_no_longer_a_warning_once_its_window_has_reset() {
    let mut h = started_harness(120, 20, 100, false);
    let theme = Theme::new(true);
    let reset = now() + jiff::SignedDuration::from_secs(30);
    h.apply(budget(60, 2, reset));
    assert_eq!(
        budget_part(&h.state),
        ("2/60 ↻30s".into(), theme.warn(), 88)
    );
    assert!(bottom_row(&h.state).contains("2/60 ↻30s"));
    h.apply(Msg::Tick(reset));
    assert!(!crate::state::budget_low(&h.state));
    assert_eq!(
        budget_part(&h.state),
        ("2/60".into(), theme.dim(), 65),
        "the reset has come: no countdown, no warning"
    );
    let row = bottom_row(&h.state);
    assert!(row.contains("2/60") && !row.contains('↻'), "{row}");
}

#[test]
fn a_message_is_shown_whole_while_the_key_hints_step_aside() {
    let mut h = started_harness(120, 20, 100, false);
    let reset = now() + jiff::SignedDuration::from_secs(36);
    h.apply(budget(120, 97, reset));
    // 60 cells: the hints' room is needed for it, the budget's is not.
    let text = "Not opened (no display); copied the issue-tracker link (OSC)";
    h.state.note = Some(crate::state::Note {
        text: Clean::line(text),
        error: false,
        until: Some(now() + jiff::SignedDuration::from_secs(5)),
    });
    let row = bottom_row(&h.state);
    assert!(row.contains(text), "the whole message: {row}");
    // The hints step aside but for the help's, which fits in what is left.
    assert!(row.contains("97/120") && !row.contains("quit"), "{row}");
    assert!(row.trim_end().ends_with("? help"), "{row}");
    h.state.note = None;
    assert!(
        bottom_row(&h.state).contains("q quit ? help"),
        "the hints return"
    );
}

#[test]
fn a_message_wider_than_the_bar_is_cut_not_the_status() {
    let mut state = started(60, 20, 100, false);
    state.note = Some(crate::state::Note {
        text: Clean::line(&"x".repeat(200)),
        error: false,
        until: Some(now() + jiff::SignedDuration::from_secs(5)),
    });
    let row = bottom_row(&state);
    assert!(row.starts_with(" new · "), "{row}");
    // Cut, it says that `M` shows it whole.
    assert!(row.contains("x…(M)"), "{row}");
    assert!(feedback_core::width::width(row.trim_end()) <= 60, "{row}");
}

#[test]
fn the_hints_are_the_keys_of_the_screen_on_top_as_bound() {
    let mut h = started_harness(120, 20, 100, false);
    h.send(Msg::Action(crate::action::Action::Open));
    let row = bottom_row(&h.state);
    assert!(row.contains("esc back J next y copy link ? help"), "{row}");
    let rebound = Keymap::from_config("[keys]\nback = \"backspace\"\n", "config.toml").unwrap();
    let hints = super::hint_variants(&h.state, &rebound);
    assert_eq!(hints[0], "backspace back J next y copy link ? help");
    // Short of room, the next to last goes first: the help stays to the end.
    assert_eq!(
        hints[1..],
        [
            "backspace back J next ? help",
            "backspace back ? help",
            "? help"
        ]
    );
    h.send(Msg::Action(crate::action::Action::Back));
    h.send(Msg::Action(crate::action::Action::Filter));
    assert_eq!(
        super::hint_variants(&h.state, &Keymap::default()),
        [
            "tab complete  ↑ history  enter keep  esc clear",
            "tab complete  ↑ history  esc clear",
            "tab complete  esc clear",
            "esc clear"
        ]
    );
    h.state.hints = false;
    assert_eq!(
        super::hint_variants(&h.state, &Keymap::default()),
        ["? help"]
    );
}
