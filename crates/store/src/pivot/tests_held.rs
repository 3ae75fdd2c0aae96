//! Pivots and trends during a first mirror: the days the store does not hold whole are marked
//! (`held_from`), growth is measured against the held days before this week only (none held:
//! no growth told), and what the store holds comes from the walks' state of both statuses.

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::search::Context;
use crate::sync_state::{self as state, Gap, Key};
use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};

fn now() -> Timestamp {
    "2026-11-20T10:00:00Z".parse().unwrap()
}

fn item(n: usize, at: Timestamp, tag: &str) -> Feedback {
    Feedback {
        id: FeedbackId(format!("fb_{n}")),
        message: format!("message {n}"),
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

/// A first mirror that has come back `days` days: three items a day of a steady tag, from now
/// back to `days` days ago at 10:00 (the service has 35 days of them).
fn mirrored_back(days: i64) -> (Store, Held) {
    let items: Vec<Feedback> = (0..=days)
        .flat_map(|d| (0..3).map(move |i| (d, i)))
        .map(|(d, i)| {
            item(
                usize::try_from(d * 3 + i).unwrap(),
                now() - SignedDuration::from_hours(24 * d),
                "steady",
            )
        })
        .collect();
    let mut store = Store::open_memory().unwrap();
    store.put_items(&items, now()).unwrap();
    let held = Held {
        since: Some(now() - SignedDuration::from_hours(24 * days)),
    };
    (store, held)
}

fn cx() -> Context {
    Context {
        now: now(),
        tz: TimeZone::UTC,
        views: std::sync::Arc::default(),
    }
}

#[test]
fn a_steady_group_does_not_grow_because_its_history_is_still_being_mirrored() {
    let (store, held) = mirrored_back(9);
    let view = ViewQuery::default();
    // Counted as if every day were held, the baseline's missing weeks look like growth.
    let naive = store.trend(&view, &By::Tag, &cx()).unwrap();
    assert_eq!(naive.growing.len(), 1, "{naive:?}");
    let trend = store.trend_held(&view, &By::Tag, &cx(), held).unwrap();
    assert!(trend.growing.is_empty(), "{trend:?}");
    assert!(!trend.no_baseline);
    // Nine days back at 10:00: that day is partly held; the eight after it whole.
    assert_eq!(trend.held_from, SERIES_DAYS - 9);
    let pivot = store.pivot_held(&view, &By::Tag, &cx(), held).unwrap();
    assert_eq!(pivot.held_from, SERIES_DAYS - 9);
    assert_eq!(pivot.history_from(), Some(jiff::civil::date(2026, 11, 12)));
    assert_eq!(
        store.pivot(&view, &By::Tag, &cx()).unwrap().history_from(),
        None
    );
}

#[test]
fn with_no_day_before_this_week_held_growth_is_not_told() {
    let (store, held) = mirrored_back(3);
    let trend = store
        .trend_held(&ViewQuery::default(), &By::Tag, &cx(), held)
        .unwrap();
    assert!(trend.no_baseline);
    assert!(trend.growing.is_empty());
    // A group that grew against the held days is told, its baseline those days only.
    let (store, held) = mirrored_back(12);
    let mut store = store;
    let more: Vec<Feedback> = (0..3)
        .flat_map(|d| (0..6).map(move |i| (d, i)))
        .map(|(d, i)| {
            item(
                1000 + d * 6 + i,
                now() - SignedDuration::from_hours(24 * i64::try_from(d).unwrap()),
                "rising",
            )
        })
        .collect();
    store.put_items(&more, now()).unwrap();
    let trend = store
        .trend_held(&ViewQuery::default(), &By::Tag, &cx(), held)
        .unwrap();
    let names: Vec<_> = trend.growing.iter().map(|g| g.key.as_deref()).collect();
    assert_eq!(names, [Some("rising")], "{trend:?}");
}

#[test]
fn the_store_holds_from_the_later_edge_of_both_statuses() {
    let mut store = Store::open_memory().unwrap();
    let key = |hours: i64| Key {
        received: (now() - SignedDuration::from_hours(hours)).as_microsecond(),
        id: format!("fb_{hours}"),
    };
    // Neither status walked: nothing is held.
    assert_eq!(state::held(&store).unwrap().since, Some(Timestamp::MAX));
    store
        .write(|tx| {
            state::set_head(tx, "new", &key(0), now().as_second())?;
            let deep = Gap {
                g: 0,
                cursor: None,
                cursor_key: None,
                last: key(200),
                until: None,
            };
            state::insert_gap(tx, "new", &deep)?;
            state::set_complete(tx, "archived")
        })
        .unwrap();
    // `new` walked back 200 hours; `archived` is whole.
    let since = state::held(&store).unwrap().since;
    assert_eq!(since, key(200).timestamp());
    // A head walk's hole nearer the top moves the edge up.
    store
        .write(|tx| {
            let hole = Gap {
                g: 0,
                cursor: None,
                cursor_key: None,
                last: key(20),
                until: Some(key(30)),
            };
            state::insert_gap(tx, "new", &hole).map(drop)
        })
        .unwrap();
    assert_eq!(state::held(&store).unwrap().since, key(20).timestamp());
    // Both whole: everything is held.
    store.tamper("DELETE FROM sync_gaps").unwrap();
    store.write(|tx| state::set_complete(tx, "new")).unwrap();
    assert_eq!(state::held(&store).unwrap(), Held::ALL);
    assert_eq!(Status::New.as_str(), "new");
}
