//! Querying the store for the list. Every change of the view (filters, status, search) and every
//! change of the store (a sync stored pages, an arrival, a detail) asks for the view's keys
//! again; the query runs off the UI thread and only the latest answer is applied. An answer to
//! the same view keeps the selection and the screen on their items, by key, and counts the rows
//! that appeared above the old first row as new.

use super::{ensure_rows, keep_visible, maybe_prefetch};
use crate::action::{ViewData, ViewError};
use crate::effect::{Effect, Read};
use crate::failure::Failure;
use crate::rows::Window;
use crate::state::{Anchor, AppState, Held, InFlight, ListView};
use crate::update::error;
use feedback_core::query::QueryError;

/// What a query keeps of the list it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Requery {
    /// The store changed under the same view: selection, screen and "new" marks stay.
    Same,
    /// The search text changed: the selected item stays selected while it matches, else the
    /// first match is; nothing is new.
    Narrow,
    /// Other filters: the list starts at its top.
    New,
    /// Only triage changed under the same view: as `Same`, but rows that came back on top (an
    /// undone `d`, a snooze's end) are not new arrivals.
    Triage,
}

/// Asks for the current view's keys.
pub(in crate::update) fn requery(state: &mut AppState, mode: Requery) -> Effect {
    Effect::Read(view_query(state, mode))
}

/// The query [`requery`] sends, as the read it is.
pub(in crate::update) fn view_query(state: &mut AppState, mode: Requery) -> Read {
    let spec = state.view_spec();
    let count_new = mode != Requery::Triage;
    let mode = if mode == Requery::Triage {
        Requery::Same
    } else {
        mode
    };
    // While another view's answer is awaited, the keys shown are not this view's.
    let mode = if mode == Requery::Same && state.list.shown.as_ref() != Some(&spec) {
        Requery::Narrow
    } else {
        mode
    };
    let list = &state.list;
    let key = |n: usize| list.keys.get(n).copied();
    let anchor = match mode {
        Requery::Same | Requery::Triage => Anchor {
            selected: key(list.selected).map(|k| (k, list.selected)),
            top: (list.offset > 0).then(|| key(list.offset)).flatten(),
            // The first row that is not a woken item: new rows land above it.
            first: key(list.woken),
        },
        Requery::Narrow => Anchor {
            selected: state
                .text_filter
                .as_ref()
                .and_then(|f| f.origin)
                .or_else(|| key(list.selected))
                .map(|k| (k, 0)),
            ..Anchor::default()
        },
        Requery::New => Anchor::default(),
    };
    let request_id = state.request_id();
    let list = &mut state.list;
    list.query_id = request_id;
    list.in_flight = Some(InFlight {
        spec: spec.clone(),
        count_new,
        arrivals_asked: state.arrivals_stored,
        moved: false,
    });
    if mode != Requery::Same {
        list.new_count = 0;
    }
    Read::Query {
        request_id,
        spec: Box::new(spec),
        anchor,
        rows: list.viewport_rows.max(1),
        now: state.now,
        limit: None,
        open: state.detail.as_ref().map(|d| d.id.clone()),
    }
}

pub(in crate::update) fn view_loaded(
    state: &mut AppState,
    request_id: u64,
    result: Result<Box<ViewData>, ViewError>,
) -> Vec<Effect> {
    let in_flight = match state.list.in_flight.take() {
        Some(in_flight) if request_id == state.list.query_id => in_flight,
        other => {
            state.list.in_flight = other;
            state.dirty = false;
            return Vec::new();
        }
    };
    // The answer was read after these arrivals were stored: they show (or are filtered out)
    // from this frame on.
    state.arrivals = state.arrivals.max(in_flight.arrivals_asked);
    let mut effects = Vec::new();
    match result {
        Ok(data) if data.partial => {
            // The first screen, at start-up: the whole view follows, the selection kept.
            apply(state, *data, in_flight, Held::FirstScreen);
            effects.push(requery(state, Requery::Same));
            return effects;
        }
        Ok(data) => {
            apply(state, *data, in_flight, Held::Whole);
        }
        Err(ViewError::Query(err)) => return query_failed(state, err),
        Err(ViewError::Store(message)) => {
            let text =
                feedback_core::text::Clean::line(&format!("Cannot read the store: {message}"));
            error(state, &text);
            state.list.error = Some(text);
        }
    }
    if state.list.open_when_loaded && state.selected_row().is_some() {
        // Enter on a row being read: this answer brought it (the rows read is dropped).
        effects.extend(crate::update::detail::open(state));
    }
    effects.extend(ensure_rows(state));
    effects.extend(maybe_prefetch(state));
    effects
}

fn apply(state: &mut AppState, data: ViewData, in_flight: InFlight, held: Held) {
    if let Some(freshness) = &data.freshness {
        crate::update::sync::fresh(state, freshness);
    }
    crate::update::triage::figures(state, data.triage);
    let list = &mut state.list;
    let same = list.shown.as_ref() == Some(&in_flight.spec);
    list.shown = Some(in_flight.spec);
    // Enter on a row being read opens that row, not whatever another view has there.
    list.open_when_loaded &= same;
    list.held = held;
    list.error = None;
    list.basis = data.basis;
    if same
        && in_flight.count_new
        && let Some(first) = data.first
    {
        list.new_count += first.saturating_sub(data.woken);
    }
    list.woken = data.woken;
    list.new_count = list.new_count.min(data.keys.len());
    // Keys pressed while the query ran moved the selection after its anchor was taken (a late
    // answer must not put it back: Enter would open the item the user left).
    let moved = (same && in_flight.moved).then(|| Anchor {
        selected: list.keys.get(list.selected).map(|&k| (k, list.selected)),
        top: (list.offset > 0)
            .then(|| list.keys.get(list.offset).copied())
            .flatten(),
        first: None,
    });
    list.selected = data.selected.unwrap_or(0);
    list.offset = data.top.unwrap_or(0);
    list.keys = data.keys;
    if let Some(anchor) = moved {
        reanchor(list, anchor);
    }
    list.window = data.window;
    let rows = std::mem::take(&mut list.window.triage);
    let team = std::mem::take(&mut list.window.team);
    let len = list.keys.len();
    let open = state.detail.as_ref().map(|d| d.id.as_str());
    state
        .triage
        .overlay
        .queried(data.triage.unseen, len, rows, open);
    state.triage.overlay.team_read(team, true);
    let list = &mut state.list;
    // A rows read still in flight was asked for the keys just replaced: its rows would land in
    // other items' places.
    list.rows_id = 0;
    keep_visible(state);
    // The answer clears an error of the text it answers for only: an error the prompt's text
    // got since (a parse error typed while this query ran) stands.
    if let Some(filter) = &mut state.text_filter
        && filter.shows(&state.view.search)
    {
        filter.error = None;
    }
}

/// Puts the selection and the screen's top on the anchor's items in the new keys (the
/// selection by position when its item left the view; the screen at the top when it was).
fn reanchor(list: &mut ListView, anchor: Anchor) {
    let at = |key: i64| list.keys.iter().position(|&k| k == key);
    if let Some((key, fallback)) = anchor.selected {
        list.selected = at(key).unwrap_or(fallback);
    }
    list.offset = anchor.top.and_then(at).unwrap_or(0);
}

/// The search does not compile against the store (an unknown app, say). The error is shown in
/// the prompt when it is of the prompt's text (a newer text has its own parse error). When
/// nothing is on screen yet (a remembered search that no longer compiles, at start-up), the view
/// is queried without the search, rather than loading for ever.
fn query_failed(state: &mut AppState, err: QueryError) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    if !filter.shows(&state.view.search) {
        state.dirty = false;
        return Vec::new();
    }
    filter.set_error(err, &state.view.search);
    if state.list.loaded() {
        return Vec::new();
    }
    state.view.search = feedback_core::query::SearchText::default();
    vec![requery(state, Requery::New)]
}

pub(in crate::update) fn rows_loaded(
    state: &mut AppState,
    request_id: u64,
    result: Result<Window, Failure>,
) -> Vec<Effect> {
    if request_id != state.list.rows_id {
        state.dirty = false;
        return Vec::new();
    }
    match result {
        Ok(mut window) => {
            // Rows belong where their keys are: a row read for a position that now holds
            // another key ends the window there (the rows past it show as being read until
            // the next move or query reads them; asking again here could loop on a key
            // retention just dropped).
            let keys = &state.list.keys;
            let matching = window
                .rows
                .iter()
                .enumerate()
                .take_while(|(i, row)| keys.get(window.start + i) == Some(&row.key))
                .count();
            window.rows.truncate(matching);
            let rows = std::mem::take(&mut window.triage);
            let team = std::mem::take(&mut window.team);
            let open = state.detail.as_ref().map(|d| d.id.as_str());
            state.triage.overlay.rows_read(rows, open);
            state.triage.overlay.team_read(team, false);
            state.list.window = window;
            if state.list.open_when_loaded && state.selected_row().is_some() {
                return crate::update::detail::open(state);
            }
        }
        Err(message) => {
            let text =
                feedback_core::text::Clean::line(&format!("Cannot read the store: {message}"));
            error(state, &text);
            state.list.error = Some(text);
        }
    }
    Vec::new()
}
