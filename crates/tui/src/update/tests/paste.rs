//! A paste into the `/` prompt behaves like the same text typed: one query, the selected item
//! kept while it matches (else the first match), and a huge paste cut before it is sanitized.

use super::act;
use crate::action::{Action, Msg};
use crate::testkit::started_harness;

#[test]
fn a_paste_keeps_the_selected_item_selected_while_it_matches() {
    let mut h = started_harness(120, 35, 100, true);
    for _ in 0..48 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("tag:crash".into()));
    assert_eq!(h.state.visible_len(), 25);
    assert_eq!(h.state.list.selected, 12);
    assert_eq!(h.selected_id(), "id00048", "the item, not the index");
}

#[test]
fn a_paste_selects_the_first_match_when_the_selected_item_no_longer_matches() {
    let mut h = started_harness(120, 35, 100, true);
    for _ in 0..3 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("id:id00050".into()));
    assert_eq!(h.selected_id(), "id00050");
}

#[test]
fn a_huge_paste_is_cut_before_it_is_sanitized() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Filter);
    // One escape sequence far longer than the prompt: sanitized whole it would shrink to one
    // marker and let the text after it in; cut first, nothing after the cut is looked at.
    let paste = format!("\x1b]52;c;{}\x07tail", "A".repeat(64 * 1024));
    h.send(Msg::Paste(paste));
    let text = h
        .state
        .text_filter
        .as_ref()
        .unwrap()
        .input
        .lines()
        .join("\n");
    assert!(!text.contains("tail"), "{text:?}");
    assert!(text.len() <= crate::update::PROMPT_MAX_BYTES);
    let note = h
        .state
        .note
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert!(note.contains("Paste cut"), "{note}");
}
