//! Input that is not a key action: Ctrl-C (quit from anywhere), a bracketed paste (text for the
//! `/` prompt, never keys), the prompt's size limit for typed keys, the help overlay's
//! scrolling, and clicks or the wheel over an overlay (they never reach the list underneath).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{info, list, text_filter};
use crate::effect::Effect;
use crate::state::{AppState, Pointer};
use feedback_core::text::sanitize_line;

/// Most bytes the prompt holds. A paste beyond it is cut (at a character boundary) and the
/// note says so: the prompt filters, it is not an editor, and every byte costs a search of
/// every loaded row.
pub const PROMPT_MAX_BYTES: usize = 4096;

/// Most bytes of a paste that are looked at (sanitized) at all.
const PASTE_MAX_BYTES: usize = 4 * PROMPT_MAX_BYTES;

/// Ctrl-C: quit, whatever is on screen.
pub(super) fn interrupt(state: &mut AppState) -> Vec<Effect> {
    state.quit = true;
    Vec::new()
}

/// A paste goes into the prompt while it is being edited, as one piece of one-line text
/// (line breaks become spaces, control characters are neutralised), followed by one query,
/// so its cost is linear in its (capped) length. As with typed text, the selected item stays
/// selected while it matches. Anywhere else it is
/// ignored, with a note.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let editing = !state.help
        && state.fatal.is_none()
        && state.text_filter.as_ref().is_some_and(|f| f.editing);
    if !editing {
        info(
            state,
            "Paste ignored: open the search prompt first to paste into it",
        );
        return Vec::new();
    }
    // Sanitizing copies the text: cut a huge paste first, to a few times what the prompt
    // holds (sanitizing can shorten it, by turning an escape sequence into one marker).
    let raw = &text[..char_floor(text, PASTE_MAX_BYTES)];
    let clean = sanitize_line(raw);
    let used = prompt_bytes(state);
    let Some(filter) = state.text_filter.as_mut() else {
        return Vec::new();
    };
    let room = PROMPT_MAX_BYTES.saturating_sub(used);
    let cut = char_floor(&clean, room);
    filter.input.insert_str(&clean[..cut]);
    let effects = text_filter::edited(state);
    if cut < clean.len() || raw.len() < text.len() {
        info(
            state,
            format!("Paste cut to {cut} bytes: the search prompt holds {PROMPT_MAX_BYTES}"),
        );
    }
    effects
}

/// A key for the prompt. Typed characters stop at the prompt's size too, so keys sent one by
/// one (a terminal without bracketed paste) cannot grow it without bound either.
pub(super) fn filter_input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let typed = match key.code {
        KeyCode::Char(c)
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
        {
            Some(c)
        }
        _ => None,
    };
    if let Some(c) = typed
        && prompt_bytes(state) + c.len_utf8() > PROMPT_MAX_BYTES
    {
        info(
            state,
            format!("The search prompt is full ({PROMPT_MAX_BYTES} bytes)"),
        );
        return Vec::new();
    }
    text_filter::input(state, key)
}

/// Bytes of text in the prompt (0 without one).
fn prompt_bytes(state: &AppState) -> usize {
    state
        .text_filter
        .as_ref()
        .map_or(0, |f| f.input.lines().iter().map(String::len).sum())
}

/// The largest character boundary of `text` at or below `limit`.
fn char_floor(text: &str, limit: usize) -> usize {
    if limit >= text.len() {
        return text.len();
    }
    (0..=limit)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// Scrolls the help overlay, within `max` (which the sender took from the overlay's layout).
pub(super) fn help_scroll(state: &mut AppState, lines: i32, max: u16) -> Vec<Effect> {
    if !state.help {
        state.dirty = false;
        return Vec::new();
    }
    let target = i64::from(state.help_scroll) + i64::from(lines);
    state.help_scroll = u16::try_from(target.clamp(0, i64::from(max))).unwrap_or(max);
    Vec::new()
}

/// Scrolls the open message log by `lines` within `max` (from the bottom when it opened).
pub(super) fn log_scroll(state: &mut AppState, lines: i32, max: u16) -> Vec<Effect> {
    let Some(scroll) = state.log_open else {
        state.dirty = false;
        return Vec::new();
    };
    let target = i64::from(scroll.min(max)) + i64::from(lines);
    state.log_open = Some(u16::try_from(target.clamp(0, i64::from(max))).unwrap_or(max));
    Vec::new()
}

/// A click selects a list row (on the grouped view, `row` is the group clicked) only when the
/// list is on top, not under the detail or any overlay.
pub(super) fn click(state: &mut AppState, row: u16) -> Vec<Effect> {
    match state.mode().pointer() {
        Pointer::Groups => super::insight::select_group(state, usize::from(row), false),
        Pointer::List => list::click(state, row),
        Pointer::Detail | Pointer::TopIssues | Pointer::Nothing => {
            state.dirty = false;
            Vec::new()
        }
    }
}

/// The wheel scrolls the list, the detail or the grouped view's selection, never what lies
/// under an overlay (the help's own wheel scrolling arrives as `Msg::HelpScroll`).
pub(super) fn scroll(state: &mut AppState, lines: i32) -> Vec<Effect> {
    match state.mode().pointer() {
        Pointer::Groups => {
            let at = state.insight.grouped.as_ref().map_or(0, |g| g.selected);
            let to = at.saturating_add_signed(isize::try_from(lines).unwrap_or(0));
            super::insight::select_group(state, to, true)
        }
        // The list scrolls, or the detail over it.
        Pointer::List | Pointer::Detail => list::scroll(state, lines),
        // As its move keys do.
        Pointer::TopIssues => {
            if let Some(screen) = state.top_issues.as_mut() {
                screen.move_by(isize::try_from(lines).unwrap_or(0));
            }
            Vec::new()
        }
        Pointer::Nothing => {
            state.dirty = false;
            Vec::new()
        }
    }
}
