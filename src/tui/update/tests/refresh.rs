//! A refresh stopped by a looping server resumes towards the rows loaded before it, and items
//! that arrive by webhook while the first page loads are kept.

use super::paging::{ids, new_items_then};
use super::{act, answer, page_effect};
use crate::api::{Cursor, Page};
use crate::tui::action::{Action, PageKind};
use crate::tui::testkit::started;

/// Ids of the new items `k`, then of the items loaded at start-up `0..100`.
fn new_then_loaded(k: std::ops::Range<usize>) -> Vec<String> {
    k.map(|k| format!("id{:05}", 3000 + k))
        .chain((0..100).map(|n| format!("id{n:05}")))
        .collect()
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
