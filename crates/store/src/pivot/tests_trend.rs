//! Trends: the growth maths, the week split, and a store's trend against its items.

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::trend::top_growing_for_tests;
use super::*;
use crate::search::Context;
use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};

#[test]
fn growth_is_against_the_weekly_average_of_four_weeks() {
    // 40 items in four weeks: 10 a week; 25 this week is +15, +150%.
    assert_eq!(growth(25, 40), (10.0, 15.0, Some(150.0)));
    // Fewer than usual: negative.
    assert_eq!(growth(5, 40), (10.0, -5.0, Some(-50.0)));
    // New this week: no percentage (nothing to compare with).
    assert_eq!(growth(3, 0), (0.0, 3.0, None));
    assert_eq!(growth(0, 0), (0.0, 0.0, None));
    // Averages need not be whole: 3 in four weeks is 0.75 a week; but 3 items are too few
    // for a percentage ("+300%" from three items says less than the counts).
    assert_eq!(growth(3, 3), (0.75, 2.25, None));
    assert_eq!(growth(6, 1).2, None);
    // From ten items in the baseline a percentage means something: 12 in four weeks is 3 a
    // week, 9 this week is +6, +200%.
    assert_eq!(growth(9, 12), (3.0, 6.0, Some(200.0)));
    assert_eq!(growth(9, PERCENT_BASE - 1).2, None);
}

fn group(key: &str, previous_weeks: [u32; 4], this_week: u32) -> Group {
    let mut g = Group::new(Some(key.to_owned()), None, 35);
    for (week, n) in previous_weeks.iter().enumerate() {
        g.daily[week * 7] = *n;
    }
    // This week's items on its first day (day 28), not today: the split is by days.
    g.daily[28] = this_week;
    g
}

#[test]
fn the_five_that_grew_most_rank_by_items_added() {
    let groups = vec![
        group("steady", [10, 10, 10, 10], 10),
        group("fell", [10, 10, 10, 10], 2),
        group("doubled", [5, 5, 5, 5], 10),
        group("new", [0, 0, 0, 0], 4),
        group("big", [100, 100, 100, 100], 120),
        group("b-tie", [0, 0, 0, 0], 1),
        group("a-tie", [0, 0, 0, 0], 1),
        group("small", [1, 0, 0, 0], 2),
    ];
    let top = top_growing_for_tests(groups);
    let names: Vec<_> = top.iter().map(|g| g.key.as_deref().unwrap()).collect();
    assert_eq!(names, ["big", "doubled", "new", "small", "a-tie"]);
    assert_eq!(top[0].this_week, 120);
    assert_eq!(top[0].percent, Some(20.0));
    assert_eq!(top[2].percent, None);
}

fn item(n: usize, at: Timestamp, tag: &str) -> Feedback {
    Feedback {
        id: FeedbackId(format!("item-{n}")),
        message: "m".into(),
        reporter_email: None,
        status: Status::New,
        received_at: at,
        tags: vec![tag.to_owned()],
        app: None,
        project: ProjectRef {
            id: "p".into(),
            name: "P".into(),
        },
    }
}

#[test]
fn a_store_trend_counts_days_and_this_week_in_the_zone() {
    let tz = TimeZone::fixed(jiff::tz::offset(2));
    let now: Timestamp = "2026-11-20T10:00:00Z".parse().unwrap();
    let day = SignedDuration::from_hours(24);
    let mut items = Vec::new();
    // "old": one a day for 35 days; "rising": two a day this week only; today three more.
    for d in 0..35 {
        items.push(item(items.len(), now - day * d, "old"));
    }
    for d in 0..7 {
        for _ in 0..2 {
            items.push(item(items.len(), now - day * d, "rising"));
        }
    }
    // 21:59:59 UTC is 23:59:59 local: still today; 22:00 UTC is tomorrow, left out.
    items.push(item(
        items.len(),
        "2026-11-20T21:59:59Z".parse().unwrap(),
        "late",
    ));
    items.push(item(
        items.len(),
        "2026-11-20T22:00:00Z".parse().unwrap(),
        "late",
    ));
    let mut store = Store::open_memory().unwrap();
    store.put_items(&items, now).unwrap();
    let cx = Context {
        now,
        tz,
        views: std::sync::Arc::default(),
    };
    let trend = store.trend(&ViewQuery::default(), &By::Tag, &cx).unwrap();
    assert_eq!(trend.daily.len(), SERIES_DAYS);
    assert_eq!(trend.today, 1 + 2 + 1);
    assert_eq!(trend.daily[..23], [1; 23]);
    assert_eq!(trend.daily[23..29], [3; 6]);
    let names: Vec<_> = trend
        .growing
        .iter()
        .map(|g| g.key.as_deref().unwrap())
        .collect();
    assert_eq!(names, ["rising", "late"]);
    assert_eq!(trend.growing[0].this_week, 14);
    assert_eq!(trend.growing[0].percent, None);
    // A day pivot has no groups to rank.
    assert!(
        store
            .trend(&ViewQuery::default(), &By::Day, &cx)
            .unwrap()
            .growing
            .is_empty()
    );
}
