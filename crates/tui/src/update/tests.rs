//! Unit tests of `update` over a real in-memory store: the reads `update` asks for are answered
//! at once by the same code the executor runs off the UI thread (`testkit::Harness`); sync jobs
//! and other effects are looked at, and answered by hand.

use jiff::SignedDuration;

use super::*;
use crate::action::{Action, FailureKind, Msg, SyncFailure, SyncJob, Synced};
use crate::effect::{Effect, Network, Read, Remember};
use crate::failure::Failure;
use crate::state::Focus;
use crate::testkit::{Harness, budget, fill, item, now, started_harness};
use feedback_api::{Feedback, Status};
use feedback_core::text::Clean;

mod acting;
mod all_seen;
// Fetching many details, a few at a time.
mod acting_copies;
mod acting_fetch;
mod acting_views;
mod detail;
mod messages;
mod mode_keys;
mod modes;
mod order;
mod paste;
// reading
mod capture;
mod links;
mod reading;
mod reading_panes;
mod replies;
mod search;
mod similar;
mod sync;
mod team;
mod triage;
mod triage_more;
mod undo;
// Saved views and the command palette.
mod palette;
mod saved_views;

fn act(h: &mut Harness, action: Action) -> Vec<Effect> {
    h.send(Msg::Action(action))
}

fn syncs(effects: &[Effect]) -> Vec<SyncJob> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Network(Network::Sync(job)) => Some(job.clone()),
            _ => None,
        })
        .collect()
}

/// Items newer than every fixture item (`item(0)` is at `now`), newest first.
fn newer(count: usize) -> Vec<Feedback> {
    (0..count)
        .map(|n| {
            let mut f = item(1000 + n);
            f.received_at =
                now() + SignedDuration::from_mins(i64::try_from(count - n).unwrap_or(0));
            f
        })
        .collect()
}

fn store_items(h: &Harness, items: &[Feedback]) {
    h.store.write(|s| s.put_items(items, now())).unwrap();
}

fn offline() -> SyncFailure {
    SyncFailure {
        text: "Network error: connection refused".into(),
        kind: FailureKind::Offline,
    }
}

#[test]
fn start_shows_the_stored_rows_at_once_then_syncs() {
    let mut h = Harness::start(fill(150), 120, 35);
    // The first query was answered before start-up sent anything to the network.
    assert!(h.state.list.loaded());
    assert_eq!(h.state.visible_len(), 150);
    assert_eq!(h.screen_ids()[..2], ["id00000", "id00001"]);
    assert_eq!(syncs(&h.sent), [SyncJob::Start(Status::New)]);
    assert_eq!(
        h.state.projects.entries.len(),
        2,
        "panes read from the store"
    );
    assert_eq!(h.state.sync.as_of, None, "never synced");
    h.synced(SyncJob::Start(Status::New), false);
    assert_eq!(h.state.sync.as_of, Some(now()));
}

#[test]
fn the_first_frame_reads_the_first_screen_then_the_whole_view_follows() {
    let store = fill(500);
    let mut state = AppState::new(now(), 120, 35);
    update(
        &mut state,
        Msg::Resize {
            width: 120,
            height: 35,
        },
    );
    let first = first_query(&mut state);
    assert!(
        matches!(
            first,
            Read::Query {
                limit: Some(94), // 30 rows (views: the view bar takes one) and a margin
                ..
            }
        ),
        "{first:?}"
    );
    let mut h = Harness {
        state,
        store,
        sent: Vec::new(),
    };
    let freshness: crate::runtime::reads::FreshnessOf =
        std::sync::Arc::new(|_: &feedback_store::Store, _: &str| None);
    let answer = crate::runtime::lanes::read(
        &h.store,
        first,
        &feedback_store::search::Reading {
            tz: jiff::tz::TimeZone::UTC,
            views: h.state.views.shared(),
        },
        &freshness,
    )();
    let follow = update(&mut h.state, answer);
    assert_eq!(h.state.visible_len(), 94, "the first screen, and a margin");
    assert!(h.state.list.partial());
    assert!(matches!(
        follow.as_slice(),
        [Effect::Read(Read::Query { limit: None, .. })]
    ));
    h.settle(follow);
    assert_eq!(h.state.visible_len(), 500);
    assert!(!h.state.list.partial());
}

#[test]
fn the_ui_holds_the_window_of_rows_not_every_item() {
    let mut h = Harness::start(fill(2000), 120, 35);
    let rows = h.state.list.window.rows.len();
    assert!(rows <= 30 + 2 * WINDOW_MARGIN, "{rows} rows held");
    assert_eq!(h.state.list.keys.len(), 2000);
    act(&mut h, Action::Bottom);
    assert_eq!(
        h.selected_id(),
        "id01999",
        "rows at the end were read on the way"
    );
    assert!(h.state.list.window.rows.len() <= 30 + 2 * WINDOW_MARGIN);
    act(&mut h, Action::Top);
    assert_eq!(h.selected_id(), "id00000");
}

#[test]
fn enter_on_a_row_still_being_read_opens_it_when_it_arrives() {
    let mut h = started_harness(120, 35, 1000, true);
    let reads = update(&mut h.state, Msg::Action(Action::Bottom));
    assert!(
        matches!(reads.as_slice(), [Effect::Read(Read::LoadRows { .. })]),
        "{reads:?}"
    );
    assert!(update(&mut h.state, Msg::Action(Action::Open)).is_empty());
    assert!(h.state.detail.is_none());
    h.settle(reads);
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00999")
    );
}

#[test]
fn nearing_the_end_of_what_is_stored_asks_for_one_backfill_page() {
    let mut h = started_harness(120, 35, 100, false);
    for _ in 0..60 {
        act(&mut h, Action::MoveDown);
    }
    assert!(
        syncs(&h.sent).is_empty(),
        "more than a screen is left below"
    );
    for _ in 0..10 {
        act(&mut h, Action::MoveDown);
    }
    let backfills: Vec<_> = syncs(&h.sent)
        .into_iter()
        .filter(|j| matches!(j, SyncJob::Backfill { user: true, .. }))
        .collect();
    assert_eq!(backfills.len(), 1, "one page at a time: {:?}", h.sent);
    assert!(h.state.list.fetching());
    // The page stored more items: the view is queried again and the selection stays.
    let older: Vec<Feedback> = (100..200).map(item).collect();
    store_items(&h, &older);
    let before = h.selected_id();
    h.send(Msg::Synced {
        job: backfills[0].clone(),
        result: Ok(Synced {
            added: 100,
            ..Synced::default()
        }),
    });
    assert_eq!(h.state.visible_len(), 200);
    assert_eq!(h.selected_id(), before);
    assert!(!h.state.list.fetching());
}

#[test]
fn a_status_mirrored_to_its_end_asks_for_nothing_more() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Bottom);
    assert!(syncs(&h.sent).is_empty(), "{:?}", h.sent);
    assert!(!h.state.list.fetching());
}

#[test]
fn background_backfill_runs_while_idle_and_the_budget_allows() {
    let mut h = started_harness(120, 35, 100, false);
    h.send(budget(60, 40, now() + SignedDuration::from_secs(30)));
    h.send(Msg::Tick(now() + SignedDuration::from_millis(250)));
    let job = SyncJob::Background {
        listed: Status::New,
    };
    assert_eq!(syncs(&h.sent), std::slice::from_ref(&job));
    h.send(Msg::Tick(now() + SignedDuration::from_millis(500)));
    assert_eq!(syncs(&h.sent).len(), 1, "one at a time");
    h.synced(job.clone(), false);
    h.send(budget(60, 2, now() + SignedDuration::from_secs(30)));
    h.sent.clear();
    h.send(Msg::Tick(now() + SignedDuration::from_millis(750)));
    assert!(
        syncs(&h.sent).is_empty(),
        "held back while the budget is low"
    );
    h.send(budget(60, 40, now() + SignedDuration::from_secs(30)));
    h.send(Msg::Tick(now() + SignedDuration::from_secs(1)));
    assert_eq!(syncs(&h.sent), std::slice::from_ref(&job));
    // Nothing left to do: the background rests until the next head sync.
    h.send(Msg::Synced {
        job,
        result: Ok(Synced {
            idle: true,
            ..Synced::default()
        }),
    });
    h.sent.clear();
    h.send(Msg::Tick(now() + SignedDuration::from_secs(2)));
    assert!(syncs(&h.sent).is_empty(), "{:?}", h.sent);
    h.synced(SyncJob::Head(Status::New), false);
    h.send(Msg::Tick(now() + SignedDuration::from_secs(3)));
    assert_eq!(syncs(&h.sent).len(), 1, "woken by the head sync");
}

#[test]
fn new_rows_from_a_sync_appear_on_top_without_moving_the_selection() {
    let mut h = started_harness(120, 35, 100, false);
    for _ in 0..40 {
        act(&mut h, Action::MoveDown);
    }
    let (selected, top) = (h.selected_id(), h.screen_ids()[0].clone());
    store_items(&h, &newer(3));
    h.send(Msg::Synced {
        job: SyncJob::Head(Status::New),
        result: Ok(Synced {
            added: 3,
            ..Synced::default()
        }),
    });
    assert_eq!(h.selected_id(), selected);
    assert_eq!(h.screen_ids()[0], top, "the screen stays on its rows");
    assert_eq!(h.state.list.new_count, 3);
    assert_eq!(h.state.visible_len(), 103);
    assert_eq!(h.state.note.as_ref().unwrap().text, "3 new");
}

/// Another process (`sync` from cron, another window) stored items: this window's own refresh
/// finds nothing new, and still shows them, counted as new, at the refresh.
#[test]
fn items_another_process_stored_show_at_a_refresh_that_found_nothing_new() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::MoveDown);
    store_items(&h, &newer(2));
    assert_eq!(h.screen_ids()[0], "id00000", "nothing told this window yet");
    h.synced(SyncJob::Refresh(Status::New), false);
    assert_eq!(h.screen_ids()[..3], ["id01000", "id01001", "id00000"]);
    assert_eq!(h.selected_id(), "id00001");
    assert_eq!(h.state.list.new_count, 2);
    // Nothing stored since: the next refresh reads the counts and nothing more.
    h.sent.clear();
    h.synced(SyncJob::Refresh(Status::New), false);
    assert!(
        !h.sent
            .iter()
            .any(|e| matches!(e, Effect::Read(Read::Query { .. }))),
        "{:?}",
        h.sent
    );
}

#[test]
fn at_the_top_new_rows_show_and_the_selection_stays_on_its_item() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::MoveDown);
    store_items(&h, &newer(2));
    h.send(Msg::Arrived(Ok(true)));
    h.send(Msg::Arrived(Ok(true)));
    assert_eq!(h.screen_ids()[..3], ["id01000", "id01001", "id00000"]);
    assert_eq!(h.selected_id(), "id00001");
    assert_eq!(h.state.list.new_count, 2);
    assert_eq!(h.state.arrivals, 2);
}

/// The status bar's count and the rows change in one frame: an arrival is counted when the
/// list's answer that holds it lands, not when it is stored.
#[test]
fn the_arrival_count_moves_with_the_rows_that_show_it() {
    let mut h = started_harness(120, 35, 100, false);
    store_items(&h, &newer(1));
    let effects = h.apply(Msg::Arrived(Ok(true)));
    assert_eq!(h.state.arrivals, 0, "the rows do not show it yet");
    let answers = h.hold(effects);
    // A second arrival while the first one's query runs: its query waits for the next tick.
    store_items(&h, &newer(2));
    let effects = h.apply(Msg::Arrived(Ok(true)));
    assert!(h.hold(effects).is_empty());
    for answer in answers {
        h.send(answer);
    }
    assert_eq!(h.state.arrivals, 1);
    assert_eq!(h.screen_ids()[0], "id01000");
    assert_eq!(h.state.list.new_count, 1);
    h.send(Msg::Tick(now() + SignedDuration::from_millis(250)));
    assert_eq!(h.state.arrivals, 2);
    assert_eq!(h.screen_ids()[..2], ["id01001", "id01000"]);
    assert_eq!(h.state.list.new_count, 2);
}

#[test]
fn an_arrival_not_stored_is_not_counted_and_a_failed_one_is_said() {
    let mut h = started_harness(120, 35, 100, false);
    let effects = h.send(Msg::Arrived(Ok(false)));
    assert!(effects.is_empty() && h.state.note.is_none());
    h.send(Msg::Arrived(Err(Failure::store("disk full"))));
    assert_eq!(h.state.arrivals, 0);
    let note = h.state.note.as_ref().unwrap();
    assert!(
        note.error && note.text.contains("disk full"),
        "{}",
        note.text
    );
}

#[test]
fn the_latest_query_wins() {
    let mut h = started_harness(120, 35, 100, false);
    let stale = update(&mut h.state, Msg::Action(Action::ToggleStatus));
    let Some(Effect::Read(Read::Query { request_id, .. })) = stale.first().cloned() else {
        panic!("{stale:?}")
    };
    // Back to `new` before the archived answer came.
    act(&mut h, Action::ToggleStatus);
    let answer = Msg::ViewLoaded {
        request_id,
        result: Ok(Box::default()),
    };
    h.send(answer);
    assert_eq!(
        h.state.visible_len(),
        100,
        "the stale (empty) answer was dropped"
    );
}

#[test]
fn switching_status_queries_the_store_and_syncs_that_status_once() {
    let mut h = started_harness(120, 35, 100, false);
    let mut archived = item(500);
    archived.status = Status::Archived;
    store_items(&h, &[archived]);
    let effects = act(&mut h, Action::ToggleStatus);
    assert_eq!(h.state.visible_len(), 1);
    assert_eq!(h.selected_id(), "id00500");
    assert!(effects.contains(&Effect::Remember(Remember::View(h.state.view_spec()))));
    assert_eq!(syncs(&effects)[0], SyncJob::Head(Status::Archived));
    assert_eq!(
        h.state.tags.entries.len(),
        2,
        "pane counts are of archived now"
    );
    h.synced(SyncJob::Head(Status::Archived), true);
    act(&mut h, Action::ToggleStatus);
    let again = act(&mut h, Action::ToggleStatus);
    assert!(
        !syncs(&again).iter().any(|j| matches!(j, SyncJob::Head(_))),
        "synced this session already"
    );
}

#[test]
fn offline_the_inbox_runs_on_the_store_and_says_so() {
    let mut h = Harness::start(fill(100), 120, 35);
    h.send(Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Err(offline()),
    });
    assert!(h.state.sync.offline.is_some());
    assert!(h.state.fatal.is_none());
    h.sent.clear();
    act(&mut h, Action::Bottom);
    h.send(Msg::Tick(now() + SignedDuration::from_secs(1)));
    assert!(
        syncs(&h.sent).is_empty(),
        "no paging against a service that is down"
    );
    assert_eq!(h.selected_id(), "id00099");
    // `r` tries again; success clears the offline mark.
    let effects = act(&mut h, Action::Reload);
    assert_eq!(syncs(&effects), [SyncJob::Start(Status::New)]);
    h.synced(SyncJob::Start(Status::New), true);
    assert!(h.state.sync.offline.is_none());
}

#[test]
fn a_refused_key_with_nothing_stored_shows_the_explanation_else_a_note() {
    let refused = || SyncFailure {
        text: "Unauthorized".into(),
        kind: FailureKind::Refused,
    };
    let mut h = Harness::start(fill(0), 120, 35);
    h.send(Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Err(refused()),
    });
    assert!(h.state.fatal.is_some());
    let effects = act(&mut h, Action::Reload);
    assert!(h.state.fatal.is_none());
    assert_eq!(syncs(&effects), [SyncJob::Start(Status::New)]);
    let mut h = Harness::start(fill(10), 120, 35);
    h.send(Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Err(refused()),
    });
    assert!(h.state.fatal.is_none());
    assert!(h.state.note.as_ref().unwrap().error);
}

#[test]
fn another_accounts_store_is_refused_with_a_full_screen_explanation() {
    let mut h = Harness::start(fill(10), 120, 35);
    h.send(Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Err(SyncFailure {
            text: "store x holds another account's feedback".into(),
            kind: FailureKind::WrongAccount,
        }),
    });
    assert!(
        h.state
            .fatal
            .as_ref()
            .unwrap()
            .title
            .contains("another account")
    );
}

#[test]
fn panes_count_stored_items_of_the_status_and_filter_the_view() {
    let mut h = started_harness(120, 35, 100, false);
    let bug = h
        .state
        .tags
        .entries
        .iter()
        .find(|e| e.value == "bug")
        .unwrap();
    assert_eq!(bug.detail, "25");
    let ios = h
        .state
        .apps
        .entries
        .iter()
        .find(|e| e.detail.starts_with("ios"))
        .unwrap();
    assert_eq!(
        (ios.label.as_str(), ios.detail.as_str()),
        ("Nimbus Notes for iOS", "ios 80")
    );
    act(&mut h, Action::FocusPrev);
    assert_eq!(h.state.focus, Focus::Tags);
    let effects = act(&mut h, Action::Open);
    assert_eq!(h.state.focus, Focus::List);
    assert_eq!(h.state.visible_len(), 25);
    assert!(effects.contains(&Effect::Remember(Remember::View(h.state.view_spec()))));
    act(&mut h, Action::FocusPrev);
    act(&mut h, Action::ClearFilter);
    assert_eq!(h.state.visible_len(), 100);
}

#[test]
fn the_auto_refresh_syncs_the_head_when_due() {
    let mut h = Harness::start(fill(10), 120, 35);
    h.state.refresh_seconds = 60;
    h.state.next_refresh = Some(now() + SignedDuration::from_secs(60));
    // Start-up's jobs: the sync, and a page for the short list.
    for job in syncs(&std::mem::take(&mut h.sent)) {
        h.synced(job, true);
    }
    h.sent.clear();
    h.state.sync.background = false;
    h.send(Msg::Tick(now() + SignedDuration::from_secs(30)));
    assert!(syncs(&h.sent).is_empty());
    h.send(Msg::Tick(now() + SignedDuration::from_secs(61)));
    // At the background's priority: it keeps the budget's floor.
    assert_eq!(syncs(&h.sent), [SyncJob::Refresh(Status::New)]);
    // A background job waiting for the budget does not hold the refresh back.
    h.synced(SyncJob::Refresh(Status::New), true);
    h.send(Msg::Tick(now() + SignedDuration::from_secs(62)));
    assert!(h.state.sync.background_busy);
    h.sent.clear();
    h.send(Msg::Tick(now() + SignedDuration::from_secs(122)));
    assert!(
        syncs(&h.sent).contains(&SyncJob::Refresh(Status::New)),
        "{:?}",
        h.sent
    );
}

#[test]
fn moving_keeps_the_selection_on_screen_and_resize_refits() {
    let mut h = started_harness(120, 35, 100, false);
    assert_eq!(h.state.list.viewport_rows, 30); // Less the view bar
    for _ in 0..40 {
        act(&mut h, Action::MoveDown);
    }
    assert_eq!(h.state.list.offset, 11);
    act(&mut h, Action::PageUp);
    assert_eq!(h.state.list.selected, 10);
    h.send(Msg::Resize {
        width: 60,
        height: 15,
    });
    assert_eq!(h.state.list.viewport_rows, 10);
    h.send(Msg::Scroll(3));
    assert_eq!(h.state.list.selected, 13);
    h.send(Msg::ClickRow(0)); // the first body row
    assert_eq!(h.state.list.selected, h.state.list.offset);
}

#[test]
fn help_focus_notes_and_idle_ticks() {
    let mut h = started_harness(120, 35, 100, true);
    act(&mut h, Action::Help);
    act(&mut h, Action::MoveDown);
    assert_eq!(h.state.list.selected, 0, "the help swallows keys");
    act(&mut h, Action::Back);
    assert!(!h.state.help);
    for expected in [Focus::Projects, Focus::Apps, Focus::Tags, Focus::List] {
        act(&mut h, Action::FocusNext);
        assert_eq!(h.state.focus, expected);
    }
    info(&mut h.state, "hello");
    h.send(Msg::Tick(now() + SignedDuration::from_secs(6)));
    assert!(h.state.note.is_none());
    h.state.dirty = false; // drawn
    h.send(Msg::Tick(now() + SignedDuration::from_millis(6250)));
    assert!(!h.state.dirty, "an idle tick draws nothing");
    error(&mut h.state, "bad");
    h.send(Msg::Tick(now() + SignedDuration::from_secs(600)));
    assert!(h.state.note.is_some(), "errors stay");
    act(&mut h, Action::Back);
    assert!(h.state.note.is_none());
    act(&mut h, Action::Quit);
    assert!(h.state.quit);
}

#[test]
fn the_last_view_is_restored_before_the_first_query() {
    let store = fill(100);
    let spec = crate::state::ViewSpec {
        status: "new".into(),
        tag: Some(crate::state::Chosen {
            value: "ui".into(),
            label: Clean::fixed("ui"),
        }),
        search: "number".into(),
        ..Default::default()
    };
    store.write(|s| s.save_view(&spec)).unwrap();
    let restored = store.read(feedback_store::Store::last_view).unwrap();
    assert_eq!(restored, spec);
    let mut state = AppState::new(now(), 120, 35);
    restore_view(&mut state, &restored);
    let mut h = Harness {
        state,
        store,
        sent: Vec::new(),
    };
    h.send(Msg::Resize {
        width: 120,
        height: 35,
    });
    let first = first_query(&mut h.state);
    h.settle(vec![Effect::Read(first)]);
    assert_eq!(h.state.view_spec(), spec);
    assert_eq!(h.state.visible_len(), 25, "tag ui, all match `number`");
    assert!(!h.state.text_filter.as_ref().unwrap().editing);
}

/// The first walk of a status that never synced fills the mirror: its page is not "new".
#[test]
fn a_first_mirrors_first_page_is_not_called_new() {
    let mut h = Harness::start(crate::testkit::fill(0), 120, 35);
    store_items(&h, &newer(100));
    h.send(Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Ok(Synced {
            added: 100,
            ..Synced::default()
        }),
    });
    let said = &h.state.note.as_ref().unwrap().text;
    assert!(!said.contains("100 new"), "{said}");
    assert!(said.contains("Mirroring"), "{said}");
    // Once the status has synced, a head walk's items are new.
    store_items(&h, &newer(1_200)[1_100..]);
    h.send(Msg::Synced {
        job: SyncJob::Head(Status::New),
        result: Ok(Synced {
            added: 1_100,
            ..Synced::default()
        }),
    });
    assert_eq!(h.state.note.as_ref().unwrap().text, "1,100 new");
}
