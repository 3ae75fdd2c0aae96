//! The message log: every note the status bar shows is kept whole with its time; `M` (and
//! `:messages`) opens it at the newest, the moves scroll it within its layout, a copy takes it
//! whole, and Esc, `q` or `M` close it.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::act;
use super::saved_views::{harness, key, type_in};
use crate::action::{Action, Msg};
use crate::effect::{Effect, Local};
use crate::keymap::Keymap;
use crate::runtime::translate;
use crate::state::Mode;
use crate::testkit::started_harness;

const PIPE_HINT: &str =
    "No command to pipe to: add [[commands]] with a name and an argv to config.toml";

#[test]
fn every_note_is_logged_whole_and_the_log_opens_at_the_newest() {
    let mut h = started_harness(80, 24, 30, true);
    act(&mut h, Action::Pipe);
    assert_eq!(
        h.state.note.as_ref().map(|n| n.text.to_string()).as_deref(),
        Some(PIPE_HINT)
    );
    act(&mut h, Action::ToggleMouse);
    let logged: Vec<(String, bool)> = h
        .state
        .log
        .entries()
        .map(|l| (l.text.to_string(), l.error))
        .collect();
    let pipe = logged.iter().position(|(t, _)| t == PIPE_HINT).unwrap();
    assert!(
        logged[pipe + 1].0.starts_with("Mouse released"),
        "{logged:?}"
    );

    let event = Event::Key(KeyEvent::new(KeyCode::Char('M'), KeyModifiers::NONE));
    let open = translate(&event, &h.state, &Keymap::default()).unwrap();
    assert!(matches!(open, Msg::Action(Action::Messages)));
    h.send(open);
    assert_eq!(h.state.mode(), Mode::Messages);
    assert_eq!(h.state.log_open, Some(u16::MAX), "at the newest");
    // A key of the list does nothing under the log.
    let selected = h.state.list.selected;
    act(&mut h, Action::ToggleStar);
    assert_eq!(h.state.list.selected, selected);
    assert_eq!(h.state.mode(), Mode::Messages);
    act(&mut h, Action::Back);
    assert_eq!(h.state.mode(), Mode::Normal);
    act(&mut h, Action::Messages);
    act(&mut h, Action::Messages);
    assert_eq!(h.state.mode(), Mode::Normal, "M closes it too");
}

#[test]
fn the_log_scrolls_within_its_layout_and_copies_whole() {
    let mut h = started_harness(80, 24, 30, true);
    for _ in 0..60 {
        act(&mut h, Action::ToggleMouse);
        act(&mut h, Action::Pipe);
    }
    act(&mut h, Action::Messages);
    let key = |h: &crate::testkit::Harness, code: KeyCode| {
        let event = Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        translate(&event, &h.state, &Keymap::default()).unwrap()
    };
    let Msg::LogScroll { lines: 1, max } = key(&h, KeyCode::Char('j')) else {
        panic!("j scrolls the log");
    };
    assert!(max > 0, "120 messages do not fit on 24 rows");
    h.send(key(&h, KeyCode::Char('k')));
    assert_eq!(h.state.log_open, Some(max - 1), "up from the newest");
    h.send(key(&h, KeyCode::Char('g')));
    assert_eq!(h.state.log_open, Some(0));
    h.send(key(&h, KeyCode::Char('k')));
    assert_eq!(h.state.log_open, Some(0), "no further than the oldest");
    h.send(key(&h, KeyCode::Char('G')));
    assert_eq!(h.state.log_open, Some(max));

    let effects = h.send(Msg::Action(Action::CopyMessage));
    let [Effect::Local(Local::Copy { what, text })] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(*what, "the message log");
    let text = text.to_string();
    assert_eq!(text.lines().count(), 120);
    assert!(
        text.lines()
            .all(|l| l.contains(PIPE_HINT) || l.contains("Mouse"))
    );
    assert!(text.lines().any(|l| l.ends_with(&format!("  {PIPE_HINT}"))));
}

#[test]
fn the_palette_opens_the_log() {
    let mut h = harness();
    act(&mut h, Action::Palette);
    type_in(&mut h, "messages");
    h.send(Msg::PaletteInput(key(KeyCode::Enter)));
    assert_eq!(h.state.mode(), Mode::Messages);
}

#[test]
fn the_wheel_scrolls_the_log() {
    use ratatui::crossterm::event::{MouseEvent, MouseEventKind};
    let mut h = started_harness(80, 24, 30, true);
    for _ in 0..60 {
        act(&mut h, Action::ToggleMouse);
    }
    act(&mut h, Action::Messages);
    let wheel = |kind| {
        Event::Mouse(MouseEvent {
            kind,
            column: 10,
            row: 10,
            modifiers: KeyModifiers::NONE,
        })
    };
    let up = translate(
        &wheel(MouseEventKind::ScrollUp),
        &h.state,
        &Keymap::default(),
    )
    .unwrap();
    let Msg::LogScroll { lines: -3, max } = up else {
        panic!("{up:?}");
    };
    h.send(up);
    assert_eq!(h.state.log_open, Some(max - 3));
}
