//! Unit tests of pivots: names, local days (daylight saving, exact boundaries), ISO weeks,
//! ordering and the `None` group of a metadata pivot.

use jiff::civil::date;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::days::PeriodCursor;
use super::*;
use crate::{TIES_PER_MICROSECOND, time_key};

fn new_york() -> TimeZone {
    TimeZone::posix("EST5EDT,M3.2.0,M11.1.0").unwrap()
}

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

#[test]
fn pivot_names_parse_and_bad_ones_say_what_is_known() {
    assert_eq!(By::parse("App").unwrap(), By::App);
    assert_eq!(By::parse(" week ").unwrap(), By::Week);
    assert_eq!(By::parse("meta.plan").unwrap(), By::Meta("plan".into()));
    // The key keeps its case: metadata keys are case-sensitive.
    assert_eq!(By::parse("META.userId").unwrap(), By::Meta("userId".into()));
    assert_eq!(By::Meta("userId".into()).name(), "meta.userId");
    let error = By::parse("colour").unwrap_err();
    assert!(
        error.contains("meta.KEY") && error.contains("colour"),
        "{error}"
    );
    assert!(By::parse("meta.").unwrap_err().contains("needs a key"));
    assert!(By::parse("é").is_err());
    for by in [By::Version, By::Os, By::Locale, By::Meta("x".into())] {
        assert!(by.is_metadata());
        assert_eq!(By::parse(&by.name()).unwrap(), by);
    }
    assert!(!By::Tag.is_metadata());
}

#[test]
fn the_window_is_thirty_local_days_ending_today() {
    let tz = new_york();
    // 2026-11-20 03:00 UTC is still the 19th in New York.
    let window = Window::ending(at("2026-11-20T03:00:00Z"), &tz, SERIES_DAYS);
    assert_eq!(window.days(), 30);
    assert_eq!(window.first_day, date(2026, 10, 21));
    assert_eq!(window.date(29), date(2026, 11, 19));
    let key = |s: &str| time_key(at(s));
    // Midnight local belongs to the day it starts; a microsecond before to the day before.
    assert_eq!(window.slot(key("2026-11-19T05:00:00Z")), Some(29));
    assert_eq!(window.slot(key("2026-11-19T04:59:59.999999Z")), Some(28));
    // The change back to standard time: November 1st has 25 hours (04:00Z to 05:00Z next).
    assert_eq!(window.slot(key("2026-11-01T04:00:00Z")), Some(11));
    assert_eq!(window.slot(key("2026-11-02T04:59:59Z")), Some(11));
    assert_eq!(window.slot(key("2026-11-02T05:00:00Z")), Some(12));
    // Summer time before it: midnight is 04:00Z.
    assert_eq!(window.slot(key("2026-10-21T04:00:00Z")), Some(0));
    assert_eq!(window.slot(key("2026-10-21T03:59:59Z")), None);
    // Tomorrow (local) is outside, as is the future.
    assert_eq!(window.slot(key("2026-11-20T05:00:00Z")), None);
    // Ties of one microsecond share its day (the lowest key of the microsecond).
    let tie = key("2026-11-19T05:00:00Z") - TIES_PER_MICROSECOND + 1;
    assert_eq!(window.slot(tie), Some(29));
}

#[test]
fn a_key_gives_back_its_received_time() {
    let t = at("2026-11-19T05:00:00.000007Z");
    assert_eq!(key_time(time_key(t)), Some(t));
    assert_eq!(key_time(time_key(t) - 1023), Some(t));
    assert_eq!(
        key_time(time_key(t) - 1024),
        Some(t + SignedDuration::from_micros(1))
    );
    // Every key is some time (keys span 1685 to 2255).
    assert!(key_time(i64::MAX).is_some() && key_time(i64::MIN).is_some());
}

#[test]
fn days_and_iso_weeks_are_named_in_the_zone() {
    let mut days = PeriodCursor::new(Period::Day, new_york());
    let key = |s: &str| time_key(at(s));
    assert_eq!(days.name(key("2026-11-02T04:59:59Z")), Some("2026-11-01"));
    assert_eq!(days.name(key("2026-11-01T04:00:00Z")), Some("2026-11-01"));
    assert_eq!(days.name(key("2026-11-01T03:59:59Z")), Some("2026-10-31"));
    let mut weeks = PeriodCursor::new(Period::Week, new_york());
    // Sunday 2026-11-01 is in ISO week 44; Monday the 2nd starts week 45 (at local midnight).
    assert_eq!(weeks.name(key("2026-11-02T04:59:59Z")), Some("2026-W44"));
    assert_eq!(weeks.name(key("2026-11-02T05:00:00Z")), Some("2026-W45"));
    // ISO years: 2027-01-01 is a Friday, in week 53 of 2026.
    assert_eq!(weeks.name(key("2027-01-01T12:00:00Z")), Some("2026-W53"));
    assert_eq!(weeks.name(key("2027-01-04T12:00:00Z")), Some("2027-W01"));
    // The walk goes back in time too (a new period is computed when a key leaves the last).
    assert_eq!(weeks.name(key("2026-10-26T05:00:00Z")), Some("2026-W44"));
}

#[test]
fn groups_go_largest_first_ties_by_key_none_last() {
    let group = |key: Option<&str>, count| {
        let mut g = Group::new(key.map(str::to_owned), None, SERIES_DAYS);
        g.count = count;
        g
    };
    let mut groups = vec![
        group(Some("b"), 2),
        group(None, 5),
        group(Some("a"), 2),
        group(Some("c"), 5),
        group(None, 1),
    ];
    sort_largest_first(&mut groups);
    let order: Vec<_> = groups.iter().map(|g| (g.key.as_deref(), g.count)).collect();
    assert_eq!(
        order,
        [
            (Some("c"), 5),
            (None, 5),
            (Some("a"), 2),
            (Some("b"), 2),
            (None, 1)
        ]
    );
    assert_eq!(groups[1].shown(), "(none)");
}

#[test]
fn the_none_group_of_a_metadata_pivot_is_what_the_others_leave() {
    let mut a = Group::new(Some("1.0".into()), None, 3);
    a.count = 4;
    a.daily = vec![1, 0, 2];
    let mut groups = vec![a];
    add_none(&mut groups, 10, &[3, 1, 2]);
    assert_eq!(groups[1].key, None);
    assert_eq!(groups[1].count, 6);
    assert_eq!(groups[1].daily, [2, 1, 0]);
    // Nothing left over: no `None` group.
    let mut groups = vec![groups.remove(0)];
    add_none(&mut groups, 4, &[1, 0, 2]);
    assert_eq!(groups.len(), 1);
}

#[test]
fn a_time_pivot_sent_to_the_joined_columns_is_an_error_not_a_none_group() {
    let mut store = Store::open_memory().unwrap();
    let data = feedback_sim::data::generate(3, 20, at("2026-11-20T15:00:00Z"));
    store.put_projects(&data.projects).unwrap();
    let items: Vec<_> = data.items().map(|d| d.feedback).collect();
    store.put_items(&items, at("2026-11-20T15:00:00Z")).unwrap();
    let window = Window::ending(at("2026-11-20T15:00:00Z"), &new_york(), SERIES_DAYS);
    for by in [By::Day, By::Week] {
        let got = store.value_groups(&ViewQuery::default(), &by, &window, true);
        let error = got.unwrap_err().to_string();
        assert!(error.contains(&by.name()), "{error}");
    }
}
