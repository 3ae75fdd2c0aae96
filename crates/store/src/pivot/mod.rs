//! Pivots: the items of a view grouped by app, platform, tag, app version, OS version, locale,
//! a custom metadata key, day or ISO week, each group with its count and its daily volume over
//! the last 30 days (a sparkline's data); and trends (`trend`): the view's daily volume and the
//! groups that grew most this week.
//!
//! A view is the query the inbox list and `search` run ([`ViewQuery`]), so a pivot counts
//! exactly what the list would show. Values are kept raw (sanitized where shown); an item
//! without the value (no app, no tag, no metadata) counts in the `None` group. Metadata comes
//! only with a detail or a webhook, so a metadata pivot also says how many of the view's items
//! have any (`covered`): "based on 812 of 3,267 items".
//!
//! The counts of a status view (with the project and app panes, done and snoozed items hidden:
//! the inbox's views) are read from the counts kept as items are written (`kept`,
//! `store::write::counts`); other views are counted by SQLite (`GROUP BY`, `query`). Only the
//! last 30 days' rows come back one by one, to be put in local days (a day depends on the time
//! zone, which the kept counts do not know). Time pivots walk the view's keys newest first and
//! name each day or week once (`days::PeriodCursor`).

mod days;
mod fast;
mod kept;
mod query;
mod totals;
mod trend;
mod version;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_brute;
#[cfg(test)]
mod tests_held;
#[cfg(test)]
mod tests_trend;
#[cfg(test)]
mod tests_version;

use std::collections::HashMap;

pub use days::{Held, Period, SERIES_DAYS, Window, day_start, key_time};
pub use trend::{Growth, PERCENT_BASE, Trend, growth, growth_over};
pub use version::precedence;

use super::search::Context;
use super::{Store, StoreError, ViewQuery};
use feedback_core::text::Clean;

/// The built-in metadata key of the app's version.
pub(crate) const VERSION_KEY: &str = "appVersion";
/// The built-in metadata keys of the OS version, one per platform.
pub(crate) const OS_KEYS: [&str; 2] = ["iOSVersion", "androidVersion"];
/// The built-in metadata key of the locale.
pub(crate) const LOCALE_KEY: &str = "locale";

/// What to group by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum By {
    App,
    Platform,
    Tag,
    /// `metadata.built_in.appVersion`.
    Version,
    /// `iOSVersion` or `androidVersion`, whichever the item has; `iOSVersion` when it has both
    /// (the item counts in one group, so the groups add up to the view).
    Os,
    /// `metadata.built_in.locale`.
    Locale,
    /// A custom metadata key (a built-in one of that name when no item has it as custom).
    Meta(String),
    Day,
    Week,
}

/// The pivots by name, as `By::parse` reads them, but for `meta.KEY`: what the `=` picker and
/// `--by`'s completion offer before the stored custom keys.
pub const KINDS: [&str; 8] = [
    "app", "platform", "tag", "version", "os", "locale", "day", "week",
];

/// The names `--by` takes, for messages.
pub(crate) const BY_NAMES: &str = "app, platform, tag, version, os, locale, meta.KEY, day, week";

impl By {
    /// Reads a pivot's name: `app`, `platform`, `tag`, `version`, `os`, `locale`, `meta.KEY`,
    /// `day` or `week` (case-insensitive, except the key).
    pub fn parse(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        if let Some(key) = trimmed
            .get(..5)
            .filter(|p| p.eq_ignore_ascii_case("meta."))
            .map(|_| &trimmed[5..])
        {
            if key.is_empty() {
                return Err("meta. needs a key: meta.KEY, e.g. meta.plan".to_owned());
            }
            return Ok(Self::Meta(key.to_owned()));
        }
        Ok(match trimmed.to_ascii_lowercase().as_str() {
            "app" => Self::App,
            "platform" => Self::Platform,
            "tag" => Self::Tag,
            "version" => Self::Version,
            "os" => Self::Os,
            "locale" => Self::Locale,
            "day" => Self::Day,
            "week" => Self::Week,
            _ => {
                return Err(format!(
                    "cannot group by {trimmed:?}: use one of {BY_NAMES}"
                ));
            }
        })
    }

    /// The name as `--by` takes it.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Self::App => "app".to_owned(),
            Self::Platform => "platform".to_owned(),
            Self::Tag => "tag".to_owned(),
            Self::Version => "version".to_owned(),
            Self::Os => "os".to_owned(),
            Self::Locale => "locale".to_owned(),
            Self::Meta(key) => format!("meta.{key}"),
            Self::Day => "day".to_owned(),
            Self::Week => "week".to_owned(),
        }
    }

    /// The name as shown (a metadata key is the user's text), sanitized as one line.
    #[must_use]
    pub fn label(&self) -> Clean {
        Clean::line(&self.name())
    }

    /// True for the pivots by metadata (only items with a detail or webhook have it).
    #[must_use]
    pub(crate) fn is_metadata(&self) -> bool {
        matches!(
            self,
            Self::Version | Self::Os | Self::Locale | Self::Meta(_)
        )
    }

    /// The period of a time pivot.
    #[must_use]
    pub(crate) fn period(&self) -> Option<Period> {
        match self {
            Self::Day => Some(Period::Day),
            Self::Week => Some(Period::Week),
            _ => None,
        }
    }
}

/// One group of a pivot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The raw value (an app's id, a tag, a version, "2026-11-20", "2026-W47"); `None` for the
    /// items without one ("(none)" on screen).
    pub key: Option<String>,
    /// What to show when it is not the key: an app's name, "iOS 17.2" / "Android 14".
    pub label: Option<String>,
    pub count: u64,
    /// Items per local day over the 30 days ending today ([`SERIES_DAYS`]), oldest first.
    pub daily: Vec<u32>,
    /// A version group's app id (`None` for other pivots, and for items without an app).
    pub app: Option<String>,
    /// The word the query's `app:` takes for that app alone (its slug, else its name, else
    /// its id): what a drill-down writes into the search.
    pub app_word: Option<String>,
    /// A version group's first sighting: its oldest stored item of that app and version.
    pub first_seen: Option<jiff::Timestamp>,
    /// What is shown for it, sanitized once its label is final ([`Group::labelled`]).
    pub text: Shown,
}

/// What a group shows: its key and label, sanitized once as the pivot is made (the raw ones
/// stay in [`Group`] for queries).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    /// The label, else the key, else "(none)", as one line: a version group's app name and
    /// version sanitized together.
    pub name: Clean,
    /// The key, "(none)" for none.
    pub key: Clean,
    /// The label, empty for none.
    pub label: Clean,
}

impl Shown {
    /// What a group with `key` and `label` shows.
    #[must_use]
    pub fn of(key: Option<&str>, label: Option<&str>) -> Self {
        Self {
            name: Clean::line(label.or(key).unwrap_or("(none)")),
            key: Clean::line(key.unwrap_or("(none)")),
            label: Clean::line(label.unwrap_or_default()),
        }
    }
}

impl Group {
    fn new(key: Option<String>, label: Option<String>, days: usize) -> Self {
        Self {
            key,
            label,
            count: 0,
            daily: vec![0; days],
            app: None,
            app_word: None,
            first_seen: None,
            text: Shown::default(),
        }
    }

    /// The group with [`Group::text`] made from its key and label: called once they are final.
    #[must_use]
    pub fn labelled(mut self) -> Self {
        self.text = Shown::of(self.key.as_deref(), self.label.as_deref());
        self
    }

    /// What to show for it, raw: the label, the key, or "(none)" ([`Shown::name`] is this,
    /// sanitized).
    #[must_use]
    pub fn shown(&self) -> &str {
        self.label
            .as_deref()
            .or(self.key.as_deref())
            .unwrap_or("(none)")
    }
}

/// A pivot of a view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pivot {
    pub by: By,
    /// Items in the view.
    pub total: u64,
    /// For a metadata pivot: the view's items with metadata stored (a detail or a webhook
    /// brought it). `None` for other pivots.
    pub covered: Option<u64>,
    /// Largest first, ties by key (`None` last); for day and week, newest first; for version,
    /// by app and version precedence (`version`).
    pub groups: Vec<Group>,
    /// The first (oldest) day of the groups' daily series.
    pub first_day: jiff::civil::Date,
    /// The first day of the series the store holds completely (0: all of them): the days
    /// before it are not mirrored yet, their counts unknown, not zero.
    pub held_from: usize,
}

impl Pivot {
    /// The first day wholly held, when some days of the series are not ("history from 19 Nov").
    #[must_use]
    pub fn history_from(&self) -> Option<jiff::civil::Date> {
        history_from(self.first_day, self.held_from)
    }
}

/// The date of slot `held_from` of a series from `first_day`, when it is not the first.
#[must_use]
pub fn history_from(first_day: jiff::civil::Date, held_from: usize) -> Option<jiff::civil::Date> {
    let days = i64::try_from(held_from).ok().filter(|&d| d > 0)?;
    first_day.checked_add(jiff::Span::new().days(days)).ok()
}

impl Store {
    /// Groups the items of `view` by `by`, with each group's daily volume over the 30 days
    /// ending on `cx.now`'s day in `cx.tz`, every item stored.
    pub fn pivot(&self, view: &ViewQuery, by: &By, cx: &Context) -> Result<Pivot, StoreError> {
        self.pivot_held(view, by, cx, Held::ALL)
    }

    /// [`Store::pivot`] of a store that holds `held` of the history: the series says from
    /// which day it is whole.
    pub fn pivot_held(
        &self,
        view: &ViewQuery,
        by: &By,
        cx: &Context,
        held: Held,
    ) -> Result<Pivot, StoreError> {
        let window = Window::ending(cx.now, &cx.tz, SERIES_DAYS);
        let mut covered = None;
        let (total, groups) = match by.period() {
            Some(period) => {
                let groups = self.period_groups(view, period, cx, &window)?;
                (groups.iter().map(|g| g.count).sum(), groups)
            }
            None => {
                let mut groups = self.value_groups(view, by, &window, true)?;
                // An item is in one app, one platform: their counts add up to the view's (one
                // pass less); an item has any number of tags.
                let total = if matches!(by, By::App | By::Platform) {
                    groups.iter().map(|g| g.count).sum()
                } else if by.is_metadata() {
                    let (total, with_metadata) = self.covered(view)?;
                    covered = Some(with_metadata);
                    total
                } else {
                    self.pivot_total(view)?
                };
                if by.is_metadata() {
                    let daily = self.view_daily(view, &window)?;
                    add_none(&mut groups, total, &daily);
                }
                if *by == By::Version {
                    version::sort_by_app_and_version(&mut groups);
                } else {
                    sort_largest_first(&mut groups);
                }
                (total, groups)
            }
        };
        Ok(Pivot {
            by: by.clone(),
            total,
            covered,
            groups: groups.into_iter().map(Group::labelled).collect(),
            first_day: window.first_day,
            held_from: window.first_held(held),
        })
    }

    /// Items of `view` per local day over `window`, oldest first.
    pub(crate) fn view_daily(
        &self,
        view: &ViewQuery,
        window: &Window,
    ) -> Result<Vec<u32>, StoreError> {
        let mut daily = vec![0; window.days()];
        self.window_keys(view, window, |k| {
            if let Some(slot) = window.slot(k) {
                daily[slot] += 1;
            }
        })?;
        Ok(daily)
    }
}

/// The metadata pivots' `None` group: the items the groups leave out (their count and days).
fn add_none(groups: &mut Vec<Group>, total: u64, daily: &[u32]) {
    let mut none = Group::new(None, None, daily.len());
    let grouped: u64 = groups.iter().map(|g| g.count).sum();
    none.count = total.saturating_sub(grouped);
    daily.clone_into(&mut none.daily);
    for group in groups.iter() {
        for (slot, n) in none.daily.iter_mut().zip(&group.daily) {
            *slot = slot.saturating_sub(*n);
        }
    }
    if none.count > 0 {
        groups.push(none);
    }
}

/// Largest first, ties by key, the `None` group after the others of its count.
fn sort_largest_first(groups: &mut [Group]) {
    groups.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.key.is_none().cmp(&b.key.is_none()))
            .then_with(|| a.key.cmp(&b.key))
            .then_with(|| a.label.cmp(&b.label))
    });
}

/// Groups met in any order, merged by identity.
#[derive(Debug)]
struct Groups {
    /// By (key, label), encoded (`Groups::encode`) so a row's text is looked up without
    /// allocating.
    index: HashMap<String, usize>,
    met: Vec<Group>,
    /// The length of their daily series.
    days: usize,
    /// The lookup key being built.
    scratch: String,
}

impl Groups {
    fn new(days: usize) -> Self {
        Self {
            index: HashMap::new(),
            met: Vec::new(),
            days,
            scratch: String::new(),
        }
    }

    fn entry(&mut self, key: Option<&str>, label: Option<&str>) -> &mut Group {
        let at = self.at(key, label);
        &mut self.met[at]
    }

    /// The group's place in `met` (added when new).
    fn at(&mut self, key: Option<&str>, label: Option<&str>) -> usize {
        self.scratch.clear();
        Self::encode(&mut self.scratch, key);
        Self::encode(&mut self.scratch, label);
        if let Some(&at) = self.index.get(self.scratch.as_str()) {
            return at;
        }
        let group = Group::new(key.map(str::to_owned), label.map(str::to_owned), self.days);
        self.met.push(group);
        self.index.insert(self.scratch.clone(), self.met.len() - 1);
        self.met.len() - 1
    }

    /// Appends `part` unambiguously: `-` for none, else `+`, its length, `:` and itself.
    fn encode(out: &mut String, part: Option<&str>) {
        use std::fmt::Write as _;
        match part {
            None => out.push('-'),
            Some(text) => {
                let _ = write!(out, "+{}:{text}", text.len());
            }
        }
    }
}
