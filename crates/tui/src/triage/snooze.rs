//! The snooze picker's choices: 1 hour, 4 hours, tomorrow 9:00 and next Monday 9:00 (local
//! time), and waking the item; their names as the picker lists them and the times they mean.

use jiff::civil::{Time, Weekday};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

/// The picker's choices, in order.
pub const CHOICES: [&str; 5] = [
    "1 hour",
    "4 hours",
    "tomorrow 9:00",
    "next week (Monday 9:00)",
    "wake now (no snooze)",
];

/// The time a choice snoozes until (`None`: wake).
#[must_use]
pub fn choice_time(choice: usize, now: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
    let nine = |days: i64| {
        let date = now.to_zoned(tz.clone()).date();
        date.checked_add(jiff::Span::new().days(days))
            .ok()?
            .to_datetime(Time::new(9, 0, 0, 0).ok()?)
            .to_zoned(tz.clone())
            .ok()
            .map(|z| z.timestamp())
    };
    match choice {
        0 => now.checked_add(SignedDuration::from_hours(1)).ok(),
        1 => now.checked_add(SignedDuration::from_hours(4)).ok(),
        2 => nine(1),
        3 => {
            let weekday = now.to_zoned(tz.clone()).date().weekday();
            let ahead = 7 - i64::from(weekday.since(Weekday::Monday));
            nine(ahead)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_choices_are_in_local_time() {
        let tz = TimeZone::get("Europe/Berlin").unwrap();
        // Wednesday 2026-11-04 22:30 in Berlin.
        let now: Timestamp = "2026-11-04T21:30:00Z".parse().unwrap();
        let local = |n: usize| {
            choice_time(n, now, &tz)
                .map(|t| t.to_zoned(tz.clone()).strftime("%a %F %H:%M").to_string())
        };
        assert_eq!(local(0).unwrap(), "Wed 2026-11-04 23:30");
        assert_eq!(local(1).unwrap(), "Thu 2026-11-05 02:30");
        assert_eq!(local(2).unwrap(), "Thu 2026-11-05 09:00");
        assert_eq!(local(3).unwrap(), "Mon 2026-11-09 09:00");
        assert_eq!(local(4), None);
        // On a Monday, next week is seven days on.
        let monday: Timestamp = "2026-11-09T07:00:00Z".parse().unwrap();
        let next = choice_time(3, monday, &tz).unwrap().to_zoned(tz.clone());
        assert_eq!(
            next.strftime("%a %F %H:%M").to_string(),
            "Mon 2026-11-16 09:00"
        );
    }
}
