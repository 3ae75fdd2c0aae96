//! Paging, refresh and the text filter under hostile or busy servers: a rejected cursor, a
//! looping server, more new items than a page, rows arriving above the selection.

use std::sync::Arc;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{act, answer, page_effect, selected_id};
use crate::api::{ApiError, Cursor, Feedback, Page};
use crate::tui::action::{Action, Msg, PageKind};
use crate::tui::state::AppState;
use crate::tui::testkit::{budget, item, now, page, started};
use crate::tui::update::update;

/// A new item `k` (0 is the newest), newer than everything `started` loads.
pub(super) fn fresh(k: usize) -> Feedback {
    let mut f = item(3000 + k);
    let minutes = 1000 - i64::try_from(k).unwrap();
    f.received_at = now() + jiff::SignedDuration::from_mins(minutes);
    f
}

pub(super) fn ids(state: &AppState) -> Vec<String> {
    state
        .list
        .store
        .window(0, usize::MAX)
        .map(|r| r.id.to_string())
        .collect()
}

fn type_filter(state: &mut AppState, text: &str) -> Vec<crate::tui::effect::Effect> {
    act(state, Action::Filter);
    let mut effects = Vec::new();
    for c in text.chars() {
        effects = update(
            state,
            Msg::FilterInput(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
        );
    }
    effects
}

fn invalid_cursor() -> Arc<ApiError> {
    Arc::new(ApiError::InvalidCursor { message: None })
}

#[test]
fn invalid_cursor_restarts_the_walk_from_the_top_keeping_what_is_loaded() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    let effects = answer(&mut state, id, kind, Err(invalid_cursor()));
    let (id, kind, cursor) = page_effect(&effects).expect("the walk starts again at once");
    assert_eq!((kind, cursor), (PageKind::Next, None));
    assert_eq!(state.list.store.len(), 100, "nothing loaded is dropped");
    assert!(state.list.error.is_none());
    // The newest page again: one item that arrived since, then the loaded ones.
    let mut head = page(0, 99, false);
    head.data.insert(0, fresh(0));
    head.next_cursor = Some(Cursor("rotated-99".into()));
    let effects = answer(&mut state, id, kind, Ok(head));
    assert_eq!(
        ids(&state)[..2],
        ["id03000", "id00000"],
        "the new item goes on top"
    );
    assert_eq!(
        selected_id(&state),
        "id00099",
        "the selection stays on its item"
    );
    let (id, kind, cursor) = page_effect(&effects).expect("the walk goes on");
    assert_eq!(cursor, Some(Cursor("rotated-99".into())));
    answer(&mut state, id, kind, Ok(page(99, 200, false)));
    let expected: Vec<String> = std::iter::once("id03000".to_owned())
        .chain((0..200).map(|n| format!("id{n:05}")))
        .collect();
    assert_eq!(ids(&state), expected, "no duplicate, no gap, in order");
    assert_eq!(state.list.next_cursor, Some(Cursor("after-200".into())));
}

#[test]
fn a_service_that_rejects_every_cursor_stops_with_the_error_after_a_few_restarts() {
    let mut state = started(120, 35, 100, false);
    let mut effects = act(&mut state, Action::Bottom);
    let mut requests = 0;
    while let Some((id, kind, cursor)) = page_effect(&effects) {
        requests += 1;
        assert!(requests < 20, "the walk loops");
        effects = match cursor {
            Some(_) => answer(&mut state, id, kind, Err(invalid_cursor())),
            None => answer(&mut state, id, kind, Ok(page(0, 100, false))),
        };
    }
    let error = state.list.error.clone().unwrap();
    assert!(error.contains("invalid_cursor"), "{error}");
    assert_eq!(state.list.store.len(), 100);
    // `r` then pages from the top again, not with the refused cursor.
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    let effects = answer(&mut state, id, kind, Ok(page(0, 100, false)));
    let (_, kind, cursor) = page_effect(&effects).unwrap();
    assert_eq!((kind, cursor), (PageKind::Next, None));
}

#[test]
fn a_server_that_repeats_a_cursor_stops_paging_with_an_error() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    // The first page's cursor again, after a page of new items.
    let mut looping = page(100, 200, false);
    looping.next_cursor = Some(Cursor("after-100".into()));
    let effects = answer(&mut state, id, kind, Ok(looping));
    assert!(page_effect(&effects).is_none(), "no loop");
    assert_eq!(state.list.store.len(), 200, "what came is kept");
    let error = state.list.error.clone().unwrap();
    assert!(error.contains("Paging stopped"), "{error}");
    assert!(page_effect(&act(&mut state, Action::MoveUp)).is_none());
    assert!(page_effect(&update(&mut state, Msg::Tick(now()))).is_none());
}

#[test]
fn an_empty_page_with_a_cursor_stops_paging_with_an_error() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Bottom)).unwrap();
    let empty = Page {
        data: Vec::new(),
        next_cursor: Some(Cursor("more-to-come".into())),
    };
    let effects = answer(&mut state, id, kind, Ok(empty));
    assert!(page_effect(&effects).is_none(), "no loop");
    assert!(state.list.error.as_ref().unwrap().contains("empty page"));
    assert!(state.note.as_ref().unwrap().error);
}

/// The newest `n` new items, newest first, as one page followed by `rest`.
pub(super) fn new_items_then(
    n: std::ops::Range<usize>,
    rest: &[usize],
    cursor: &str,
) -> Page<Feedback> {
    Page {
        data: n.map(fresh).chain(rest.iter().map(|&k| item(k))).collect(),
        next_cursor: Some(Cursor(cursor.into())),
    }
}

#[test]
fn refresh_pages_down_until_it_meets_the_loaded_rows_leaving_no_gap() {
    let mut state = started(120, 35, 100, false);
    for _ in 0..5 {
        act(&mut state, Action::MoveDown);
    }
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    let effects = answer(&mut state, id, kind, Ok(new_items_then(0..100, &[], "r1")));
    let (id, kind, cursor) = page_effect(&effects).expect("a full page of new items: page on");
    assert_eq!(
        (kind, cursor),
        (PageKind::Refresh, Some(Cursor("r1".into())))
    );
    assert!(
        page_effect(&act(&mut state, Action::Bottom)).is_none(),
        "one list request in flight"
    );
    let known: Vec<usize> = (0..50).collect();
    let effects = answer(
        &mut state,
        id,
        kind,
        Ok(new_items_then(100..150, &known, "r2")),
    );
    assert!(
        !matches!(page_effect(&effects), Some((_, PageKind::Refresh, _))),
        "the loaded rows were met: the refresh is done"
    );
    let expected: Vec<String> = (0..150)
        .map(|k| format!("id{:05}", 3000 + k))
        .chain((0..100).map(|n| format!("id{n:05}")))
        .collect();
    assert_eq!(ids(&state), expected);
    assert_eq!(state.list.new_count, 150);
    assert_eq!(state.note.as_ref().unwrap().text, "150 new");
}

#[test]
fn a_refused_cursor_mid_refresh_restarts_it_from_the_top_and_fills_the_gap() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    let effects = answer(&mut state, id, kind, Ok(new_items_then(2..102, &[], "r1")));
    let (id, kind, _) = page_effect(&effects).unwrap();
    let effects = answer(&mut state, id, kind, Err(invalid_cursor()));
    let (id, kind, cursor) = page_effect(&effects).expect("the refresh starts again");
    assert_eq!((kind, cursor), (PageKind::Refresh, None));
    // From the top: two items newer still, the rows the refresh put in, the gap, the old rows.
    let known: Vec<usize> = (0..10).collect();
    let mut head = new_items_then(0..150, &known, "r2");
    head.data.truncate(150 + known.len());
    answer(&mut state, id, kind, Ok(head));
    let expected: Vec<String> = (0..150)
        .map(|k| format!("id{:05}", 3000 + k))
        .chain((0..100).map(|n| format!("id{n:05}")))
        .collect();
    assert_eq!(ids(&state), expected);
    assert!(state.list.error.is_none());
    assert_eq!(state.list.load, crate::tui::state::ListLoad::Idle, "done");
}

#[test]
fn refresh_while_at_the_top_shows_the_new_rows_and_moves_the_selection_down() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    let known: Vec<usize> = (0..97).collect();
    answer(&mut state, id, kind, Ok(new_items_then(0..3, &known, "r1")));
    assert_eq!(selected_id(&state), "id00000");
    assert_eq!((state.list.offset, state.list.selected), (0, 3));
}

#[test]
fn refresh_under_a_text_filter_keeps_the_selected_item() {
    let mut state = started(120, 35, 100, false);
    type_filter(&mut state, "user1");
    act(&mut state, Action::Open);
    for _ in 0..3 {
        act(&mut state, Action::MoveDown);
    }
    let before = selected_id(&state);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    // Two of the new items match the filter and go in above the selection.
    let mut page = new_items_then(0..3, &[0, 1, 2], "r1");
    for f in &mut page.data[..2] {
        f.reporter_email = Some(format!("user1-new-{}@example.com", f.id.0));
    }
    answer(&mut state, id, kind, Ok(page));
    assert_eq!(selected_id(&state), before);
}

#[test]
fn an_arrival_under_a_text_filter_keeps_the_selected_item() {
    let mut state = started(120, 35, 100, false);
    type_filter(&mut state, "user1");
    for _ in 0..4 {
        act(&mut state, Action::MoveDown);
    }
    let before = selected_id(&state);
    let mut arrival = fresh(0);
    arrival.reporter_email = Some("user1-arrived@example.com".into());
    update(&mut state, Msg::Arrived(Box::new(arrival)));
    assert_eq!(selected_id(&state), before);
}

#[test]
fn paging_continues_while_a_text_filter_has_fewer_matches_than_a_screen() {
    let mut state = started(120, 35, 100, false);
    let effects = type_filter(&mut state, "id0009");
    assert_eq!(state.visible_len(), 10);
    let (id, kind, cursor) = page_effect(&effects).expect("few matches: page on");
    assert_eq!(
        (kind, cursor),
        (PageKind::Next, Some(Cursor("after-100".into())))
    );
    let effects = answer(&mut state, id, kind, Ok(page(100, 200, false)));
    let (_, _, cursor) = page_effect(&effects).expect("still few matches: page on");
    assert_eq!(cursor, Some(Cursor("after-200".into())));
}

#[test]
fn filtering_a_scrolled_long_list_puts_the_first_match_on_screen() {
    let mut state = started(120, 35, 1000, true);
    act(&mut state, Action::Bottom);
    type_filter(&mut state, "id0000");
    assert_eq!(state.visible_len(), 10);
    assert_eq!((state.list.selected, state.list.offset), (0, 0));
    assert_eq!(selected_id(&state), "id00000");
}

#[test]
fn filtering_keeps_a_matching_selection_with_a_full_screen() {
    let mut state = started(120, 35, 1000, true);
    act(&mut state, Action::Bottom);
    type_filter(&mut state, "id009");
    let len = state.visible_len();
    assert_eq!(len, 100);
    assert_eq!(selected_id(&state), "id00999");
    assert_eq!(
        state.list.offset,
        len - state.list.viewport_rows,
        "the screen is full of matches"
    );
}

#[test]
fn budget_low_clears_when_the_window_resets_wherever_the_selection_is() {
    let mut state = started(120, 35, 100, false);
    let reset = now() + jiff::SignedDuration::from_secs(30);
    update(&mut state, budget(60, 1, reset));
    act(&mut state, Action::Bottom);
    assert!(state.list.prefetch_paused);
    act(&mut state, Action::Top);
    update(
        &mut state,
        Msg::Tick(reset + jiff::SignedDuration::from_secs(1)),
    );
    assert!(!state.list.prefetch_paused, "paging is no longer paused");
}

#[test]
fn ctrl_u_clears_the_filter_prompt() {
    let mut state = started(120, 35, 100, false);
    type_filter(&mut state, "user19");
    assert_eq!(state.visible_len(), 1);
    update(
        &mut state,
        Msg::FilterInput(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    let filter = state.text_filter.as_ref().unwrap();
    assert_eq!(filter.input.lines(), [""]);
    assert_eq!(state.visible_len(), 100);
}
