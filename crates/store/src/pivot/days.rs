//! Local days and ISO weeks in terms of item keys. A key is an item's received time turned
//! around (`store::keys`), so a local day is one range of keys: `(key(next midnight),
//! key(midnight)]`. The zone is injected (the user's, or a fixed one in tests), and days follow
//! it through daylight-saving changes (a day of 23 or 25 hours is still one day).

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

use crate::{TIES_PER_MICROSECOND, time_key};

/// Days in a series (a sparkline's data): the last 30, today the last.
pub const SERIES_DAYS: usize = 30;

/// Local days ending with `now`'s day, as key ranges.
#[derive(Debug, Clone)]
pub struct Window {
    /// The first key of each day's start, oldest first, and of tomorrow's start last
    /// (one more than the days, descending: older days have higher keys).
    starts: Vec<i64>,
    /// The oldest day of the window.
    pub first_day: Date,
}

impl Window {
    /// The window of the `days` days (one at least) ending with the local day of `now` in `tz`.
    #[must_use]
    pub fn ending(now: Timestamp, tz: &TimeZone, days: usize) -> Self {
        let days = days.max(1);
        let today = now.to_zoned(tz.clone()).date();
        let back = i64::try_from(days - 1).unwrap_or(0);
        let first_day = today.checked_sub(back.days()).unwrap_or(today);
        let starts = (0..=days)
            .map(|i| {
                let day = add_days(first_day, i);
                time_key(day_start(day, tz))
            })
            .collect();
        Self { starts, first_day }
    }

    /// How many days it holds.
    #[must_use]
    pub fn days(&self) -> usize {
        self.starts.len() - 1
    }

    /// The keys the window holds: `(low, high]`, newest end first.
    #[must_use]
    pub(crate) fn key_range(&self) -> (i64, i64) {
        (self.starts[self.days()], self.starts[0])
    }

    /// The day (0 the oldest, the last today) of the item with key `k`, or `None` outside.
    #[must_use]
    pub fn slot(&self, k: i64) -> Option<usize> {
        let (low, high) = self.key_range();
        if k <= low || k > high {
            return None;
        }
        // Starts are descending; the slot is the last start at or above `k`.
        let above = self.starts.partition_point(|&start| start >= k);
        above.checked_sub(1)
    }

    /// The first slot whose whole day the store holds, given what it holds (0: every day;
    /// `days()`: none).
    #[must_use]
    pub(crate) fn first_held(&self, held: Held) -> usize {
        match held.since {
            None => 0,
            // A day is held when it starts at or after `since`: its start's key is at or
            // below `since`'s (keys run against time).
            Some(since) => {
                let since = time_key(since);
                self.starts
                    .partition_point(|&start| start > since)
                    .min(self.days())
            }
        }
    }

    /// The local date of slot `i`.
    #[must_use]
    pub fn date(&self, i: usize) -> Date {
        add_days(self.first_day, i)
    }
}

/// What the store holds of the service's history: every item received at or after `since`
/// (`None`: every item). A first mirror walks back from the newest item, so until it is done
/// the days before where it has come are partly stored, and counts of them would be too low.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Held {
    pub since: Option<Timestamp>,
}

impl Held {
    /// Every item is stored.
    pub const ALL: Self = Self { since: None };
}

fn add_days(day: Date, n: usize) -> Date {
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    day.checked_add(n.days()).unwrap_or(Date::MAX)
}

/// The instant a local day starts (midnight, or the first instant after a gap at midnight).
#[must_use]
pub fn day_start(day: Date, tz: &TimeZone) -> Timestamp {
    day.to_zoned(tz.clone())
        .and_then(|z| z.start_of_day())
        .map_or(Timestamp::MAX, |z| z.timestamp())
}

/// The received time a key stands for (to the microsecond), `None` for a key no time gives.
#[must_use]
pub fn key_time(k: i64) -> Option<Timestamp> {
    let micros = (-i128::from(k)).div_euclid(i128::from(TIES_PER_MICROSECOND));
    Timestamp::from_microsecond(i64::try_from(micros).ok()?).ok()
}

/// How a time pivot names its periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
}

impl Period {
    /// The period holding `day`: its first day and its name ("2026-11-20", "2026-W47").
    #[must_use]
    pub fn of(self, day: Date) -> (Date, String) {
        match self {
            Self::Day => (day, day.to_string()),
            Self::Week => {
                let week = day.iso_week_date();
                let monday = week
                    .first_of_week()
                    .map_or(day, jiff::civil::ISOWeekDate::date);
                (monday, format!("{:04}-W{:02}", week.year(), week.week()))
            }
        }
    }

    /// The first day of the period after the one starting on `first`.
    #[must_use]
    pub fn next(self, first: Date) -> Date {
        let days = match self {
            Self::Day => 1,
            Self::Week => 7,
        };
        first.checked_add(days.days()).unwrap_or(Date::MAX)
    }
}

/// Walks keys newest first (ascending) and names each one's period, computing a period's key
/// range once: a whole view costs one zone conversion per period, not per item.
#[derive(Debug)]
pub(crate) struct PeriodCursor {
    period: Period,
    tz: TimeZone,
    /// The current period: its name and its keys `(low, high]`.
    current: Option<(String, i64, i64)>,
}

impl PeriodCursor {
    #[must_use]
    pub(super) fn new(period: Period, tz: TimeZone) -> Self {
        Self {
            period,
            tz,
            current: None,
        }
    }

    /// The name of the period holding key `k` (`None` for a key no time gives).
    pub(super) fn name(&mut self, k: i64) -> Option<&str> {
        let inside = self
            .current
            .as_ref()
            .is_some_and(|(_, low, high)| k > *low && k <= *high);
        if !inside {
            let day = key_time(k)?.to_zoned(self.tz.clone()).date();
            let (first, name) = self.period.of(day);
            let high = time_key(day_start(first, &self.tz));
            let low = time_key(day_start(self.period.next(first), &self.tz));
            self.current = Some((name, low, high));
        }
        self.current.as_ref().map(|(name, _, _)| name.as_str())
    }
}
