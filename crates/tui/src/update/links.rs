//! `ctrl-k`: links the marked items (or the selected one) to a ticket, or removes a link, from
//! the link prompt. Like the team's keys, the change is recorded first (in the team's outbox
//! with a team, else in the store itself), said once it is durable, and kept for `U`.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::acting;
use crate::action::Action;
use crate::effect::Effect;
use crate::linking::{INPUT_MAX_BYTES, LinkPrompt, parse};
use crate::state::AppState;
use feedback_core::text::Clean;

/// `ctrl-k`; `None` for other actions.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    if action != Action::EditLinks {
        return None;
    }
    if let Some(ids) = acting::targets(state) {
        state.link_prompt = Some(LinkPrompt::new(ids));
    }
    Some(Vec::new())
}

/// A key in the open prompt: typed, applied (`Enter`), or the prompt closed (`Esc`).
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(prompt) = state.link_prompt.as_mut() else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => state.link_prompt = None,
        KeyCode::Enter => match parse(&prompt.input) {
            Ok(change) => {
                let ids = std::mem::take(&mut prompt.ids);
                state.link_prompt = None;
                let changes = ids.into_iter().map(|id| (id, change.clone())).collect();
                return super::team::record(state, changes);
            }
            Err(why) => prompt.error = Some(Clean::line(&why)),
        },
        KeyCode::Backspace => {
            prompt.input.pop();
            prompt.error = None;
        }
        KeyCode::Char(c) if !c.is_control() => type_in(prompt, c),
        _ => state.dirty = false,
    }
    Vec::new()
}

/// A paste into the prompt: its text on one line (a link copied from a browser; the line is
/// trimmed when it is read).
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let Some(prompt) = state.link_prompt.as_mut() else {
        state.dirty = false;
        return Vec::new();
    };
    for c in text.chars().map(|c| if c.is_control() { ' ' } else { c }) {
        type_in(prompt, c);
    }
    Vec::new()
}

fn type_in(prompt: &mut LinkPrompt, c: char) {
    if prompt.input.len() + c.len_utf8() <= INPUT_MAX_BYTES {
        prompt.input.push(c);
    }
    prompt.error = None;
}
