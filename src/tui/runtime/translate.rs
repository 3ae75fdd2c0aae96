//! Terminal events to messages: key presses through the overlays' own input, a side pane's
//! type-ahead and the key map; pastes, resizes, clicks and the wheel (never under an overlay).

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, MouseEventKind};

use crate::tui::action::{Action, Msg};
use crate::tui::keymap::{Keymap, is_interrupt};
use crate::tui::state::AppState;
use crate::tui::view;

/// Turns a terminal event into a message: key presses (releases and repeats are ignored),
/// pastes, resizes and the mouse. Over the help, the detail or the fatal screen a click never
/// reaches the list underneath, and the wheel scrolls the help while it is open.
#[must_use]
pub fn translate(event: &Event, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => translate_key(key, state, keymap),
        Event::Paste(text) => Some(Msg::Paste(text.clone())),
        Event::Resize(width, height) => Some(Msg::Resize {
            width: *width,
            height: *height,
        }),
        Event::Mouse(mouse) => {
            let lines = match mouse.kind {
                MouseEventKind::ScrollDown => 3,
                MouseEventKind::ScrollUp => -3,
                MouseEventKind::Down(_) => return click(state, mouse.column, mouse.row),
                _ => return None,
            };
            Some(if state.help {
                help_scroll(state, keymap, lines)
            } else {
                Msg::Scroll(lines)
            })
        }
        _ => None,
    }
}

/// A click selects a list row or a side pane's entry, and only when nothing covers them.
fn click(state: &AppState, column: u16, row: u16) -> Option<Msg> {
    // views: nor under the palette; fix10: nor under a picker or the note editor.
    // fixinsight: on the grouped view a click selects a group (`ClickRow` carries its index).
    if state.insight.grouped.is_some() && state.detail.is_none() {
        let covered = crate::tui::reading::covers_groups(state);
        let at = view::insight::group_at(state, column, row).filter(|_| !covered)?;
        return Some(Msg::ClickRow(u16::try_from(at).unwrap_or(u16::MAX)));
    }
    let covered = state.detail.is_some() || crate::tui::reading::overlay_open(state);
    // reading: where the click lands comes from the layout (sidebar, list, preview).
    (!covered).then(|| view::layout::click_target(state, column, row))?
}

fn translate_key(key: &KeyEvent, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    if is_interrupt(key) {
        return Some(Msg::Interrupt);
    }
    if state.help {
        return keymap.action(key).map(|action| match action {
            Action::MoveDown => help_scroll(state, keymap, 1),
            Action::MoveUp => help_scroll(state, keymap, -1),
            Action::PageDown | Action::PageUp => {
                let (page, _) = view::help_scroll_range(state.width, state.height, keymap);
                let page = i32::from(page.max(1));
                help_scroll(
                    state,
                    keymap,
                    if action == Action::PageUp {
                        -page
                    } else {
                        page
                    },
                )
            }
            Action::Top => help_scroll(state, keymap, i32::MIN),
            Action::Bottom => help_scroll(state, keymap, i32::MAX),
            other => Msg::Action(other),
        });
    }
    if state.acting.picker.is_some() {
        return Some(Msg::PickerInput(*key));
    }
    // insight: the open `=` picker takes every key.
    if state.insight.picker.is_some() {
        return Some(Msg::InsightInput(*key));
    }
    if state.triage.picker.is_some() || state.triage.note.is_some() {
        return Some(Msg::TriageInput(*key));
    }
    // views: the open palette takes every key.
    if state.palette.is_some() {
        return Some(Msg::PaletteInput(*key));
    }
    // reading: a side pane's type-ahead takes unbound printable keys (and all while live).
    if let Some(msg) = crate::tui::reading::typeahead_key(key, state, keymap) {
        return Some(msg);
    }
    let editing = state.text_filter.as_ref().is_some_and(|f| f.editing);
    if editing {
        return Some(match key.code {
            KeyCode::Esc => Msg::Action(Action::Back),
            KeyCode::Enter => Msg::Action(Action::Open),
            _ => Msg::FilterInput(*key),
        });
    }
    keymap.action(key).map(Msg::Action)
}

/// Scrolls the help by `lines`, within what its layout at the current size allows.
fn help_scroll(state: &AppState, keymap: &Keymap, lines: i32) -> Msg {
    let (_, max) = view::help_scroll_range(state.width, state.height, keymap);
    Msg::HelpScroll { lines, max }
}
