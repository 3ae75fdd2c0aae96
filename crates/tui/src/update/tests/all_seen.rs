//! "Mark all in this view seen": a small view at once, a large one after the same key again
//! (any other key drops the question); every item of the view in one write, undone by `U`.

use super::act;
use crate::action::{Action, Msg};
use crate::testkit::{Harness, started_harness};

/// How many of the first `n` items the store has seen.
fn seen_of(h: &Harness, n: usize) -> usize {
    let ids: Vec<String> = (0..n).map(|i| format!("id{i:05}")).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let triage = h.store.read(|s| s.triage_of(&ids)).unwrap();
    triage.values().filter(|t| t.seen).count()
}

#[test]
fn a_small_view_is_marked_seen_at_once_and_undone_as_one_step() {
    let mut h = started_harness(120, 35, 40, true);
    assert_eq!(h.state.list.keys.len(), 40);
    assert_eq!(seen_of(&h, 40), 0);
    act(&mut h, Action::MarkAllSeen);
    assert_eq!(seen_of(&h, 40), 40, "one write, every item");
    let note = h.state.note.as_ref().map(|n| n.text.to_string()).unwrap();
    assert!(note.contains("40 items; U undoes"), "{note}");
    assert_eq!(h.state.list.selected, 0, "the selection stays");
    act(&mut h, Action::UndoTriage);
    assert_eq!(seen_of(&h, 40), 0, "U undoes all of it");
}

#[test]
fn a_large_view_asks_first_and_another_key_drops_the_question() {
    let mut h = started_harness(120, 35, 150, true);
    assert_eq!(h.state.list.keys.len(), 150);
    act(&mut h, Action::MarkAllSeen);
    assert_eq!(seen_of(&h, 150), 0, "asked first");
    let note = h.state.note.as_ref().map(|n| n.text.to_string()).unwrap();
    assert!(
        note.starts_with("Mark all 150 items of this view seen?"),
        "{note}"
    );
    // Another key: the question is gone, and the next press asks again.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MarkAllSeen);
    assert_eq!(seen_of(&h, 150), 0, "asked again");
    act(&mut h, Action::MarkAllSeen);
    assert_eq!(seen_of(&h, 150), 150);
    assert!(h.state.triage.all_seen.is_none());
}

#[test]
fn an_answer_nobody_waits_for_is_dropped() {
    let mut h = started_harness(120, 35, 40, true);
    let effects = h.send(Msg::ViewIds {
        request_id: 999,
        result: Ok(vec!["id00000".into()]),
    });
    assert!(effects.is_empty() && h.sent.is_empty());
    assert_eq!(seen_of(&h, 1), 0);
}
