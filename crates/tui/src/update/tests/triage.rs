//! Triage keys: nothing shows before the store committed, the selection moves on, done and
//! snoozed items leave the view and come back (undo, the snooze's end), a detail is marked seen
//! only after its delay, another window's triage shows at its next refresh.

use jiff::SignedDuration;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use crate::action::{Action, Msg, SyncJob};
use crate::effect::{Effect, Handover, Write};
use crate::failure::Failure;
use crate::testkit::{Harness, now, started_harness};
use crate::triage::{Cause, Triaged};
use feedback_api::Status;
use feedback_store::{Triage, TriageChange};

pub(super) fn stored(h: &Harness, id: &str) -> Triage {
    h.store.read(|s| s.triage(id)).unwrap()
}

pub(super) fn row(h: &Harness, id: &str) -> Triage {
    let row = h.state.list.window.rows.iter().find(|r| &*r.id == id);
    crate::triage::known(&h.state, &row.unwrap().id)
}

pub(super) fn key(h: &mut Harness, code: KeyCode) -> Vec<Effect> {
    h.send(Msg::TriageInput(KeyEvent::new(code, KeyModifiers::NONE)))
}

pub(super) fn typed(h: &mut Harness, text: &str) {
    for c in text.chars() {
        key(h, KeyCode::Char(c));
    }
}

#[test]
fn a_star_shows_only_once_committed_the_selection_stays_and_u_undoes_it() {
    let mut h = started_harness(120, 30, 50, true);
    let effects = h.apply(Msg::Action(Action::ToggleStar));
    assert!(
        matches!(&effects[..], [Effect::Write(Write::Triage { ids, change: TriageChange::Starred(true), .. })] if ids == &["id00000"])
    );
    assert!(!row(&h, "id00000").starred, "not shown before the commit");
    assert!(!stored(&h, "id00000").starred);
    h.settle(effects);
    assert!(stored(&h, "id00000").starred);
    assert!(row(&h, "id00000").starred);
    assert_eq!(
        h.selected_id(),
        "id00000",
        "a star keeps the item in the view"
    );
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("Starred 1 item")
    );
    act(&mut h, Action::UndoTriage);
    assert!(!stored(&h, "id00000").starred, "undone in the store");
    assert!(!row(&h, "id00000").starred);
    let effects = act(&mut h, Action::UndoTriage);
    assert!(effects.is_empty());
    assert_eq!(h.state.note.as_ref().unwrap().text, "Nothing to undo");
}

#[test]
fn a_second_press_before_the_answer_toggles_from_what_the_first_will_leave() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    let first = h.apply(Msg::Action(Action::ToggleStar));
    let second = h.apply(Msg::Action(Action::ToggleStar));
    assert!(matches!(
        &second[..],
        [Effect::Write(Write::Triage {
            change: TriageChange::Starred(false),
            ..
        })]
    ));
    h.settle(first);
    h.settle(second);
    assert!(!stored(&h, "id00000").starred);
    assert_eq!(h.state.triage.writing, 0);
}

#[test]
fn done_leaves_the_view_a_search_for_it_finds_it_and_undo_brings_it_back() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::ToggleDone);
    assert!(stored(&h, "id00001").done);
    assert_eq!(h.state.list.keys.len(), 49);
    assert!(!h.screen_ids().contains(&"id00001".to_owned()));
    assert_eq!(h.selected_id(), "id00002", "advanced to the next item");
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("is:done".into()));
    assert_eq!(h.screen_ids(), ["id00001"], "a search for it finds it");
    act(&mut h, Action::Back);
    assert_eq!(h.state.list.keys.len(), 49);
    act(&mut h, Action::UndoTriage);
    assert_eq!(h.state.list.keys.len(), 50);
    assert!(h.screen_ids().contains(&"id00001".to_owned()));
}

#[test]
fn without_advance_the_selection_stays() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::ToggleSeen);
    assert!(stored(&h, "id00000").seen);
    assert_eq!(h.selected_id(), "id00000");
    assert_eq!(
        h.state.triage.overlay.unseen(),
        49,
        "the status bar's count"
    );
    act(&mut h, Action::ToggleSeen);
    assert!(!stored(&h, "id00000").seen);
    assert_eq!(h.state.triage.overlay.unseen(), 50);
}

#[test]
fn a_failed_write_changes_nothing_on_screen() {
    let mut h = started_harness(120, 30, 50, true);
    let effects = h.apply(Msg::Action(Action::ToggleStar));
    assert_eq!(effects.len(), 1);
    h.send(Msg::Triaged(Err(Failure::store("disk full"))));
    assert!(!row(&h, "id00000").starred);
    let note = h.state.note.clone().unwrap();
    assert!(note.error && note.text.contains("disk full"), "{note:?}");
    assert_eq!(h.selected_id(), "id00000");
    assert!(h.state.triage.undo.is_empty());
}

/// Ticks every 250 ms from `from_ms` to `to_ms` (after [`now`]), as the loop sends them.
pub(super) fn ticks(h: &mut Harness, from_ms: i64, to_ms: i64) {
    for ms in (from_ms..=to_ms).step_by(250) {
        h.send(Msg::Tick(now() + SignedDuration::from_millis(ms)));
    }
}

#[test]
fn a_detail_is_marked_seen_only_once_shown_for_the_delay() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::Open);
    ticks(&mut h, 250, 750);
    assert!(!stored(&h, "id00000").seen, "a glance does not count");
    // Leaving before the delay keeps it unseen.
    act(&mut h, Action::Back);
    ticks(&mut h, 1000, 2000);
    assert!(!stored(&h, "id00000").seen);
    // Counted from the first tick after opening, never from the one before.
    act(&mut h, Action::Open);
    ticks(&mut h, 2250, 3000);
    assert!(!stored(&h, "id00000").seen, "750 ms in sight");
    ticks(&mut h, 3250, 3250);
    assert!(stored(&h, "id00000").seen);
    assert!(h.state.triage.undo.is_empty(), "not an undo step");
    // In the detail, `u` marks it unseen again, explicitly.
    act(&mut h, Action::ToggleSeen);
    assert!(!stored(&h, "id00000").seen);
    assert!(h.state.detail.is_some(), "the detail stays open");
}

#[test]
fn the_snooze_picker_takes_a_choice_or_a_typed_duration_and_the_item_comes_back() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::Snooze);
    assert!(h.state.triage.picker.is_some());
    typed(&mut h, "3x");
    key(&mut h, KeyCode::Enter);
    let error = h.state.triage.picker.as_ref().unwrap().error.clone();
    assert!(error.unwrap().contains("bad duration `3x`"));
    assert!(!stored(&h, "id00000").snoozed(now()));
    key(&mut h, KeyCode::Backspace);
    typed(&mut h, "h");
    key(&mut h, KeyCode::Enter);
    assert!(h.state.triage.picker.is_none());
    let until = now() + SignedDuration::from_hours(3);
    assert_eq!(stored(&h, "id00000").snoozed_until, Some(until));
    assert_eq!(h.state.list.keys.len(), 49, "snoozed items leave the view");
    assert_eq!(h.state.triage.next_wake, Some(until));
    h.send(Msg::Tick(until - SignedDuration::from_secs(1)));
    assert_eq!(h.state.list.keys.len(), 49);
    h.send(Msg::Tick(until));
    assert_eq!(h.state.list.keys.len(), 50, "back when the snooze ends");
    // A choice from the list: the second, 4 hours.
    act(&mut h, Action::Top);
    act(&mut h, Action::Snooze);
    key(&mut h, KeyCode::Char('j'));
    key(&mut h, KeyCode::Enter);
    let four = until + SignedDuration::from_hours(4);
    assert_eq!(stored(&h, "id00000").snoozed_until, Some(four));
    assert_eq!(h.state.list.keys.len(), 49);
    assert_eq!(h.selected_id(), "id00001");
}

#[test]
fn esc_leaves_the_picker_and_the_editor_without_a_change_and_keeps_the_typing_as_a_draft() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::Snooze);
    assert!(key(&mut h, KeyCode::Esc).is_empty());
    assert!(h.state.triage.picker.is_none());
    act(&mut h, Action::EditNote);
    typed(&mut h, "abc");
    assert!(key(&mut h, KeyCode::Esc).is_empty());
    assert!(h.state.triage.note.is_none());
    assert_eq!(stored(&h, "id00000"), Triage::default());
    let said = &h.state.note.as_ref().unwrap().text;
    assert!(said.contains("draft is kept"), "{said}");
    // Another item's editor starts from its own (empty) note.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::EditNote);
    assert_eq!(h.state.triage.note.as_ref().unwrap().area.lines(), [""]);
    key(&mut h, KeyCode::Esc);
    // `N` on the first item again brings the typing back; Enter saves it and drops the draft.
    act(&mut h, Action::MoveUp);
    act(&mut h, Action::EditNote);
    let editor = h.state.triage.note.as_ref().unwrap();
    assert!(editor.draft);
    assert_eq!(editor.area.lines(), ["abc"]);
    typed(&mut h, "d");
    key(&mut h, KeyCode::Enter);
    assert_eq!(stored(&h, "id00000").note.as_deref(), Some("abcd"));
    assert!(h.state.triage.drafts.is_empty());
}

#[test]
fn the_note_editor_saves_on_enter_and_a_blank_note_removes_it() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::EditNote);
    h.send(Msg::Paste("call \u{1b}[31m".into()));
    assert_eq!(
        h.state.triage.note.as_ref().unwrap().area.lines(),
        ["call ␛"]
    );
    key(&mut h, KeyCode::Esc);
    // The pasted text came back as a draft; emptied, Esc drops it.
    act(&mut h, Action::EditNote);
    assert_eq!(
        h.state.triage.note.as_ref().unwrap().area.lines(),
        ["call ␛"]
    );
    for _ in 0.."call ␛".chars().count() {
        key(&mut h, KeyCode::Backspace);
    }
    key(&mut h, KeyCode::Esc);
    assert!(h.state.triage.drafts.is_empty());
    act(&mut h, Action::EditNote);
    typed(&mut h, "call back");
    h.send(Msg::TriageInput(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::ALT,
    )));
    typed(&mut h, "monday");
    key(&mut h, KeyCode::Enter);
    assert_eq!(
        stored(&h, "id00000").note.as_deref(),
        Some("call back\nmonday")
    );
    act(&mut h, Action::EditNote);
    let editor = h.state.triage.note.as_ref().unwrap();
    assert_eq!(
        editor.area.lines(),
        ["call back", "monday"],
        "the note to edit"
    );
    key(&mut h, KeyCode::Esc);
    // A stored note's control characters reach the editor as visible stand-ins only.
    let raw = TriageChange::Note(Some("a\u{1b}[2Jb".into()));
    h.store
        .write(|s| s.set_triage(&["id00000".to_owned()], &raw, now()))
        .unwrap();
    h.synced(SyncJob::Head(Status::New), true);
    act(&mut h, Action::EditNote);
    let editor = h.state.triage.note.as_ref().unwrap();
    assert_eq!(editor.area.lines(), ["a␛b"]);
    for _ in 0..20 {
        key(&mut h, KeyCode::Backspace);
    }
    key(&mut h, KeyCode::Enter);
    assert_eq!(stored(&h, "id00000").note, None);
}

#[test]
fn another_windows_triage_shows_at_the_next_refresh() {
    let mut one = started_harness(120, 30, 50, true);
    let mut two = Harness::start(one.store.clone(), 120, 30);
    act(&mut two, Action::ToggleStar);
    assert!(!row(&one, "id00000").starred);
    // A refresh that finds nothing new still reads the triage count, and the view when it moved.
    let effects = one.synced(SyncJob::Head(Status::New), true);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(row(&one, "id00000").starred);
    // Nothing moved: no query.
    let before = one.state.list.query_id;
    one.synced(SyncJob::Head(Status::New), true);
    assert_eq!(one.state.list.query_id, before);
}

#[test]
fn triage_needs_the_list_or_a_detail_and_no_store_says_so_once() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.memory_only = true;
    act(&mut h, Action::FocusNext);
    let effects = act(&mut h, Action::ToggleStar);
    assert!(effects.is_empty());
    assert!(h.state.note.as_ref().unwrap().text.contains("Tab to it"));
    act(&mut h, Action::FocusPrev);
    act(&mut h, Action::ToggleStar);
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("in memory only")
    );
    act(&mut h, Action::ToggleStar);
    assert!(!h.state.note.as_ref().unwrap().text.contains("memory"));
}

#[test]
fn an_undo_answer_is_not_an_undo_step() {
    let mut h = started_harness(120, 30, 50, true);
    let done = Triaged {
        after: vec![("id00000".into(), Triage::default())],
        before: vec![("id00000".into(), Triage::default())],
        undo: Vec::new(),
        hides: false,
        rev: 0,
        cause: Cause::Undo,
        what: "Undone: star of id00000".into(),
        shared: 0,
    };
    h.state.triage.writing = 1;
    h.send(Msg::Triaged(Ok(Box::new(done))));
    assert!(h.state.triage.undo.is_empty());
    assert_eq!(
        h.state.note.as_ref().unwrap().text,
        "Undone: star of id00000"
    );
}

#[test]
fn with_an_editor_set_n_hands_the_note_to_it_and_writes_what_comes_back() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.external_editor = true;
    h.state.triage.advance = false;
    let effects = act(&mut h, Action::EditNote);
    assert!(h.state.triage.note.is_none(), "no inline editor");
    let [Effect::Terminal(Handover::EditNote { ids, text })] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert_eq!(
        (ids.as_slice(), text.as_str()),
        (["id00000".to_owned()].as_slice(), "")
    );
    let ids = ids.clone();
    h.send(Msg::NoteEdited {
        ids: ids.clone(),
        result: Ok(Some("from vim".into())),
    });
    assert_eq!(stored(&h, "id00000").note.as_deref(), Some("from vim"));
    assert!(row(&h, "id00000").has_note());
    h.send(Msg::NoteEdited {
        ids: ids.clone(),
        result: Ok(None),
    });
    assert_eq!(h.state.note.as_ref().unwrap().text, "Note unchanged");
    h.send(Msg::NoteEdited {
        ids,
        result: Err("the editor ended with exit status: 1; the note is unchanged".into()),
    });
    assert!(h.state.note.as_ref().unwrap().error);
    assert_eq!(stored(&h, "id00000").note.as_deref(), Some("from vim"));
}

#[test]
fn a_digit_in_the_snooze_picker_names_its_entry_and_may_start_a_duration() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::Snooze);
    key(&mut h, KeyCode::Char('2'));
    assert_eq!(h.state.triage.picker.as_ref().unwrap().selected, 1);
    key(&mut h, KeyCode::Enter);
    let four = now() + SignedDuration::from_hours(4);
    assert_eq!(stored(&h, "id00000").snoozed_until, Some(four));
    let said = h.state.note.as_ref().unwrap().text.to_string();
    assert!(
        said.starts_with("Snoozed until ") && said.ends_with(": 1 item; U undoes"),
        "{said}"
    );
    // A digit, then a move: the selection is what Enter takes.
    act(&mut h, Action::Snooze);
    key(&mut h, KeyCode::Char('1'));
    key(&mut h, KeyCode::Down);
    assert_eq!(h.state.triage.picker.as_ref().unwrap().input, "");
    key(&mut h, KeyCode::Enter);
    assert_eq!(stored(&h, "id00001").snoozed_until, Some(four));
    // A digit that starts a duration.
    act(&mut h, Action::Snooze);
    typed(&mut h, "2d");
    key(&mut h, KeyCode::Enter);
    let two_days = now() + SignedDuration::from_hours(48);
    assert_eq!(stored(&h, "id00002").snoozed_until, Some(two_days));
}
