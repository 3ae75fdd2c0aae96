//! Reading and moving, the side panes: the sidebar's switch, type-ahead and clicks.

use ratatui::crossterm::event::{Event, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use super::act;
use super::reading::{at, tick, type_key};
use crate::action::{Action, Msg};
use crate::keymap::Keymap;
use crate::reading::{TypeKey, sidebar_shown};
use crate::runtime::translate;
use crate::state::Focus;
use crate::testkit::{Harness, started_harness};

#[test]
fn b_hides_and_shows_the_sidebar_which_hides_itself_below_100_columns() {
    let mut h = started_harness(120, 35, 20, true);
    assert!(sidebar_shown(&h.state));
    act(&mut h, Action::ToggleSidebar);
    assert!(!sidebar_shown(&h.state));
    act(&mut h, Action::ToggleSidebar);
    assert!(sidebar_shown(&h.state));
    let mut h = started_harness(99, 35, 20, true);
    assert!(!sidebar_shown(&h.state));
    act(&mut h, Action::ToggleSidebar);
    assert!(sidebar_shown(&h.state), "b shows it down to 80 columns");
    let mut h = started_harness(79, 35, 20, true);
    act(&mut h, Action::ToggleSidebar);
    assert!(!sidebar_shown(&h.state));
    assert!(h.state.note.as_ref().unwrap().text.contains("Too narrow"));
}

#[test]
fn type_ahead_jumps_in_a_pane_and_bound_letters_extend_it() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::FocusPrev); // Tags: bug, crash, feature-request, ui
    assert_eq!(h.state.focus, Focus::Tags);
    let labels: Vec<&str> = h
        .state
        .tags
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    let index = |label: &str| labels.iter().position(|l| *l == label).unwrap();
    let (feature, crash) = (index("feature-request"), index("crash"));
    type_key(&mut h, 'F');
    assert_eq!(h.state.tags.selected, feature, "starts with, any case");
    assert_eq!(h.state.reading.typeahead.as_ref().unwrap().text, "F");
    // `s` switches the status when no buffer is live; here it extends "F" to "Fs": no match,
    // the selection stays.
    let status = h.state.view.listed_status();
    type_key(&mut h, 's');
    assert_eq!(h.state.view.listed_status(), status, "s did not fire");
    assert_eq!(h.state.tags.selected, feature);
    h.send(Msg::TypeAhead(TypeKey::Backspace));
    h.send(Msg::TypeAhead(TypeKey::Backspace));
    assert_eq!(h.state.reading.typeahead, None, "emptied, it ends");
    type_key(&mut h, 'a');
    assert_eq!(h.state.tags.selected, crash, "then contains: cr-a-sh");
    // Esc ends the buffer, and only that.
    act(&mut h, Action::Back);
    assert_eq!(h.state.reading.typeahead, None);
    assert_eq!(h.state.focus, Focus::Tags);
    // A bound key with no buffer does what it is bound to.
    type_key(&mut h, 'j');
    assert_eq!(h.state.tags.selected, crash + 1);
}

#[test]
fn a_type_ahead_buffer_ends_a_second_after_its_last_letter() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::FocusPrev);
    h.send(Msg::Tick(at(0)));
    type_key(&mut h, 'f');
    tick(&mut h, 1000);
    assert!(h.state.reading.typeahead.is_some(), "a second: still live");
    tick(&mut h, 1250);
    assert_eq!(h.state.reading.typeahead, None);
    // Now `j` is the pane's move again.
    let selected = h.state.tags.selected;
    type_key(&mut h, 'j');
    assert_eq!(h.state.tags.selected, selected + 1);
    assert_eq!(h.state.reading.typeahead, None);
}

/// Types `word` in the focused pane and checks no bound action fired on the way: no effect
/// (copy, sync, view read), the status and the view unchanged.
fn type_word(h: &mut Harness, word: &str) {
    let (status, view) = (h.state.view.listed_status(), h.state.views.active);
    for c in word.chars() {
        let effects = type_key(h, c);
        assert!(effects.is_empty(), "{c:?} fired {effects:?}");
    }
    assert_eq!(h.state.view.listed_status(), status);
    assert_eq!(h.state.views.active, view);
    assert_eq!(h.state.reading.typeahead.as_ref().unwrap().text, word);
}

#[test]
fn typing_words_of_bound_letters_in_a_pane_jumps_and_fires_nothing() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::FocusPrev); // Tags: bug, crash, feature-request, ui
    let label = |h: &Harness| h.state.tags.entries[h.state.tags.selected].label.clone();
    type_word(&mut h, "crash"); // c copies, r syncs, s switches the status, h...
    assert_eq!(label(&h), "crash");
    act(&mut h, Action::Back);
    type_word(&mut h, "bug"); // b hides the sidebar
    assert_eq!(label(&h), "bug");
    act(&mut h, Action::Back);
    type_word(&mut h, "sync"); // y copies the link, c the Markdown block; matches nothing
    assert_eq!(
        label(&h),
        "crash",
        "s: cra-s-h; then no match: the selection stays"
    );
    act(&mut h, Action::Back);
    type_word(&mut h, "4"); // a digit types too (views are switched from the list)
    // While a buffer is live, `:` still opens the palette (and ends the buffer).
    type_key(&mut h, ':');
    assert!(h.state.palette.is_some());
    assert_eq!(h.state.reading.typeahead, None);
}

#[test]
fn the_panes_own_keys_keep_their_meaning_with_no_buffer() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::FocusPrev);
    type_key(&mut h, 'G');
    assert_eq!(h.state.tags.selected, h.state.tags.entries.len() - 1);
    type_key(&mut h, 'g');
    assert_eq!(h.state.tags.selected, 0);
    type_key(&mut h, '?');
    assert!(h.state.help, "? is help");
    assert_eq!(h.state.reading.typeahead, None);
}

#[test]
fn moves_and_enter_end_the_buffer_and_keys_in_the_list_are_never_type_ahead() {
    let mut h = started_harness(120, 35, 100, false);
    type_key(&mut h, 'a');
    assert_eq!(
        h.state.reading.typeahead, None,
        "the list has no type-ahead"
    );
    act(&mut h, Action::FocusPrev);
    type_key(&mut h, 'f');
    act(&mut h, Action::MoveUp);
    assert_eq!(h.state.reading.typeahead, None);
    type_key(&mut h, 'f');
    act(&mut h, Action::Open);
    assert_eq!(h.state.reading.typeahead, None);
    let tag = h.state.view.tag.as_ref().unwrap();
    assert_eq!(tag.label, "feature-request");
}

fn click(h: &mut Harness, column: u16, row: u16) -> Option<Msg> {
    let event = Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
    translate(&event, &h.state, &Keymap::default())
}

#[test]
fn a_click_selects_an_entry_in_a_side_pane() {
    let mut h = started_harness(120, 35, 100, false);
    // Projects: rows 1 and 2 under its border at the top of the sidebar.
    let msg = click(&mut h, 3, 2).unwrap();
    assert!(
        matches!(
            msg,
            Msg::ClickPane {
                pane: Focus::Projects,
                entry: 1
            }
        ),
        "{msg:?}"
    );
    h.send(msg);
    assert_eq!(h.state.focus, Focus::Projects);
    assert_eq!(h.state.projects.selected, 1);
    // The pane's border selects nothing; a click on the list still selects a row.
    assert!(click(&mut h, 3, 0).is_none());
    let left = crate::layout::list_left(120);
    assert!(matches!(click(&mut h, left + 5, 4), Some(Msg::ClickRow(1))));
}

#[test]
fn a_click_on_the_preview_selects_no_row_and_with_the_sidebar_hidden_the_list_starts_at_0() {
    let mut h = started_harness(160, 40, 100, false);
    assert!(click(&mut h, 159 - 5, 4).is_none());
    act(&mut h, Action::ToggleSidebar);
    assert!(matches!(click(&mut h, 2, 4), Some(Msg::ClickRow(1))));
}

#[test]
fn under_100_columns_a_pane_shown_alone_takes_clicks_and_type_ahead() {
    let mut h = started_harness(90, 30, 100, false);
    act(&mut h, Action::FocusNext); // Projects, on the whole width
    assert_eq!(h.state.focus, Focus::Projects);
    let msg = click(&mut h, 40, 2).unwrap();
    assert!(
        matches!(
            msg,
            Msg::ClickPane {
                pane: Focus::Projects,
                entry: 1
            }
        ),
        "{msg:?}"
    );
    h.send(msg);
    assert_eq!(h.state.projects.selected, 1);
    type_key(&mut h, ' ');
    assert_eq!(h.state.reading.typeahead, None, "a space starts no buffer");
    type_key(&mut h, 'n');
    assert_eq!(h.state.projects.selected, 0, "n: Nimbus Notes");
    type_key(&mut h, 'i');
    type_key(&mut h, 'm');
    type_key(&mut h, 'b');
    type_key(&mut h, 'u');
    type_key(&mut h, 's');
    type_key(&mut h, ' ');
    type_key(&mut h, 'n');
    let typed = h.state.reading.typeahead.as_ref().unwrap();
    assert_eq!(typed.text, "nimbus n", "bound keys and the space extend it");
    assert_eq!(h.state.projects.selected, 0);
}

#[test]
fn a_click_on_a_list_row_moves_the_focus_to_the_list_and_ends_type_ahead() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::FocusPrev); // Tags
    type_key(&mut h, 'c');
    assert!(h.state.reading.typeahead.is_some());
    let left = crate::layout::list_left(120);
    let msg = click(&mut h, left + 5, 5).unwrap();
    h.send(msg);
    assert_eq!(h.state.focus, Focus::List);
    assert_eq!(h.state.reading.typeahead, None);
    assert_eq!(h.state.list.selected, 2);
    // Now `y` copies the clicked row (no type-ahead, no "Tab to it").
    let effects = type_key(&mut h, 'y');
    assert!(!effects.is_empty(), "y acted on the list");
}

/// A click on the list's third row and a wheel turn, as the run loop translates them; true
/// when either moved the list's selection.
fn click_and_wheel_reach_the_list(h: &mut Harness) -> bool {
    let before = h.state.list.selected;
    let left = crate::layout::list_left(120);
    if let Some(msg) = click(h, left + 5, 6) {
        h.send(msg);
    }
    let wheel = Event::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: left + 5,
        row: 6,
        modifiers: KeyModifiers::NONE,
    });
    if let Some(msg) = translate(&wheel, &h.state, &Keymap::default()) {
        h.send(msg);
    }
    h.state.list.selected != before
}

#[test]
fn clicks_and_the_wheel_do_not_reach_the_list_under_pickers_the_note_editor_or_the_palette() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Snooze);
    assert!(h.state.triage.picker.is_some());
    assert!(!click_and_wheel_reach_the_list(&mut h), "snooze picker");
    h.state.triage.picker = None;
    h.state.triage.external_editor = false;
    act(&mut h, Action::EditNote);
    assert!(h.state.triage.note.is_some());
    assert!(!click_and_wheel_reach_the_list(&mut h), "note editor");
    h.state.triage.note = None;
    h.state.acting.commands = vec![super::acting::command("one"), super::acting::command("two")];
    act(&mut h, Action::Pipe);
    assert!(h.state.acting.picker.is_some());
    assert!(!click_and_wheel_reach_the_list(&mut h), "pipe picker");
    h.state.acting.picker = None;
    act(&mut h, Action::Palette);
    assert!(h.state.palette.is_some());
    assert!(!click_and_wheel_reach_the_list(&mut h), "palette");
    h.state.palette = None;
    assert!(
        click_and_wheel_reach_the_list(&mut h),
        "with nothing over it, they do"
    );
}
