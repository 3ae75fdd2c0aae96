//! Paging the list by cursor. The first page replaces the list (below the items that arrived by
//! webhook while it loaded); the walk down appends (and, when the service rejects a cursor,
//! restarts from the newest item, walking over the loaded rows to the deep end again); a refresh
//! pages down from the newest item until it meets the rows loaded before it, so any number of new
//! items leaves no gap. One list request is in flight at a time, answers to older requests are
//! dropped, and a server that sends an empty page with a cursor or a cursor it gave before stops
//! paging with an error instead of making it loop (a refresh stopped so resumes with `r`).

use std::collections::HashSet;
use std::sync::Arc;

use super::{Place, budget_low, keep_visible, maybe_prefetch, query};
use crate::api::{ApiError, Cursor, Feedback, Page};
use crate::tui::action::PageKind;
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, Fatal, ListLoad, RefreshWalk};
use crate::tui::store::Anchor;
use crate::tui::update::{describe, error, info, text_filter};

/// Walks restarted from the top after `invalid_cursor` without getting past the deep end, before
/// the error is shown instead (a service that rejects every cursor would loop otherwise).
const MAX_CURSOR_RESTARTS: u32 = 3;

/// Starts the list over for the current filters (cancelling what is in flight).
pub(in crate::tui::update) fn fetch_first(state: &mut AppState) -> Effect {
    let request_id = state.request_id();
    state.list.request_id = request_id;
    state.list.load = ListLoad::First;
    state.list.error = None;
    state.in_flight += 1;
    Effect::FetchPage {
        request_id,
        kind: PageKind::First,
        query: query(state),
    }
}

/// Forgets the loaded rows and loads the first page again (filters changed).
pub(in crate::tui::update) fn restart(state: &mut AppState) -> Effect {
    let list = &mut state.list;
    list.store.clear();
    list.next_cursor = None;
    list.next_at = Anchor::End;
    list.cursors.clear();
    list.cursor_restarts = 0;
    list.refresh = None;
    list.prefetch_paused = false;
    list.end = false;
    list.first_loaded = false;
    list.selected = 0;
    list.offset = 0;
    list.new_count = 0;
    list.matches = list.matches.as_ref().map(|_| Vec::new());
    state.details.clear();
    fetch_first(state)
}

/// `r`: retry after a failure or with nothing loaded, else fetch what is new (or resume the
/// refresh that failed half-way) and put it above the list.
pub(in crate::tui::update) fn reload(state: &mut AppState) -> Vec<Effect> {
    let mut effects = crate::tui::update::panes::retry_failed(state);
    if state.list.store.is_empty() {
        effects.push(restart(state));
    } else if !state.list.first_loaded {
        // Only webhook arrivals are loaded: ask for the first page again, below them.
        state.list.error = None;
        state.note = None;
        effects.push(fetch_first(state));
    } else {
        // A failed next page is retried by the prefetch that follows the refresh's answer.
        state.list.error = None;
        state.list.cursor_restarts = 0;
        if let Some(walk) = &mut state.list.refresh {
            walk.restarts = 0;
        }
        state.note = None;
        effects.push(refresh(state));
    }
    effects
}

/// The next page of the refresh walk, which starts at the newest item.
fn refresh(state: &mut AppState) -> Effect {
    let top = state.list.store.get(0).map(|r| r.id.clone());
    let cursor = state
        .list
        .refresh
        .get_or_insert_with(|| RefreshWalk {
            boundary: top,
            ..RefreshWalk::default()
        })
        .cursor
        .clone();
    let mut query = query(state);
    query.cursor = cursor;
    let request_id = state.request_id();
    state.list.request_id = request_id;
    state.list.load = ListLoad::Refresh;
    state.in_flight += 1;
    Effect::FetchPage {
        request_id,
        kind: PageKind::Refresh,
        query,
    }
}

/// The automatic refresh, when configured, due, idle, and the budget allows.
pub(in crate::tui::update) fn auto_refresh(state: &mut AppState) -> Option<Effect> {
    let due = state.next_refresh.is_some_and(|at| at <= state.now);
    if !due || state.list.load != ListLoad::Idle || state.fatal.is_some() {
        return None;
    }
    state.next_refresh = Some(crate::tui::update::after(state.now, state.refresh_seconds));
    if budget_low(state) || state.list.store.is_empty() {
        return None;
    }
    Some(refresh(state))
}

pub(in crate::tui::update) fn page_loaded(
    state: &mut AppState,
    request_id: u64,
    kind: PageKind,
    result: Result<Page<Feedback>, Arc<ApiError>>,
) -> Vec<Effect> {
    state.in_flight = state.in_flight.saturating_sub(1);
    if request_id != state.list.request_id {
        state.dirty = state.in_flight == 0;
        return Vec::new();
    }
    state.list.load = ListLoad::Idle;
    state.wait = None;
    let place = Place::remember(state);
    let mut effects = Vec::new();
    match result {
        Ok(page) => effects.extend(merge(state, kind, page)),
        Err(err) => effects.extend(failed(state, kind, &err)),
    }
    text_filter::refilter(state);
    if kind == PageKind::First {
        state.list.selected = 0;
        state.list.offset = 0;
        keep_visible(state);
    } else {
        place.restore(state);
    }
    effects.extend(maybe_prefetch(state));
    effects
}

/// Merges a page; a refresh that has not yet met the loaded rows asks for its next page.
fn merge(state: &mut AppState, kind: PageKind, page: Page<Feedback>) -> Option<Effect> {
    state.list.error = None;
    match kind {
        PageKind::First => merge_first(state, page),
        PageKind::Next => merge_next(state, page),
        PageKind::Refresh => return merge_refresh(state, page),
    }
    None
}

/// Why a page's cursor must not be followed: the page is empty yet has a cursor, or the cursor
/// was given before in the same walk. Remembers the cursor otherwise.
fn looping(cursors: &mut HashSet<Cursor>, page: &Page<Feedback>) -> Option<&'static str> {
    let cursor = page.next_cursor.as_ref()?;
    if page.data.is_empty() {
        return Some("an empty page with a next cursor");
    }
    if !cursors.insert(cursor.clone()) {
        return Some("a page cursor it had already sent");
    }
    None
}

fn stop_paging(state: &mut AppState, why: &str) {
    let text = format!("Paging stopped: the service sent {why} — r to retry");
    state.list.error = Some(text.clone());
    error(state, text);
}

fn merge_first(state: &mut AppState, page: Page<Feedback>) {
    let list = &mut state.list;
    // The store was emptied by `restart` (or never filled): what it holds now arrived by
    // webhook while the page loaded. Those the page lacks stay on top, marked new, the page
    // below them; those it has take their place in it.
    let in_page: HashSet<&str> = page.data.iter().map(|f| f.id.as_str()).collect();
    list.store.retain(|row| !in_page.contains(&*row.id));
    list.new_count = list.store.len();
    list.cursors.clear();
    list.cursor_restarts = 0;
    list.refresh = None;
    let stop = looping(&mut list.cursors, &page);
    list.store.insert_page(&Anchor::End, page.data, 0);
    list.first_loaded = true;
    list.next_at = Anchor::End;
    list.end = page.next_cursor.is_none();
    list.next_cursor = page.next_cursor;
    if let Some(why) = stop {
        stop_paging(state, why);
    }
}

fn merge_next(state: &mut AppState, page: Page<Feedback>) {
    let list = &mut state.list;
    let stop = looping(&mut list.cursors, &page);
    let deep = list.next_at == Anchor::End;
    // Only a walk restarted from the top can put rows into the block of new ones.
    let new_rows = if deep { 0 } else { list.new_count };
    let merged = list.store.insert_page(&list.next_at, page.data, new_rows);
    list.new_count += merged.on_top;
    list.next_at = merged.next;
    if deep && merged.added > 0 {
        // Past the deep end with a working cursor: a later rejection may restart again.
        list.cursor_restarts = 0;
    }
    if let Some(why) = stop {
        stop_paging(state, why);
        return;
    }
    list.end = page.next_cursor.is_none();
    list.next_cursor = page.next_cursor;
}

/// A refresh page goes below the new rows already put in by the same refresh. The refresh ends
/// when it reaches the rows loaded before it began (or the end of the list); until then it asks
/// for its next page.
fn merge_refresh(state: &mut AppState, page: Page<Feedback>) -> Option<Effect> {
    let mut walk = state.list.refresh.take().unwrap_or_default();
    let stop = looping(&mut walk.cursors, &page);
    let list = &mut state.list;
    let merged = list.store.insert_page(&walk.at, page.data, list.new_count);
    list.new_count += merged.on_top;
    walk.added += merged.added;
    let point = list.store.resolve(&merged.next);
    let met_loaded = walk
        .boundary
        .as_deref()
        .and_then(|id| list.store.position(id))
        .is_none_or(|boundary| point > boundary);
    if merged.added > 0 {
        info(state, format!("{} new", walk.added));
    }
    if let Some(why) = stop {
        stop_paging(state, why);
        // `r` resumes it from the newest item, skipping what it put in, down to the rows loaded
        // before it began: a new walk would stop at the rows this one put in, leaving a gap.
        walk.at = Anchor::Top;
        walk.cursor = None;
        walk.cursors.clear();
        state.list.refresh = Some(walk);
        return None;
    }
    if met_loaded || page.next_cursor.is_none() {
        return None;
    }
    walk.at = merged.next;
    walk.cursor = page.next_cursor;
    state.list.refresh = Some(walk);
    Some(refresh(state))
}

/// Shows a failure; after `invalid_cursor` a refresh asks for its page again from the top (the
/// walk down does so through the prefetch that follows).
fn failed(state: &mut AppState, kind: PageKind, err: &ApiError) -> Option<Effect> {
    let at_startup = state.list.store.is_empty();
    match err {
        ApiError::Unauthorized | ApiError::IndiePlanRequired if at_startup => {
            let title = if matches!(err, ApiError::Unauthorized) {
                "The API key was refused"
            } else {
                "This plan has no API access"
            };
            state.fatal = Some(Fatal {
                title: title.to_owned(),
                body: err.to_string(),
            });
        }
        ApiError::Cancelled => {}
        ApiError::InvalidCursor { .. } if restart_walk(state, kind) => {
            return (kind == PageKind::Refresh).then(|| refresh(state));
        }
        _ => {
            let text = describe(err);
            state.list.error = Some(text.clone());
            error(state, text);
        }
    }
    None
}

/// After `invalid_cursor`: the walk (down, or a refresh) starts again at the newest item,
/// keeping what is loaded; pages then skip the loaded ids until the walk is past them. False
/// when the walk had no cursor or has restarted too often.
fn restart_walk(state: &mut AppState, kind: PageKind) -> bool {
    let list = &mut state.list;
    match kind {
        PageKind::First => return false,
        PageKind::Next => {
            let had_cursor = list.next_at != Anchor::Top;
            // Even when the error is shown instead, `r` then pages from the top, not with the
            // cursor that was refused.
            list.next_at = Anchor::Top;
            list.next_cursor = None;
            list.cursors.clear();
            if !had_cursor || list.cursor_restarts >= MAX_CURSOR_RESTARTS {
                return false;
            }
            list.cursor_restarts += 1;
        }
        PageKind::Refresh => {
            let Some(walk) = list.refresh.as_mut() else {
                return false;
            };
            let had_cursor = walk.cursor.is_some();
            walk.at = Anchor::Top;
            walk.cursor = None;
            walk.cursors.clear();
            if !had_cursor || walk.restarts >= MAX_CURSOR_RESTARTS {
                return false;
            }
            walk.restarts += 1;
        }
    }
    info(
        state,
        "The service no longer accepts the page cursor: paging again from the newest item, \
         keeping what is loaded"
            .to_owned(),
    );
    true
}
