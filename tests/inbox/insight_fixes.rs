//! The grouped view and trends panel as a PM drills down: every group's `Enter` lists exactly
//! the group's items (views with `OR` searches and a pane filter), `Esc` comes back to the same
//! groups, privacy keeps custom values off screen after narrowing, J/K and the preview leave
//! the hidden list alone, sparklines keep today at any width, a failed refresh shows, and the
//! groups are computed again only when something changed. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use crate::insight_support;

use feedback_core::text::Clean;
use feedback_tui::action::{Action, Msg};
use feedback_tui::effect::{Count, Effect};
use feedback_tui::layout;
use feedback_tui::state::{AppState, Chosen};
use feedback_tui::testkit::{Harness, now};
use insight_support::{act, draw, group_by, groups, harness, status_row};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};

fn search(h: &mut Harness, text: &str) {
    act(h, Action::Filter);
    for c in text.chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    act(h, Action::Open);
}

/// The pivots a drill-down is checked with.
const KINDS: [&str; 9] = [
    "app",
    "platform",
    "tag",
    "version",
    "os",
    "locale",
    "meta.plan",
    "day",
    "week",
];

/// For every group of every pivot over the view `h` shows: `Enter` lists as many items as the
/// group counts, and `Esc` brings back the view, the pivot and the selection.
fn every_group_narrows_to_its_count(h: &mut Harness, what: &str) -> usize {
    let before = h.state.view_spec();
    let mut checked = 0;
    for kind in KINDS {
        group_by(h, kind);
        let shown = groups(h);
        for (at, (key, count)) in shown.iter().enumerate() {
            h.state.insight.grouped.as_mut().unwrap().selected = at;
            act(h, Action::Open);
            if h.state.insight.grouped.is_some() {
                // A group the search language cannot name (a version's "(none)").
                assert!(key.is_none(), "{what} {kind} {key:?} did not narrow");
                continue;
            }
            assert_eq!(
                h.state.visible_len() as u64,
                *count,
                "{what}: {kind} {key:?} lists its group's items ({:?})",
                h.state.view_spec()
            );
            checked += 1;
            act(h, Action::Back);
            let grouped = h.state.insight.grouped.as_ref().expect("Esc goes back");
            assert_eq!(
                grouped.selected, at,
                "{what} {kind}: the same group selected"
            );
            assert_eq!(
                h.state.view_spec(),
                before,
                "{what} {kind}: the view restored"
            );
            assert_eq!(groups(h), shown, "{what} {kind}: the same groups");
        }
        act(h, Action::Back);
        assert!(h.state.insight.grouped.is_none());
    }
    checked
}

#[test]
fn every_groups_enter_lists_exactly_its_count_and_esc_goes_back_to_the_groups() {
    // An `OR` search: a group's term must not bind to its right-hand side only.
    let mut h = harness(120, 30, 30);
    search(&mut h, "tag:ui OR has:email");
    let n = h.state.visible_len();
    assert!(n > 0 && n < 40, "{n}");
    let checked = every_group_narrows_to_its_count(&mut h, "OR search");
    assert!(checked > 20, "{checked}");
    // A tag pane and an `OR` search: a tag group is searched for, the pane's tag stays.
    let mut h = harness(120, 30, 30);
    h.state.view.tag = Some(Chosen {
        value: "bug".to_owned(),
        label: Clean::fixed("bug"),
    });
    search(&mut h, "has:email OR -tag:crash");
    assert!(h.state.visible_len() > 0);
    every_group_narrows_to_its_count(&mut h, "tag pane");
    group_by(&mut h, "tag");
    let crash = groups(&h)
        .iter()
        .position(|g| g.0.as_deref() == Some("crash"));
    h.state.insight.grouped.as_mut().unwrap().selected = crash.unwrap();
    act(&mut h, Action::Open);
    assert_eq!(h.state.view.tag.as_ref().unwrap().value, "bug");
    assert_eq!(
        h.state.view_spec().search,
        "(has:email OR -tag:crash) tag:crash"
    );
}

#[test]
fn esc_goes_back_one_level_only_and_not_from_another_view() {
    let mut h = harness(120, 30, 40);
    group_by(&mut h, "tag");
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    assert!(h.state.insight.grouped.is_none());
    act(&mut h, Action::Back);
    assert_eq!(h.state.insight.grouped.as_ref().unwrap().selected, 1);
    act(&mut h, Action::Back);
    assert!(h.state.insight.grouped.is_none());
    assert!(h.state.insight.back.is_none(), "one level: forgotten");
    // Narrowed, then another search: Esc is the list's again (it clears the search).
    group_by(&mut h, "version");
    act(&mut h, Action::Open);
    search(&mut h, "tag:ui");
    act(&mut h, Action::Back);
    assert!(h.state.insight.grouped.is_none());
}

#[test]
fn privacy_masks_the_custom_value_a_group_narrowed_to() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::TogglePrivacy);
    group_by(&mut h, "meta.plan");
    let at = groups(&h)
        .iter()
        .position(|g| g.0.as_deref() == Some("team plan"))
        .unwrap();
    h.state.insight.grouped.as_mut().unwrap().selected = at;
    act(&mut h, Action::Open);
    assert_eq!(h.state.view_spec().search, "meta.plan:\"team plan\"");
    let screen = draw(&h.state).backend().to_string();
    assert!(!screen.contains("team"), "{screen}");
    let status = status_row(&h.state);
    assert!(status.contains("/meta.plan:•••"), "{status}");
    insta::assert_snapshot!("narrowed_in_privacy", screen);
    // Privacy off: the search reads as typed.
    act(&mut h, Action::TogglePrivacy);
    assert!(status_row(&h.state).contains("team plan"));
}

#[test]
fn j_k_move_the_groups_and_the_preview_hides_while_the_groups_show() {
    let mut h = harness(160, 30, 40);
    assert!(layout::areas(&h.state).preview.is_some());
    let selected = h.state.list.selected;
    group_by(&mut h, "tag");
    assert!(layout::areas(&h.state).preview.is_none());
    act(&mut h, Action::NextItem);
    act(&mut h, Action::NextItem);
    assert_eq!(h.state.insight.grouped.as_ref().unwrap().selected, 2);
    act(&mut h, Action::PrevItem);
    assert_eq!(h.state.insight.grouped.as_ref().unwrap().selected, 1);
    act(&mut h, Action::TogglePreview);
    assert_eq!(h.state.list.selected, selected, "the hidden list stays");
    assert_eq!(
        h.state.reading.preview.user, None,
        "p is not the list's here"
    );
    act(&mut h, Action::Back);
    assert!(layout::areas(&h.state).preview.is_some());
    // Top issues too: J moves its clusters, not the list under it.
    h.state.top_issues = Some(feedback_tui::top_issues::TopIssuesScreen::computing(9));
    act(&mut h, Action::NextItem);
    assert_eq!(h.state.list.selected, selected);
}

/// The symbols ratatui's sparkline draws in `rows` rows for `value` scaled to `max`, top first.
fn column(value: u32, max: u32, rows: u16) -> Vec<&'static str> {
    const BARS: [&str; 9] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
    let mut ticks = u64::from(value) * u64::from(rows) * 8 / u64::from(max.max(1));
    let mut out = Vec::new();
    for _ in 0..rows {
        out.push(BARS[usize::try_from(ticks.min(8)).unwrap()]);
        ticks = ticks.saturating_sub(8);
    }
    out.reverse();
    out
}

/// The symbols drawn in `area`, column by column (each top first).
fn drawn(state: &AppState, area: Rect) -> Vec<Vec<String>> {
    let terminal = draw(state);
    let buffer = terminal.backend().buffer();
    (area.x..area.x + area.width)
        .map(|x| {
            (area.y..area.y + area.height)
                .map(|y| buffer[(x, y)].symbol().to_owned())
                .collect()
        })
        .collect()
}

/// What a sparkline of `daily` in `area` must show: the newest days, today last.
fn newest(daily: &[u32], area: Rect, max: u32) -> Vec<Vec<String>> {
    let from = daily.len() - usize::from(area.width);
    daily[from..]
        .iter()
        .map(|&v| {
            column(v, max, area.height)
                .into_iter()
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

#[test]
fn narrow_sparklines_keep_the_newest_days_on_one_shared_scale() {
    let mut h = harness(60, 20, 40);
    group_by(&mut h, "tag");
    let screen = draw(&h.state).backend().to_string();
    insta::assert_snapshot!("grouped_narrow", screen);
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    let pivot = grouped.pivot.as_ref().unwrap();
    let max = pivot
        .groups
        .iter()
        .flat_map(|g| g.daily.clone())
        .max()
        .unwrap();
    let list = layout::areas(&h.state).list;
    let inner = Rect::new(list.x + 1, list.y + 1, list.width - 2, list.height - 2);
    let spark = (inner.width / 4).min(30);
    assert!(spark < 30);
    // Rows start under the header line.
    for (n, group) in pivot.groups.iter().enumerate() {
        let y = inner.y + 1 + u16::try_from(n).unwrap();
        let area = Rect::new(inner.x + inner.width - spark, y, spark, 1);
        assert_eq!(
            drawn(&h.state, area),
            newest(&group.daily, area, max),
            "{:?}",
            group.key
        );
    }
    // Today has an item (item 0): its cell, the last, is drawn.
    assert!(pivot.groups[0].daily[29] > 0);
    // The labels that do not fit end with an ellipsis.
    let mut h = harness(60, 20, 40);
    group_by(&mut h, "app");
    let screen = draw(&h.state).backend().to_string();
    assert!(screen.contains("Nimbus Notes for …"), "{screen}");
}

#[test]
fn the_trends_panel_keeps_today_and_lists_only_real_growth() {
    let mut h = harness(60, 24, 40);
    act(&mut h, Action::Trends);
    let panel = h.state.insight.trends.as_ref().unwrap();
    assert_eq!(panel.by, Some(feedback_store::pivot::By::App));
    let trend = panel.trend.as_ref().unwrap();
    let area = layout::areas(&h.state).trends.unwrap();
    let inner = Rect::new(area.x + 1, area.y + 1, area.width - 2, area.height - 2);
    // The sparkline takes 45% of the panel, at most its 30 days and a gap.
    let spark_cells = (inner.width * 45 / 100).min(31);
    let [spark, _] =
        Layout::horizontal([Constraint::Length(spark_cells), Constraint::Fill(1)]).areas(inner);
    assert!(spark.width < 30);
    let max = *trend.daily.iter().max().unwrap();
    assert_eq!(drawn(&h.state, spark), newest(&trend.daily, spark, max));
    assert!(trend.daily[29] > 0, "today is drawn last");
    let screen = draw(&h.state).backend().to_string();
    insta::assert_snapshot!("trends_narrow", screen);
    // A growing group is listed only with 5 or more items this week.
    let [_, growing] =
        Layout::horizontal([Constraint::Length(spark_cells), Constraint::Fill(1)]).areas(inner);
    let lines = drawn(&h.state, growing);
    let used = (0..usize::from(growing.height))
        .filter(|&y| lines.iter().any(|column| column[y] != " "))
        .count();
    let real = trend.growing.iter().filter(|g| g.this_week >= 5).count();
    assert_eq!(used, real.max(1), "{screen}");
    // Growth of fewer items is not listed: "nothing grew" when none is left.
    let mut small = h.state.clone();
    let panel = small.insight.trends.as_mut().unwrap();
    for g in &mut panel.trend.as_mut().unwrap().growing {
        g.this_week = 4;
    }
    let screen = draw(&small).backend().to_string();
    assert!(screen.contains("nothing grew this week"), "{screen}");
}

#[test]
fn t_on_a_short_terminal_says_why_no_panel_shows() {
    let mut h = harness(80, 19, 40);
    act(&mut h, Action::Trends);
    assert!(h.state.insight.trends.is_some());
    assert!(layout::areas(&h.state).trends.is_none());
    let note = h.state.note.as_ref().unwrap();
    assert!(note.text.contains("20 rows"), "{}", note.text);
}

#[test]
fn a_failed_refresh_shows_in_the_title_while_the_old_numbers_stay() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::Trends);
    group_by(&mut h, "tag");
    let (pivot_id, trend_id) = (
        h.state.insight.grouped.as_ref().unwrap().request_id,
        h.state.insight.trends.as_ref().unwrap().request_id,
    );
    h.send(Msg::Pivoted {
        request_id: pivot_id,
        result: Err(feedback_tui::failure::Failure::store("no such tag: gone")),
    });
    h.send(Msg::Trended {
        request_id: trend_id,
        result: Err(feedback_tui::failure::Failure::store("database is locked")),
    });
    let screen = draw(&h.state).backend().to_string();
    assert!(
        screen.contains("⚠ not refreshed: store store.db: no such tag: gone"),
        "{screen}"
    );
    assert!(
        screen.contains("⚠ not refreshed: store store.db: database"),
        "{screen}"
    );
    assert!(
        screen.contains("feature-request"),
        "the old groups stay: {screen}"
    );
}

#[test]
fn the_groups_are_computed_again_only_when_something_changed() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::Trends);
    group_by(&mut h, "app");
    assert!(!h.state.insight.due);
    // The list queried again for the same view (a scroll, a resize): nothing to recompute.
    let query = feedback_tui::update::first_query(&mut h.state);
    let answers = h.hold(vec![feedback_tui::effect::Effect::Read(query)]);
    assert!(matches!(answers[0], Msg::ViewLoaded { result: Ok(_), .. }));
    for answer in answers {
        h.apply(answer);
    }
    assert!(!h.state.insight.due);
    assert!(
        !h.apply(Msg::Tick(now() + jiff::SignedDuration::from_secs(10)))
            .iter()
            .any(|e| matches!(e, Effect::Count(Count::Pivot { .. } | Count::Trend { .. })))
    );
    // A sync that stored something: due.
    h.send(Msg::Synced {
        job: feedback_tui::action::SyncJob::Background {
            listed: feedback_api::Status::New,
        },
        result: Ok(feedback_tui::action::Synced {
            changed: 1,
            ..Default::default()
        }),
    });
    assert!(h.state.insight.due);
}

#[test]
fn e_with_background_sync_off_says_so_and_queues_nothing() {
    let mut h = harness(120, 30, 12);
    h.state.insight.background_allowed = false;
    let effects = h.send(Msg::Action(Action::Enrich));
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(insight_support::queued(&h), 0);
    assert!(h.state.insight.enrich.is_none());
    let note = h.state.note.as_ref().unwrap();
    assert!(
        note.text.contains("[sync] background = false"),
        "{}",
        note.text
    );
}

#[test]
fn trends_by_version_say_what_they_rest_on_and_quote_no_percentage_from_a_sliver() {
    // 12 of the 40 items have details: the version trend rests on those.
    let mut h = harness(120, 30, 12);
    act(&mut h, Action::Trends);
    group_by(&mut h, "version");
    let panel = h.state.insight.trends.as_ref().unwrap();
    assert_eq!(panel.by, Some(feedback_store::pivot::By::Version));
    let trend = panel.trend.as_ref().unwrap();
    assert_eq!(trend.based_on, Some((12, 40)));
    // One item in the four weeks before is no base for a percentage.
    let rising = &trend.growing[0];
    assert_eq!((rising.this_week, rising.previous), (4, 1), "{trend:?}");
    assert!(
        trend.growing.iter().all(|g| g.percent.is_none()),
        "{trend:?}"
    );
    let mut shown = h.state.clone();
    let growing = &mut shown
        .insight
        .trends
        .as_mut()
        .unwrap()
        .trend
        .as_mut()
        .unwrap()
        .growing;
    growing[0].this_week = 6;
    let screen = draw(&shown).backend().to_string();
    assert!(
        screen.contains("based on 12 of 40 items with details"),
        "{screen}"
    );
    assert!(screen.contains("(6 vs 1 in 4 weeks)"), "{screen}");
    let growth: Vec<&str> = screen.lines().filter(|l| l.contains(" vs ")).collect();
    assert!(growth.len() == 1 && !growth[0].contains('%'), "{screen}");
    insta::assert_snapshot!("trends_by_version_partial_details", screen);
}
