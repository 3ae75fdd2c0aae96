use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;

fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

#[test]
fn defaults_cover_the_documented_keys() {
    let map = Keymap::default();
    let cases = [
        (
            key(KeyCode::Char('j'), KeyModifiers::NONE),
            Action::MoveDown,
        ),
        (key(KeyCode::Down, KeyModifiers::NONE), Action::MoveDown),
        (key(KeyCode::Char('G'), KeyModifiers::SHIFT), Action::Bottom),
        (
            key(KeyCode::Char('d'), KeyModifiers::CONTROL),
            Action::PageDown,
        ),
        (
            key(KeyCode::BackTab, KeyModifiers::SHIFT),
            Action::FocusPrev,
        ),
        (
            key(KeyCode::Char('Y'), KeyModifiers::SHIFT),
            Action::CopyMessage,
        ),
        (key(KeyCode::Char('?'), KeyModifiers::SHIFT), Action::Help),
        (
            key(KeyCode::Char('u'), KeyModifiers::NONE),
            Action::ToggleSeen,
        ),
        (
            key(KeyCode::Char('*'), KeyModifiers::SHIFT),
            Action::ToggleStar,
        ),
        (
            key(KeyCode::Char('d'), KeyModifiers::NONE),
            Action::ToggleDone,
        ),
        (key(KeyCode::Char('z'), KeyModifiers::NONE), Action::Snooze),
        (
            key(KeyCode::Char('N'), KeyModifiers::SHIFT),
            Action::EditNote,
        ),
        (
            key(KeyCode::Char('U'), KeyModifiers::SHIFT),
            Action::UndoTriage,
        ),
    ];
    for (event, action) in cases {
        assert_eq!(map.action(&event), Some(action), "{event:?}");
    }
    assert_eq!(
        map.action(&key(KeyCode::Char('Z'), KeyModifiers::SHIFT)),
        None
    );
}

#[test]
fn every_action_has_a_default_key_and_help_row() {
    let map = Keymap::default();
    for (keys, name, _) in map.help_rows() {
        assert!(!keys.is_empty(), "{name}");
    }
}

#[test]
fn config_rebinds_an_action_and_frees_its_old_keys() {
    let text = "base_url = \"x\"\n[keys]\nmove_down = [\"n\", \"ctrl-n\"]\nquit = \"Q\"\n";
    let map = Keymap::from_config(text, "config.toml").unwrap();
    assert_eq!(
        map.action(&key(KeyCode::Char('n'), KeyModifiers::CONTROL)),
        Some(Action::MoveDown)
    );
    assert_eq!(
        map.action(&key(KeyCode::Char('j'), KeyModifiers::NONE)),
        None
    );
    assert_eq!(
        map.action(&key(KeyCode::Char('Q'), KeyModifiers::SHIFT)),
        Some(Action::Quit)
    );
    assert_eq!(map.key_for(Action::Quit), "Q");
}

#[test]
fn config_errors_name_file_and_line() {
    let unknown_action = "[keys]\n\nfly = \"f\"\n";
    let err = Keymap::from_config(unknown_action, "c.toml").unwrap_err();
    assert_eq!((err.line, err.file.as_str()), (3, "c.toml"));
    assert!(err.message.contains("unknown action \"fly\""), "{err}");

    let unknown_key = "[keys]\nquit = \"hyperspace\"\n";
    let err = Keymap::from_config(unknown_key, "c.toml").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(
        err.message.contains("unknown key name \"hyperspace\""),
        "{err}"
    );

    let duplicate = "[keys]\nreload = \"j\"\nquit = [\"x\", \"j\"]\n";
    let err = Keymap::from_config(duplicate, "c.toml").unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.message.contains("\"j\" is bound to both"), "{err}");
    assert_eq!(err.to_string(), format!("c.toml:3: {}", err.message));
}

#[test]
fn a_key_the_file_binds_is_taken_from_the_action_it_was_a_default_of() {
    let keymap = Keymap::from_config("[keys]\nreload = \"j\"\n", "c.toml").unwrap();
    let j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(keymap.action(&j), Some(Action::Reload));
    assert_eq!(keymap.key_for(Action::MoveDown), "down");
    // A key added to the defaults later does not break a file that bound it.
    let keymap = Keymap::from_config("[keys]\nback = \"backspace\"\n", "c.toml").unwrap();
    let backspace = KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(keymap.action(&backspace), Some(Action::Back));
    assert_eq!(keymap.key_for(Action::Leave), "h");
}

#[test]
fn chords_parse_and_print_round_trip() {
    for text in [
        "j", "G", "?", "space", "enter", "ctrl-d", "alt-x", "f5", "backtab", "pagedown",
    ] {
        let chord = Chord::parse(text).unwrap();
        assert_eq!(chord.label(), text);
    }
    assert_eq!(Chord::parse("shift-tab").unwrap().label(), "backtab");
    assert_eq!(Chord::parse("f13"), None);
    assert_eq!(Chord::parse("nope"), None);
}

#[test]
fn ctrl_c_is_the_interrupt_and_not_a_table_key() {
    let ctrl_c = key(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert!(is_interrupt(&ctrl_c));
    assert!(!is_interrupt(&key(KeyCode::Char('c'), KeyModifiers::NONE)));
    assert_eq!(Keymap::default().action(&ctrl_c), None);
    let err = Keymap::from_config("[keys]\nreload = \"ctrl-c\"\n", "config.toml").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.message.contains("always quits"), "{}", err.message);
}

// Acting on items.
#[test]
fn acting_keys_are_bound() {
    let map = Keymap::default();
    let cases = [
        (
            key(KeyCode::Char(' '), KeyModifiers::NONE),
            Action::ToggleMark,
        ),
        (
            key(KeyCode::Char('V'), KeyModifiers::SHIFT),
            Action::MarkRange,
        ),
        (
            key(KeyCode::Char('c'), KeyModifiers::NONE),
            Action::CopyMarkdown,
        ),
        (
            key(KeyCode::Char('C'), KeyModifiers::SHIFT),
            Action::CopyJson,
        ),
        (key(KeyCode::Char('|'), KeyModifiers::SHIFT), Action::Pipe),
        (
            key(KeyCode::Char('P'), KeyModifiers::SHIFT),
            Action::TogglePrivacy,
        ),
    ];
    for (event, action) in cases {
        assert_eq!(map.action(&event), Some(action), "{event:?}");
    }
    let rebound = Keymap::from_config(
        "[keys]\ntoggle_mark = \"x\"\nclear_filter = \"ctrl-x\"\n",
        "c",
    )
    .unwrap();
    let x = key(KeyCode::Char('x'), KeyModifiers::NONE);
    assert_eq!(rebound.action(&x), Some(Action::ToggleMark));
}
