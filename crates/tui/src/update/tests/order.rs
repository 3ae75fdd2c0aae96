//! Answers in the order the real reader gives them: it runs queries before row reads, so a
//! rows read asked for before a query is often answered after it.

use super::{newer, store_items};
use crate::action::{Action, Msg};
use crate::testkit::{detail, now, started_harness, stored_detail};

/// Every row of the window sits where its key is in the view.
fn rows_in_place(state: &crate::state::AppState) {
    let list = &state.list;
    for (i, row) in list.window.rows.iter().enumerate() {
        let n = list.window.start + i;
        assert_eq!(list.keys.get(n), Some(&row.key), "row {n} ({})", row.id);
    }
}

#[test]
fn a_rows_read_answered_after_a_shifted_view_is_dropped() {
    let mut h = started_harness(120, 35, 1000, true);
    // The end of the list: rows to read.
    let reads = h.apply(Msg::Action(Action::Bottom));
    let rows = h.hold(reads);
    assert!(matches!(rows[..], [Msg::RowsLoaded { .. }]), "{rows:?}");
    // Meanwhile three items arrive on top, and the view is queried again (answered first).
    store_items(&h, &newer(3));
    let query = h.apply(Msg::Arrived(Ok(true)));
    let views = h.hold(query);
    for msg in views {
        h.send(msg);
    }
    assert_eq!(h.selected_id(), "id00999");
    rows_in_place(&h.state);
    // The rows read for the old positions comes in last.
    for msg in rows {
        h.send(msg);
    }
    rows_in_place(&h.state);
    assert_eq!(h.selected_id(), "id00999", "Enter, y, o act on this item");
}

#[test]
fn enter_on_a_row_being_read_opens_it_when_a_query_brings_it_first() {
    let mut h = started_harness(120, 35, 1000, true);
    let mut reads = h.apply(Msg::Action(Action::Bottom));
    reads.extend(h.apply(Msg::Action(Action::Open)));
    assert!(h.state.detail.is_none(), "the row is being read");
    let rows = h.hold(reads);
    store_items(&h, &newer(3));
    let query = h.apply(Msg::Arrived(Ok(true)));
    for msg in h.hold(query) {
        h.send(msg);
    }
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00999"),
        "the query's rows hold it: it opens"
    );
    for msg in rows {
        h.send(msg);
    }
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00999")
    );
}

/// The app_flow race: a view query asked while the bottom row was selected (the detail's
/// answer stored it) answers after `q`, `g`, Enter; the selection and the detail stay on the
/// top row the keys chose, not the one the query was anchored on.
#[test]
fn moves_made_while_a_query_runs_are_kept_when_it_answers() {
    let mut h = started_harness(120, 35, 1000, true);
    h.send(Msg::Action(Action::Bottom));
    h.send(Msg::Action(Action::Open));
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00999")
    );
    h.store
        .write(|s| s.put_detail(&detail(999), now()))
        .unwrap();
    let query = h.apply(Msg::DetailLoaded {
        id: "id00999".into(),
        result: Ok(Box::new(stored_detail(999))),
    });
    let late = h.hold(query);
    assert!(matches!(late[..], [Msg::ViewLoaded { .. }]), "{late:?}");
    h.send(Msg::Action(Action::Quit));
    let mut reads = h.apply(Msg::Action(Action::Top));
    reads.extend(h.apply(Msg::Action(Action::Open)));
    assert!(h.state.detail.is_none(), "the top row is being read");
    let rows = h.hold(reads);
    for msg in late.into_iter().chain(rows) {
        h.send(msg);
    }
    assert_eq!(h.selected_id(), "id00000");
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00000")
    );
    rows_in_place(&h.state);
}

/// `j` while a sync's query runs, items arriving on top meanwhile: the answer keeps the row
/// `j` chose selected (shifted down by the arrivals), so `*` or Enter acts on it.
#[test]
fn a_move_during_a_query_follows_its_item_below_the_arrivals() {
    let mut h = started_harness(120, 35, 1000, true);
    store_items(&h, &newer(3));
    let query = h.apply(Msg::Arrived(Ok(true)));
    let late = h.hold(query);
    h.send(Msg::Action(Action::MoveDown));
    assert_eq!(h.selected_id(), "id00001");
    for msg in late {
        h.send(msg);
    }
    assert_eq!(h.selected_id(), "id00001");
    assert_eq!(h.state.list.selected, 4);
    assert_eq!(h.state.list.offset, 0, "the arrivals show on top");
    assert_eq!(h.state.list.new_count, 3);
    rows_in_place(&h.state);
}
