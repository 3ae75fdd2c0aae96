//! Trends: the view's daily volume over the last 30 days with today's count, and the groups
//! (by a pivot) that grew most this week (the last 7 local days, today included) against the
//! weekly average of the four weeks before. The inbox asks once per view change, off the UI
//! thread, and keeps the answer: nothing here runs per frame.

use super::days::{Held, SERIES_DAYS, Window};
use super::{By, Group, Shown};
use crate::search::Context;
use crate::{Store, StoreError, ViewQuery};

/// Days in a week, and weeks the baseline averages.
const WEEK: usize = 7;
const BASELINE_WEEKS: usize = 4;
/// How many growing groups a trend lists.
pub(super) const TOP: usize = 5;
/// Growth is told in percent only against a baseline of at least this many items: "+2300%"
/// from one item in four weeks says nothing a count would not say better.
pub const PERCENT_BASE: u64 = 10;

/// A view's trend.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// Items per local day over the 30 days ending today, oldest first.
    pub daily: Vec<u32>,
    /// The first (oldest) day of `daily`.
    pub first_day: jiff::civil::Date,
    /// Items received today (local), the last of `daily`.
    pub today: u32,
    /// The five groups that grew most this week, most first (fewer when fewer grew).
    pub growing: Vec<Growth>,
    /// The first day of `daily` the store holds completely (0: all): the days before it are
    /// not mirrored yet, their counts unknown.
    pub held_from: usize,
    /// No day of the four weeks before this one is held: growth cannot be told (`growing` is
    /// empty for that reason, not because nothing grew).
    pub no_baseline: bool,
    /// For a metadata pivot, what its growth rests on: the view's items with metadata (a
    /// detail or a delivery brought it) and all of them.
    pub based_on: Option<(u64, u64)>,
}

/// How much a group grew this week.
#[derive(Debug, Clone, PartialEq)]
pub struct Growth {
    /// The group, as a pivot names it (`Group::key`, `Group::label`).
    pub key: Option<String>,
    pub label: Option<String>,
    /// What the group shows, sanitized once.
    pub text: Shown,
    /// Items in the last 7 days.
    pub this_week: u64,
    /// Items per week over the four weeks before.
    pub weekly_average: f64,
    /// `this_week - weekly_average`: what the groups are ranked by.
    pub added: f64,
    /// The change in percent of the average; `None` when the baseline is under
    /// [`PERCENT_BASE`] items (0 for a new group).
    pub percent: Option<f64>,
    /// Items in the baseline, the days before this week the store holds (`baseline_days`).
    pub previous: u64,
    pub baseline_days: usize,
}

/// The growth of a group with `this_week` items this week and `previous` in the four weeks
/// before.
#[must_use]
pub fn growth(this_week: u64, previous: u64) -> (f64, f64, Option<f64>) {
    growth_over(this_week, previous, WEEK * BASELINE_WEEKS)
}

/// The growth of a group with `this_week` items this week and `previous` in the `days` days
/// before it that the store holds (fewer than four weeks during a first mirror): their weekly
/// average is `previous` over those days, times seven.
#[must_use]
#[allow(clippy::cast_precision_loss)] // counts of items are far below 2^52
pub fn growth_over(this_week: u64, previous: u64, days: usize) -> (f64, f64, Option<f64>) {
    let average = previous as f64 * WEEK as f64 / days.max(1) as f64;
    let added = this_week as f64 - average;
    let percent = (previous >= PERCENT_BASE).then(|| added / average * 100.0);
    (average, added, percent)
}

impl Store {
    /// The trend of `view` at `cx.now` (days in `cx.tz`), its growing groups by `by` (none for
    /// a day or week pivot; the metadata pivots leave out the items without the key), every
    /// item stored.
    pub fn trend(&self, view: &ViewQuery, by: &By, cx: &Context) -> Result<Trend, StoreError> {
        self.trend_held(view, by, cx, Held::ALL)
    }

    /// [`Store::trend`] of a store that holds `held` of the history: growth is measured against
    /// the days before this week that it holds completely (none: no growth is told), and the
    /// series says from which day it is whole.
    pub fn trend_held(
        &self,
        view: &ViewQuery,
        by: &By,
        cx: &Context,
        held: Held,
    ) -> Result<Trend, StoreError> {
        let series = Window::ending(cx.now, &cx.tz, SERIES_DAYS);
        let daily = self.view_daily(view, &series)?;
        let today = daily.last().copied().unwrap_or(0);
        let weeks = Window::ending(cx.now, &cx.tz, WEEK * (BASELINE_WEEKS + 1));
        let baseline_from = weeks.first_held(held);
        let no_baseline = baseline_from >= WEEK * BASELINE_WEEKS;
        let growing = if by.period().is_some() || no_baseline {
            Vec::new()
        } else {
            top_growing(self.value_groups(view, by, &weeks, false)?, baseline_from)
        };
        let based_on = if by.is_metadata() && !no_baseline {
            let (total, covered) = self.covered(view)?;
            Some((covered, total))
        } else {
            None
        };
        Ok(Trend {
            daily,
            first_day: series.first_day,
            today,
            growing,
            held_from: series.first_held(held),
            no_baseline,
            based_on,
        })
    }
}

/// The groups (daily series over five weeks) that grew, most first, ties by key; at most
/// [`TOP`]. The baseline is the days from `held_from` (the first the store holds) to this week.
fn top_growing(groups: Vec<Group>, held_from: usize) -> Vec<Growth> {
    let mut out: Vec<Growth> = groups
        .into_iter()
        .filter_map(|g| {
            let split = g.daily.len().saturating_sub(WEEK);
            let from = held_from.min(split);
            let previous: u64 = g.daily[from..split].iter().map(|&n| u64::from(n)).sum();
            let this_week: u64 = g.daily[split..].iter().map(|&n| u64::from(n)).sum();
            let (weekly_average, added, percent) = growth_over(this_week, previous, split - from);
            (added > 0.0).then_some(Growth {
                text: Shown::of(g.key.as_deref(), g.label.as_deref()),
                key: g.key,
                label: g.label,
                this_week,
                weekly_average,
                added,
                percent,
                previous,
                baseline_days: split - from,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.added
            .total_cmp(&a.added)
            .then_with(|| a.key.is_none().cmp(&b.key.is_none()))
            .then_with(|| a.key.cmp(&b.key))
            .then_with(|| a.label.cmp(&b.label))
    });
    out.truncate(TOP);
    out
}

#[cfg(test)]
pub(super) fn top_growing_for_tests(groups: Vec<Group>) -> Vec<Growth> {
    top_growing(groups, 0)
}
