//! Snapshots of saved views on screen: the view bar (the active view, unseen counts, a modified
//! view, views that do not fit), and the `:` palette with an empty and a fuzzy query. Fixed
//! data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use feedback_config::views::ViewDef;
use feedback_store::TriageChange;
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::saved_views::ViewsState;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{Harness, now, started_harness};
use feedback_tui::{layout, render};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

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

/// 30 items, two starred, one seen; a user view "Crashes" with a hostile name beside it.
fn harness(width: u16, height: u16) -> Harness {
    let mut h = started_harness(width, height, 30, true);
    let ids = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let write = |ids: Vec<String>, change: TriageChange| {
        h.store
            .write(|s| s.set_triage(&ids, &change, now()))
            .unwrap();
    };
    write(ids(&["id00001", "id00002"]), TriageChange::Starred(true));
    write(ids(&["id00000"]), TriageChange::Seen(true));
    let views = [
        ViewDef {
            name: "Crashes".into(),
            query: "tag:crash".into(),
            status: "new".into(),
            ..ViewDef::default()
        },
        ViewDef {
            name: "Evil\u{1b}[2J\u{202e}name".into(),
            query: "tag:ui".into(),
            status: "new".into(),
            ..ViewDef::default()
        },
    ];
    h.state.views = ViewsState::new(&views, None);
    // A refresh reads the triage count: the view (and its unseen count) is read again.
    let revs = h.store.read(feedback_store::Store::revs).unwrap();
    h.send(Msg::StoreRevs(Ok(revs)));
    h.send(Msg::Tick(now()));
    h.state.note = None;
    h
}

fn row(terminal: &Terminal<TestBackend>, y: u16) -> String {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

#[test]
fn view_bar_marks_the_active_view_with_unseen_counts() {
    let h = harness(120, 16);
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let bar = row(&terminal, 0);
    assert!(bar.contains("[1 Inbox 29 unseen]"), "{bar}");
    assert!(bar.contains(" 2 Starred 2 "), "{bar}");
    assert!(
        !bar.contains('\u{1b}') && !bar.contains('\u{202e}'),
        "{bar}"
    );
    let left = layout::list_left(120);
    let buffer = terminal.backend().buffer();
    assert!(buffer[(left + 1, 0)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn the_active_views_count_is_the_lists_while_the_views_counts_lag() {
    let mut h = harness(120, 16);
    // Items arrived since the views were counted: the active view says what the list says.
    h.state.views.counts[0] = Some(900);
    h.state.views.counts[1] = Some(5);
    let terminal = draw(&h.state);
    let bar = row(&terminal, 0);
    assert!(bar.contains("[1 Inbox 29 unseen]"), "{bar}");
    assert!(bar.contains(" 2 Starred 5 "), "{bar}");
    let status = row(&terminal, 15);
    assert!(status.contains("● 29 unseen"), "{status}");
}

#[test]
fn view_bar_says_when_the_filters_left_the_view() {
    let mut h = harness(120, 16);
    act(&mut h, Action::View(6));
    act(&mut h, Action::Filter);
    h.send(Msg::Paste(" sync".into()));
    act(&mut h, Action::Open);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    assert!(row(&terminal, 0).contains("[6 Crashes* 7 unseen]"));
}

#[test]
fn view_bar_scrolls_to_keep_the_active_view_in_sight() {
    let mut h = harness(60, 16);
    act(&mut h, Action::View(7));
    h.state.note = None;
    let terminal = draw(&h.state);
    let bar = row(&terminal, 0);
    assert!(bar.starts_with('‹'), "{bar}");
    assert!(bar.contains("[7 Evil"), "{bar}");
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn palette_with_an_empty_query() {
    let mut h = harness(120, 26);
    act(&mut h, Action::Palette);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn palette_with_a_fuzzy_query() {
    let mut h = harness(120, 26);
    act(&mut h, Action::Palette);
    for c in "tgst".chars() {
        h.send(Msg::PaletteInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    // The matched characters are highlighted (underlined, so without colour too).
    let buffer = terminal.backend().buffer();
    let hits = (0..buffer.area.height)
        .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
        .filter(|p| buffer[*p].modifier.contains(Modifier::UNDERLINED))
        .count();
    assert!(hits >= 4, "{hits} highlighted cells");
}

#[test]
fn bar_and_palette_fit_the_smallest_terminal() {
    let mut h = harness(40, 12);
    act(&mut h, Action::View(2));
    act(&mut h, Action::Palette);
    for c in "sav".chars() {
        h.send(Msg::PaletteInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    let terminal = draw(&h.state);
    let screen: Vec<String> = (0..12).map(|y| row(&terminal, y)).collect();
    assert!(screen[0].contains("[2 Starred"), "{screen:#?}");
    assert!(screen.iter().any(|r| r.contains(": sav")), "{screen:#?}");
    assert!(
        screen.iter().any(|r| r.contains("save-view")),
        "{screen:#?}"
    );
}
