//! Triage in the inbox, continued: what a key leaves when the item leaves the list, redraws,
//! other windows offline, undo of one field, changes patched in place, the seen delay's clock,
//! notes from `$EDITOR`.

use jiff::SignedDuration;
use ratatui::crossterm::event::KeyCode;

use super::act;
use super::triage::{key, row, stored, ticks};
use crate::action::{Action, Msg, SyncJob};
use crate::effect::{Effect, Write};
use crate::failure::Failure;
use crate::testkit::{Harness, now, started_harness};
use feedback_api::Status;
use feedback_store::TriageChange;

#[test]
fn a_message_that_changes_nothing_keeps_a_change_of_the_same_batch_to_be_drawn() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.dirty = false; // drawn
    act(&mut h, Action::Help);
    assert!(h.state.dirty);
    // Before the loop draws, the triage count comes back unchanged: nothing to draw for it,
    // but the help still is.
    let revs = feedback_store::Revs {
        items: h.state.sync.items_rev,
        triage: h.state.triage.rev,
    };
    h.send(Msg::StoreRevs(Ok(revs)));
    assert!(h.state.dirty, "the help opened in this batch is drawn");
}

#[test]
fn in_the_detail_the_items_state_stays_known_after_it_left_the_list() {
    let mut h = started_harness(120, 30, 50, true);
    let ids = ["id00000".to_owned()];
    let note = TriageChange::Note(Some("call back".into()));
    h.store.write(|s| s.set_triage(&ids, &note, now())).unwrap();
    let seen = TriageChange::Seen(true);
    h.store.write(|s| s.set_triage(&ids, &seen, now())).unwrap();
    h.synced(SyncJob::Head(Status::New), true);
    act(&mut h, Action::Open);
    act(&mut h, Action::ToggleDone);
    assert!(stored(&h, "id00000").done);
    assert!(
        !h.screen_ids().contains(&"id00000".to_owned()),
        "left the rows"
    );
    let detail = h.state.detail.as_ref().unwrap();
    let shown = crate::triage::known(&h.state, &detail.id);
    assert!(shown.done, "the detail shows it done");
    // The seen delay passes: it was seen already, nothing is sent.
    let effects = h.apply(Msg::Tick(now() + SignedDuration::from_secs(2)));
    let writes = effects
        .iter()
        .filter(|e| matches!(e, Effect::Write(Write::Triage { .. })));
    assert_eq!(writes.count(), 0, "not marked seen again: {effects:?}");
    assert!(crate::triage::known(&h.state, "id00000").seen);
    // The note editor opens on the stored note, not an empty one.
    act(&mut h, Action::EditNote);
    assert_eq!(
        h.state.triage.note.as_ref().unwrap().area.lines(),
        ["call back"]
    );
    key(&mut h, KeyCode::Esc);
    // `d` again undoes it rather than sending done once more.
    let effects = h.apply(Msg::Action(Action::ToggleDone));
    assert!(
        matches!(
            &effects[..],
            [Effect::Write(Write::Triage {
                change: TriageChange::Done(false),
                ..
            })]
        ),
        "{effects:?}"
    );
    h.settle(effects);
    assert!(!stored(&h, "id00000").done);
    assert_eq!(stored(&h, "id00000").note.as_deref(), Some("call back"));
}

#[test]
fn another_windows_triage_shows_at_a_refresh_attempt_even_offline() {
    let mut one = started_harness(120, 30, 50, true);
    let mut two = Harness::start(one.store.clone(), 120, 30);
    two.state.triage.advance = false;
    one.state.refresh_seconds = 60;
    one.state.next_refresh = Some(now() + SignedDuration::from_secs(60));
    act(&mut two, Action::ToggleStar);
    // `r` while the service cannot be reached.
    one.state.sync.offline = Some("connection refused".into());
    act(&mut one, Action::Reload);
    assert!(row(&one, "id00000").starred, "shown at `r`");
    act(&mut two, Action::ToggleStar);
    let failure = crate::action::SyncFailure {
        text: "connection refused".into(),
        kind: crate::action::FailureKind::Offline,
    };
    one.send(Msg::Synced {
        job: SyncJob::Head(Status::New),
        result: Err(failure),
    });
    assert!(row(&one, "id00000").starred, "not before the next attempt");
    // The automatic refresh's next attempt.
    one.send(Msg::Tick(now() + SignedDuration::from_secs(61)));
    assert!(
        !row(&one, "id00000").starred,
        "shown at the automatic refresh"
    );
}

#[test]
fn undo_puts_back_only_the_field_the_action_changed() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::ToggleStar);
    // Since: seen, and another window's note.
    let ids = ["id00000".to_owned()];
    let note = TriageChange::Note(Some("from the other window".into()));
    h.store.write(|s| s.set_triage(&ids, &note, now())).unwrap();
    h.store
        .write(|s| s.set_triage(&ids, &TriageChange::Seen(true), now()))
        .unwrap();
    act(&mut h, Action::UndoTriage);
    let after = stored(&h, "id00000");
    assert!(!after.starred, "the star is undone");
    assert!(after.seen, "the seen mark made since stays");
    assert_eq!(after.note.as_deref(), Some("from the other window"));
}

#[test]
fn u_right_after_an_action_waits_for_it_and_undoes_that_one() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    act(&mut h, Action::ToggleStar);
    let done = h.apply(Msg::Action(Action::ToggleDone));
    let undo = h.apply(Msg::Action(Action::UndoTriage));
    assert!(
        undo.is_empty(),
        "nothing sent before the done committed: {undo:?}"
    );
    h.settle(done);
    let after = stored(&h, "id00000");
    assert!(!after.done, "the done is undone");
    assert!(after.starred, "the earlier star is not");
    assert_eq!(h.state.triage.undo.len(), 1);
    // A `U` waiting for a write that failed undoes nothing else.
    let id = h.selected_id();
    act(&mut h, Action::ToggleDone);
    let _held = h.apply(Msg::Action(Action::ToggleDone));
    assert!(h.apply(Msg::Action(Action::UndoTriage)).is_empty());
    let effects = h.send(Msg::Triaged(Err(Failure::store("disk full"))));
    assert!(effects.is_empty(), "{effects:?}");
    assert!(stored(&h, &id).done, "the done before stays");
}

#[test]
fn seen_and_star_patch_the_rows_in_place_and_done_reads_no_pane_counts() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    let query = h.state.list.query_id;
    act(&mut h, Action::ToggleStar);
    act(&mut h, Action::ToggleSeen);
    assert!(row(&h, "id00000").starred && row(&h, "id00000").seen);
    assert_eq!(h.state.triage.overlay.unseen(), 49, "counted in place");
    assert_eq!(h.state.list.query_id, query, "no query");
    assert_eq!(
        h.state.triage.rev,
        stored_rev(&h),
        "this window's writes are known"
    );
    act(&mut h, Action::ToggleSeen);
    assert_eq!(h.state.triage.overlay.unseen(), 50);
    // Done takes the item out: a query, but the panes' counts are not read again.
    act(&mut h, Action::ToggleDone);
    assert_ne!(h.state.list.query_id, query);
    assert!(!h.state.sync.panes_due);
    assert_eq!(h.state.list.keys.len(), 49);
    // A search for a triage state is read again after a star.
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("is:unseen".into()));
    act(&mut h, Action::Open);
    let query = h.state.list.query_id;
    act(&mut h, Action::ToggleSeen);
    assert_ne!(h.state.list.query_id, query);
    assert_eq!(h.state.list.keys.len(), 48, "the seen item left the search");
}

fn stored_rev(h: &Harness) -> i64 {
    h.store.read(feedback_store::Store::triage_rev).unwrap()
}

#[test]
fn an_undone_done_on_the_top_row_is_not_new() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleDone);
    assert_eq!(h.screen_ids()[0], "id00001");
    act(&mut h, Action::UndoTriage);
    assert_eq!(h.screen_ids()[0], "id00000");
    assert_eq!(h.state.list.new_count, 0, "nothing arrived");
}

#[test]
fn the_seen_delay_counts_only_while_the_detail_is_in_sight() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::Open);
    ticks(&mut h, 250, 750);
    // The help covers the detail for a long while: none of it counts.
    act(&mut h, Action::Help);
    ticks(&mut h, 1000, 5000);
    act(&mut h, Action::Help);
    ticks(&mut h, 5250, 5500);
    assert!(!stored(&h, "id00000").seen, "750 ms in sight");
    // So does the snooze picker.
    act(&mut h, Action::Snooze);
    ticks(&mut h, 5750, 9000);
    key(&mut h, KeyCode::Esc);
    assert!(!stored(&h, "id00000").seen);
    // And $EDITOR: the loop stood still while it ran, then ticks again.
    h.state.triage.external_editor = true;
    act(&mut h, Action::EditNote);
    h.send(Msg::Tick(now() + SignedDuration::from_secs(60)));
    h.send(Msg::NoteEdited {
        ids: vec!["id00000".into()],
        result: Ok(None),
    });
    ticks(&mut h, 60_250, 60_250);
    assert!(
        !stored(&h, "id00000").seen,
        "the editor's minute does not count"
    );
    // A loop held up otherwise counts at most half a second for the gap.
    h.send(Msg::Tick(now() + SignedDuration::from_secs(120)));
    assert!(
        stored(&h, "id00000").seen,
        "750 ms in sight and half a second for the gap"
    );
}

#[test]
fn a_note_from_the_editor_is_cut_to_16_kib_and_says_so() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    let long = "é".repeat(9000); // 18,000 bytes
    h.send(Msg::NoteEdited {
        ids: vec!["id00000".into()],
        result: Ok(Some(long)),
    });
    let note = stored(&h, "id00000").note.unwrap();
    assert_eq!(note.len(), 16 * 1024);
    assert!(h.state.note.as_ref().unwrap().text.contains("16 KiB"));
}

/// Reading in the preview counts as reading in the detail: after the same delay in sight, the
/// item is seen; a `u` while it stays in sight stays; the next item counts afresh.
#[test]
fn the_preview_marks_the_item_it_shows_seen_after_the_delay() {
    let mut h = started_harness(200, 40, 50, true);
    h.state.triage.advance = false;
    assert!(crate::layout::areas(&h.state).preview.is_some());
    ticks(&mut h, 250, 750);
    assert!(!stored(&h, "id00000").seen, "a glance does not count");
    ticks(&mut h, 1000, 1750);
    assert!(stored(&h, "id00000").seen, "1.5 s in the preview");
    act(&mut h, Action::ToggleSeen);
    ticks(&mut h, 2000, 4000);
    assert!(!stored(&h, "id00000").seen, "`u` while reading it stays");
    // The help covers the preview: the next item's time does not count under it.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Help);
    ticks(&mut h, 4250, 9000);
    assert!(!stored(&h, "id00001").seen);
    act(&mut h, Action::Help);
    ticks(&mut h, 9250, 11_000);
    assert!(stored(&h, "id00001").seen);
    // With the preview off, the list alone marks nothing.
    act(&mut h, Action::TogglePreview);
    act(&mut h, Action::MoveDown);
    ticks(&mut h, 11_250, 20_000);
    assert!(!stored(&h, "id00002").seen);
}

/// A snooze that ends brings its item back on top of the view, marked woken, until it is read
/// (even when it was seen before it was snoozed).
#[test]
fn a_woken_item_comes_back_on_top_marked_until_it_is_read() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    let ids = vec!["id00020".to_owned()];
    h.store
        .write(|s| s.set_triage(&ids, &TriageChange::Seen(true), now()))
        .unwrap();
    let wake = now() + SignedDuration::from_hours(1);
    h.store
        .write(|s| s.set_triage(&ids, &TriageChange::Snooze(Some(wake)), now()))
        .unwrap();
    h.send(Msg::Action(Action::Reload));
    assert!(!h.state.list.keys.is_empty());
    assert_eq!(h.screen_ids()[0], "id00000");
    h.state.triage.next_wake = Some(wake);
    h.send(Msg::Tick(wake + SignedDuration::from_secs(1)));
    assert_eq!(h.screen_ids()[0], "id00020", "woken, on top");
    let top = &h.state.list.window.rows[0];
    let glyphs = crate::triage::glyphs(&crate::triage::known(&h.state, &top.id), h.state.now);
    assert!(glyphs.contains('◷'), "{glyphs}");
    // The selection stayed on its item, now second. Read in the detail for the delay: no
    // longer woken, back in its place at the next read.
    assert_eq!(h.selected_id(), "id00000");
    act(&mut h, Action::MoveUp);
    act(&mut h, Action::Open);
    for ms in (250..=2000).step_by(250) {
        h.send(Msg::Tick(wake + SignedDuration::from_millis(1000 + ms)));
    }
    let triage = stored(&h, "id00020");
    assert!(triage.seen && triage.woke(h.state.now).is_none());
    act(&mut h, Action::Back);
    h.send(Msg::Action(Action::Reload));
    assert_eq!(h.screen_ids()[0], "id00000");
}

/// Rows a sync stores while a woken item sits on top land below it, marked and counted new.
#[test]
fn new_rows_land_below_a_woken_item_counted_new() {
    let mut h = started_harness(120, 30, 50, true);
    let ids = vec!["id00020".to_owned()];
    let wake = now() + SignedDuration::from_hours(1);
    h.store
        .write(|s| s.set_triage(&ids, &TriageChange::Snooze(Some(wake)), now()))
        .unwrap();
    h.send(Msg::Action(Action::Reload));
    h.state.triage.next_wake = Some(wake);
    h.send(Msg::Tick(wake + SignedDuration::from_secs(1)));
    assert_eq!(h.screen_ids()[0], "id00020", "woken, on top");
    assert_eq!(h.state.list.woken, 1);
    let newer: Vec<_> = (0..2)
        .map(|n| feedback_api::Feedback {
            received_at: now() + SignedDuration::from_mins(10 - n),
            ..crate::testkit::item(1000 + usize::try_from(n).unwrap())
        })
        .collect();
    h.store.write(|s| s.put_items(&newer, now())).unwrap();
    h.send(Msg::Synced {
        job: SyncJob::Head(Status::New),
        result: Ok(crate::action::Synced {
            added: 2,
            ..crate::action::Synced::default()
        }),
    });
    assert_eq!(
        h.screen_ids()[..4],
        ["id00020", "id01000", "id01001", "id00000"]
    );
    assert_eq!(h.state.list.new_count, 2);
}
