//! Terminal events to messages: key presses through the overlays' own input, a side pane's
//! type-ahead and the key map; pastes, resizes, clicks and the wheel (never under an overlay).

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, MouseEventKind};

use crate::action::{Action, Msg};
use crate::keymap::{Chord, Keymap, is_interrupt};
use crate::render;
use crate::state::{AppState, Mode, Pointer};

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
            Some(match state.mode() {
                Mode::Help => help_scroll(state, keymap, lines),
                Mode::Messages => Msg::LogScroll {
                    lines,
                    max: render::log_scroll_range(state).1,
                },
                _ => Msg::Scroll(lines),
            })
        }
        _ => None,
    }
}

/// A click selects a list row or a side pane's entry (or a group of the grouped view), and
/// only when nothing covers them.
fn click(state: &AppState, column: u16, row: u16) -> Option<Msg> {
    match state.mode().pointer() {
        Pointer::Groups => {
            let at = render::insight::group_at(state, column, row)?;
            Some(Msg::ClickRow(u16::try_from(at).unwrap_or(u16::MAX)))
        }
        // Where the click lands comes from the layout (sidebar, list, preview).
        Pointer::List => render::layout::click_target(state, column, row),
        Pointer::Detail | Pointer::TopIssues | Pointer::Nothing => None,
    }
}

/// A key press, routed by the mode: the screens that take typing get the key itself, the
/// others its bound action (in the side panes, printable keys may go to the type-ahead).
fn translate_key(key: &KeyEvent, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    if is_interrupt(key) {
        return Some(Msg::Interrupt);
    }
    let mode = state.mode();
    match mode {
        Mode::Help => keymap
            .action(key)
            .map(|action| taken(mode, key, help_key(state, keymap, action))),
        Mode::Messages => keymap
            .action(key)
            .map(|action| taken(mode, key, log_key(state, action))),
        Mode::ActingPicker => Some(Msg::PickerInput(*key)),
        Mode::GroupPicker => Some(Msg::InsightInput(*key)),
        Mode::NoteEditor | Mode::TriagePicker => Some(Msg::TriageInput(*key)),
        Mode::Palette => Some(Msg::PaletteInput(*key)),
        Mode::TeamPrompt => Some(Msg::TeamInput(*key)),
        Mode::LinkPrompt => Some(Msg::LinkInput(*key)),
        Mode::ReplyComposer => Some(Msg::ReplyInput(*key)),
        Mode::FilterPrompt => Some(match key.code {
            KeyCode::Esc => Msg::Action(Action::Back),
            KeyCode::Enter => Msg::Action(Action::Open),
            _ => Msg::FilterInput(*key),
        }),
        Mode::Normal | Mode::Grouped => {
            crate::reading::typeahead_key(key, state, keymap).or_else(|| {
                keymap.action(key).map(|action| {
                    // `h` in the list itself has nothing to go back from.
                    if action == Action::Leave && mode == Mode::Normal && !state.can_leave() {
                        return not_here(mode, key);
                    }
                    taken(mode, key, Msg::Action(action))
                })
            })
        }
        Mode::Fatal | Mode::TopIssues | Mode::Detail => keymap
            .action(key)
            .map(|action| taken(mode, key, Msg::Action(action))),
    }
}

/// `msg` when `mode` takes its action (`crate::mode_keys`); otherwise the answer that the
/// key does nothing there.
fn taken(mode: Mode, key: &KeyEvent, msg: Msg) -> Msg {
    match msg {
        Msg::Action(action) if !mode.takes_action(action) => not_here(mode, key),
        other => other,
    }
}

/// The answer that `key` does nothing in `mode`.
fn not_here(mode: Mode, key: &KeyEvent) -> Msg {
    Msg::NotHere {
        key: Chord::from_event(key).map_or_else(String::new, |c| c.label()),
        mode,
    }
}

/// The help's keys: the moves scroll it, the rest act (close it, or are ignored there).
fn help_key(state: &AppState, keymap: &Keymap, action: Action) -> Msg {
    match action {
        Action::MoveDown => help_scroll(state, keymap, 1),
        Action::MoveUp => help_scroll(state, keymap, -1),
        Action::PageDown | Action::PageUp => {
            let (page, _) = render::help_scroll_range(
                state.width,
                state.height,
                keymap,
                state.mode_below_help(),
            );
            let page = i32::from(page.max(1));
            let lines = if action == Action::PageUp {
                -page
            } else {
                page
            };
            help_scroll(state, keymap, lines)
        }
        Action::Top => help_scroll(state, keymap, i32::MIN),
        Action::Bottom => help_scroll(state, keymap, i32::MAX),
        other => Msg::Action(other),
    }
}

/// The message log's keys: the moves scroll it, the rest act (close or copy it).
fn log_key(state: &AppState, action: Action) -> Msg {
    let (page, max) = render::log_scroll_range(state);
    let page = i32::from(page.max(1));
    let lines = match action {
        Action::MoveDown => 1,
        Action::MoveUp => -1,
        Action::PageDown => page,
        Action::PageUp => -page,
        Action::Top => i32::MIN,
        Action::Bottom => i32::MAX,
        other => return Msg::Action(other),
    };
    Msg::LogScroll { lines, max }
}

/// Scrolls the help by `lines`, within what its layout at the current size allows.
fn help_scroll(state: &AppState, keymap: &Keymap, lines: i32) -> Msg {
    let (_, max) =
        render::help_scroll_range(state.width, state.height, keymap, state.mode_below_help());
    Msg::HelpScroll { lines, max }
}
