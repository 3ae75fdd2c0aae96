//! Snapshots of the help over each screen: the keys of the screen under it come first, titled
//! with it, then the other screens' keys (the list's help, which takes every key, is in
//! `tui_snapshots`). Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::state::{AppState, Mode};
use feedback_tui::testkit::{Harness, started_harness};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(state: &AppState) -> String {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal.backend().to_string()
}

fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

/// The help over `mode`, reached as a user would.
fn help_over(mode: Mode) -> Harness {
    let mut h = started_harness(100, 30, 40, true);
    match mode {
        Mode::Detail => act(&mut h, Action::Open),
        Mode::Grouped => h.group_by("tag"),
        Mode::Messages => act(&mut h, Action::Messages),
        _ => {}
    }
    assert_eq!(h.state.mode(), mode);
    act(&mut h, Action::Help);
    assert_eq!(h.state.mode(), Mode::Help);
    assert_eq!(h.state.mode_below_help(), mode);
    h.state.note = None;
    h
}

#[test]
fn the_help_over_the_detail_starts_with_the_details_keys() {
    let screen = draw(&help_over(Mode::Detail).state);
    insta::assert_snapshot!(screen);
    assert!(screen.contains("Keys in the detail"), "{screen}");
}

#[test]
fn the_help_over_the_grouped_view_starts_with_its_keys() {
    let screen = draw(&help_over(Mode::Grouped).state);
    insta::assert_snapshot!(screen);
    assert!(screen.contains("Keys in the grouped view"), "{screen}");
}

#[test]
fn the_help_over_the_message_log_starts_with_its_keys() {
    let h = help_over(Mode::Messages);
    let screen = draw(&h.state);
    insta::assert_snapshot!(screen);
    assert!(screen.contains("Keys in the message log"), "{screen}");
    // Scrolled to its end, the other screens' keys follow.
    let (_, max) = render::help_scroll_range(100, 30, &Keymap::default(), Mode::Messages);
    let mut h = h;
    h.send(Msg::HelpScroll {
        lines: i32::MAX,
        max,
    });
    let end = draw(&h.state);
    assert!(!end.contains("Keys in the message log"), "{end}");
}

/// The status bar's row (the screen's last) of each screen at `width` columns.
fn bars(width: u16) -> String {
    let mut rows = Vec::new();
    let mut h = started_harness(width, 30, 40, true);
    let mut take = |h: &Harness, name: &str| {
        let screen = draw(&h.state);
        let last = screen.lines().last().unwrap_or_default().to_owned();
        rows.push(format!("{name:>9}: {last}"));
    };
    take(&h, "list");
    act(&mut h, Action::Open);
    take(&h, "detail");
    act(&mut h, Action::Back);
    act(&mut h, Action::Filter);
    take(&h, "prompt");
    act(&mut h, Action::Back);
    h.group_by("tag");
    take(&h, "grouped");
    act(&mut h, Action::Back);
    act(&mut h, Action::Messages);
    take(&h, "messages");
    rows.join("\n")
}

#[test]
fn the_status_bar_hints_at_each_screens_keys_at_80_and_200_columns() {
    let narrow = bars(80);
    insta::assert_snapshot!(narrow);
    let wide = bars(200);
    insta::assert_snapshot!(wide);
    assert!(
        wide.contains("esc back J next y copy link ? help"),
        "{wide}"
    );
    assert!(
        wide.contains("tab complete  ↑ history  enter keep  esc clear"),
        "{wide}"
    );
}
