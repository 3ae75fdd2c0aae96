#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::tests::{T0, T1, ids, item, ts, view};
use feedback_api::Status;

fn ids_of(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

fn three() -> Store {
    let mut store = Store::open_memory().unwrap();
    let page = [
        item("c", "2026-10-03T00:00:00Z", Status::New, &[]),
        item("b", "2026-10-02T00:00:00Z", Status::New, &[]),
        item("a", "2026-10-01T00:00:00Z", Status::New, &[]),
    ];
    store.put_items(&page, ts(T0)).unwrap();
    store
}

fn default_view(store: &Store, now: Timestamp) -> Vec<String> {
    let whole = ids(store, &view(Some("new")).hide_triaged(now));
    let per_row = ids(store, &view(Some("new")).hide_triaged_per_row(now));
    assert_eq!(whole, per_row, "both forms select the same items");
    whole
}

#[test]
fn a_change_to_a_set_is_made_to_each_and_returns_the_states_before() {
    let mut store = three();
    assert_eq!(store.triage("a").unwrap(), Triage::default());
    assert_eq!(store.triage_rev().unwrap(), 0);
    let before = store
        .set_triage(&ids_of(&["a", "b"]), &TriageChange::Starred(true), ts(T1))
        .unwrap();
    assert_eq!(
        before,
        [
            ("a".into(), Triage::default()),
            ("b".into(), Triage::default())
        ]
    );
    for id in ["a", "b"] {
        let state = store.triage(id).unwrap();
        assert!(state.starred && !state.seen && !state.done, "{id}");
        assert_eq!(state.changed, Some(ts(T1)));
    }
    assert!(!store.triage("c").unwrap().starred);
    assert_eq!(store.triage_rev().unwrap(), 1);
    // Clearing one keeps the other states; an undo puts back the whole state.
    store
        .set_triage(&ids_of(&["a"]), &TriageChange::Seen(true), ts(T1))
        .unwrap();
    let before = store
        .set_triage(&ids_of(&["a"]), &TriageChange::Starred(false), ts(T1))
        .unwrap();
    let a = store.triage("a").unwrap();
    assert!(a.seen && !a.starred);
    store.restore_triage(&before, ts(T1)).unwrap();
    let a = store.triage("a").unwrap();
    assert!(a.seen && a.starred);
    assert_eq!(store.triage_rev().unwrap(), 4);
    let of = store.triage_of(&["a", "c"]).unwrap();
    assert!(of.contains_key("a") && !of.contains_key("c"));
}

#[test]
fn notes_are_kept_raw_and_a_blank_note_is_none() {
    let mut store = three();
    let raw = "see \u{1b}[2J ticket\nline two";
    store
        .set_triage(
            &ids_of(&["a"]),
            &TriageChange::Note(Some(raw.into())),
            ts(T1),
        )
        .unwrap();
    assert_eq!(store.triage("a").unwrap().note.as_deref(), Some(raw));
    assert!(store.triage("a").unwrap().has_note());
    store
        .set_triage(
            &ids_of(&["a"]),
            &TriageChange::Note(Some("  ".into())),
            ts(T1),
        )
        .unwrap();
    assert_eq!(store.triage("a").unwrap().note, None);
}

#[test]
fn the_state_survives_a_resync_and_the_item_being_forgotten_and_stored_again() {
    let mut store = three();
    store
        .set_triage(&ids_of(&["b"]), &TriageChange::Done(true), ts(T1))
        .unwrap();
    store
        .put_items(
            &[item("b", "2026-10-02T00:00:00Z", Status::Archived, &["x"])],
            ts(T1),
        )
        .unwrap();
    assert!(store.triage("b").unwrap().done);
    store
        .write(|tx| crate::forget_id(tx, "b").map(|_| ()))
        .unwrap();
    store
        .put_items(
            &[item("b", "2026-10-02T00:00:00Z", Status::New, &[])],
            ts(T1),
        )
        .unwrap();
    assert!(store.triage("b").unwrap().done);
    assert_eq!(default_view(&store, ts(T1)), ["c", "a"]);
}

#[test]
fn done_and_snoozed_items_leave_the_default_view_and_a_snooze_ends_by_itself() {
    let mut store = three();
    let now = ts(T1);
    let later = now + SignedDuration::from_hours(4);
    store
        .set_triage(&ids_of(&["c"]), &TriageChange::Done(true), now)
        .unwrap();
    store
        .set_triage(&ids_of(&["b"]), &TriageChange::Snooze(Some(later)), now)
        .unwrap();
    assert_eq!(default_view(&store, now), ["a"]);
    assert_eq!(store.next_wake(now).unwrap(), Some(later));
    // At the snooze's end the item is back, and nothing is left to wake.
    assert_eq!(default_view(&store, later), ["b", "a"]);
    assert_eq!(store.next_wake(later).unwrap(), None);
    // With a search (its parameters, the full-text match's) the same items are left out.
    let cx = crate::search::Context {
        now,
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let query = feedback_core::query::parse("crashed -email:zzz").unwrap();
    let sql = crate::search::compile(store.conn(), &query, &cx).unwrap();
    for searched in [
        view(Some("new")).search(sql.clone()).hide_triaged(now),
        view(Some("new")).search(sql).hide_triaged_per_row(now),
    ] {
        assert_eq!(ids(&store, &searched), ["a"]);
    }
    // Without the default's narrowing every item is there.
    assert_eq!(ids(&store, &view(Some("new"))), ["c", "b", "a"]);
}

#[test]
fn unseen_items_of_a_view_are_counted_from_the_seen_ones() {
    let mut store = three();
    let keys = store.view_keys(&view(Some("new")), None).unwrap();
    assert_eq!(store.unseen_among(&keys).unwrap(), 3);
    store
        .set_triage(&ids_of(&["a", "c"]), &TriageChange::Seen(true), ts(T1))
        .unwrap();
    assert_eq!(store.unseen_among(&keys).unwrap(), 1);
    assert_eq!(store.unseen_among(&keys[..1]).unwrap(), 0, "c alone");
    assert_eq!(store.unseen_among(&[]).unwrap(), 0);
}

#[test]
fn unseen_counts_agree_whichever_side_is_walked() {
    let mut store = Store::open_memory().unwrap();
    let base: Timestamp = "2026-10-01T00:00:00Z".parse().unwrap();
    let page: Vec<_> = (0..2500)
        .map(|n| {
            let at = base + SignedDuration::from_mins(n);
            item(&format!("i{n:04}"), &at.to_string(), Status::New, &[])
        })
        .collect();
    store.put_items(&page, ts(T0)).unwrap();
    let keys = store.view_keys(&view(Some("new")), None).unwrap();
    // An unseen mark (seen then unseen) and items that are not in the view count right too.
    let seen: Vec<String> = (0..2500).step_by(7).map(|n| format!("i{n:04}")).collect();
    store
        .set_triage(&seen, &TriageChange::Seen(true), ts(T1))
        .unwrap();
    store
        .set_triage(&ids_of(&["i0007"]), &TriageChange::Seen(false), ts(T1))
        .unwrap();
    store
        .set_triage(&ids_of(&["gone"]), &TriageChange::Seen(true), ts(T1))
        .unwrap();
    let brute = |keys: &[i64]| {
        keys.iter()
            .filter(|k| {
                let id: String = store
                    .conn
                    .query_row("SELECT id FROM items WHERE k = ?1", [k], |r| r.get(0))
                    .unwrap();
                !store.triage(&id).unwrap().seen
            })
            .count()
    };
    // 2500 keys, 357 seen: the seen side; 1200 keys: each looked up.
    for part in [&keys[..], &keys[..1200], &keys[100..160]] {
        assert_eq!(store.unseen_among(part).unwrap(), brute(part));
    }
    assert_eq!(store.unseen_among(&keys).unwrap(), 2500 - 357);
}

#[test]
fn a_failed_write_leaves_nothing_torn() {
    let mut store = three();
    store
        .set_triage(&ids_of(&["a"]), &TriageChange::Starred(true), ts(T0))
        .unwrap();
    // The second item's write fails: the first item's, in the same call, must not stay.
    store
        .conn()
        .execute_batch(
            "CREATE TEMP TRIGGER fail BEFORE INSERT ON main.triage WHEN NEW.id = 'b'
             BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;",
        )
        .unwrap();
    let err = store
        .set_triage(&ids_of(&["a", "b"]), &TriageChange::Done(true), ts(T1))
        .unwrap_err();
    assert!(err.to_string().contains("disk on fire"), "{err}");
    let a = store.triage("a").unwrap();
    assert!(a.starred && !a.done, "a's change was rolled back");
    assert_eq!(a.changed, Some(ts(T0)));
    assert_eq!(store.triage("b").unwrap(), Triage::default());
    assert_eq!(
        store.triage_rev().unwrap(),
        1,
        "no count for a failed write"
    );
}

#[test]
fn the_default_view_still_walks_the_status_index_newest_first() {
    let store = three();
    for query in [
        view(Some("new")).hide_triaged(ts(T1)),
        view(Some("new")).hide_triaged_per_row(ts(T1)),
    ] {
        let plan = store.view_plan(&query, Some(50)).unwrap().join("\n");
        assert!(plan.contains("items_by_status"), "{plan}");
        assert!(!plan.contains("TEMP B-TREE"), "no sort: {plan}");
    }
    let per_row = view(Some("new")).hide_triaged_per_row(ts(T1));
    let plan = store.view_plan(&per_row, Some(50)).unwrap().join("\n");
    assert!(plan.contains("PRIMARY KEY"), "one lookup per row: {plan}");
}

#[test]
fn done_marks_seen_and_not_done_leaves_seen_alone() {
    let mut store = three();
    let keys = store.view_keys(&view(Some("new")), None).unwrap();
    store
        .set_triage(&ids_of(&["a"]), &TriageChange::Done(true), ts(T1))
        .unwrap();
    let a = store.triage("a").unwrap();
    assert!(a.done && a.seen, "{a:?}");
    assert_eq!(
        store.unseen_among(&keys).unwrap(),
        2,
        "a done item is not unseen"
    );
    store
        .set_triage(&ids_of(&["a"]), &TriageChange::Done(false), ts(T1))
        .unwrap();
    let a = store.triage("a").unwrap();
    assert!(!a.done && a.seen, "taken back, it stays seen: {a:?}");
}
