//! Multi-select in the list: `Space` marks or unmarks the selected item and moves down, `V`
//! marks every item from the last marked one to the selection, `Esc` clears the marks before
//! it means anything else. Marks are by store key, so they stay on their items through
//! re-queries, scrolling and view switches; an item out of the view (done, snoozed, out of
//! the search or the view) keeps its mark but no action reaches it (`marks.in_view` counts
//! the ones that are shown, and the actions take only those). A range's items whose rows
//! are not read yet get their ids from the store (`Read::ResolveMarks`); an action on marks
//! pressed before that answer waits for it.

use super::info;
use crate::action::Action;
use crate::effect::{Effect, Read};
use crate::failure::Failure;
use crate::state::AppState;

/// At most this many items are marked (a `V` over a huge view stops here and says so).
pub(crate) const MAX_MARKS: usize = 10_000;

/// `Space`: marks or unmarks the selected row, then moves down.
pub(super) fn toggle(state: &mut AppState) -> Vec<Effect> {
    let Some(row) = state.selected_row() else {
        state.dirty = false;
        return Vec::new();
    };
    let (key, id) = (row.key, row.id.to_string());
    let marks = &mut state.acting.marks;
    if marks.items.remove(&key).is_none() {
        if marks.len() >= MAX_MARKS {
            info(state, format!("At most {MAX_MARKS} items can be marked"));
            return Vec::new();
        }
        marks.items.insert(key, Some(id));
        marks.anchor = Some(key);
        marks.in_view += 1;
    } else {
        marks.in_view = marks.in_view.saturating_sub(1);
        if marks.anchor == Some(key) {
            marks.anchor = None;
        }
    }
    super::list::move_by(state, 1)
}

/// `V`: marks from the last marked item (the anchor) to the selection, both included; with
/// no anchor in the view, marks the selection and makes it the anchor.
pub(super) fn range(state: &mut AppState) -> Vec<Effect> {
    let selected = state.list.selected;
    let Some(&selected_key) = state.list.keys.get(selected) else {
        state.dirty = false;
        return Vec::new();
    };
    let anchor = state
        .acting
        .marks
        .anchor
        .and_then(|a| state.list.keys.iter().position(|k| *k == a))
        .unwrap_or(selected);
    let (low, high) = (anchor.min(selected), anchor.max(selected));
    let room = MAX_MARKS.saturating_sub(state.acting.marks.len());
    let mut added = 0;
    let mut capped = false;
    for position in low..=high {
        let Some(&key) = state.list.keys.get(position) else {
            break;
        };
        if state.acting.marks.contains(key) {
            continue;
        }
        if added == room {
            capped = true;
            break;
        }
        let id = state.list.window.get(position).map(|r| r.id.to_string());
        state.acting.marks.items.insert(key, id);
        state.acting.marks.in_view += 1;
        added += 1;
    }
    state.acting.marks.anchor = Some(selected_key);
    let total = state.acting.marks.len();
    if capped {
        info(
            state,
            format!(
                "Marked {} items: at most {}",
                feedback_core::text::output::thousands(total),
                feedback_core::text::output::thousands(MAX_MARKS)
            ),
        );
    } else {
        info(
            state,
            format!(
                "Marked {} more; {} marked",
                feedback_core::text::output::thousands(added),
                feedback_core::text::output::thousands(total)
            ),
        );
    }
    resolve(state, None)
}

/// `Esc` with marks: they are cleared (and nothing else happens).
pub(super) fn clear(state: &mut AppState) {
    let count = state.acting.marks.len();
    state.acting.marks = crate::acting::Marks::default();
    state.acting.resolving = None;
    info(
        state,
        format!(
            "Cleared {} marks",
            feedback_core::text::output::thousands(count)
        ),
    );
}

/// Asks the store for the ids of marked items that have none yet; `then` runs once they are
/// known. Nothing to ask: `then` is left to the caller (an empty answer).
pub(super) fn resolve(state: &mut AppState, then: Option<Action>) -> Vec<Effect> {
    let keys = state.acting.marks.unresolved();
    if keys.is_empty() {
        return Vec::new();
    }
    let request_id = state.request_id();
    // An action already waiting keeps waiting, for the newer read.
    let waiting = then.or(state.acting.resolving.and_then(|(_, action)| action));
    state.acting.resolving = Some((request_id, waiting));
    if then.is_some() {
        info(state, "Reading the marked items…");
    }
    vec![Effect::Read(Read::ResolveMarks { request_id, keys })]
}

/// The store's answer: the ids fill in; an action that waited runs now.
pub(super) fn resolved(
    state: &mut AppState,
    request_id: u64,
    result: Result<Vec<(i64, String)>, Failure>,
) -> Vec<Effect> {
    let Some((asked, action)) = state.acting.resolving else {
        state.dirty = false;
        return Vec::new();
    };
    if asked != request_id {
        state.dirty = false;
        return Vec::new();
    }
    state.acting.resolving = None;
    match result {
        Ok(pairs) => {
            for (key, id) in pairs {
                if let Some(slot) = state.acting.marks.items.get_mut(&key) {
                    *slot = Some(id);
                }
            }
            // Marked keys the store no longer has cannot be acted on: unmarked.
            let marks = &mut state.acting.marks;
            let before = marks.items.len();
            marks.items.retain(|_, id| id.is_some());
            marks.in_view = marks.in_view.saturating_sub(before - marks.items.len());
            match action {
                Some(action) => super::on_action(state, action),
                None => Vec::new(),
            }
        }
        Err(message) => {
            super::error(state, format!("Cannot read the marked items: {message}"));
            Vec::new()
        }
    }
}

/// After a view's answer: the marked items in it are counted (a search may hide some; they
/// keep their marks and come back with it).
pub(super) fn after_view(state: &mut AppState) {
    if state.list.loaded() && !state.list.partial() {
        let keys = std::sync::Arc::clone(&state.list.keys);
        state.acting.marks.count_in(&keys);
    }
}

/// After a triage write: items it made done or snoozed are unmarked (they left the view).
pub(super) fn after_triage(state: &mut AppState, done: &crate::triage::Triaged) {
    if !done.hides || state.acting.marks.is_empty() {
        return;
    }
    let now = state.now;
    let gone: std::collections::HashSet<&str> = done
        .after
        .iter()
        .filter(|(_, t)| t.done || t.snoozed(now))
        .map(|(id, _)| id.as_str())
        .collect();
    state.acting.marks.drop_ids(&gone);
}
