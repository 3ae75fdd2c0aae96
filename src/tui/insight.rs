//! Insight (issue 11): the grouped view (`=`), a pivot of the current view shown in place of
//! the list, and the trends panel (`t`) above the list. Plain state, computed off the UI thread
//! (`runtime::insight`) and cached here: a frame only draws what is stored.

use jiff::civil::Date;

use crate::store::pivot::{By, Pivot, Trend};
use crate::tui::state::ViewSpec;

/// The pivot kinds the picker offers before the store's custom keys.
pub const KINDS: [&str; 8] = [
    "app", "platform", "tag", "version", "os", "locale", "day", "week",
];

/// The `=` picker: the kinds, then `meta.KEY` for each custom key the store has; typing
/// narrows them and offers `meta.TYPED` for a key not listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Picker {
    /// The custom metadata keys stored (read off the UI thread when the picker opens).
    pub keys: Vec<String>,
    pub typed: String,
    pub selected: usize,
}

impl Picker {
    /// The choices shown, in order, as `By::parse` reads them.
    #[must_use]
    pub fn choices(&self) -> Vec<String> {
        let typed = self.typed.trim().to_ascii_lowercase();
        let mut all: Vec<String> = KINDS.iter().map(|k| (*k).to_owned()).collect();
        all.extend(self.keys.iter().map(|k| format!("meta.{k}")));
        let mut shown: Vec<String> = all
            .into_iter()
            .filter(|c| typed.is_empty() || c.to_ascii_lowercase().contains(&typed))
            .collect();
        let own = self.typed.trim();
        let own = own.strip_prefix("meta.").unwrap_or(own);
        let offered = format!("meta.{own}");
        if !own.is_empty() && !shown.iter().any(|c| c.eq_ignore_ascii_case(&offered)) {
            shown.push(offered);
        }
        shown
    }
}

/// The grouped view: the pivot of `spec` by `by`, in place of the list while open.
#[derive(Debug, Clone)]
pub struct Grouped {
    pub by: By,
    /// The view the groups are of (the list's, when `=` was chosen).
    pub spec: ViewSpec,
    pub pivot: Option<Pivot>,
    pub selected: usize,
    pub error: Option<String>,
    /// The latest pivot asked for, and whether it runs (answers to older ones are dropped).
    pub request_id: u64,
    pub computing: bool,
}

/// The trends panel's cached trend of the view it was computed for.
#[derive(Debug, Clone, Default)]
pub struct TrendsPanel {
    pub trend: Option<Trend>,
    pub spec: Option<ViewSpec>,
    pub error: Option<String>,
    pub request_id: u64,
    pub computing: bool,
}

/// The insight part of `AppState`.
#[derive(Debug, Clone)]
pub struct InsightState {
    pub picker: Option<Picker>,
    pub grouped: Option<Grouped>,
    /// The last pivot chosen: the trends panel ranks its groups by it.
    pub by: By,
    /// The trends panel, while shown.
    pub trends: Option<TrendsPanel>,
    /// The store or the view changed: the pivot / trend is computed again when the last run
    /// ended and `next_at` is past (throttled: a mirror's thousand changes cost a few runs).
    pub due: bool,
    pub next_at: Option<jiff::Timestamp>,
    /// The background's enrichment (`e`), while details are queued.
    pub enrich: Option<Enrich>,
    /// A background step ended: the queue is counted again (once no count runs).
    pub enrich_due: bool,
    pub counting: bool,
}

/// The enrichment's progress, for the status bar: "details 120/812 · ~4 min".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enrich {
    /// Details queued when it started (or the most seen since).
    pub total: u64,
    /// Details still to fetch.
    pub pending: u64,
}

impl Enrich {
    #[must_use]
    pub fn done(&self) -> u64 {
        self.total.saturating_sub(self.pending)
    }
}

/// The budget share the background keeps (the `[sync] floor_percent` default), for estimates.
pub const FLOOR_PERCENT: u8 = 20;
/// What one detail request takes, for estimates.
pub const PER_REQUEST: std::time::Duration = std::time::Duration::from_millis(250);

/// "~45 s", "~4 min", "~2 h": the estimate's rough size.
#[must_use]
pub fn rough(duration: std::time::Duration) -> String {
    let secs = duration.as_secs();
    if secs < 60 {
        format!("~{} s", secs.max(1))
    } else if secs < 3600 {
        format!("~{} min", secs.div_ceil(60))
    } else {
        format!("~{} h", secs.div_ceil(3600))
    }
}

impl Default for InsightState {
    fn default() -> Self {
        Self {
            picker: None,
            grouped: None,
            by: By::App,
            trends: None,
            due: false,
            next_at: None,
            enrich: None,
            enrich_due: false,
            counting: false,
        }
    }
}

/// Why a group cannot narrow the list.
pub const NO_NARROW: &str = "cannot narrow to the items without a value";

/// What choosing a group does to the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Narrow {
    /// Filter the app pane by this app id.
    App(String),
    /// Filter the tag pane by this tag.
    Tag(String),
    /// Append this qualifier text to the search.
    Search(String),
}

/// How to narrow the list to group `key` of a pivot by `by`.
pub fn narrow(by: &By, key: Option<&str>) -> Result<Narrow, String> {
    let key = key.ok_or_else(|| NO_NARROW.to_owned())?;
    Ok(match by {
        By::App => Narrow::App(key.to_owned()),
        By::Tag => Narrow::Tag(key.to_owned()),
        By::Platform => Narrow::Search(qualifier("platform", key)),
        By::Version => Narrow::Search(qualifier("version", key)),
        By::Os => Narrow::Search(qualifier("os", key)),
        By::Locale => Narrow::Search(qualifier("locale", key)),
        By::Meta(name) => Narrow::Search(qualifier(&format!("meta.{name}"), key)),
        By::Day => {
            let day: Date = key.parse().map_err(|_| format!("bad day {key:?}"))?;
            Narrow::Search(range(day, day.tomorrow().map_err(|e| e.to_string())?))
        }
        By::Week => {
            let first = week_start(key).ok_or_else(|| format!("bad week {key:?}"))?;
            let next = first
                .checked_add(jiff::Span::new().days(7))
                .map_err(|e| e.to_string())?;
            Narrow::Search(range(first, next))
        }
    })
}

/// `name:value`, the value quoted when it has a space, a quote or a parenthesis.
fn qualifier(name: &str, value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || "()\"".contains(c)) {
        // A quote cannot be escaped in the search language: it is dropped from the phrase.
        format!("{name}:\"{}\"", value.replace('"', ""))
    } else {
        format!("{name}:{value}")
    }
}

fn range(from: Date, to: Date) -> String {
    format!("after:{from} before:{to}")
}

/// The Monday of ISO week `2026-W47`.
fn week_start(key: &str) -> Option<Date> {
    let (year, week) = key.split_once("-W")?;
    let week = jiff::civil::ISOWeekDate::new(
        year.parse().ok()?,
        week.parse().ok()?,
        jiff::civil::Weekday::Monday,
    )
    .ok()?;
    Some(week.date())
}

/// `search` with `extra` appended (an empty search becomes `extra`).
#[must_use]
pub fn append_search(search: &str, extra: &str) -> String {
    let search = search.trim();
    if search.is_empty() {
        extra.to_owned()
    } else {
        format!("{search} {extra}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_narrows_to_its_group() {
        let n = |by: &By, key| narrow(by, Some(key)).unwrap();
        assert_eq!(n(&By::App, "a1"), Narrow::App("a1".into()));
        assert_eq!(n(&By::Tag, "bug"), Narrow::Tag("bug".into()));
        assert_eq!(
            n(&By::Platform, "ios"),
            Narrow::Search("platform:ios".into())
        );
        assert_eq!(
            n(&By::Version, "2.3.1"),
            Narrow::Search("version:2.3.1".into())
        );
        assert_eq!(n(&By::Os, "17.2"), Narrow::Search("os:17.2".into()));
        assert_eq!(
            n(&By::Locale, "de-DE"),
            Narrow::Search("locale:de-DE".into())
        );
        assert_eq!(
            n(&By::Meta("plan".into()), "pro plus"),
            Narrow::Search("meta.plan:\"pro plus\"".into())
        );
        assert_eq!(
            n(&By::Day, "2026-11-30"),
            Narrow::Search("after:2026-11-30 before:2026-12-01".into())
        );
        assert_eq!(
            n(&By::Week, "2026-W47"),
            Narrow::Search("after:2026-11-16 before:2026-11-23".into())
        );
        assert_eq!(narrow(&By::Tag, None), Err(NO_NARROW.to_owned()));
        assert!(narrow(&By::Week, Some("junk")).is_err());
    }

    #[test]
    fn estimates_are_rounded_up_to_their_unit() {
        let s = std::time::Duration::from_secs;
        assert_eq!(rough(s(0)), "~1 s");
        assert_eq!(rough(s(45)), "~45 s");
        assert_eq!(rough(s(61)), "~2 min");
        assert_eq!(rough(s(3599)), "~60 min");
        assert_eq!(rough(s(3600)), "~1 h");
        assert_eq!(rough(s(3601)), "~2 h");
        let e = Enrich {
            total: 812,
            pending: 692,
        };
        assert_eq!(e.done(), 120);
    }

    #[test]
    fn the_picker_narrows_by_typing_and_offers_a_typed_key() {
        let mut picker = Picker {
            keys: vec!["plan".into(), "cohort".into()],
            ..Picker::default()
        };
        assert_eq!(picker.choices().len(), 10);
        assert_eq!(picker.choices()[8], "meta.plan");
        picker.typed = "pla".into();
        assert_eq!(picker.choices(), vec!["platform", "meta.plan", "meta.pla"]);
        picker.typed = "plan".into();
        assert_eq!(picker.choices(), vec!["meta.plan"]);
        assert_eq!(append_search("", "os:17"), "os:17");
        assert_eq!(append_search("crash ", "os:17"), "crash os:17");
    }
}
