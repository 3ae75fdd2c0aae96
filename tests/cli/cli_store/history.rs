//! `stats` during a first mirror: the days the store does not hold whole yet are unknown (null
//! in JSON, empty in CSV, `·` in the table's sparkline), and the summary says from when the
//! history is whole.

use std::path::Path;

use super::webhook_support::text;
use super::{item, json, run};
use feedback_api::Status;
use feedback_store::Store;
use feedback_store::sync_state::{Gap, Key, insert_gap, set_complete, set_head};
use jiff::{SignedDuration, Timestamp};

/// Two items a day for the last five days, `new` walked back to four and a half days ago,
/// `archived` whole.
fn first_mirror(path: &Path, now: Timestamp) {
    let mut store = Store::open(path).unwrap();
    let items: Vec<_> = (0..10)
        .map(|n| {
            let at = now - SignedDuration::from_hours(12 * n);
            item(&format!("fb_{n}"), &at.to_string(), Status::New)
        })
        .collect();
    store.put_items(&items, now).unwrap();
    let key = |hours: i64| Key {
        received: (now - SignedDuration::from_hours(hours)).as_microsecond(),
        id: format!("fb_{hours}"),
    };
    store
        .write(|tx| {
            set_head(tx, "new", &key(0), now.as_second())?;
            let deep = Gap {
                g: 0,
                cursor: None,
                cursor_key: None,
                last: key(108),
                until: None,
            };
            insert_gap(tx, "new", &deep)?;
            set_complete(tx, "archived")
        })
        .unwrap();
}

#[test]
fn stats_marks_the_days_not_mirrored_yet_as_unknown_and_says_from_when() {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join("s.sqlite3");
    let now = Timestamp::now();
    first_mirror(&path, now);
    let store = path.to_str().unwrap();
    let out = run(
        home.path(),
        &["--store", store, "stats", "--by", "tag", "--format", "json"],
    );
    let shown = json(&out);
    let from = shown["history_from"].as_str().unwrap().to_owned();
    // The walk's edge (four and a half days back) is inside its day: the next day is the
    // first whole one (UTC).
    let edge = (now - SignedDuration::from_hours(108)).to_zoned(jiff::tz::TimeZone::UTC);
    let whole = edge.date().tomorrow().unwrap();
    assert_eq!(from, whole.to_string(), "{shown}");
    let first_day: jiff::civil::Date = shown["first_day"].as_str().unwrap().parse().unwrap();
    let held_from = usize::try_from(first_day.until(whole).unwrap().get_days()).unwrap();
    let daily = shown["groups"][0]["daily"].as_array().unwrap();
    assert!(
        daily[..held_from].iter().all(serde_json::Value::is_null),
        "{shown}"
    );
    assert!(
        daily[held_from..].iter().all(serde_json::Value::is_u64),
        "{shown}"
    );
    let out = run(home.path(), &["--store", store, "stats", "--by", "tag"]);
    let table = text(&out.stdout);
    assert!(
        table.contains(&format!("{}▁", "·".repeat(held_from)))
            || table.contains(&format!("{}█", "·".repeat(held_from))),
        "{table}"
    );
    let summary = text(&out.stderr);
    assert!(
        summary.contains(&format!(
            "history from {from}, the days before not mirrored yet"
        )),
        "{summary}"
    );
}
