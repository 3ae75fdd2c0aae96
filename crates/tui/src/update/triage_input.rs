//! Keys in the snooze picker and the note editor. The picker offers its choices
//! (`tui::triage::CHOICES`: 1 hour, 4 hours, tomorrow 9:00, next Monday 9:00, waking the item;
//! the pickers' keys, `crate::picker_keys`, but for a digit: it selects its entry and is
//! typed, since it may start a duration); typing a duration (`3d`, `2h`, `45m`, `1w`) and Enter
//! snoozes for that long (a lone digit takes its entry), a bad one is shown in the picker. The editor saves on Enter (Alt-Enter starts a new
//! line); Esc leaves either without writing, the editor keeping what was typed as a draft that
//! `N` on the same items brings back.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::triage::send;
use crate::effect::Effect;
use crate::picker_keys::{PickerKey, Typing, picker_key};
use crate::state::AppState;
use crate::triage::{CHOICES, Cause, choice_time};
use feedback_store::TriageChange;

/// A key for the open picker or editor.
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    if state.triage.picker.is_some() {
        snooze_key(state, key)
    } else if state.triage.note.is_some() {
        note_key(state, key)
    } else {
        state.dirty = false;
        Vec::new()
    }
}

fn snooze_key(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(picker) = &mut state.triage.picker else {
        return Vec::new();
    };
    let typed = !picker.input.is_empty();
    match key.code {
        // A digit starts a duration (`2h`) as well as naming an entry: it selects the entry
        // and is typed; Enter on a lone digit takes the entry.
        KeyCode::Char(c @ '1'..='9') if !typed => {
            let n = c as usize - '1' as usize;
            if n < CHOICES.len() {
                picker.selected = n;
            }
            picker.input.push(c);
            picker.error = None;
            return Vec::new();
        }
        KeyCode::Enter => return choose(state),
        _ => {}
    }
    match picker_key(&key, picker.selected, CHOICES.len(), Typing::Some(typed)) {
        PickerKey::Cancel => state.triage.picker = None,
        PickerKey::Select(n) => {
            picker.selected = n;
            // Moving on from a lone digit: the selection is what Enter takes.
            if picker.input.len() == 1 && picker.input.chars().all(|c| c.is_ascii_digit()) {
                picker.input.clear();
            }
        }
        PickerKey::Choose(_) => return choose(state),
        PickerKey::Other => match key.code {
            KeyCode::Backspace => {
                picker.input.pop();
                picker.error = None;
            }
            KeyCode::Char(c) if !c.is_control() && picker.input.len() < 16 => {
                picker.input.push(c);
                picker.error = None;
            }
            _ => state.dirty = false,
        },
    }
    Vec::new()
}

/// Enter: the typed duration when there is one, else the selected choice.
fn choose(state: &mut AppState) -> Vec<Effect> {
    let Some(picker) = &mut state.triage.picker else {
        return Vec::new();
    };
    let typed = picker.input.trim();
    let entry = typed
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=CHOICES.len()).contains(n));
    let until = if typed.is_empty() {
        choice_time(picker.selected, state.now, &state.tz)
    } else if let Some(n) = entry {
        choice_time(n - 1, state.now, &state.tz)
    } else {
        match feedback_core::timefmt::snooze_length(&picker.input) {
            Ok(length) => state.now.checked_add(length).ok(),
            Err(message) => {
                picker.error = Some(feedback_core::text::Clean::line(&message));
                return Vec::new();
            }
        }
    };
    let Some(picker) = state.triage.picker.take() else {
        return Vec::new();
    };
    let what = match until {
        Some(at) => format!(
            "snoozed until {}:",
            at.to_zoned(state.tz.clone()).strftime("%a %b %-d %H:%M")
        ),
        None => "woken".to_owned(),
    };
    vec![send(
        state,
        picker.ids,
        TriageChange::Snooze(until),
        Cause::Key,
        what,
    )]
}

/// What a note that was cut says.
pub(crate) const CUT_NOTE: &str = "only the first 16 KiB kept";

/// A bracketed paste: text for the note (sanitized, lines kept, capped) or the duration.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let (kept, cut) = feedback_store::capped_note(text);
    if let Some(editor) = &mut state.triage.note {
        editor.area.insert_str(feedback_core::text::sanitize(kept));
        if cut {
            super::info(state, format!("Pasted into the note: {CUT_NOTE}"));
        }
    } else if let Some(picker) = &mut state.triage.picker {
        let clean = feedback_core::text::sanitize_line(text.trim());
        picker.input = clean.chars().take(16).collect();
        picker.error = None;
    }
    Vec::new()
}

fn note_key(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(editor) = &mut state.triage.note else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => leave_note(state),
        KeyCode::Enter if !key.modifiers.contains(KeyModifiers::ALT) => {
            let text = editor.area.lines().join("\n");
            let Some(editor) = state.triage.note.take() else {
                return Vec::new();
            };
            state.triage.drafts.remove(&editor.ids);
            let note = (!text.trim().is_empty()).then_some(text);
            let what = if note.is_some() {
                "noted"
            } else {
                "note removed from"
            };
            return vec![send(
                state,
                editor.ids,
                TriageChange::Note(note),
                Cause::Key,
                what.to_owned(),
            )];
        }
        KeyCode::Enter => editor.area.insert_newline(),
        _ => {
            editor.area.input(key);
        }
    }
    Vec::new()
}

/// Esc in the editor: nothing is written; typed text that differs from the stored note is
/// kept as the items' draft (said, with the way back to it), and text put back as stored drops
/// the draft.
fn leave_note(state: &mut AppState) {
    let Some(editor) = state.triage.note.take() else {
        return;
    };
    let text = editor.area.lines().join("\n");
    if text == editor.stored {
        state.triage.drafts.remove(&editor.ids);
        if editor.draft {
            super::info(state, "Draft dropped: the note is as stored");
        }
        return;
    }
    state.triage.drafts.insert(editor.ids, text);
    super::info(
        state,
        "Note not saved: the draft is kept (N again to finish it)",
    );
}
