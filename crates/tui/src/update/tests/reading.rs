//! Reading and moving: the preview's switch and its debounced reads, `J`/`K` and `]`/`[` in
//! the detail (the side panes: `reading_panes`).

use jiff::{SignedDuration, Timestamp};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

use super::act;
use crate::action::{Action, Msg, SyncJob};
use crate::effect::{Effect, Network};
use crate::keymap::Keymap;
use crate::reading::preview_on;
use crate::runtime::translate;
use crate::testkit::{Harness, now, started_harness};

/// The items whose detail the effects fetch from the service.
fn fetched(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Network(Network::FetchDetail { id }) => Some(id.clone()),
            _ => None,
        })
        .collect()
}

pub(super) fn at(ms: i64) -> Timestamp {
    now() + SignedDuration::from_millis(ms)
}

pub(super) fn tick(h: &mut Harness, ms: i64) -> Vec<Effect> {
    h.send(Msg::Tick(at(ms)))
}

fn key(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// Sends a key through the run loop's translation, as typed.
pub(super) fn type_key(h: &mut Harness, c: char) -> Vec<Effect> {
    match translate(&key(c), &h.state, &Keymap::default()) {
        Some(msg) => h.send(msg),
        None => Vec::new(),
    }
}

/// The service's detail of item `n`, stored by the syncer, as `Network::FetchDetail`'s answer.
fn fetch_answer(h: &mut Harness, n: usize) -> Vec<Effect> {
    let detail = crate::testkit::detail(n);
    h.store.write(|s| s.put_detail(&detail, now())).unwrap();
    h.send(Msg::DetailLoaded {
        id: format!("id{n:05}"),
        result: Ok(Box::new(crate::testkit::stored_detail(n))),
    })
}

/// A 160-column inbox whose preview read and fetched the first item, at rest.
fn wide() -> Harness {
    let mut h = started_harness(160, 40, 100, false);
    let preview = &h.state.reading.preview;
    assert_eq!(
        preview.fetching.as_deref(),
        Some("id00000"),
        "start-up's preview"
    );
    fetch_answer(&mut h, 0);
    tick(&mut h, 0);
    tick(&mut h, 250);
    h.sent.clear();
    h
}

#[test]
fn the_preview_is_on_from_160_columns_and_p_wins_until_restart() {
    let mut h = started_harness(159, 40, 20, true);
    assert!(!preview_on(&h.state));
    act(&mut h, Action::TogglePreview);
    assert!(preview_on(&h.state));
    let mut h = started_harness(160, 40, 20, true);
    assert!(preview_on(&h.state));
    act(&mut h, Action::TogglePreview);
    assert!(!preview_on(&h.state));
    h.send(Msg::Resize {
        width: 200,
        height: 40,
    });
    assert!(
        !preview_on(&h.state),
        "the user's choice wins over the width"
    );
    act(&mut h, Action::TogglePreview);
    assert!(preview_on(&h.state));
}

#[test]
fn the_config_setting_decides_until_p_is_pressed() {
    use crate::reading::PreviewSetting;
    let mut h = started_harness(120, 40, 20, true);
    h.state.reading.preview.setting = PreviewSetting::On;
    assert!(preview_on(&h.state), "on at any width");
    h.state.reading.preview.setting = PreviewSetting::Off;
    h.send(Msg::Resize {
        width: 200,
        height: 40,
    });
    assert!(!preview_on(&h.state), "off at any width");
    act(&mut h, Action::TogglePreview);
    assert!(preview_on(&h.state));
}

#[test]
fn the_preview_reads_the_selected_item_and_fetches_it_once() {
    let mut h = wide();
    assert_eq!(h.state.reading.preview.asked.as_deref(), Some("id00000"));
    assert!(
        h.state.details.contains_key("id00000"),
        "read from the store"
    );
    // A move from rest asks at once: the stored list fields, then the service.
    let effects = act(&mut h, Action::MoveDown);
    assert_eq!(fetched(&effects), ["id00001"]);
    assert!(h.state.details.contains_key("id00001"));
    assert_eq!(h.state.reading.preview.fetching.as_deref(), Some("id00001"));
    // Its answer (stored by the syncer) ends the fetch; nothing is asked again.
    fetch_answer(&mut h, 1);
    assert_eq!(h.state.reading.preview.fetching, None);
    assert!(fetched(&tick(&mut h, 500)).is_empty());
    assert!(fetched(&tick(&mut h, 750)).is_empty());
}

#[test]
fn a_preview_answer_of_another_account_stops_the_inbox_as_a_sync_would() {
    let mut h = started_harness(160, 40, 100, false);
    assert_eq!(h.state.reading.preview.fetching.as_deref(), Some("id00000"));
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Err(crate::action::SyncFailure {
            text: "Store x holds another account's feedback".into(),
            kind: crate::action::FailureKind::WrongAccount,
        }),
    });
    let fatal = h.state.fatal.as_ref().expect("the account screen");
    assert!(fatal.title.contains("another account"), "{}", fatal.title);
    assert_eq!(h.state.reading.preview.fetching, None);
}

#[test]
fn a_held_j_asks_for_nothing_until_the_selection_rests() {
    let mut h = wide();
    let mut asked = Vec::new();
    // j held at 30 keys a second, the clock ticking every 250 ms: 8 keys a tick.
    for n in 0..36 {
        asked.extend(fetched(&act(&mut h, Action::MoveDown)));
        if n % 8 == 7 {
            asked.extend(fetched(&tick(&mut h, 250 * (n / 8 + 2))));
        }
    }
    assert_eq!(asked, ["id00001"], "only the first key, from rest, asks");
    assert_eq!(h.selected_id(), "id00036");
    // Let go (after four keys since the last tick): the next tick starts the wait, which ends
    // 150 ms later.
    let t = 250 * 6;
    tick(&mut h, t);
    tick(&mut h, t + 100);
    assert_eq!(
        h.state.reading.preview.asked.as_deref(),
        Some("id00001"),
        "not yet 150 ms"
    );
    tick(&mut h, t + 150);
    assert_eq!(h.state.reading.preview.asked.as_deref(), Some("id00036"));
    assert!(
        h.state.details.contains_key("id00036"),
        "read from the store"
    );
    assert!(!h.state.details.contains_key("id00020"), "nothing between");
    // The service is asked for it once the first key's fetch answered.
    assert_eq!(fetched(&fetch_answer(&mut h, 1)), ["id00036"]);
}

#[test]
fn one_fetch_at_a_time_then_the_item_shown_by_then() {
    let mut h = wide();
    assert_eq!(fetched(&act(&mut h, Action::MoveDown)), ["id00001"]);
    // The selection moves on (and rests) while that fetch is in flight.
    act(&mut h, Action::MoveDown);
    tick(&mut h, 500);
    assert!(
        fetched(&tick(&mut h, 750)).is_empty(),
        "one fetch in flight"
    );
    assert_eq!(h.state.reading.preview.asked.as_deref(), Some("id00002"));
    // The first answers: the item shown now is fetched.
    assert_eq!(fetched(&fetch_answer(&mut h, 1)), ["id00002"]);
    // One already fetched is not fetched again.
    fetch_answer(&mut h, 2);
    act(&mut h, Action::MoveUp);
    assert!(fetched(&tick(&mut h, 1000)).is_empty());
    assert!(fetched(&tick(&mut h, 1250)).is_empty());
}

#[test]
fn without_the_preview_moves_read_nothing() {
    let mut h = started_harness(120, 40, 100, false);
    for n in 0..5 {
        assert!(fetched(&act(&mut h, Action::MoveDown)).is_empty());
        assert!(fetched(&tick(&mut h, 250 * n)).is_empty());
    }
    assert_eq!(h.state.reading.preview.asked, None);
}

#[test]
fn offline_the_preview_shows_what_is_stored_and_fetches_nothing() {
    let mut h = wide();
    h.state.sync.offline = Some("no network".into());
    let effects = act(&mut h, Action::MoveDown);
    assert!(fetched(&effects).is_empty());
    assert!(h.state.details.contains_key("id00001"));
}

#[test]
fn j_and_k_in_the_detail_go_to_the_next_and_previous_item() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Open);
    tick(&mut h, 0);
    tick(&mut h, 250);
    let effects = act(&mut h, Action::NextItem);
    assert_eq!(h.state.detail.as_ref().unwrap().id, "id00001");
    assert_eq!(h.selected_id(), "id00001", "the list's selection follows");
    assert_eq!(fetched(&effects), ["id00001"]);
    act(&mut h, Action::NextItem);
    act(&mut h, Action::PrevItem);
    assert_eq!(h.state.detail.as_ref().unwrap().id, "id00001");
    act(&mut h, Action::PrevItem);
    act(&mut h, Action::PrevItem);
    assert_eq!(h.state.detail.as_ref().unwrap().id, "id00000");
    assert!(h.state.note.as_ref().unwrap().text.contains("First item"));
    // The keys: J and ], K and [.
    let keymap = Keymap::default();
    for (c, action) in [
        ('J', Action::NextItem),
        (']', Action::NextItem),
        ('K', Action::PrevItem),
        ('[', Action::PrevItem),
    ] {
        let msg = translate(&key(c), &h.state, &keymap);
        assert!(matches!(msg, Some(Msg::Action(a)) if a == action), "{c}");
    }
}

#[test]
fn a_held_j_in_the_detail_shows_stored_items_and_fetches_where_it_rests() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Open);
    tick(&mut h, 0);
    tick(&mut h, 250);
    let mut asked = Vec::new();
    for n in 0..20 {
        asked.extend(fetched(&act(&mut h, Action::NextItem)));
        assert_eq!(
            h.state.detail.as_ref().unwrap().id,
            format!("id{:05}", n + 1)
        );
        if n % 8 == 7 {
            tick(&mut h, 250 * (n / 8 + 2));
        }
    }
    assert_eq!(asked, ["id00001"], "only the first J, from rest, asks");
    assert!(
        h.state.details.contains_key("id00010"),
        "shown from the store"
    );
    let t = 250 * 4;
    tick(&mut h, t);
    fetch_answer(&mut h, 1);
    asked.extend(fetched(&tick(&mut h, t + 150)));
    assert_eq!(asked, ["id00001", "id00020"]);
    assert!(
        h.state.detail.as_ref().unwrap().refreshing,
        "the detail says so"
    );
    fetch_answer(&mut h, 20);
    let view = h.state.detail.as_ref().unwrap();
    assert!(!view.refreshing);
    assert_eq!(view.detail_at, Some(now()));
}

#[test]
fn j_in_the_detail_near_the_end_of_the_loaded_keys_asks_for_more() {
    let mut h = started_harness(120, 35, 100, false);
    for _ in 0..68 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Open);
    let mut backfills = 0;
    for _ in 0..3 {
        let effects = act(&mut h, Action::NextItem);
        backfills += effects
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Effect::Network(Network::Sync(SyncJob::Backfill { user: true, .. }))
                )
            })
            .count();
    }
    assert_eq!(backfills, 1, "one page, as the list asks");
    assert_eq!(h.state.detail.as_ref().unwrap().id, "id00071");
}

#[test]
fn j_at_the_last_item_says_so() {
    let mut h = started_harness(120, 35, 5, true);
    act(&mut h, Action::Bottom);
    act(&mut h, Action::Open);
    act(&mut h, Action::NextItem);
    assert_eq!(h.state.detail.as_ref().unwrap().id, "id00004");
    assert_eq!(h.state.note.as_ref().unwrap().text, "Last item");
}

#[test]
fn j_and_k_in_the_list_move_and_in_a_pane_move_in_it() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::NextItem);
    assert_eq!(h.selected_id(), "id00001");
    act(&mut h, Action::FocusPrev);
    act(&mut h, Action::NextItem);
    assert_eq!(h.state.tags.selected, 1);
    assert_eq!(h.selected_id(), "id00001");
}

#[test]
fn a_read_answered_after_its_detail_closed_fetches_nothing() {
    let mut h = started_harness(120, 35, 100, false);
    let effects = h.apply(Msg::Action(Action::Open));
    assert_eq!(fetched(&effects), ["id00000"], "the detail's own refresh");
    let answers = h.hold(effects);
    act(&mut h, Action::Back);
    for answer in answers {
        assert!(fetched(&h.send(answer)).is_empty());
    }
    assert_eq!(h.state.reading.preview.fetching, None);
}

#[test]
fn the_preview_gives_way_to_the_detail_and_to_a_narrow_list() {
    use crate::layout::areas;
    let mut h = started_harness(160, 40, 20, true);
    let shown = areas(&h.state);
    let preview = shown.preview.unwrap();
    assert_eq!(preview.right(), 160);
    assert_eq!(shown.list.right(), preview.x);
    act(&mut h, Action::Open);
    assert_eq!(areas(&h.state).preview, None, "the detail takes the room");
    act(&mut h, Action::Back);
    act(&mut h, Action::TogglePreview);
    act(&mut h, Action::TogglePreview);
    h.send(Msg::Resize {
        width: 100,
        height: 40,
    });
    assert!(preview_on(&h.state));
    assert_eq!(
        areas(&h.state).preview,
        None,
        "too narrow beside the sidebar"
    );
    act(&mut h, Action::ToggleSidebar);
    assert!(
        areas(&h.state).preview.is_some(),
        "room once the sidebar hides"
    );
}
