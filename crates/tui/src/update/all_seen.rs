//! "Mark all in this view seen" (`ctrl-a`, `:mark-all-seen`), so that a first run need not
//! start at tens of thousands unseen. A view of more than [`CONFIRM_ABOVE`] items asks first:
//! the same key again goes on, any other key drops the question. The view's ids are then read
//! off the UI thread and marked seen in one triage write, which `U` undoes as one step.

use std::sync::Arc;

use super::{error, info};
use crate::action::Action;
use crate::effect::{Effect, Read};
use crate::failure::Failure;
use crate::state::AppState;
use crate::triage::{AllSeen, Cause};
use feedback_core::text::output::thousands;
use feedback_store::TriageChange;

/// Views larger than this ask before every item is marked.
pub(crate) const CONFIRM_ABOVE: usize = 100;

/// `ctrl-a`; any other action drops a question asked. `None` for the other actions.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    if action != Action::MarkAllSeen {
        if matches!(state.triage.all_seen, Some(AllSeen::Confirming { .. })) {
            state.triage.all_seen = None;
        }
        return None;
    }
    Some(mark(state))
}

fn mark(state: &mut AppState) -> Vec<Effect> {
    let items = state.list.keys.len();
    if items == 0 {
        info(state, "Nothing in this view to mark seen");
        return Vec::new();
    }
    match state.triage.all_seen {
        Some(AllSeen::Reading { .. }) => {
            info(state, "Already marking this view seen…");
            return Vec::new();
        }
        // Asked about this many, and asked again: go on.
        Some(AllSeen::Confirming { items: asked }) if asked == items => {}
        _ if items > CONFIRM_ABOVE => {
            state.triage.all_seen = Some(AllSeen::Confirming { items });
            info(
                state,
                format!(
                    "Mark all {} items of this view seen? The same key again does (U undoes it)",
                    thousands(u64::try_from(items).unwrap_or(u64::MAX))
                ),
            );
            return Vec::new();
        }
        _ => {}
    }
    let request_id = state.request_id();
    state.triage.all_seen = Some(AllSeen::Reading { request_id });
    vec![Effect::Read(Read::ViewIds {
        request_id,
        keys: Arc::clone(&state.list.keys),
    })]
}

/// The view's ids: marked seen in one write.
pub(super) fn ids_read(
    state: &mut AppState,
    request_id: u64,
    result: Result<Vec<String>, Failure>,
) -> Vec<Effect> {
    if state.triage.all_seen != Some(AllSeen::Reading { request_id }) {
        state.dirty = false;
        return Vec::new();
    }
    state.triage.all_seen = None;
    match result {
        Ok(ids) if ids.is_empty() => {
            info(state, "Nothing in this view to mark seen");
            Vec::new()
        }
        Ok(ids) => {
            let what = "marked seen (the whole view):".to_owned();
            vec![super::triage::send(
                state,
                ids,
                TriageChange::Seen(true),
                Cause::All,
                what,
            )]
        }
        Err(message) => {
            error(state, format!("Could not read the view's items: {message}"));
            Vec::new()
        }
    }
}
