//! Snapshots of the message log at 80x24: a hint too long for the status bar is cut there
//! with `…`, and the log (`M`) shows it whole, wrapped under its time. Fixed data, a fixed
//! clock, UTC.
#![allow(clippy::unwrap_used)]

use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::state::{AppState, Mode};
use feedback_tui::testkit::started_harness;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const PIPE_HINT: &str =
    "No command to pipe to: add [[commands]] with a name and an argv to config.toml";

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

fn rows(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect()
        })
        .collect()
}

#[test]
fn a_hint_cut_in_the_status_bar_is_whole_in_the_log() {
    let mut h = started_harness(80, 24, 30, true);
    h.send(Msg::Action(Action::ToggleMouse));
    h.send(Msg::Action(Action::Pipe));
    let list = draw(&h.state);
    let bar = rows(&list).last().cloned().unwrap();
    assert!(!bar.contains(PIPE_HINT), "{bar}");
    assert!(bar.contains('…'), "cut with an ellipsis: {bar}");

    h.send(Msg::Action(Action::Messages));
    assert_eq!(h.state.mode(), Mode::Messages);
    let log = draw(&h.state);
    insta::assert_snapshot!(log.backend());
    // The hint's words, across its wrapped lines, in order.
    let text: String = rows(&log)
        .iter()
        .map(|r| r.trim_matches(|c: char| c == '│' || c == ' ').to_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let words: Vec<&str> = text.split_whitespace().collect();
    let hint: Vec<&str> = PIPE_HINT.split_whitespace().collect();
    assert!(
        words.windows(hint.len()).any(|w| w == hint.as_slice()),
        "{text}"
    );
}
