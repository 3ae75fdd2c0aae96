//! Snapshots of acting on items: marked rows (glyph and tint, and without colour), the status
//! bar's count, privacy mode in the list and the detail, the `|` picker, and each theme as a
//! colour summary of the same screen. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use feedback_config::looks::{PipeCommand, ThemeName};
use feedback_core::text::Clean;
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{Harness, started_harness, stored_detail};
use feedback_tui::{layout, render};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

/// Items 1 and 2 marked with Space, 4 to 6 with V; the selection on 6.
fn marked(width: u16) -> Harness {
    let mut h = started_harness(width, 16, 30, true);
    h.state.triage.advance = false;
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MarkRange);
    h.state.note = None;
    h
}

/// Each distinct style on screen with how many cells have it and the first text in it, in
/// reading order: what a theme paints, whatever the exact layout.
fn colour_summary(buffer: &Buffer) -> String {
    let mut styles: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let cell = &buffer[(x, y)];
            let key = format!("fg={:?} bg={:?} mod={:?}", cell.fg, cell.bg, cell.modifier);
            let entry = styles.entry(key).or_insert((0, String::new()));
            entry.0 += 1;
            if entry.1.chars().count() < 16 && !(entry.1.is_empty() && cell.symbol() == " ") {
                entry.1.push_str(cell.symbol());
            }
        }
    }
    let mut out = String::new();
    for (style, (cells, sample)) in styles {
        let _ = writeln!(out, "{style}: {cells} cells, e.g. {:?}", sample.trim_end());
    }
    out
}

#[test]
fn marked_rows_show_a_glyph_a_tint_and_the_count() {
    let h = marked(120);
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120) + 1;
    // Row 4 is the second item (marked), row 3 the first (not): the view bar is row 0.
    assert_eq!(buffer[(left, 4)].symbol(), "◆");
    assert_eq!(buffer[(left + 20, 4)].bg, Color::Indexed(237));
    assert_ne!(buffer[(left, 3)].symbol(), "◆");
    assert_eq!(buffer[(left + 20, 3)].bg, Color::Reset);
}

#[test]
fn marked_rows_without_colour_keep_the_glyph() {
    let mut h = marked(120);
    h.state.color = false;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120) + 1;
    assert_eq!(buffer[(left, 4)].symbol(), "◆");
    assert!(
        buffer[(left + 20, 4)]
            .modifier
            .contains(Modifier::UNDERLINED)
    );
    for y in 0..16 {
        for x in 0..120 {
            let cell = &buffer[(x, y)];
            assert_eq!(
                (cell.fg, cell.bg),
                (Color::Reset, Color::Reset),
                "({x},{y})"
            );
        }
    }
}

#[test]
fn privacy_masks_the_list_and_the_detail() {
    let mut h = started_harness(160, 28, 30, true);
    // The preview (on from 160 columns) would take the email column's room.
    act(&mut h, Action::TogglePreview);
    act(&mut h, Action::TogglePrivacy);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!("privacy_list", terminal.backend());
    let screen = format!("{:?}", terminal.backend());
    assert!(screen.contains("PRIVATE") && screen.contains("•••@•••"));
    assert!(!screen.contains("@example.com"), "{screen}");
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    h.send(Msg::DetailLoaded {
        id: "id00001".into(),
        result: Ok(Box::new(stored_detail(1))),
    });
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!("privacy_detail", terminal.backend());
    let screen = format!("{:?}", terminal.backend());
    assert!(
        !screen.contains("user1@") && !screen.contains("plan pro"),
        "{screen}"
    );
    assert!(screen.contains("plan •••"), "{screen}");
    assert!(
        screen.contains("de-DE"),
        "built-in metadata stays: {screen}"
    );
}

#[test]
fn the_pipe_picker() {
    let mut h = started_harness(120, 20, 30, true);
    h.state.acting.commands = ["file a ticket", "save to \u{1b}[31mdisk"]
        .iter()
        .map(|name| PipeCommand {
            name: Clean::line(name),
            argv: vec!["true".into()],
            wait: true,
            capture: None,
        })
        .collect();
    act(&mut h, Action::Pipe);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn each_theme_paints_the_same_screen() {
    for (name, theme) in [
        ("default", ThemeName::Default),
        ("light", ThemeName::Light),
        ("colorblind", ThemeName::Colorblind),
    ] {
        let mut h = marked(120);
        h.state.acting.theme = theme;
        h.state.acting.privacy = true;
        h.state.note = Some(feedback_tui::state::Note {
            text: Clean::fixed("Cannot read the store: disk full"),
            error: true,
            until: None,
        });
        let terminal = draw(&h.state);
        let summary = colour_summary(terminal.backend().buffer());
        insta::assert_snapshot!(format!("theme_{name}"), summary);
        if theme == ThemeName::Colorblind {
            for colour in ["Red", "Green"] {
                assert!(!summary.contains(&format!("fg={colour} ")), "{summary}");
            }
        }
    }
}
