#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::api::Status;
use crate::store::tests::{T0, T1, ids, item, ts, view};

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
        .write(|tx| crate::store::forget_id(tx, "b").map(|_| ()))
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
    let cx = crate::store::search::Context {
        now,
        tz: jiff::tz::TimeZone::UTC,
    };
    let query = crate::store::search::parse("crashed -email:zzz").unwrap();
    let sql = crate::store::search::compile(store.conn(), &query, &cx).unwrap();
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

/// Rough timings of the default view and the triage reads over a large store with many items
/// triaged (ignored: run by hand with
/// `TRIAGE_TIMING_ITEMS=200000 cargo test --lib store::triage::tests::timing -- --ignored --nocapture`).
#[test]
#[ignore = "timing, run by hand"]
fn timing_of_the_default_view_with_triage() {
    use std::time::Instant;
    let count: usize = std::env::var("TRIAGE_TIMING_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("timing.db")).unwrap();
    let anchor = ts(T1);
    let data = crate::sim::data::generate(3, count, anchor);
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().collect();
    for chunk in items.rchunks(5000) {
        let page: Vec<_> = chunk.iter().rev().map(|d| d.feedback.clone()).collect();
        store.put_items(&page, anchor).unwrap();
    }
    // One item in 20 triaged: seen, a third of those done, some starred and snoozed.
    let ids: Vec<String> = items
        .iter()
        .step_by(20)
        .map(|d| d.feedback.id.0.clone())
        .collect();
    let started = Instant::now();
    store
        .set_triage(&ids, &TriageChange::Seen(true), anchor)
        .unwrap();
    println!(
        "{} items seen in one write: {:?}",
        ids.len(),
        started.elapsed()
    );
    let done: Vec<String> = ids.iter().step_by(3).cloned().collect();
    store
        .set_triage(&done, &TriageChange::Done(true), anchor)
        .unwrap();
    let later = anchor + SignedDuration::from_hours(5);
    let snoozed: Vec<String> = ids.iter().skip(1).step_by(7).cloned().collect();
    store
        .set_triage(&snoozed, &TriageChange::Snooze(Some(later)), anchor)
        .unwrap();
    let started = Instant::now();
    store
        .set_triage(&ids[..1], &TriageChange::Starred(true), anchor)
        .unwrap();
    println!("one star: {:?}", started.elapsed());
    let time = |what: &str, f: &mut dyn FnMut() -> usize| {
        let mut runs: Vec<_> = (0..3)
            .map(|_| {
                let started = Instant::now();
                let n = f();
                (started.elapsed(), n)
            })
            .collect();
        runs.sort();
        println!("{what:40} {:>9.1?}  {:>8}", runs[1].0, runs[1].1);
    };
    let default = view(Some("new")).hide_triaged(anchor);
    println!(
        "plan: {}",
        store.view_plan(&default, Some(60)).unwrap().join(" | ")
    );
    time("default view, first screen", &mut || {
        store.view_keys(&default, Some(60)).unwrap().len()
    });
    let per_row = view(Some("new")).hide_triaged_per_row(anchor);
    println!(
        "plan: {}",
        store.view_plan(&per_row, Some(60)).unwrap().join(" | ")
    );
    time("default view per row, first screen", &mut || {
        store.view_keys(&per_row, Some(60)).unwrap().len()
    });
    time("default view per row, every key", &mut || {
        store.view_keys(&per_row, None).unwrap().len()
    });
    time("default view, every key", &mut || {
        store.view_keys(&default, None).unwrap().len()
    });
    time("new, every key (no triage)", &mut || {
        store.view_keys(&view(Some("new")), None).unwrap().len()
    });
    let keys = store.view_keys(&default, None).unwrap();
    time("unseen in the default view", &mut || {
        store.unseen_among(&keys).unwrap()
    });
    time("next snooze end", &mut || {
        usize::from(store.next_wake(anchor).unwrap().is_some())
    });
    let cx = crate::store::search::Context {
        now: anchor,
        tz: jiff::tz::TimeZone::UTC,
    };
    for input in [
        "is:starred",
        "is:unseen",
        "is:done",
        "is:snoozed",
        "has:note",
    ] {
        let query = crate::store::search::parse(input).unwrap();
        let sql = crate::store::search::compile(store.conn(), &query, &cx).unwrap();
        let searched = view(Some("new")).search(sql);
        time(&format!("{input}, first screen"), &mut || {
            store.view_keys(&searched, Some(60)).unwrap().len()
        });
    }
}
