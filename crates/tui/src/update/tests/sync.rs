//! The store kept fresh, as the inbox sees it: what is read again after a change (coalesced),
//! user-priority paging only when the user's movement asks, offline retried by itself, the
//! detail offline, and another process's sync waited out.

use jiff::SignedDuration;

use super::{act, newer, offline, store_items, syncs};
use crate::action::{Action, FailureKind, Msg, SyncFailure, SyncJob, Synced};
use crate::effect::{Effect, Network, Read};
use crate::testkit::{Harness, now, started_harness};
use crate::update::update;
use feedback_api::Status;

fn tick(h: &mut Harness, seconds: i64) -> Vec<Effect> {
    h.send(Msg::Tick(now() + SignedDuration::from_secs(seconds)))
}

fn added(job: SyncJob, added: usize) -> Msg {
    Msg::Synced {
        job,
        result: Ok(Synced {
            added,
            ..Synced::default()
        }),
    }
}

fn user_backfills(effects: &[Effect]) -> usize {
    syncs(effects)
        .iter()
        .filter(|j| matches!(j, SyncJob::Backfill { user: true, .. }))
        .count()
}

fn queries(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Read(Read::Query { .. })))
        .count()
}

fn tag_count(h: &Harness, tag: &str) -> String {
    let entry = h.state.tags.entries.iter().find(|e| e.value == tag);
    entry.map(|e| e.detail.to_string()).unwrap_or_default()
}

#[test]
fn a_view_shorter_than_the_screen_asks_for_one_page_per_movement_not_per_tick() {
    let mut h = started_harness(120, 35, 10, false);
    let backfill = SyncJob::Backfill {
        status: Status::New,
        user: true,
    };
    for second in 1..=5 {
        tick(&mut h, second);
        // Whatever was asked for is answered: nothing new (a rare tag, a selective search).
        if user_backfills(&h.sent) > 0 {
            h.send(added(backfill.clone(), 0));
        }
    }
    assert_eq!(
        user_backfills(&h.sent),
        0,
        "ticks page nothing: {:?}",
        h.sent
    );
    act(&mut h, Action::MoveDown);
    assert_eq!(user_backfills(&h.sent), 1, "the user's movement asks once");
    h.send(added(backfill, 0));
    for second in 6..=10 {
        tick(&mut h, second);
    }
    assert_eq!(user_backfills(&h.sent), 1, "{:?}", h.sent);
}

#[test]
fn pane_counts_follow_a_head_sync_that_stored_items() {
    let mut h = started_harness(120, 35, 100, false);
    assert_eq!(tag_count(&h, "bug"), "25");
    store_items(&h, &newer(3));
    h.send(added(SyncJob::Head(Status::New), 3));
    tick(&mut h, 1);
    assert_eq!(tag_count(&h, "bug"), "26", "item 1000 is tagged bug");
    // Nothing changed since: the counts are not read again.
    let reads = h.state.tags.request_id;
    tick(&mut h, 2);
    assert_eq!(h.state.tags.request_id, reads);
}

#[test]
fn changes_while_a_query_runs_cost_one_query_on_the_next_tick() {
    let mut h = started_harness(120, 35, 100, false);
    let head = || SyncJob::Head(Status::New);
    store_items(&h, &newer(1));
    let first = update(&mut h.state, added(head(), 1));
    assert_eq!(queries(&first), 1, "idle: the view is read again at once");
    for _ in 0..3 {
        let more = update(&mut h.state, added(head(), 1));
        assert_eq!(queries(&more), 0, "a query is under way");
    }
    // The same tick again while the first answer is still awaited: nothing yet.
    let early = update(&mut h.state, Msg::Tick(now()));
    assert_eq!(queries(&early), 0);
    h.settle(first);
    let due = update(
        &mut h.state,
        Msg::Tick(now() + SignedDuration::from_secs(1)),
    );
    assert_eq!(queries(&due), 1, "one for the three changes");
    h.settle(due);
    assert_eq!(queries(&tick(&mut h, 2)), 0);
}

#[test]
fn offline_the_head_is_retried_by_itself_waiting_longer_each_time() {
    let mut h = started_harness(120, 35, 100, false);
    let head = SyncJob::Head(Status::New);
    h.send(Msg::Synced {
        job: head.clone(),
        result: Err(offline()),
    });
    assert!(h.state.note.take().is_some_and(|n| n.error), "said once");
    let mut at = 0;
    for wait in [30, 60, 120, 240, 300, 300] {
        h.sent.clear();
        tick(&mut h, at + wait - 1);
        assert!(syncs(&h.sent).is_empty(), "before {wait} s");
        tick(&mut h, at + wait);
        assert_eq!(
            syncs(&h.sent),
            std::slice::from_ref(&head),
            "after {wait} s"
        );
        h.send(Msg::Synced {
            job: head.clone(),
            result: Err(offline()),
        });
        assert!(h.state.note.is_none(), "a retry fails quietly");
        at += wait;
    }
    h.sent.clear();
    tick(&mut h, at + 300);
    h.send(added(head.clone(), 0));
    assert!(h.state.sync.offline.is_none());
    // Back online: no more retries; the next outage waits 30 s again.
    h.sent.clear();
    tick(&mut h, at + 900);
    assert!(!syncs(&h.sent).contains(&head), "{:?}", h.sent);
    h.send(Msg::Synced {
        job: head,
        result: Err(offline()),
    });
    let retry_at = h.state.sync.retry_at.unwrap();
    assert_eq!(retry_at, now() + SignedDuration::from_secs(at + 900 + 30));
}

#[test]
fn offline_a_detail_opens_from_the_store_without_asking_the_service() {
    let mut h = started_harness(120, 35, 100, false);
    h.send(Msg::Synced {
        job: SyncJob::Head(Status::New),
        result: Err(offline()),
    });
    h.state.note = None;
    let effects = act(&mut h, Action::Open);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Network(Network::FetchDetail { .. }))),
        "{effects:?}"
    );
    let view = h.state.detail.as_ref().unwrap();
    assert!(!view.refreshing && h.state.details.contains_key("id00000"));
    assert!(h.state.note.is_none());
    // `r` asks anyway; the service's answer ends the offline mark.
    let effects = act(&mut h, Action::Reload);
    assert!(matches!(
        effects.as_slice(),
        [Effect::Network(Network::FetchDetail { .. })]
    ));
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(crate::testkit::stored_detail(0))),
    });
    assert!(h.state.sync.offline.is_none());
}

fn busy() -> Result<Synced, SyncFailure> {
    Err(SyncFailure {
        text: "Another sync is running on this store; try again when it ends".into(),
        kind: FailureKind::Busy,
    })
}

#[test]
fn when_another_processes_sync_ends_the_background_goes_on_by_itself() {
    let mut h = started_harness(120, 35, 100, false);
    let background = SyncJob::Background {
        listed: Status::New,
    };
    h.send(Msg::Synced {
        job: background.clone(),
        result: busy(),
    });
    assert!(h.state.note.is_none(), "background work says nothing");
    h.sent.clear();
    tick(&mut h, 1);
    assert!(syncs(&h.sent).is_empty(), "{:?}", h.sent);
    // The lock is tried again by itself (no request is sent while it is held).
    tick(&mut h, 2);
    assert_eq!(syncs(&h.sent), std::slice::from_ref(&background));
    // The other process stored items meanwhile: they reach the list with the lock.
    store_items(&h, &newer(3));
    h.send(added(background.clone(), 0));
    assert_eq!(h.state.visible_len(), 103);
}

#[test]
fn r_while_another_process_syncs_waits_its_turn_and_then_runs() {
    let mut h = started_harness(120, 35, 100, false);
    let head = SyncJob::Head(Status::New);
    let effects = act(&mut h, Action::Reload);
    assert_eq!(syncs(&effects), std::slice::from_ref(&head));
    h.send(Msg::Synced {
        job: head.clone(),
        result: busy(),
    });
    let note = h.state.note.clone().unwrap();
    assert!(!note.error, "a note, not an error");
    assert!(note.text.contains("runs when it ends"), "{}", note.text);
    // Still held at the next try: it waits on, quietly; no background step goes first.
    for (at, again) in [(2, true), (4, false)] {
        h.sent.clear();
        tick(&mut h, at - 1);
        assert!(syncs(&h.sent).is_empty(), "{:?}", h.sent);
        tick(&mut h, at);
        assert_eq!(syncs(&h.sent), std::slice::from_ref(&head), "at {at} s");
        if again {
            h.send(Msg::Synced {
                job: head.clone(),
                result: busy(),
            });
            assert_eq!(
                h.state.note.as_ref(),
                Some(&note),
                "said once, shown while it waits"
            );
        }
    }
    store_items(&h, &newer(2));
    h.send(added(head.clone(), 0));
    assert_eq!(h.state.visible_len(), 102);
    assert!(h.state.note.is_none(), "the wait is over");
    // Then the background goes on.
    h.sent.clear();
    tick(&mut h, 5);
    assert!(
        syncs(&h.sent)
            .iter()
            .any(|j| matches!(j, SyncJob::Background { .. })),
        "{:?}",
        h.sent
    );
}
