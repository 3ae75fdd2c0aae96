//! Insight: the grouped view (`=`), a pivot of the current view shown in place of
//! the list, and the trends panel (`t`) above the list. Plain state, computed off the UI thread
//! (`runtime::insight`) and cached here: a frame only draws what is stored.

mod narrow;

pub use narrow::{NO_NARROW, Narrow, append_search, mask_search, narrow};

use crate::state::ViewSpec;
use feedback_store::pivot::{By, Pivot, Trend};

/// The pivot kinds the picker offers before the store's custom keys.
pub use feedback_store::pivot::KINDS;

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
    pub error: Option<feedback_core::text::Clean>,
    /// The latest pivot asked for, and whether it runs (answers to older ones are dropped).
    pub request_id: u64,
    pub computing: bool,
}

/// The trends panel's cached trend of the view it was computed for.
#[derive(Debug, Clone, Default)]
pub struct TrendsPanel {
    pub trend: Option<Trend>,
    pub spec: Option<ViewSpec>,
    /// The pivot the trend ranks its groups by, as asked for (labels and masking follow it,
    /// not a pivot chosen since).
    pub by: Option<By>,
    pub error: Option<feedback_core::text::Clean>,
    pub request_id: u64,
    pub computing: bool,
}

/// The insight part of `AppState`.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent flags: work due, a count running, a setting"
)]
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
    /// `Enter` on a group: the view and the groups before it, for `Esc` (one level).
    pub back: Option<Back>,
    /// The sync's `[sync] floor_percent` and `background` (enrichment runs in the background).
    pub floor_percent: u8,
    pub background_allowed: bool,
    /// `e` over a big view asked for a confirmation: a second `e` before then queues.
    pub confirm_until: Option<jiff::Timestamp>,
}

impl InsightState {
    /// Takes the sync's settings: enrichment runs as background work, above its floor.
    pub fn follow(&mut self, sync: &feedback_sync::SyncSettings) {
        self.floor_percent = sync.floor_percent;
        self.background_allowed = sync.background;
    }
}

/// Where `Esc` goes back to after `Enter` narrowed the list to a group.
#[derive(Debug, Clone)]
pub struct Back {
    /// The list's view before, restored.
    pub before: ViewSpec,
    /// The view `Enter` made: once the list shows another, `Esc` no longer goes back.
    pub narrowed: ViewSpec,
    /// The groups as they were (pivot and selection), shown again at once.
    pub grouped: Grouped,
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

/// The budget share the background keeps (the `[sync] floor_percent` default), for estimates
/// until the sync's own setting is known.
pub const FLOOR_PERCENT: u8 = 20;
/// Above this many items `e` asks for a second `e` (one write queues them all, and the fetch
/// can take hours).
pub(crate) const CONFIRM_ABOVE: usize = 10_000;
/// What one detail request takes, for estimates.
pub(crate) const PER_REQUEST: std::time::Duration = std::time::Duration::from_millis(250);

/// How long `pending` details take in the background: the budget above the sync's floor, at
/// `PER_REQUEST` each. While the listed status is not mirrored to its end a backfill runs, and
/// the background gives it every other turn (`Syncer::background_step`): twice as long.
#[must_use]
pub(crate) fn enrich_eta(
    state: &crate::state::AppState,
    pending: u64,
) -> Option<std::time::Duration> {
    let turns = if state.sync.complete { 1 } else { 2 };
    feedback_sync::enrich_estimate(
        pending.saturating_mul(turns),
        state.rate,
        state.insight.floor_percent,
        state.now,
        PER_REQUEST,
    )
}

/// "~45 s", "~4 min", "~2 h": the estimate's rough size.
#[must_use]
pub(crate) fn rough(duration: std::time::Duration) -> String {
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
            back: None,
            floor_percent: FLOOR_PERCENT,
            background_allowed: true,
            confirm_until: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn the_estimate_uses_the_sync_floor_and_halves_the_pace_during_a_backfill() {
        let now = crate::testkit::now();
        let mut state = crate::state::AppState::new(now, 120, 30);
        state.rate = feedback_api::RateLimit {
            limit: Some(60),
            remaining: Some(40),
            reset: Some(now + jiff::SignedDuration::from_secs(30)),
        };
        let at = |pending, floor| {
            feedback_sync::enrich_estimate(pending, state.rate, floor, now, PER_REQUEST)
        };
        state.sync.complete = true;
        assert_eq!(enrich_eta(&state, 100), at(100, FLOOR_PERCENT));
        state.insight.follow(&feedback_sync::SyncSettings {
            floor_percent: 50,
            ..feedback_sync::SyncSettings::default()
        });
        assert_eq!(enrich_eta(&state, 100), at(100, 50));
        assert_ne!(at(100, 50), at(100, FLOOR_PERCENT));
        // A backfill takes every other background turn.
        state.sync.complete = false;
        assert_eq!(enrich_eta(&state, 100), at(200, 50));
        assert!(enrich_eta(&state, 100) > at(100, 50));
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
    }
}
