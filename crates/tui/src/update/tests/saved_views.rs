//! Saved views: `1`–`9`, `;` and `X` switch (each asks the store for the view's query), the bar
//! marks the active view and a modified one, the unseen counts are read when the store changed
//! (not per tick), the `:` palette runs actions and switches views, `save-view NAME` writes the
//! config file keeping its comments.

use jiff::SignedDuration;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use crate::action::{Action, Msg, SyncJob};
use crate::effect::{Count, Effect, Network, Read, Remember};
use crate::keymap::Keymap;
use crate::saved_views::{Shown, ViewsState};
use crate::state::{Focus, ViewSpec};
use crate::testkit::{Harness, now, started_harness};
use feedback_config::views::ViewDef;
use feedback_store::TriageChange;

fn set(h: &Harness, ids: &[&str], change: &TriageChange) {
    let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    h.store
        .write(|s| s.set_triage(&ids, change, now()))
        .unwrap();
}

/// 40 items: 1 and 2 starred, 3 done, 4 snoozed, 5 and 6 seen; a user view "Bugs" (tag bug,
/// search "sync") after the built-in ones; the counts read.
pub(super) fn harness() -> Harness {
    let mut h = started_harness(120, 35, 40, true);
    set(&h, &["id00001", "id00002"], &TriageChange::Starred(true));
    set(&h, &["id00003"], &TriageChange::Done(true));
    let later = now() + SignedDuration::from_hours(2);
    set(&h, &["id00004"], &TriageChange::Snooze(Some(later)));
    set(&h, &["id00005", "id00006"], &TriageChange::Seen(true));
    let bugs = ViewDef {
        name: "Bugs".into(),
        query: "sync".into(),
        status: "new".into(),
        tag: Some("bug".into()),
        ..ViewDef::default()
    };
    h.state.views = ViewsState::new(&[bugs], None);
    h.send(Msg::Tick(now()));
    h.sent.clear();
    h
}

/// The query among `effects`.
pub(super) fn query(effects: &[Effect]) -> ViewSpec {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(Read::Query { spec, .. }) => Some((**spec).clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no query in {effects:?}"))
}

pub(super) fn switch(h: &mut Harness, action: Action) -> (ViewSpec, Vec<Effect>) {
    let effects = h.apply(Msg::Action(action));
    let spec = query(&effects);
    let others = h.settle(effects);
    (spec, others)
}

#[test]
fn number_keys_switch_to_each_view_and_query_it() {
    let mut h = harness();
    let (spec, _) = switch(&mut h, Action::View(2));
    assert_eq!(
        (spec.status.as_str(), spec.search.as_str()),
        ("any", "is:starred")
    );
    assert_eq!(h.state.visible_len(), 2);
    assert_eq!(h.state.views.active, Some(1));
    assert_eq!(h.state.note.as_ref().unwrap().text, "View: Starred");
    assert!(
        h.sent
            .iter()
            .any(|e| matches!(e, Effect::Remember(Remember::View(s)) if *s == spec))
    );

    let (spec, _) = switch(&mut h, Action::View(3));
    assert_eq!(spec.search, "is:snoozed");
    assert_eq!(h.screen_ids(), ["id00004"]);
    let (spec, _) = switch(&mut h, Action::View(4));
    assert_eq!(spec.search, "is:done");
    assert_eq!(h.screen_ids(), ["id00003"]);

    let (spec, others) = switch(&mut h, Action::View(5));
    assert_eq!(
        (spec.status.as_str(), spec.search.as_str()),
        ("archived", "")
    );
    assert!(
        others
            .iter()
            .any(|e| matches!(e, Effect::Network(Network::Sync(SyncJob::Head(s))) if s.as_str() == "archived")),
        "a status not synced this session is synced: {others:?}"
    );
    assert!(h.state.text_filter.is_none());

    let (spec, _) = switch(&mut h, Action::View(6));
    assert_eq!(spec.search, "sync");
    assert_eq!(spec.tag.as_ref().unwrap().value, "bug");
    assert_eq!(
        h.state.visible_len(),
        9,
        "items 0, 8, 12 … 36 (4 is snoozed)"
    );
    assert_eq!(h.state.view.search, "sync");
    assert!(!h.state.text_filter.as_ref().unwrap().editing);

    let (spec, _) = switch(&mut h, Action::View(1));
    assert_eq!(
        spec,
        ViewSpec {
            status: "new".into(),
            ..ViewSpec::default()
        }
    );
    assert_eq!(
        h.state.visible_len(),
        38,
        "done and snoozed are not in the Inbox"
    );

    h.sent.clear();
    assert!(act(&mut h, Action::View(9)).is_empty());
    assert_eq!(
        h.state.note.as_ref().unwrap().text,
        "No view 9 (there are 6)"
    );
}

#[test]
fn in_the_detail_only_the_palette_switches_views_and_the_focus_goes_to_the_list() {
    let mut h = harness();
    act(&mut h, Action::Open);
    assert!(h.state.detail.is_some());
    assert!(
        act(&mut h, Action::View(2)).is_empty(),
        "the detail's keys are its own"
    );
    assert!(h.state.detail.is_some());
    act(&mut h, Action::Palette);
    type_in(&mut h, "starred");
    let effects = h.apply(Msg::PaletteInput(key(KeyCode::Enter)));
    assert_eq!(query(&effects).search, "is:starred");
    h.settle(effects);
    assert!(h.state.detail.is_none(), "the switch closed the detail");
    switch(&mut h, Action::View(1));
    act(&mut h, Action::FocusNext);
    assert_eq!(h.state.focus, Focus::Projects);
    let (spec, _) = switch(&mut h, Action::View(2));
    assert_eq!(spec.search, "is:starred");
    assert_eq!(h.state.focus, Focus::List);
}

#[test]
fn x_clears_one_filter_and_capital_x_clears_every_filter_and_the_search() {
    let mut h = harness();
    switch(&mut h, Action::View(6));
    act(&mut h, Action::ClearFilter);
    assert!(h.state.text_filter.is_none(), "x drops the search first");
    assert!(h.state.view.tag.is_some(), "the tag filter stays");
    assert_eq!(
        h.state.views.shown(&h.state.view_spec()),
        Shown::Modified(5)
    );

    switch(&mut h, Action::View(6));
    let (spec, _) = switch(&mut h, Action::ClearAll);
    assert_eq!(
        spec,
        ViewSpec {
            status: "new".into(),
            ..ViewSpec::default()
        }
    );
    assert!(h.state.text_filter.is_none() && h.state.view.tag.is_none());
    assert_eq!(h.state.views.shown(&h.state.view_spec()), Shown::View(0));
    assert!(h.state.note.as_ref().unwrap().text.contains("cleared"));
}

#[test]
fn next_view_cycles_through_the_views() {
    let mut h = harness();
    let mut seen = Vec::new();
    for _ in 0..7 {
        act(&mut h, Action::NextView);
        seen.push(h.state.views.active.unwrap());
    }
    assert_eq!(seen, [1, 2, 3, 4, 5, 0, 1]);
}

#[test]
fn changing_the_filters_marks_the_view_modified_and_matching_ones_active() {
    let mut h = harness();
    switch(&mut h, Action::View(2));
    act(&mut h, Action::Filter);
    for c in [' ', 'a'] {
        h.send(Msg::FilterInput(key(KeyCode::Char(c))));
    }
    // The prompt opened with the view's search: it now reads "is:starred a", another query.
    assert_eq!(
        h.state.views.shown(&h.state.view_spec()),
        Shown::Modified(1)
    );
    act(&mut h, Action::Back);
    assert_eq!(
        h.state.views.shown(&h.state.view_spec()),
        Shown::Modified(1),
        "with no search, both statuses: Starred's filters, changed"
    );
}

#[test]
fn the_counts_are_read_when_the_store_changed_and_not_per_tick() {
    let mut h = harness();
    // Unseen: 40 less 2 seen and the done one (done marks seen); the Inbox hides done and
    // snoozed.
    assert_eq!(
        h.state.views.counts,
        [Some(36), Some(2), Some(1), Some(0), Some(0), Some(9)]
    );
    let later = |s: i64| now() + SignedDuration::from_secs(s);
    assert_eq!(
        counts_asked(&h.apply(Msg::Tick(later(5)))),
        0,
        "nothing changed"
    );
    act(&mut h, Action::ToggleSeen);
    assert!(h.state.views.due);
    let soon = now() + SignedDuration::from_millis(500);
    assert_eq!(
        counts_asked(&h.apply(Msg::Tick(soon))),
        0,
        "not twice in 2 s"
    );
    let effects = h.apply(Msg::Tick(later(10)));
    assert_eq!(counts_asked(&effects), 1, "{effects:?}");
    h.state.views.due = true;
    assert_eq!(
        counts_asked(&h.apply(Msg::Tick(later(20)))),
        0,
        "one count at a time"
    );
    h.settle(effects);
    assert_eq!(h.state.views.counts[0], Some(35), "id00000 was marked seen");
    assert!(h.state.views.counting.is_none());
    // Another window's triage (the count moved) is counted too.
    set(&h, &["id00010"], &TriageChange::Seen(true));
    let revs = h.store.read(feedback_store::Store::revs).unwrap();
    h.send(Msg::StoreRevs(Ok(revs)));
    h.send(Msg::Tick(later(30)));
    assert_eq!(h.state.views.counts[0], Some(34));
}

fn counts_asked(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Count(Count::CountViews { .. })))
        .count()
}

#[test]
fn a_slow_count_makes_the_next_one_wait_ten_times_as_long() {
    let mut h = harness();
    h.state.views.due = true;
    let at = |s: i64| now() + SignedDuration::from_secs(s);
    let effects = h.apply(Msg::Tick(at(5)));
    let request_id = effects
        .iter()
        .find_map(|e| match e {
            Effect::Count(Count::CountViews { request_id, .. }) => Some(*request_id),
            _ => None,
        })
        .unwrap();
    h.send(Msg::ViewsCounted {
        request_id,
        result: Ok(vec![Some(1); 6]),
        took: std::time::Duration::from_secs(1),
    });
    assert_eq!(h.state.views.counts, [Some(1); 6]);
    h.state.views.due = true;
    assert_eq!(counts_asked(&h.apply(Msg::Tick(at(14)))), 0, "resting");
    assert_eq!(counts_asked(&h.apply(Msg::Tick(at(15)))), 1);
}

#[test]
fn a_stale_count_is_dropped() {
    let mut h = harness();
    h.state.views.due = true;
    let effects = h.apply(Msg::Tick(now() + SignedDuration::from_secs(5)));
    let answers = h.hold(effects);
    h.state.views.counting = Some(999);
    for answer in answers {
        h.send(answer);
    }
    assert_eq!(h.state.views.counting, Some(999));
}

pub(super) fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

pub(super) fn type_in(h: &mut Harness, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(h.send(Msg::PaletteInput(key(KeyCode::Char(c)))));
    }
    effects
}

#[test]
fn every_key_of_the_views_is_bound_and_the_palette_takes_keys_while_open() {
    let map = Keymap::default();
    let press = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
    for n in 1..=9u8 {
        let c = char::from(b'0' + n);
        assert_eq!(map.action(&press(c)), Some(Action::View(n)));
    }
    assert_eq!(map.action(&press('X')), Some(Action::ClearAll));
    assert_eq!(map.action(&press(':')), Some(Action::Palette));
    assert_eq!(map.action(&press(';')), Some(Action::NextView));
    let mut h = harness();
    act(&mut h, Action::Palette);
    let event = ratatui::crossterm::event::Event::Key(press('q'));
    let msg = crate::runtime::translate(&event, &h.state, &map);
    assert!(matches!(msg, Some(Msg::PaletteInput(k)) if k.code == KeyCode::Char('q')));
}

#[test]
fn syncs_arrivals_and_fetched_details_make_the_counts_due_and_nothing_else_does() {
    use crate::action::Synced;
    let mut h = harness();
    let synced = |added: usize| Msg::Synced {
        job: SyncJob::Head(feedback_api::Status::New),
        result: Ok(Synced {
            added,
            ..Synced::default()
        }),
    };
    let detail = Msg::DetailLoaded {
        id: "id00001".into(),
        result: Ok(Box::new(crate::testkit::stored_detail(1))),
    };
    for (msg, due) in [
        (synced(3), true),
        (synced(0), false),
        (Msg::Arrived(Ok(true)), true),
        (Msg::Arrived(Ok(false)), false),
        (detail, true),
        (Msg::Action(Action::MoveDown), false),
    ] {
        h.state.views.due = false;
        let shown = format!("{msg:?}");
        h.apply(msg);
        assert_eq!(h.state.views.due, due, "{shown}");
    }
}

/// Your own states span both statuses: an item starred (or done, or snoozed) that the service
/// archives stays in Starred (Done, Snoozed), its status shown; `s` narrows to one status.
#[test]
fn starred_snoozed_and_done_keep_the_items_the_service_archives() {
    let mut h = harness();
    let archived: Vec<_> = [1, 3, 4]
        .into_iter()
        .map(|n| feedback_api::Feedback {
            status: feedback_api::Status::Archived,
            ..crate::testkit::item(n)
        })
        .collect();
    h.store.write(|s| s.put_items(&archived, now())).unwrap();
    act(&mut h, Action::View(2));
    assert_eq!(h.screen_ids(), ["id00001", "id00002"]);
    assert!(h.state.view_spec().status_filter().is_none());
    act(&mut h, Action::View(3));
    assert_eq!(h.screen_ids(), ["id00004"]);
    act(&mut h, Action::View(4));
    assert_eq!(h.screen_ids(), ["id00003"]);
    // The counts of the views read both statuses too.
    h.send(Msg::Tick(now() + SignedDuration::from_secs(10)));
    assert_eq!(
        h.state.views.counts[1],
        Some(2),
        "{:?}",
        h.state.views.counts
    );
    act(&mut h, Action::View(2));
    act(&mut h, Action::ToggleStatus);
    assert_eq!(h.screen_ids(), ["id00001"], "archived only");
    assert!(!h.state.view.any_status());
}

/// An item whose status is a value this version does not know is shown in the list it was
/// listed in, its status on its row, and `status:VALUE` finds it.
#[test]
fn an_item_with_an_unknown_status_shows_in_its_list_with_its_status() {
    let mut h = harness();
    let odd = feedback_api::Feedback {
        status: feedback_api::Status::Other("escalated".into()),
        ..crate::testkit::item(0)
    };
    h.store.write(|s| s.put_items(&[odd], now())).unwrap();
    act(&mut h, Action::View(2));
    act(&mut h, Action::View(1));
    assert_eq!(h.screen_ids().first().map(String::as_str), Some("id00000"));
    let row = h.state.list.window.get(h.state.list.offset).unwrap();
    assert_eq!(&*row.status, "escalated");
    act(&mut h, Action::Filter);
    for c in "status:escalated".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    act(&mut h, Action::Open);
    assert_eq!(h.screen_ids(), ["id00000"]);
}
