//! Snapshots of triage on screen: the list with every state's glyph (and unseen rows bold), the
//! unseen count in the status bar, the snooze picker, the note editor, the detail's triage
//! lines; the same without colour. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use feedback_store::TriageChange;
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{Harness, now, started_harness};
use feedback_tui::{layout, render};
use jiff::SignedDuration;
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

fn key(h: &mut Harness, code: KeyCode) {
    h.send(Msg::TriageInput(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn set(h: &Harness, ids: &[&str], change: &TriageChange) {
    let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    h.store
        .write(|s| s.set_triage(&ids, change, now()))
        .unwrap();
}

/// A list whose items carry every state: seen, starred, a note, snoozed and done (shown by a
/// search for them), and unseen.
fn triaged() -> Harness {
    let mut h = started_harness(120, 20, 30, true);
    h.state.triage.advance = false;
    set(
        &h,
        &["id00001", "id00002", "id00003"],
        &TriageChange::Seen(true),
    );
    set(&h, &["id00002"], &TriageChange::Starred(true));
    set(
        &h,
        &["id00003"],
        &TriageChange::Note(Some("call back".into())),
    );
    let later = now() + SignedDuration::from_hours(2);
    set(&h, &["id00004"], &TriageChange::Snooze(Some(later)));
    set(&h, &["id00005"], &TriageChange::Done(true));
    // A refresh that found nothing new reads the triage count, then the view.
    h.synced(
        feedback_tui::action::SyncJob::Head(feedback_api::Status::New),
        true,
    );
    h.state.note = None;
    h
}

#[test]
fn list_with_triage_states() {
    let h = triaged();
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120) + 2;
    // Row 3 is id00000 (unseen: bold), row 4 id00001 (seen: not bold); the view bar is row 0.
    assert!(buffer[(left + 12, 3)].modifier.contains(Modifier::BOLD));
    assert!(!buffer[(left + 12, 4)].modifier.contains(Modifier::BOLD));
}

#[test]
fn a_search_for_done_and_snoozed_shows_their_glyphs_without_colour() {
    let mut h = triaged();
    h.state.color = false;
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("is:done OR is:snoozed".into()));
    act(&mut h, Action::Open);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn snooze_picker_with_an_error() {
    let mut h = triaged();
    act(&mut h, Action::Snooze);
    key(&mut h, KeyCode::Down);
    for c in "3y".chars() {
        key(&mut h, KeyCode::Char(c));
    }
    key(&mut h, KeyCode::Enter);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn note_editor() {
    let mut h = triaged();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::EditNote);
    for c in " on monday".chars() {
        key(&mut h, KeyCode::Char(c));
    }
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn detail_shows_the_state_and_the_sanitized_note() {
    let mut h = triaged();
    set(
        &h,
        &["id00002"],
        &TriageChange::Note(Some("ticket \u{1b}[31m#42\u{7}\nsecond line".into())),
    );
    h.synced(
        feedback_tui::action::SyncJob::Head(feedback_api::Status::New),
        true,
    );
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    insta::assert_snapshot!(draw(&h.state).backend());
}
