//! The mode: which screen owns the keyboard, and a key reaching that screen's input (never
//! the list under it).

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::act;
use crate::action::{Action, Msg};
use crate::keymap::Keymap;
use crate::runtime::translate;
use crate::state::Mode;
use crate::testkit::{Harness, started_harness};
use feedback_core::text::Clean;

fn key(h: &Harness, c: char) -> Option<Msg> {
    let event = Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    translate(&event, &h.state, &Keymap::default())
}

#[test]
fn each_screen_on_top_is_the_mode_and_takes_its_keys() {
    let mut h = started_harness(120, 35, 40, true);
    assert_eq!(h.state.mode(), Mode::Normal);
    assert!(matches!(key(&h, 'j'), Some(Msg::Action(Action::MoveDown))));
    act(&mut h, Action::Filter);
    assert_eq!(h.state.mode(), Mode::FilterPrompt);
    assert!(matches!(key(&h, 'j'), Some(Msg::FilterInput(_))), "typed");
    act(&mut h, Action::Back);
    act(&mut h, Action::Back);
    assert_eq!(h.state.mode(), Mode::Normal);
    act(&mut h, Action::Open);
    assert_eq!(h.state.mode(), Mode::Detail);
    act(&mut h, Action::EditNote);
    assert_eq!(h.state.mode(), Mode::NoteEditor);
    assert!(
        matches!(key(&h, 'q'), Some(Msg::TriageInput(_))),
        "typed, not quit"
    );
    h.send(Msg::TriageInput(KeyEvent::new(
        KeyCode::Esc,
        KeyModifiers::NONE,
    )));
    assert_eq!(h.state.mode(), Mode::Detail);
    act(&mut h, Action::Help);
    assert_eq!(h.state.mode(), Mode::Help, "over the detail");
    assert!(matches!(
        key(&h, 'j'),
        Some(Msg::HelpScroll { lines: 1, .. })
    ));
    act(&mut h, Action::Help);
    act(&mut h, Action::Back);
    assert_eq!(h.state.mode(), Mode::Normal);
    act(&mut h, Action::Palette);
    assert_eq!(h.state.mode(), Mode::Palette);
    assert!(matches!(key(&h, 'q'), Some(Msg::PaletteInput(_))));
}

#[test]
fn the_fatal_screen_is_on_top_of_everything() {
    let mut h = started_harness(120, 35, 40, true);
    act(&mut h, Action::Help);
    h.state.fatal = Some(crate::state::Fatal {
        title: "Wrong key".into(),
        body: Clean::fixed("…"),
    });
    assert_eq!(h.state.mode(), Mode::Fatal);
    // Only quitting and trying again act there.
    act(&mut h, Action::ToggleDone);
    assert!(!h.state.quit);
    act(&mut h, Action::Quit);
    assert!(h.state.quit);
}
