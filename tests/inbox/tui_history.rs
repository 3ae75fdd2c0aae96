//! The trends panel and the grouped view during a first mirror: the days the store does not
//! hold whole yet are drawn as unknown (`·`), not as zero, the titles say from when the history
//! is whole, and no growth is told against weeks not mirrored. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use crate::insight_support;

use feedback_store::sync_state::{Gap, Key, insert_gap, set_head};
use feedback_tui::action::{Action, Msg};
use feedback_tui::testkit::{Harness, now};
use insight_support::{act, draw, group_by, harness};

/// `new` mirrored back to `hours` before now (its walk towards the deep end under way);
/// `archived` whole.
fn mirrored_back(h: &mut Harness, hours: i64) {
    let key = |hours: i64| Key {
        received: (now() - jiff::SignedDuration::from_hours(hours)).as_microsecond(),
        id: format!("fb_{hours}"),
    };
    h.store.write(|s| {
        s.tamper("UPDATE sync_status SET complete = 0 WHERE status = 'new'")
            .unwrap();
        s.write(|tx| {
            set_head(tx, "new", &key(0), now().as_second())?;
            let deep = Gap {
                g: 0,
                cursor: None,
                cursor_key: None,
                last: key(hours),
                until: None,
            };
            insert_gap(tx, "new", &deep).map(drop)
        })
        .unwrap();
    });
    // The store changed: the list and the panels are read again.
    h.send(Msg::Arrived(Ok(true)));
}

fn row_with<'a>(screen: &'a str, text: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_default()
}

#[test]
fn days_not_mirrored_yet_are_unknown_and_the_titles_say_from_when() {
    let mut h = harness(120, 30, 40);
    // 40 items over 32 days; the walk has come back four days (to 28 Oct, 12:00).
    mirrored_back(&mut h, 96);
    act(&mut h, Action::Trends);
    group_by(&mut h, "tag");
    let screen = draw(&h.state).backend().to_string();
    insta::assert_snapshot!("first_mirror_trends_and_groups", screen);
    let trends = row_with(&screen, "Trends ·");
    assert!(trends.contains("30 days · history from 29 Oct"), "{screen}");
    let grouped = row_with(&screen, "Grouped by tag");
    assert!(grouped.contains("history from 29 Oct"), "{screen}");
    // The 26 days before 29 Oct are unknown in the trend's sparkline; of the 22 days a
    // group's sparkline shows, 18.
    let spark = screen.lines().nth(6).unwrap();
    assert!(spark.contains(&format!("│{}█", "·".repeat(26))), "{screen}");
    let bug = row_with(&screen, "│bug ");
    assert!(bug.contains(&format!(" {}", "·".repeat(18))), "{screen}");
    assert!(!bug.contains(&"·".repeat(19)), "{screen}");
    // No day before this week is whole: no growth is told.
    assert!(
        screen.contains("no growth: earlier weeks not mirrored yet"),
        "{screen}"
    );
}

#[test]
fn a_whole_history_draws_zero_days_as_zero() {
    let mut h = harness(120, 30, 40);
    act(&mut h, Action::Trends);
    group_by(&mut h, "tag");
    let screen = draw(&h.state).backend().to_string();
    assert!(!screen.contains("··"), "{screen}");
    assert!(!screen.contains("history from"), "{screen}");
}
