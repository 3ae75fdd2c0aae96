//! The feedback list: movement, the viewport and the window of rows around it, backfill when the
//! selection nears the end of what is stored, and keeping the selected item selected, by key,
//! whatever a sync or an arrival puts in above it. Queries and their answers live in `query`.

mod query;

use super::info;
use crate::action::{Action, SyncJob};
use crate::effect::{Effect, Read, Remember};
use crate::failure::Failure;
use crate::state::{AppState, Focus, Paging, ViewStatus, budget_low};
use feedback_api::Status;

pub(super) use query::{Requery, requery, rows_loaded, view_loaded, view_query};

/// Rows read around the screen, above and below it, so that scrolling rarely waits.
pub const WINDOW_MARGIN: usize = 64;

/// Rows of list body for a terminal of the state's size, as `render::layout` draws it (status
/// bar, view bar, the list's borders and header, the search prompt when shown).
#[must_use]
pub fn list_body_rows(state: &AppState) -> usize {
    usize::from(crate::layout::list_body(state).height).max(1)
}

pub(super) fn fit_viewport(state: &mut AppState) -> Option<Effect> {
    state.list.viewport_rows = list_body_rows(state);
    keep_visible(state);
    ensure_rows(state)
}

pub(super) fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    let page = state.list.viewport_rows.max(1);
    match action {
        Action::MoveDown => move_by(state, 1),
        Action::MoveUp => move_by(state, -1),
        Action::PageDown => move_by(state, isize::try_from(page).unwrap_or(isize::MAX)),
        Action::PageUp => move_by(state, -isize::try_from(page).unwrap_or(isize::MAX)),
        Action::Top => move_to(state, 0),
        Action::Bottom => move_to(state, state.visible_len().saturating_sub(1)),
        Action::Open => super::detail::open(state),
        Action::Back | Action::ClearFilter => {
            if state.text_filter.is_some() {
                super::text_filter::clear(state)
            } else {
                if state.note.take().is_none() {
                    state.dirty = false;
                }
                Vec::new()
            }
        }
        Action::Quit => super::quit(state),
        _ => Vec::new(),
    }
}

pub(super) fn move_by(state: &mut AppState, delta: isize) -> Vec<Effect> {
    let target = state.list.selected.saturating_add_signed(delta);
    move_to(state, target)
}

fn move_to(state: &mut AppState, target: usize) -> Vec<Effect> {
    state.list.open_when_loaded = false;
    if let Some(query) = &mut state.list.in_flight {
        query.moved = true;
    }
    state.list.selected = target.min(state.visible_len().saturating_sub(1));
    keep_visible(state);
    // This movement wants one more page when it ends near the end (the next one, another).
    state.list.paging = state.list.paging.moved(near_end(state));
    let mut effects: Vec<Effect> = ensure_rows(state).into_iter().collect();
    effects.extend(maybe_prefetch(state));
    effects
}

/// The selection is within a screen of the end of the view.
fn near_end(state: &AppState) -> bool {
    let list = &state.list;
    state.visible_len().saturating_sub(list.selected) <= list.viewport_rows.max(1)
}

/// Keeps `offset` so the selection is on screen, and the screen full when there are rows enough.
pub(super) fn keep_visible(state: &mut AppState) {
    let len = state.visible_len();
    let list = &mut state.list;
    let rows = list.viewport_rows.max(1);
    list.selected = list.selected.min(len.saturating_sub(1));
    if list.selected < list.offset {
        list.offset = list.selected;
    } else if list.selected >= list.offset + rows {
        list.offset = list.selected + 1 - rows;
    }
    list.offset = list.offset.min(len.saturating_sub(rows));
}

/// The rows of the screen (with a margin either side), when the window does not hold them all.
pub(super) fn ensure_rows(state: &mut AppState) -> Option<Effect> {
    let list = &state.list;
    let rows = list.viewport_rows.max(1);
    let len = list.keys.len();
    if list.window.covers(list.offset, list.offset + rows, len) {
        return None;
    }
    let start = list.offset.saturating_sub(WINDOW_MARGIN);
    let end = (list.offset + rows + WINDOW_MARGIN).min(len);
    let keys = list.keys.get(start..end).unwrap_or_default().to_vec();
    let request_id = state.request_id();
    state.list.rows_id = request_id;
    Some(Effect::Read(Read::LoadRows {
        request_id,
        start,
        keys,
    }))
}

/// A backfill page at the user's priority, once per movement of the user's that ended within
/// a screen of the end of what is stored (a short view is always near its end: pages deeper
/// than the user asked for are the background's, which keeps the budget's floor), when the
/// status is not mirrored to its end, the service answers and nothing else was asked for;
/// held back while the rate-limit budget is low. `Paging::Paused` is worked out afresh on
/// every call (each tick makes one), so it clears as soon as the budget recovers.
pub(crate) fn maybe_prefetch(state: &mut AppState) -> Option<Effect> {
    if state.list.paging == Paging::Paused {
        state.list.paging = Paging::Wanted;
    }
    let list = &state.list;
    if list.paging != Paging::Wanted
        || !list.loaded()
        || list.partial()
        || !near_end(state)
        || !super::sync::started(state)
        || state.sync.complete
        || state.sync.offline.is_some()
        || state.fatal.is_some()
        // A key set has no deeper page.
        || state.similar.shown.is_some()
    {
        return None;
    }
    if budget_low(state) {
        state.list.paging = Paging::Paused;
        return None;
    }
    state.list.paging = Paging::Fetching { more: false };
    Some(super::sync::job(
        state,
        SyncJob::Backfill {
            status: state.view.listed_status(),
            user: true,
        },
    ))
}

/// `s`: new ⇄ archived.
pub(super) fn toggle_status(state: &mut AppState) -> Vec<Effect> {
    // A view of both statuses narrows to the other one's: `s` always changes what is listed.
    let status = if state.view.listed_status() == Status::New {
        Status::Archived
    } else {
        Status::New
    };
    info(state, format!("Showing {status} feedback"));
    state.view.status = ViewStatus::Only(status);
    super::sync::status_changed(state);
    let mut effects = vec![requery(state, Requery::New)];
    effects.push(super::panes::load(state));
    effects.push(Effect::Remember(Remember::View(state.view_spec())));
    effects.extend(super::sync::head_once(state));
    effects
}

/// An item from outside (webhook): when stored and new, counted, and the view queried again
/// (when it matches, it shows on top, marked new, without moving the selection); when the
/// store could not take it, said (and not counted).
pub(super) fn arrived(state: &mut AppState, outcome: Result<bool, Failure>) -> Vec<Effect> {
    match outcome {
        Ok(true) => {
            state.arrivals_stored += 1;
            super::sync::store_changed(state).into_iter().collect()
        }
        Ok(false) => {
            state.dirty = false;
            Vec::new()
        }
        Err(message) => {
            super::error(state, format!("Cannot store an arriving item: {message}"));
            Vec::new()
        }
    }
}

/// Mouse click on the list body's `body_row`th row (`render::layout::click_target` counts it):
/// select the list row drawn there.
pub(super) fn click(state: &mut AppState, body_row: u16) -> Vec<Effect> {
    let rel = usize::from(body_row);
    if rel >= state.list.viewport_rows {
        return Vec::new();
    }
    // A click on the list is a choice of the list: the keys go there next (not to a pane or
    // its type-ahead).
    state.focus = Focus::List;
    state.reading.typeahead = None;
    move_to(state, state.list.offset + rel)
}

/// Mouse wheel: scroll the list (or the detail).
pub(super) fn scroll(state: &mut AppState, lines: i32) -> Vec<Effect> {
    if let Some(detail) = &mut state.detail {
        detail.scroll = detail
            .scroll
            .saturating_add_signed(i16::try_from(lines).unwrap_or(0));
        return Vec::new();
    }
    move_by(state, isize::try_from(lines).unwrap_or(0))
}
