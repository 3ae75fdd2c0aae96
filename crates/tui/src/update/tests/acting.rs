//! Acting on items: marks (Space, V, Esc) that stay on their items, triage of many items in
//! one write with one undo, marks hidden by a search, the snooze picker for marked items.
//! Copies and the pipe: `acting_copies.rs`.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use super::triage::stored;
use crate::action::{Action, Msg};
use crate::effect::{Effect, Local, Read, Write};
use crate::testkit::{Harness, now, started_harness};
use feedback_config::looks::PipeCommand;
use feedback_core::text::Clean;
use feedback_store::TriageChange;

pub(super) fn marked(h: &Harness) -> Vec<String> {
    let keys = std::sync::Arc::clone(&h.state.list.keys);
    h.state.acting.marks.ids_in(&keys)
}

pub(super) fn note(h: &Harness) -> String {
    h.state
        .note
        .as_ref()
        .map(|n| n.text.to_string())
        .unwrap_or_default()
}

pub(super) fn copies(effects: &[Effect]) -> Vec<(&'static str, String)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Local(Local::Copy { what, text }) => Some((*what, text.to_string())),
            _ => None,
        })
        .collect()
}

pub(super) fn command(name: &str) -> PipeCommand {
    PipeCommand {
        name: Clean::line(name),
        argv: vec!["sh".into(), "-c".into(), format!("cat > {name}")],
        wait: true,
        capture: None,
    }
}

#[test]
fn space_marks_and_moves_down_again_unmarks_and_esc_clears_first() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    assert_eq!(marked(&h), ["id00000", "id00001"]);
    assert_eq!(h.selected_id(), "id00002");
    act(&mut h, Action::MoveUp);
    act(&mut h, Action::ToggleMark);
    assert_eq!(marked(&h), ["id00000"], "Space on a marked item unmarks it");
    // A search is applied: Esc clears the marks before it clears the search.
    let third = h.state.list.keys[2];
    h.state
        .acting
        .marks
        .items
        .insert(third, Some("id00002".into()));
    act(&mut h, Action::Filter);
    for c in "number".chars() {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        h.send(Msg::FilterInput(key));
    }
    act(&mut h, Action::Open);
    assert_eq!(
        marked(&h).len(),
        2,
        "marks survive a search that keeps their items"
    );
    assert_eq!(h.state.acting.marks.in_view, 2);
    act(&mut h, Action::Back);
    assert!(h.state.acting.marks.is_empty());
    assert_eq!(note(&h), "Cleared 2 marks");
    assert!(h.state.text_filter.is_some());
    assert_eq!(h.state.view.search, "number", "the search stays");
    act(&mut h, Action::Back);
    assert!(h.state.view.search.is_empty());
}

#[test]
fn v_marks_from_the_last_mark_to_the_selection() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::ToggleMark); // marks id00001, selection on id00002
    for _ in 0..3 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::MarkRange);
    assert_eq!(
        marked(&h),
        ["id00001", "id00002", "id00003", "id00004", "id00005"]
    );
    assert!(note(&h).contains("5 marked"), "{}", note(&h));
    // Upwards from the new anchor (the selection) works the same.
    act(&mut h, Action::Top);
    act(&mut h, Action::MarkRange);
    assert_eq!(marked(&h).len(), 6);
    assert_eq!(marked(&h)[0], "id00000");
}

#[test]
fn a_range_past_the_rows_read_gets_its_ids_from_the_store_before_an_action() {
    let mut h = started_harness(120, 20, 2000, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::Bottom);
    // The range's ids are read; the action pressed before the answer waits for it.
    let effects = h.apply(Msg::Action(Action::MarkRange));
    assert!(
        matches!(&effects[..], [Effect::Read(Read::ResolveMarks { keys, .. })] if keys.len() > 1000)
    );
    let answers = h.hold(effects);
    let waiting = h.apply(Msg::Action(Action::ToggleStar));
    assert!(
        waiting
            .iter()
            .all(|e| !matches!(e, Effect::Write(Write::Triage { .. }))),
        "nothing written before every id is known"
    );
    assert_eq!(note(&h), "Reading the marked items…");
    let answers = answers
        .into_iter()
        .chain(h.hold(waiting))
        .collect::<Vec<_>>();
    let mut written = Vec::new();
    for answer in answers {
        written.extend(h.send(answer));
    }
    let all = h.state.list.keys.len();
    assert_eq!(marked(&h).len(), all);
    assert!(stored(&h, "id01999").starred && stored(&h, "id00000").starred);
    assert!(
        note(&h).contains(&format!(
            "Starred {}",
            feedback_core::text::output::counted(all, "item")
        )),
        "{}",
        note(&h)
    );
}

#[test]
fn triage_of_marked_items_is_one_write_undone_as_one() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::MoveDown);
    for _ in 0..3 {
        act(&mut h, Action::ToggleMark);
    }
    let selected = h.selected_id();
    let effects = h.apply(Msg::Action(Action::ToggleStar));
    assert!(
        matches!(&effects[..], [Effect::Write(Write::Triage { ids, change: TriageChange::Starred(true), .. })]
            if ids == &["id00001", "id00002", "id00003"]),
        "{effects:?}"
    );
    h.settle(effects);
    assert!(note(&h).starts_with("Starred 3 items"), "{}", note(&h));
    assert_eq!(h.selected_id(), selected, "no advance after a bulk action");
    // Some starred, some not: `*` stars them all; all starred: unstars them all.
    act(&mut h, Action::ToggleStar);
    assert!(!stored(&h, "id00002").starred, "all starred: unstars");
    assert!(note(&h).starts_with("Unstarred 3 items"), "{}", note(&h));
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: unstar of 3 items");
    for id in ["id00001", "id00002", "id00003"] {
        assert!(stored(&h, id).starred, "the whole batch undone: {id}");
    }
    // Done: the items leave the view and lose their marks.
    act(&mut h, Action::ToggleDone);
    assert!(stored(&h, "id00003").done);
    assert!(
        h.state.acting.marks.is_empty(),
        "done items are out of sight"
    );
    assert_eq!(h.state.acting.marks.in_view, 0);
    act(&mut h, Action::UndoTriage);
    assert!(!stored(&h, "id00003").done);
}

#[test]
fn n_is_for_one_item_and_triage_without_marks_is_unchanged() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::EditNote);
    assert!(h.state.triage.note.is_none());
    assert!(note(&h).contains("one item's note"));
    act(&mut h, Action::Back);
    act(&mut h, Action::EditNote);
    assert!(
        h.state.triage.note.is_some(),
        "without marks N edits the selected item"
    );
}

#[test]
fn marks_hidden_by_a_search_stay_and_are_not_acted_on() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark); // id00000
    act(&mut h, Action::ToggleMark); // id00001
    act(&mut h, Action::Filter);
    for c in "tag:ui".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    act(&mut h, Action::Open);
    assert_eq!(h.state.acting.marks.len(), 2);
    assert_eq!(h.state.acting.marks.in_view, 1);
    let effects = h.apply(Msg::Action(Action::ToggleStar));
    assert!(
        matches!(&effects[..], [Effect::Write(Write::Triage { ids, .. })] if ids == &["id00001"]),
        "{effects:?}"
    );
    h.settle(effects);
    assert!(stored(&h, "id00001").starred);
    assert!(
        !stored(&h, "id00000").starred,
        "hidden by the search: not reached"
    );
}

#[test]
fn the_snooze_picker_takes_the_marked_items() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::Snooze);
    let picker = h.state.triage.picker.as_ref().unwrap();
    assert_eq!(picker.ids, ["id00000", "id00001"]);
    super::triage::key(&mut h, KeyCode::Enter);
    let until = now() + jiff::SignedDuration::from_hours(1);
    for id in ["id00000", "id00001"] {
        assert_eq!(stored(&h, id).snoozed_until, Some(until), "{id}");
    }
    assert!(
        h.state.acting.marks.is_empty(),
        "snoozed items left the view"
    );
}
