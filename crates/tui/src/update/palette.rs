//! The `:` palette in `update`: typing matches again (latest text wins, synchronously: the list
//! is a few dozen entries), Up/Down (or Ctrl-P/Ctrl-N, Tab/BackTab) move the selection, Enter
//! runs the selected action or switches to the selected view, `save-view NAME` saves the
//! filters as a view, Esc closes.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::info;
use crate::effect::Effect;
use crate::palette::{Palette, SAVE_VIEW, Target};
use crate::state::AppState;
use feedback_core::text::Clean;

pub(super) fn open(state: &mut AppState) -> Vec<Effect> {
    state.palette = Some(Palette::new(&state.views.views));
    Vec::new()
}

/// A key while the palette is open.
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let Some(palette) = &mut state.palette else {
        state.dirty = false;
        return Vec::new();
    };
    let last = palette.matches.len().saturating_sub(1);
    match key.code {
        KeyCode::Esc => state.palette = None,
        KeyCode::Enter => return run(state),
        KeyCode::Up | KeyCode::BackTab => palette.selected = palette.selected.saturating_sub(1),
        KeyCode::Char('p') if ctrl => palette.selected = palette.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Tab => palette.selected = (palette.selected + 1).min(last),
        KeyCode::Char('n') if ctrl => palette.selected = (palette.selected + 1).min(last),
        KeyCode::Char('u') if ctrl => {
            // Ctrl-U clears the line, as in a shell and the `/` prompt.
            *palette = Palette::new(&state.views.views);
        }
        _ => {
            let before = palette.text();
            palette.input.input(key);
            if palette.text() != before {
                palette.refresh(&state.views.views);
            }
        }
    }
    Vec::new()
}

/// A paste into the palette: one line of text.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    if let Some(palette) = &mut state.palette {
        let line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        palette.input.insert_str(line);
        palette.refresh(&state.views.views);
    }
    Vec::new()
}

/// Enter: a typed `save-view NAME`, else the selected entry.
fn run(state: &mut AppState) -> Vec<Effect> {
    let Some(palette) = &mut state.palette else {
        return Vec::new();
    };
    if let Some(name) = palette.save_view_name() {
        if name.is_empty() {
            palette.error = Some(Clean::line(&format!(
                "{SAVE_VIEW} needs a name: {SAVE_VIEW} NAME"
            )));
            return Vec::new();
        }
        return match super::saved_views::save(state, &name) {
            Ok(effects) => {
                state.palette = None;
                effects
            }
            Err(message) => {
                if let Some(palette) = &mut state.palette {
                    palette.error = Some(Clean::line(&message));
                }
                Vec::new()
            }
        };
    }
    let Some(target) = palette.matches.get(palette.selected).map(|m| m.target) else {
        palette.error = Some(Clean::fixed("nothing matches"));
        return Vec::new();
    };
    match target {
        Target::SaveView => {
            // The command needs its argument: put it in the prompt.
            *palette = Palette::new(&state.views.views);
            palette.input.insert_str(format!("{SAVE_VIEW} "));
            palette.refresh(&state.views.views);
            Vec::new()
        }
        Target::View(n) => {
            state.palette = None;
            super::saved_views::switch(state, n)
        }
        Target::Action(action) => {
            state.palette = None;
            // The screen under the palette takes what its keys take (`tui::mode_keys`).
            let mode = state.mode();
            if !mode.takes_action(action) {
                let name = action.name().replace('_', "-");
                info(state, format!("{name} does nothing in {}", mode.name()));
                return Vec::new();
            }
            super::on_action(state, action)
        }
    }
}
