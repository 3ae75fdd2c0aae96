//! A paste into the `/` prompt behaves like the same text typed: the selected item stays
//! selected while it matches (else the first match is), paging under the new filter starts at
//! once, and a huge paste is cut before it is sanitized.

use super::{act, page_effect, selected_id};
use crate::tui::action::{Action, Msg, PageKind};
use crate::tui::state::ListLoad;
use crate::tui::testkit::started;
use crate::tui::update::update;

fn prompt_text(state: &crate::tui::state::AppState) -> String {
    state.text_filter.as_ref().unwrap().input.lines().join("\n")
}

#[test]
fn a_paste_keeps_the_selected_item_selected_while_it_matches() {
    let mut state = started(120, 35, 100, false);
    for _ in 0..50 {
        act(&mut state, Action::MoveDown);
    }
    assert_eq!(selected_id(&state), "id00050");
    act(&mut state, Action::Filter);
    update(&mut state, Msg::Paste("id0005".into()));
    assert_eq!(state.visible_len(), 10, "id00050 to id00059 match");
    assert_eq!(state.list.selected, 0);
    assert_eq!(
        selected_id(&state),
        "id00050",
        "not the row the index used to hold"
    );
}

#[test]
fn a_paste_selects_the_first_match_when_the_selected_item_no_longer_matches() {
    let mut state = started(120, 35, 100, false);
    for _ in 0..3 {
        act(&mut state, Action::MoveDown);
    }
    act(&mut state, Action::Filter);
    update(&mut state, Msg::Paste("id0005".into()));
    assert_eq!(selected_id(&state), "id00050");
}

#[test]
fn a_paste_that_narrows_the_list_pages_on_at_once() {
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::Filter);
    let effects = update(&mut state, Msg::Paste("id0005".into()));
    let (id, kind, cursor) = page_effect(&effects).expect("paging starts with the paste");
    assert_eq!(kind, PageKind::Next);
    assert_eq!(cursor.map(|c| c.0), Some("after-100".to_owned()));
    assert_eq!(
        (state.list.load, state.list.request_id),
        (ListLoad::More, id)
    );
    assert_eq!(state.in_flight, 1);
}

#[test]
fn a_huge_paste_is_cut_before_it_is_sanitized() {
    let mut state = started(120, 35, 100, false);
    act(&mut state, Action::Filter);
    // One escape sequence far longer than the prompt: sanitized whole it would shrink to one
    // marker and let the text after it in; cut first, nothing after the cut is looked at.
    let paste = format!("\x1b]52;c;{}\x07tail", "A".repeat(64 * 1024));
    update(&mut state, Msg::Paste(paste));
    let text = prompt_text(&state);
    assert!(!text.contains("tail"), "{text:?}");
    assert!(text.len() <= crate::tui::update::PROMPT_MAX_BYTES);
    let note = state
        .note
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert!(note.contains("Paste cut"), "{note}");
}
