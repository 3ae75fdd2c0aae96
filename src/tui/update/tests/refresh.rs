//! A refresh stopped by a looping server resumes towards the rows loaded before it, and items
//! that arrive by webhook while the first page loads are kept.

use super::paging::{fresh, ids, new_items_then};
use super::{act, answer, page_effect};
use crate::api::{Cursor, Page};
use crate::tui::action::{Action, Msg, PageKind};
use crate::tui::state::AppState;
use crate::tui::testkit::{now, page, started};
use crate::tui::update::{start, update};

/// Ids of the new items `k`, then of the items loaded at start-up `0..100`.
fn new_then_loaded(k: std::ops::Range<usize>) -> Vec<String> {
    k.map(|k| format!("id{:05}", 3000 + k))
        .chain((0..100).map(|n| format!("id{n:05}")))
        .collect()
}

/// A 120x35 inbox just started: its first page requested, not yet answered.
fn first_page_in_flight() -> (AppState, u64, PageKind) {
    let mut state = AppState::new(now(), 120, 35);
    update(
        &mut state,
        Msg::Resize {
            width: 120,
            height: 35,
        },
    );
    let (id, kind, _) = page_effect(&start(&mut state)).unwrap();
    (state, id, kind)
}

#[test]
fn r_after_a_refresh_stopped_by_an_empty_page_fills_the_gap_down_to_the_old_rows() {
    let mut state = started(120, 35, 100, false);
    let (id, kind, _) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    let effects = answer(&mut state, id, kind, Ok(new_items_then(0..100, &[], "r1")));
    let (id, kind, _) = page_effect(&effects).expect("a full page of new items: page on");
    let empty = Page {
        data: Vec::new(),
        next_cursor: Some(Cursor("r2".into())),
    };
    let effects = answer(&mut state, id, kind, Ok(empty));
    assert!(page_effect(&effects).is_none(), "no loop");
    assert!(state.list.error.as_ref().unwrap().contains("empty page"));
    let walk = state.list.refresh.as_ref().expect("the walk is kept");
    assert_eq!(
        walk.boundary.as_deref(),
        Some("id00000"),
        "its boundary too"
    );
    // `r` resumes from the newest item, over what it put in, to the rows loaded before.
    let (id, kind, cursor) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    assert_eq!((kind, cursor), (PageKind::Refresh, None));
    let effects = answer(&mut state, id, kind, Ok(new_items_then(0..100, &[], "r1")));
    let (id, kind, cursor) = page_effect(&effects).expect("not yet at the old rows: page on");
    assert_eq!(
        (kind, cursor),
        (PageKind::Refresh, Some(Cursor("r1".into())))
    );
    let known: Vec<usize> = (0..10).collect();
    let effects = answer(
        &mut state,
        id,
        kind,
        Ok(new_items_then(100..150, &known, "r3")),
    );
    assert!(!matches!(
        page_effect(&effects),
        Some((_, PageKind::Refresh, _))
    ));
    assert_eq!(ids(&state), new_then_loaded(0..150), "no gap");
    assert!(state.list.error.is_none());
}

#[test]
fn items_that_arrive_while_the_first_page_loads_are_kept_and_only_they_are_new() {
    let (mut state, id, kind) = first_page_in_flight();
    assert_eq!(kind, PageKind::First);
    update(&mut state, Msg::Arrived(Box::new(fresh(1))));
    update(&mut state, Msg::Arrived(Box::new(fresh(0))));
    assert_eq!(ids(&state), ["id03000", "id03001"]);
    // The first page was read after the older arrival but before the newer one.
    let mut first = page(0, 100, false);
    first.data.insert(0, fresh(1));
    answer(&mut state, id, kind, Ok(first));
    let expected: Vec<String> = ["id03000", "id03001"]
        .into_iter()
        .map(str::to_owned)
        .chain((0..100).map(|n| format!("id{n:05}")))
        .collect();
    assert_eq!(ids(&state), expected, "kept, once each, newest first");
    assert_eq!(
        state.list.new_count, 1,
        "only the row the page lacked is new"
    );
    assert_eq!(state.arrivals, 2);
    assert_eq!((state.list.selected, state.list.offset), (0, 0));
}

#[test]
fn r_after_a_failed_first_page_asks_for_it_again_keeping_what_arrived_meanwhile() {
    let (mut state, id, kind) = first_page_in_flight();
    update(&mut state, Msg::Arrived(Box::new(fresh(0))));
    let failure = std::sync::Arc::new(crate::api::ApiError::Timeout);
    answer(&mut state, id, kind, Err(failure));
    let (id, kind, cursor) = page_effect(&act(&mut state, Action::Reload)).unwrap();
    assert_eq!(kind, PageKind::First, "the first page again, not a refresh");
    assert!(cursor.is_none());
    assert_eq!(ids(&state), ["id03000"], "the arrival is kept meanwhile");
    answer(&mut state, id, kind, Ok(page(0, 100, false)));
    assert_eq!(
        ids(&state).len(),
        101,
        "the arrival on top of the whole first page"
    );
    assert_eq!(ids(&state)[0], "id03000");
}
