//! The grouped view (`=`), its picker, narrowing the list to a group (per kind), going back,
//! recomputing when the store changes, and the trends panel (`t`): update tests with the
//! store's real pivots, and snapshots (TestBackend) with sparklines and bars, the metadata
//! pivot's "based on" line, privacy and NO_COLOR. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use crate::insight_support;

use feedback_core::query::Basis;
use feedback_store::pivot::By;
use feedback_tui::action::{Action, Msg};
use feedback_tui::effect::{Count, Effect, Remember};
use feedback_tui::testkit::{Harness, item, now};
use insight_support::{
    act, draw, group_by, groups, harness, key, queued, spread_detail, status_row, typed,
};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

#[test]
fn the_picker_offers_the_kinds_and_the_stores_custom_keys() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::GroupBy);
    let picker = h.state.insight.picker.as_ref().unwrap();
    assert_eq!(picker.keys, vec!["plan".to_owned()]);
    assert!(picker.choices().contains(&"meta.plan".to_owned()));
    insta::assert_snapshot!("picker", draw(&h.state).backend().to_string());
    typed(&mut h, "cohort");
    assert_eq!(
        h.state.insight.picker.as_ref().unwrap().choices(),
        vec!["meta.cohort"]
    );
    key(&mut h, KeyCode::Esc);
    assert!(h.state.insight.picker.is_none());
    assert!(h.state.insight.grouped.is_none());
}

#[test]
fn grouping_by_app_replaces_the_list_with_groups_and_esc_goes_back() {
    let mut h = harness(120, 30, 40);
    let (selected_before, filters_before) = (h.state.list.selected, h.state.view.clone());
    act(&mut h, Action::MoveDown);
    group_by(&mut h, "app");
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    assert_eq!(grouped.by, By::App);
    assert_eq!(h.state.insight.by, By::App);
    // 8 of 40 items have no app (n % 5 == 4): the (none) group is last.
    let g = groups(&h);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].1, 32);
    assert_eq!(g[1], (None, 8));
    insta::assert_snapshot!("grouped_by_app", draw(&h.state).backend().to_string());
    // j/k move over the groups, not the list.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    assert_eq!(h.state.insight.grouped.as_ref().unwrap().selected, 1);
    assert_eq!(h.state.list.selected, selected_before + 1);
    // An item's key does nothing over the groups (no row shows).
    let effects = h.send(Msg::Action(Action::ToggleDone));
    assert!(effects.is_empty());
    act(&mut h, Action::Back);
    assert!(h.state.insight.grouped.is_none());
    assert_eq!(h.state.view, filters_before);
    assert_eq!(h.state.list.selected, selected_before + 1);
    assert_eq!(h.state.visible_len(), 40);
}

#[test]
fn the_none_group_narrows_where_the_search_language_can_say_it() {
    let mut h = harness(120, 30, 30);
    group_by(&mut h, "app");
    act(&mut h, Action::Bottom);
    act(&mut h, Action::Open);
    assert!(h.state.insight.grouped.is_none());
    assert_eq!(h.state.view_spec().search, "-has:app");
    assert_eq!(h.state.visible_len(), 8);
    // A version cannot be said to be missing: the (none) group of a version pivot refuses.
    act(&mut h, Action::Back);
    act(&mut h, Action::Back);
    group_by(&mut h, "version");
    assert_eq!(groups(&h).last().unwrap(), &(None, 10));
    act(&mut h, Action::Bottom);
    act(&mut h, Action::Open);
    assert!(h.state.insight.grouped.is_some());
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("without a value")
    );
}

/// Groups by `kind`, selects the group `at`, presses Enter: the list then shows exactly that
/// group's items. Returns the search applied.
fn narrow(kind: &str, at: usize) -> (Harness, String) {
    let mut h = harness(120, 30, 40);
    group_by(&mut h, kind);
    let (want_key, want) = groups(&h)[at].clone();
    assert!(want_key.is_some());
    for _ in 0..at {
        act(&mut h, Action::MoveDown);
    }
    let effects = h.send(Msg::Action(Action::Open));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Remember(Remember::View(_)))),
        "{effects:?}"
    );
    assert!(h.state.insight.grouped.is_none(), "the list shows");
    assert_eq!(
        h.state.visible_len() as u64,
        want,
        "{kind}: the list has the group's items"
    );
    let search = h.state.view_spec().search.to_string();
    (h, search)
}

#[test]
fn enter_narrows_by_app_and_tag_with_the_pane_filters() {
    let (h, search) = narrow("app", 0);
    assert_eq!(search, "");
    let app = h.state.view.app.as_ref().unwrap();
    assert_eq!(app.value, "00000000-0000-4000-8000-000000000001");
    assert_eq!(app.label, "Nimbus Notes for iOS");
    let (h, search) = narrow("tag", 0);
    assert_eq!(search, "");
    assert!(h.state.view.tag.is_some());
}

#[test]
fn enter_narrows_by_the_other_kinds_with_a_search_qualifier() {
    for (kind, at, want) in [
        ("platform", 0, "platform:ios"),
        // A version is one app's, named as the query names it (no slug here: its name).
        ("version", 0, "app:\"Nimbus Notes for iOS\" version:2.13.0"),
        ("os", 0, "meta.iOSVersion:18.2"),
        ("locale", 0, "locale:de-DE"),
        ("meta.plan", 2, "meta.plan:\"team plan\""),
        ("day", 0, "after:2026-11-01 before:2026-11-02"),
        ("week", 1, "after:2026-10-19 before:2026-10-26"),
    ] {
        let (_, search) = narrow(kind, at);
        assert_eq!(search, want, "{kind}");
    }
}

#[test]
fn a_group_qualifier_is_appended_to_the_search() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::Filter);
    for c in "tag:bug".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    act(&mut h, Action::Open);
    assert_eq!(h.state.visible_len(), 10);
    group_by(&mut h, "version");
    // The groups are of the searched view only: 2.14.1 of the app, and of no app.
    let shown = groups(&h);
    assert_eq!(shown.iter().map(|g| g.1).sum::<u64>(), 10);
    act(&mut h, Action::Open);
    // The search is parenthesised: an `OR` in it would bind more loosely than the group.
    assert_eq!(
        h.state.view_spec().search,
        "(tag:bug) app:\"Nimbus Notes for iOS\" version:2.14.1"
    );
    assert_eq!(h.state.visible_len() as u64, shown[0].1);
}

#[test]
fn a_metadata_pivot_says_what_it_is_based_on_and_masks_custom_values_in_privacy() {
    let mut h = harness(120, 30, 12);
    group_by(&mut h, "meta.plan");
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    assert_eq!(grouped.pivot.as_ref().unwrap().covered, Some(12));
    insta::assert_snapshot!(
        "grouped_meta_based_on",
        draw(&h.state).backend().to_string()
    );
    act(&mut h, Action::TogglePrivacy);
    assert!(h.state.acting.privacy);
    let screen = draw(&h.state).backend().to_string();
    assert!(
        !screen.contains("team plan") && !screen.contains("free"),
        "{screen}"
    );
    assert!(screen.contains(feedback_tui::privacy::MASK));
    insta::assert_snapshot!("grouped_meta_privacy", screen);
}

#[test]
fn groups_are_recomputed_when_the_store_changes_throttled_and_without_flicker() {
    let mut h = harness(120, 30, 40);
    group_by(&mut h, "app");
    assert_eq!(groups(&h)[0].1, 32);
    h.store.write(|s| {
        let mut new = item(100);
        new.received_at = now();
        s.put_items(&[new], now()).unwrap();
    });
    let effects = h.apply(Msg::Arrived(Ok(true)));
    for answer in h.hold(effects) {
        h.send(answer);
    }
    // The old groups stay until the new ones come.
    assert!(h.state.insight.due);
    assert_eq!(groups(&h)[0].1, 32);
    let effects = h.apply(Msg::Tick(now()));
    let asked: Vec<&Effect> = effects
        .iter()
        .filter(|e| matches!(e, Effect::Count(Count::Pivot { .. })))
        .collect();
    assert_eq!(asked.len(), 1);
    assert!(h.state.insight.grouped.as_ref().unwrap().pivot.is_some());
    h.settle(effects);
    assert_eq!(groups(&h)[0].1, 33);
    // Another change within the throttle's two seconds waits for it.
    h.send(Msg::Arrived(Ok(true)));
    let soon = now() + jiff::SignedDuration::from_secs(1);
    assert!(
        !h.apply(Msg::Tick(soon))
            .iter()
            .any(|e| matches!(e, Effect::Count(Count::Pivot { .. })))
    );
    let later = now() + jiff::SignedDuration::from_secs(3);
    assert!(
        h.apply(Msg::Tick(later))
            .iter()
            .any(|e| matches!(e, Effect::Count(Count::Pivot { .. })))
    );
}

#[test]
fn an_older_pivot_answer_is_dropped() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::GroupBy);
    let effects = h.apply(Msg::InsightInput(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    )));
    let old = h.hold(effects);
    group_by(&mut h, "tag");
    for answer in old {
        h.send(answer);
    }
    assert_eq!(h.state.insight.grouped.as_ref().unwrap().by, By::Tag);
    assert!(groups(&h).iter().any(|g| g.0.as_deref() == Some("bug")));
}

#[test]
fn t_toggles_the_trends_panel_computed_once_and_cached() {
    let mut h = harness(120, 30, 40);
    let rows = h.state.list.viewport_rows;
    act(&mut h, Action::Trends);
    let panel = h.state.insight.trends.as_ref().unwrap();
    let trend = panel.trend.as_ref().unwrap();
    assert_eq!(trend.daily.len(), 30);
    assert_eq!(trend.today, 1);
    assert_eq!(
        h.state.list.viewport_rows,
        rows - 7,
        "the list gives the panel its rows"
    );
    insta::assert_snapshot!("trends_panel", draw(&h.state).backend().to_string());
    // Drawing asks for nothing: a tick with nothing due asks for no trend.
    assert!(
        !h.apply(Msg::Tick(now()))
            .iter()
            .any(|e| matches!(e, Effect::Count(Count::Trend { .. })))
    );
    // The panel ranks the last chosen pivot's groups.
    group_by(&mut h, "tag");
    let growing = &h
        .state
        .insight
        .trends
        .as_ref()
        .unwrap()
        .trend
        .as_ref()
        .unwrap()
        .growing;
    assert!(!growing.is_empty());
    assert!(
        growing
            .iter()
            .all(|g| ["bug", "crash", "ui", "feature-request"]
                .contains(&g.key.as_deref().unwrap_or("?"))),
        "{growing:?}"
    );
    act(&mut h, Action::Trends);
    assert!(h.state.insight.trends.is_none());
    assert_eq!(h.state.list.viewport_rows, rows);
}

#[test]
fn without_colour_the_selected_group_is_reversed_and_bars_show() {
    let mut h = harness(100, 24, 40);
    h.state.color = false;
    group_by(&mut h, "tag");
    let terminal = draw(&h.state);
    let buffer = terminal.backend().buffer();
    let screen = terminal.backend().to_string();
    assert!(screen.contains('█'), "{screen}");
    // The first group is selected: its row is reversed (the view bar's tab is too, above).
    let selected_rows: Vec<String> = (2..buffer.area.height)
        .filter(|&y| {
            (0..buffer.area.width).any(|x| buffer[(x, y)].modifier.contains(Modifier::REVERSED))
        })
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect()
        })
        .collect();
    assert_eq!(selected_rows.len(), 1, "{selected_rows:?}");
    let first = groups(&h)[0].0.clone().unwrap();
    assert!(selected_rows[0].contains(&first), "{selected_rows:?}");
    insta::assert_snapshot!("grouped_no_color", screen);
}

#[test]
fn e_queues_the_views_missing_details_shows_progress_and_e_again_cancels() {
    let mut h = harness(120, 30, 12);
    group_by(&mut h, "meta.plan");
    let screen = draw(&h.state).backend().to_string();
    assert!(
        screen.contains("based on 12 of 40 items · e fetches the others' details"),
        "{screen}"
    );
    act(&mut h, Action::Enrich);
    assert_eq!(queued(&h), 28);
    let enrich = h.state.insight.enrich.unwrap();
    assert_eq!((enrich.done(), enrich.total), (0, 28));
    assert!(h.state.sync.background, "the background has work");
    // The budget is known: an estimate shows (28 details, 40 of 60 left, floor 12).
    h.send(feedback_tui::testkit::budget(
        60,
        40,
        now() + jiff::SignedDuration::from_secs(30),
    ));
    h.state.note = None;
    assert!(
        status_row(&h.state).contains("details 0/28 · ~7 s"),
        "{}",
        status_row(&h.state)
    );
    // A background step stored three details: the queue is counted again on the next tick.
    h.store.write(|s| {
        for n in 12..15 {
            s.put_detail(&spread_detail(n), now()).unwrap();
        }
    });
    h.send(Msg::Synced {
        job: feedback_tui::action::SyncJob::Background {
            listed: feedback_api::Status::New,
        },
        result: Ok(feedback_tui::action::Synced {
            changed: 3,
            ..Default::default()
        }),
    });
    h.send(Msg::Tick(now()));
    assert_eq!(h.state.insight.enrich.unwrap().done(), 3);
    h.state.note = None;
    insta::assert_snapshot!("enrichment_status", status_row(&h.state));
    // The grouped view follows the details that came.
    h.send(Msg::Tick(now() + jiff::SignedDuration::from_secs(5)));
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    assert_eq!(grouped.pivot.as_ref().unwrap().covered, Some(15));
    // e again cancels: the queue is emptied.
    act(&mut h, Action::Enrich);
    assert!(h.state.insight.enrich.is_none());
    assert_eq!(queued(&h), 0);
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("25 details not fetched")
    );
    assert!(!status_row(&h.state).contains("details 3/"));
}

#[test]
fn a_queue_left_by_the_last_run_shows_at_start_and_ends_when_fetched() {
    let h = harness(120, 30, 0);
    let all = feedback_store::ViewQuery::default();
    h.store
        .write(|s| s.queue_details(&all, Basis::Metadata))
        .unwrap();
    // A new inbox over the same store.
    let mut h = Harness::start(h.store, 120, 30);
    let enrich = h.state.insight.enrich.unwrap();
    assert_eq!((enrich.done(), enrich.total), (0, 40));
    h.store.write(|s| {
        for n in 0..40 {
            s.put_detail(&spread_detail(n), now()).unwrap();
        }
    });
    h.send(Msg::Synced {
        job: feedback_tui::action::SyncJob::Background {
            listed: feedback_api::Status::New,
        },
        result: Ok(feedback_tui::action::Synced::default()),
    });
    h.send(Msg::Tick(now()));
    assert!(h.state.insight.enrich.is_none());
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("Details fetched: 40")
    );
}

#[test]
fn e_over_a_view_with_every_detail_queues_nothing() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::Enrich);
    assert!(h.state.insight.enrich.is_none());
    assert_eq!(queued(&h), 0);
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("has its details")
    );
}

#[test]
fn another_view_regroups_and_slash_goes_back_to_the_lists_search() {
    let mut h = harness(120, 30, 40);
    group_by(&mut h, "tag");
    h.store
        .write(|s| {
            s.set_triage(
                &["id00000".to_owned(), "id00001".to_owned()],
                &feedback_store::TriageChange::Starred(true),
                now(),
            )
        })
        .unwrap();
    // 2: the Starred view; the groups follow on the next tick.
    act(&mut h, Action::View(2));
    assert!(h.state.insight.due);
    h.send(Msg::Tick(now()));
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    assert_eq!(grouped.pivot.as_ref().unwrap().total, 2);
    assert_eq!(grouped.spec, h.state.view_spec());
    act(&mut h, Action::Filter);
    assert!(h.state.insight.grouped.is_none());
    assert!(h.state.text_filter.as_ref().unwrap().editing);
}
