//! The feedback list: movement, the viewport, lazy paging (the merging of answers lives in
//! `paging`), new items from outside, and keeping the selected item selected, by id, whatever is
//! put in above it.

mod paging;

use super::info;
use crate::api::{Feedback, FeedbackQuery, Platform, Status};
use crate::tui::action::{Action, PageKind};
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, ListLoad};
use crate::tui::store::Anchor;

pub(super) use paging::{auto_refresh, fetch_first, page_loaded, reload, restart};

/// Page size the inbox asks for.
pub const PAGE_SIZE: u32 = 100;
/// Prefetching pauses while fewer requests than this are left in the rate-limit window.
pub const LOW_BUDGET: u32 = 5;

/// Rows of list body for a terminal of the state's size: total height less the status bar, the
/// list's borders and header, and the filter prompt when shown. `view` uses the same numbers.
#[must_use]
pub fn list_body_rows(state: &AppState) -> usize {
    let prompt = usize::from(state.text_filter.is_some());
    usize::from(state.height)
        .saturating_sub(1 + 2 + 1 + prompt)
        .max(1)
}

pub(super) fn fit_viewport(state: &mut AppState) {
    state.list.viewport_rows = list_body_rows(state);
    keep_visible(state);
}

/// The query for the current filters.
fn query(state: &AppState) -> FeedbackQuery {
    let f = &state.filters;
    FeedbackQuery {
        status: Some(f.status.clone()),
        app: f.app.as_ref().map(|c| c.value.clone()),
        project: f.project.as_ref().map(|c| c.value.clone()),
        tag: f.tag.as_ref().map(|c| c.value.clone()),
        limit: Some(PAGE_SIZE),
        cursor: None,
    }
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
                super::text_filter::clear(state);
            } else if state.note.take().is_none() {
                state.dirty = false;
            }
            Vec::new()
        }
        Action::Quit => super::quit(state),
        _ => Vec::new(),
    }
}

fn move_by(state: &mut AppState, delta: isize) -> Vec<Effect> {
    let target = state.list.selected.saturating_add_signed(delta);
    move_to(state, target)
}

fn move_to(state: &mut AppState, target: usize) -> Vec<Effect> {
    state.list.selected = target.min(state.visible_len().saturating_sub(1));
    keep_visible(state);
    maybe_prefetch(state).into_iter().collect()
}

/// Keeps `offset` so the selection is on screen, and the screen full when there are rows enough
/// (after the text filter narrowed a scrolled list, an offset past its matches drew one row and
/// a blank pane).
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

/// The selected item and the top row on screen, by id: rows put in above them (a refresh, an
/// arrival, a page of a walk restarted from the top) move neither, with or without a text
/// filter. A list scrolled to its top stays there, so new rows show up on screen.
pub(super) struct Place {
    selected: Option<Box<str>>,
    top: Option<Box<str>>,
    at_top: bool,
}

impl Place {
    pub(super) fn remember(state: &AppState) -> Self {
        let id = |n: usize| {
            state
                .visible_index(n)
                .and_then(|i| state.list.store.get(i))
                .map(|r| r.id.clone())
        };
        Self {
            selected: id(state.list.selected),
            top: id(state.list.offset),
            at_top: state.list.offset == 0,
        }
    }

    /// Puts the selection and the screen back on their items; the store changed and the text
    /// filter's matches were recomputed since `remember`.
    pub(super) fn restore(self, state: &mut AppState) {
        if let Some(n) = self.selected.and_then(|id| visible_position(state, &id)) {
            state.list.selected = n;
        }
        if self.at_top {
            state.list.offset = 0;
        } else if let Some(n) = self.top.and_then(|id| visible_position(state, &id)) {
            state.list.offset = n;
        }
        keep_visible(state);
    }
}

/// Visible row of the item `id`, or of the first match below it when it does not match.
fn visible_position(state: &AppState, id: &str) -> Option<usize> {
    let index = state.list.store.position(id)?;
    Some(match &state.list.matches {
        None => index,
        Some(matches) => matches.partition_point(|&i| i < index),
    })
}

/// True while fewer requests than [`LOW_BUDGET`] are left in a window that has not yet reset.
/// Paging and the status bar both go by it.
#[must_use]
pub fn budget_low(state: &AppState) -> bool {
    state.rate.remaining.is_some_and(|r| r < LOW_BUDGET)
        && state.rate.reset.is_some_and(|reset| reset > state.now)
}

/// The next page, when the selection is within a screen of the last visible row (of all rows,
/// or of the text filter's matches, so that paging goes on under a filter) and nothing else is
/// in flight; held back while the rate-limit budget is low. `prefetch_paused` is worked out
/// afresh on every call (each tick makes one), so it clears as soon as the budget recovers.
pub(crate) fn maybe_prefetch(state: &mut AppState) -> Option<Effect> {
    state.list.prefetch_paused = false;
    let list = &state.list;
    if list.load != ListLoad::Idle || list.end || list.error.is_some() {
        return None;
    }
    let cursor = match list.next_at {
        // A walk restarted after `invalid_cursor` asks for the newest page again.
        Anchor::Top => None,
        _ => Some(list.next_cursor.clone()?),
    };
    if state.visible_len().saturating_sub(list.selected) > list.viewport_rows.max(1) {
        return None;
    }
    if budget_low(state) {
        state.list.prefetch_paused = true;
        return None;
    }
    let request_id = state.request_id();
    state.list.request_id = request_id;
    state.list.load = ListLoad::More;
    state.in_flight += 1;
    let mut query = query(state);
    query.cursor = cursor;
    Some(Effect::FetchPage {
        request_id,
        kind: PageKind::Next,
        query,
    })
}

/// `s`: new ⇄ archived.
pub(super) fn toggle_status(state: &mut AppState) -> Vec<Effect> {
    state.filters.status = if state.filters.status == Status::New {
        Status::Archived
    } else {
        Status::New
    };
    info(state, format!("Showing {} feedback", state.filters.status));
    vec![restart(state)]
}

/// A new item from outside (webhook): counted; when it matches the filters, on top, marked new,
/// with the selection kept on its item (and the rows on screen kept, unless the list is at its
/// top, where the new row shows).
pub(super) fn arrived(state: &mut AppState, mut item: Feedback) -> Vec<Effect> {
    state.arrivals += 1;
    if !matches_filters(state, &item) {
        return Vec::new();
    }
    fill_platform(state, &mut item);
    let place = Place::remember(state);
    let list = &mut state.list;
    let merged = list.store.insert_page(&Anchor::Top, [item], list.new_count);
    list.new_count += merged.on_top;
    super::text_filter::refilter(state);
    place.restore(state);
    Vec::new()
}

/// True when the server-side filters (status, project, app, tag) would list `item`.
fn matches_filters(state: &AppState, item: &Feedback) -> bool {
    let f = &state.filters;
    item.status == f.status
        && f.project
            .as_ref()
            .is_none_or(|p| p.value == item.project.id)
        && f.app
            .as_ref()
            .is_none_or(|a| item.app.as_ref().is_some_and(|app| app.id == a.value))
        && f.tag.as_ref().is_none_or(|t| item.tags.contains(&t.value))
}

/// A webhook payload has no platform; the Apps pane knows it.
fn fill_platform(state: &AppState, item: &mut Feedback) {
    let Some(app) = &mut item.app else { return };
    if app.platform.is_known() {
        return;
    }
    if let Some(entry) = state
        .apps
        .entries
        .iter()
        .find(|e| e.value == app.id && !e.detail.is_empty())
    {
        app.platform = Platform::from(entry.detail.as_str());
    }
}

/// Mouse click on a screen row: select the list row drawn there.
pub(super) fn click(state: &mut AppState, screen_row: u16) -> Vec<Effect> {
    let first_body_row = 2; // border + header
    let Some(rel) = usize::from(screen_row).checked_sub(first_body_row) else {
        return Vec::new();
    };
    if rel >= state.list.viewport_rows {
        return Vec::new();
    }
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
