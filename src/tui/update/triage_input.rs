//! Keys in the snooze picker and the note editor. The picker offers its choices
//! (`tui::triage::CHOICES`: 1 hour, 4 hours, tomorrow 9:00, next Monday 9:00, waking the item;
//! ↑↓ or j k, Enter); typing a duration (`3d`, `2h`, `45m`, `1w`) and Enter snoozes for that
//! long, a bad one is shown in the picker. The editor saves on Enter (Alt-Enter starts a new
//! line); Esc leaves either without writing, the editor keeping what was typed as a draft that
//! `N` on the same items brings back.

use jiff::SignedDuration;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::triage::send;
use crate::store::TriageChange;
use crate::tui::effect::Effect;
use crate::tui::state::AppState;
use crate::tui::triage::{CHOICES, Cause, choice_time};

/// A key for the open picker or editor.
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    if state.triage.picker.is_some() {
        picker_key(state, key)
    } else if state.triage.note.is_some() {
        note_key(state, key)
    } else {
        state.dirty = false;
        Vec::new()
    }
}

fn picker_key(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(picker) = &mut state.triage.picker else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => state.triage.picker = None,
        KeyCode::Up => picker.selected = picker.selected.saturating_sub(1),
        KeyCode::Char('k') if picker.input.is_empty() => {
            picker.selected = picker.selected.saturating_sub(1);
        }
        KeyCode::Down => picker.selected = (picker.selected + 1).min(CHOICES.len() - 1),
        KeyCode::Char('j') if picker.input.is_empty() => {
            picker.selected = (picker.selected + 1).min(CHOICES.len() - 1);
        }
        KeyCode::Backspace => {
            picker.input.pop();
            picker.error = None;
        }
        KeyCode::Char(c) if !c.is_control() && picker.input.len() < 16 => {
            picker.input.push(c);
            picker.error = None;
        }
        KeyCode::Enter => return choose(state),
        _ => state.dirty = false,
    }
    Vec::new()
}

/// Enter: the typed duration when there is one, else the selected choice.
fn choose(state: &mut AppState) -> Vec<Effect> {
    let Some(picker) = &mut state.triage.picker else {
        return Vec::new();
    };
    let until = if picker.input.trim().is_empty() {
        choice_time(picker.selected, state.now, &state.tz)
    } else {
        match parse_duration(&picker.input) {
            Ok(length) => state.now.checked_add(length).ok(),
            Err(message) => {
                picker.error = Some(crate::text::Clean::line(&message));
                return Vec::new();
            }
        }
    };
    let Some(picker) = state.triage.picker.take() else {
        return Vec::new();
    };
    let what = match until {
        Some(at) => format!(
            "snoozed until {}",
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

/// `3d`, `2h`, `45m`, `1w` as the search's `age:` reads them (any case), from a minute up to a
/// year.
pub fn parse_duration(text: &str) -> Result<SignedDuration, String> {
    let text = text.trim();
    let bad = || {
        format!(
            "bad duration `{}`: use 45m, 2h, 3d or 1w",
            crate::text::sanitize_line(text)
        )
    };
    let length = crate::query::duration(&text.to_ascii_lowercase()).ok_or_else(bad)?;
    let year = SignedDuration::from_hours(366 * 24);
    if length < SignedDuration::from_mins(1) || length > year {
        return Err(format!("{}: between 1 minute and a year", bad()));
    }
    Ok(length)
}

/// Notes hold at most this much of a paste.
pub const NOTE_PASTE_MAX_BYTES: usize = 16 * 1024;

/// `text` cut to [`NOTE_PASTE_MAX_BYTES`] (on a character's boundary), and whether it was.
#[must_use]
pub fn capped(text: &str) -> (&str, bool) {
    let mut cut = text.len().min(NOTE_PASTE_MAX_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    (&text[..cut], cut < text.len())
}

/// What a note that was cut says.
pub const CUT_NOTE: &str = "only the first 16 KiB kept";

/// A bracketed paste: text for the note (sanitized, lines kept, capped) or the duration.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let (kept, cut) = capped(text);
    if let Some(editor) = &mut state.triage.note {
        editor.area.insert_str(crate::text::sanitize(kept));
        if cut {
            super::info(state, format!("Pasted into the note: {CUT_NOTE}"));
        }
    } else if let Some(picker) = &mut state.triage.picker {
        let clean = crate::text::sanitize_line(text.trim());
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn durations_parse_and_bad_ones_say_why() {
        assert_eq!(parse_duration("45m"), Ok(SignedDuration::from_mins(45)));
        assert_eq!(parse_duration(" 2H "), Ok(SignedDuration::from_hours(2)));
        assert_eq!(parse_duration("3d"), Ok(SignedDuration::from_hours(72)));
        assert_eq!(parse_duration("1w"), Ok(SignedDuration::from_hours(168)));
        for bad in [
            "",
            "d",
            "3",
            "3y",
            "-2h",
            "0m",
            "53w",
            "99999999999999999999d",
        ] {
            let err = parse_duration(bad).unwrap_err();
            assert!(err.starts_with("bad duration"), "{bad:?}: {err}");
        }
    }
}
