//! Every screen × every bound key: a key whose action the screen takes (the table of
//! `crate::mode_keys`) reaches it as that action and does something there; any other
//! key is answered "`d` does nothing in the help" and leaves the screen as it was: never
//! typed, passed to the screen underneath, or swallowed without a word.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use crate::action::{Action, Msg};
use crate::keymap::Keymap;
use crate::runtime::translate;
use crate::state::Mode;
use crate::testkit::{Harness, started_harness};

/// The key event a key map label names (`j`, `G`, `space`, `enter`, `ctrl-d`, `backtab`).
fn event(label: &str) -> KeyEvent {
    let (ctrl, rest) = match label.strip_prefix("ctrl-") {
        Some(rest) => (true, rest),
        None => (false, label),
    };
    let code = match rest {
        "space" => KeyCode::Char(' '),
        "enter" => KeyCode::Enter,
        "esc" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "up" => KeyCode::Up,
        "left" => KeyCode::Left,
        "backspace" => KeyCode::Backspace,
        "down" => KeyCode::Down,
        "pageup" => KeyCode::PageUp,
        "pagedown" => KeyCode::PageDown,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        one if one.chars().count() == 1 => KeyCode::Char(one.chars().next().unwrap_or(' ')),
        other => panic!("no key event for {other:?}"),
    };
    let modifiers = if ctrl {
        KeyModifiers::CONTROL
    } else {
        KeyModifiers::NONE
    };
    KeyEvent::new(code, modifiers)
}

/// The inbox in `mode`, away from every edge, so that a move can go either way.
fn on(mode: Mode) -> Harness {
    let mut h = started_harness(120, 35, 40, true);
    let act = |h: &mut Harness, action: Action| {
        h.send(Msg::Action(action));
    };
    for _ in 0..5 {
        act(&mut h, Action::MoveDown);
    }
    match mode {
        Mode::Detail => {
            act(&mut h, Action::Open);
            for _ in 0..3 {
                act(&mut h, Action::MoveDown);
            }
        }
        Mode::Grouped => {
            // By tag: the items' four tags and the untagged ones are five groups.
            h.group_by("tag");
            act(&mut h, Action::MoveDown);
            act(&mut h, Action::MoveDown);
        }
        Mode::TopIssues => act(&mut h, Action::TopIssues),
        Mode::Help => {
            h.send(Msg::Resize {
                width: 60,
                height: 20,
            });
            act(&mut h, Action::Help);
            h.send(Msg::HelpScroll { lines: 5, max: 10 });
        }
        Mode::Messages => {
            for _ in 0..40 {
                act(&mut h, Action::ToggleMouse);
            }
            act(&mut h, Action::Messages);
            h.send(Msg::LogScroll { lines: 0, max: 20 });
            h.send(Msg::LogScroll { lines: -5, max: 20 });
        }
        _ => {}
    }
    h.state.note = None;
    h.sent.clear();
    assert_eq!(h.state.mode(), mode);
    h
}

/// What is on screen and in the state, but for the redraw flag.
fn seen(h: &Harness) -> String {
    let mut state = h.state.clone();
    state.dirty = false;
    format!("{state:?}")
}

/// Keys a screen takes that do nothing in the state [`on`] leaves: there is nothing for them
/// to act on there (no filter to clear, no cluster while Top issues is computed), and each
/// says so or acts once there is.
fn idle_here(mode: Mode, action: Action) -> bool {
    match mode {
        Mode::Normal => matches!(action, Action::Back | Action::ClearFilter),
        // The harness leaves Top issues computing: no cluster to move to or open.
        Mode::TopIssues => matches!(
            action,
            Action::MoveDown
                | Action::MoveUp
                | Action::PageDown
                | Action::PageUp
                | Action::Top
                | Action::Bottom
                | Action::NextItem
                | Action::PrevItem
                | Action::Open
        ),
        _ => false,
    }
}

#[test]
fn every_screen_takes_what_its_table_says_and_says_so_of_every_other_key() {
    let keymap = Keymap::default();
    let mut checked = 0;
    for mode in [
        Mode::Normal,
        Mode::Detail,
        Mode::Grouped,
        Mode::TopIssues,
        Mode::Help,
        Mode::Messages,
    ] {
        for (action, keys, name, _) in keymap.action_rows() {
            let Some(label) = keys.split_whitespace().next() else {
                continue;
            };
            let mut h = on(mode);
            let before = seen(&h);
            let msg = translate(&Event::Key(event(label)), &h.state, &keymap)
                .unwrap_or_else(|| panic!("{label} ({name}) in {mode:?}: no message"));
            // The list with the focus on it has nothing for `h` to go back from.
            let nothing_to_leave = mode == Mode::Normal && action == Action::Leave;
            if mode.takes_action(action) && !nothing_to_leave {
                assert!(
                    !matches!(msg, Msg::NotHere { .. }),
                    "{label} ({name}) is in {mode:?}'s table"
                );
                let effects = h.send(msg);
                let acted = !effects.is_empty() || !h.sent.is_empty() || seen(&h) != before;
                assert!(
                    acted || idle_here(mode, action),
                    "{label} ({name}) did nothing in {mode:?}"
                );
            } else {
                let Msg::NotHere { key, mode: said } = &msg else {
                    panic!("{label} ({name}) in {mode:?} went on as {msg:?}");
                };
                assert_eq!((key.as_str(), *said), (label, mode));
                h.send(msg);
                assert_eq!(h.state.mode(), mode, "{label} in {mode:?}");
                let note = h.state.note.as_ref().map(|n| n.text.to_string());
                assert_eq!(
                    note.as_deref(),
                    Some(format!("{label} does nothing in {}", mode.name()).as_str())
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn enter_opens_the_detail_and_does_not_close_it() {
    let mut h = on(Mode::Detail);
    let keymap = Keymap::default();
    let msg = translate(&Event::Key(event("enter")), &h.state, &keymap).unwrap();
    h.send(msg);
    assert_eq!(h.state.mode(), Mode::Detail);
    assert_eq!(
        h.state.note.as_ref().map(|n| n.text.to_string()).as_deref(),
        Some("enter does nothing in the detail")
    );
}

#[test]
fn h_left_and_backspace_go_back_from_the_detail_and_a_pane_and_not_from_the_list() {
    let keymap = Keymap::default();
    for label in ["h", "left", "backspace"] {
        let mut h = on(Mode::Detail);
        let msg = translate(&Event::Key(event(label)), &h.state, &keymap).unwrap();
        h.send(msg);
        assert_eq!(h.state.mode(), Mode::Normal, "{label}");
        assert!(h.state.detail.is_none(), "{label}");

        let mut h = on(Mode::Normal);
        h.send(Msg::Action(Action::FocusPrev));
        assert_ne!(h.state.focus, crate::state::Focus::List);
        let msg = translate(&Event::Key(event(label)), &h.state, &keymap).unwrap();
        h.send(msg);
        assert_eq!(h.state.focus, crate::state::Focus::List, "{label}");

        // In the list itself it says so and keeps the search.
        let mut h = on(Mode::Normal);
        h.send(Msg::Action(Action::Filter));
        for c in "crash".chars() {
            h.send(Msg::FilterInput(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            )));
        }
        h.send(Msg::Action(Action::Open));
        let search = h.state.view.search.clone();
        assert!(!search.as_str().is_empty());
        let msg = translate(&Event::Key(event(label)), &h.state, &keymap).unwrap();
        h.send(msg);
        assert_eq!(h.state.view.search, search, "{label}");
        assert_eq!(
            h.state.note.as_ref().map(|n| n.text.to_string()),
            Some(format!("{label} does nothing in the list"))
        );
    }
}
