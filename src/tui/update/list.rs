//! The feedback list: movement, lazy paging by cursor, refresh that keeps your place, and the
//! merging of page answers (stale ones dropped by request id).

use std::sync::Arc;

use super::{describe, error, info};
use crate::api::{ApiError, Feedback, FeedbackQuery, Page, Platform, Status};
use crate::tui::action::{Action, PageKind};
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, Fatal, ListLoad};

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

/// Starts the list over for the current filters (cancelling what is in flight).
pub(super) fn fetch_first(state: &mut AppState) -> Effect {
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
pub(super) fn restart(state: &mut AppState) -> Effect {
    state.list.store.clear();
    state.list.next_cursor = None;
    state.list.end = false;
    state.list.selected = 0;
    state.list.offset = 0;
    state.list.new_count = 0;
    state.list.matches = state.list.matches.as_ref().map(|_| Vec::new());
    state.details.clear();
    fetch_first(state)
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

/// Keeps `offset` so the selection is on screen.
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
    list.offset = list.offset.min(len.saturating_sub(1));
}

/// The next page, when the selection is within a screen of the loaded end and nothing else is
/// in flight; held back while the rate-limit budget is low.
pub(crate) fn maybe_prefetch(state: &mut AppState) -> Option<Effect> {
    let list = &state.list;
    if list.load != ListLoad::Idle || list.end || list.matches.is_some() || list.error.is_some() {
        return None;
    }
    let cursor = list.next_cursor.clone()?;
    if list.store.len().saturating_sub(list.selected) > list.viewport_rows.max(1) {
        return None;
    }
    let budget_low = state.rate.remaining.is_some_and(|r| r < LOW_BUDGET)
        && state.rate.reset.is_some_and(|reset| reset > state.now);
    state.list.prefetch_paused = budget_low;
    if budget_low {
        return None;
    }
    let request_id = state.request_id();
    state.list.request_id = request_id;
    state.list.load = ListLoad::More;
    state.in_flight += 1;
    let mut query = query(state);
    query.cursor = Some(cursor);
    Some(Effect::FetchPage {
        request_id,
        kind: PageKind::Next,
        query,
    })
}

/// `r`: retry after a failure or with nothing loaded, else fetch the newest page and put what
/// is new above the list.
pub(super) fn reload(state: &mut AppState) -> Vec<Effect> {
    let mut effects = super::panes::retry_failed(state);
    if state.list.store.is_empty() {
        effects.push(restart(state));
    } else {
        // A failed next page is retried by the prefetch that follows the refresh's answer.
        state.list.error = None;
        state.note = None;
        effects.push(refresh(state));
    }
    effects
}

fn refresh(state: &mut AppState) -> Effect {
    let request_id = state.request_id();
    state.list.request_id = request_id;
    state.list.load = ListLoad::Refresh;
    state.in_flight += 1;
    Effect::FetchPage {
        request_id,
        kind: PageKind::Refresh,
        query: query(state),
    }
}

/// The automatic refresh, when configured, due, idle, and the budget allows.
pub(super) fn auto_refresh(state: &mut AppState) -> Option<Effect> {
    let due = state.next_refresh.is_some_and(|at| at <= state.now);
    if !due || state.list.load != ListLoad::Idle || state.fatal.is_some() {
        return None;
    }
    state.next_refresh = Some(super::after(state.now, state.refresh_seconds));
    if state.rate.remaining.is_some_and(|r| r < LOW_BUDGET) || state.list.store.is_empty() {
        return None;
    }
    Some(refresh(state))
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

pub(super) fn page_loaded(
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
    match result {
        Ok(page) => merge(state, kind, page),
        Err(err) => failed(state, &err),
    }
    super::text_filter::refilter(state);
    keep_visible(state);
    maybe_prefetch(state).into_iter().collect()
}

fn merge(state: &mut AppState, kind: PageKind, page: Page<Feedback>) {
    state.list.error = None;
    match kind {
        PageKind::First => {
            state.list.store.clear();
            state.list.store.append(page.data);
            state.list.end = page.next_cursor.is_none();
            state.list.next_cursor = page.next_cursor;
            state.list.selected = 0;
            state.list.offset = 0;
        }
        PageKind::Next => {
            state.list.store.append(page.data);
            state.list.end = page.next_cursor.is_none();
            state.list.next_cursor = page.next_cursor;
        }
        PageKind::Refresh => {
            let added = state.list.store.prepend(page.data);
            state.list.new_count += added;
            if state.list.matches.is_none() && added > 0 {
                // Anchor by item: everything moved down by `added` rows.
                state.list.selected += added;
                state.list.offset += added;
            }
            if added > 0 {
                info(state, format!("{added} new"));
            }
        }
    }
}

fn failed(state: &mut AppState, err: &ApiError) {
    let text = describe(err);
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
        _ => {
            state.list.error = Some(text.clone());
            error(state, text);
        }
    }
}

/// A new item from outside (webhook): counted; when it matches the filters, on top, marked new,
/// with the selection (and the rows on screen) kept on their items.
pub(super) fn arrived(state: &mut AppState, mut item: Feedback) -> Vec<Effect> {
    state.arrivals += 1;
    if !matches_filters(state, &item) {
        return Vec::new();
    }
    fill_platform(state, &mut item);
    let added = state.list.store.prepend([item]);
    if added > 0 && state.list.matches.is_none() && state.list.store.len() > 1 {
        state.list.selected += added;
        state.list.offset += added;
    }
    state.list.new_count += added;
    super::text_filter::refilter(state);
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
