//! Acting on items: the marks of multi-select, privacy mode, the theme, the `|`
//! commands and their picker, and the copies and pipes waiting for the items' details. Plain
//! data kept in `AppState::acting`; `update::acting` changes it.

pub mod copies;

use std::collections::{BTreeMap, HashSet};

use crate::action::Action;
use feedback_config::looks::{PipeCommand, ThemeName};
use feedback_store::StoredDetail;

/// The glyph of a marked row (drawn whether or not there is colour).
pub(crate) const MARK_GLYPH: char = '◆';

/// The marked items, by store key (so a mark stays on its item through re-queries and
/// scrolling), with the item's id once known (a `V` range reaches past the rows read; their
/// ids are read from the store).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    pub items: BTreeMap<i64, Option<String>>,
    /// The last item marked: `V` marks from it to the selection.
    pub anchor: Option<i64>,
    /// How many marked items the view on screen holds (a search may hide some: they keep
    /// their marks, and actions skip them), as of its last answer and the marks since.
    pub in_view: usize,
}

impl Marks {
    #[must_use]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    #[must_use]
    pub fn contains(&self, key: i64) -> bool {
        self.items.contains_key(&key)
    }

    /// Marked keys whose ids are not known yet.
    #[must_use]
    pub fn unresolved(&self) -> Vec<i64> {
        self.items
            .iter()
            .filter(|(_, id)| id.is_none())
            .map(|(k, _)| *k)
            .collect()
    }

    /// The ids of the marked items in `keys` (the view), in its order: an action never
    /// reaches an item out of sight. Items whose id is unknown are left out.
    #[must_use]
    pub(crate) fn ids_in(&self, keys: &[i64]) -> Vec<String> {
        let marked = self.sorted_keys();
        let mut found = 0;
        let mut out = Vec::with_capacity(self.items.len());
        for key in keys {
            if marked.binary_search(key).is_ok() {
                found += 1;
                out.extend(self.items.get(key).cloned().flatten());
                if found == marked.len() {
                    break;
                }
            }
        }
        out
    }

    /// The marked keys in a sorted slice: a view's keys are looked up in it without hashing
    /// (a million keys take milliseconds).
    fn sorted_keys(&self) -> Vec<i64> {
        // A BTreeMap's keys come sorted.
        self.items.keys().copied().collect()
    }

    /// Counts the marked items among `keys` (the view just read).
    pub(crate) fn count_in(&mut self, keys: &[i64]) {
        let marked = self.sorted_keys();
        let mut found = 0;
        for key in keys {
            if found == marked.len() {
                break;
            }
            if marked.binary_search(key).is_ok() {
                found += 1;
            }
        }
        self.in_view = found;
    }

    /// Unmarks the items with these ids (done or snoozed: they left the view for good).
    pub(crate) fn drop_ids(&mut self, ids: &HashSet<&str>) {
        let before = self.items.len();
        self.items
            .retain(|_, id| id.as_deref().is_none_or(|id| !ids.contains(id)));
        self.in_view = self.in_view.saturating_sub(before - self.items.len());
        if self.anchor.is_some_and(|a| !self.items.contains_key(&a)) {
            self.anchor = None;
        }
    }
}

/// What `|` may pipe to, and the picker when there are several commands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PipePicker {
    pub selected: usize,
}

/// An action on items waiting for something read first: the marked items' ids (`resolving`),
/// then their details from the store (`request_id`), then those never fetched from the
/// service (`fetching`).
#[derive(Debug, Clone, PartialEq)]
pub struct Gathering {
    pub action: Action,
    /// The `[[commands]]` entry a pipe goes to.
    pub command: Option<usize>,
    pub request_id: u64,
    pub ids: Vec<String>,
    pub details: Vec<GatheredItem>,
    pub fetching: HashSet<String>,
    /// Never-fetched items still to ask for, a few at a time (`fetching` holds those asked).
    pub queue: std::collections::VecDeque<String>,
    /// How many fetches this action makes in all, and how many have answered (the progress).
    pub planned: usize,
    pub answered: usize,
    /// The store is being read again after the fetches: the action runs on its answer.
    pub second: bool,
}

/// The acting part of `AppState`.
#[derive(Debug, Clone, Default)]
pub struct ActingState {
    pub marks: Marks,
    /// Emails and custom metadata values are masked (`P`).
    pub privacy: bool,
    pub theme: ThemeName,
    pub commands: Vec<PipeCommand>,
    pub picker: Option<PipePicker>,
    /// An action waiting for the marked items' ids (a `V` range read from the store).
    pub resolving: Option<(u64, Option<Action>)>,
    pub gathering: Option<Gathering>,
}

/// An item read for a copy or a pipe: its stored detail, the user's triage state and the
/// team's (when the team touched it).
#[derive(Debug, Clone, PartialEq)]
pub struct GatheredItem {
    pub detail: StoredDetail,
    pub triage: feedback_store::Triage,
    pub team: Option<crate::team::TeamShown>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_listed_in_the_views_order_and_counted_in_it() {
        let mut marks = Marks::default();
        for (key, id) in [(5, Some("e")), (2, Some("b")), (9, None), (7, Some("g"))] {
            marks.items.insert(key, id.map(str::to_owned));
        }
        let view = [9, 7, 1, 2, 3];
        assert_eq!(
            marks.ids_in(&view),
            ["g", "b"],
            "5 is out of the view, 9 unknown"
        );
        assert_eq!(marks.unresolved(), [9]);
        marks.count_in(&view);
        assert_eq!(marks.in_view, 3);
        marks.anchor = Some(7);
        marks.drop_ids(&["g"].into_iter().collect());
        assert_eq!((marks.len(), marks.in_view, marks.anchor), (3, 2, None));
    }

    #[test]
    #[ignore = "a timing, run by hand: cargo test --lib marks_over_a_million -- --ignored --nocapture"]
    fn marks_over_a_million_keys() {
        let keys: Vec<i64> = (0..1_000_000).rev().collect();
        let mut marks = Marks::default();
        for key in (0..1_000_000).step_by(100) {
            marks.items.insert(key, Some(key.to_string()));
        }
        let started = std::time::Instant::now();
        marks.count_in(&keys);
        let ids = marks.ids_in(&keys);
        eprintln!(
            "count_in + ids_in, 10,000 marks over 1,000,000 keys: {:?}",
            started.elapsed()
        );
        assert_eq!((marks.in_view, ids.len()), (10_000, 10_000));
    }
}
