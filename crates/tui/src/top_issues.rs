//! The Top issues screen's state: the current view's clusters of near-duplicates
//! (`Store::top_issues`), computed off the UI thread with its progress shown, then listed
//! largest first (`render::top_issues` draws them). Plain data and pure transitions; answers
//! carry the request id they answer and a stale one is dropped.

use jiff::Timestamp;

use crate::failure::Failure;
use feedback_core::text::Clean;
use feedback_store::similar::{Cluster, TopIssues};

/// The screen: computing (with progress), failed, or listing clusters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TopIssuesScreen {
    pub request_id: u64,
    /// Percent done while computing.
    pub progress: u8,
    pub result: Option<Issues>,
    pub error: Option<feedback_core::text::Clean>,
    pub selected: usize,
}

/// The clusters as the screen shows them: their text sanitized as they arrive.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Issues {
    /// Largest first (see [`TopIssues::clusters`]).
    pub clusters: Vec<Issue>,
    pub total_clusters: usize,
    pub items: usize,
}

/// One cluster as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    /// The leader's message as one line (the screen's label).
    pub label: Clean,
    /// Its first line (the list's heading once the cluster is entered).
    pub quote: Clean,
    /// The items, newest first.
    pub keys: Vec<i64>,
    /// The apps' names ("no app" for the items without one) with counts, most first.
    pub apps: Vec<(Clean, usize)>,
    pub first_seen: Option<Timestamp>,
    pub last_seen: Option<Timestamp>,
    /// Items per local day of the window, oldest first.
    pub series: Vec<u32>,
}

impl From<TopIssues> for Issues {
    fn from(top: TopIssues) -> Self {
        Self {
            clusters: top.clusters.into_iter().map(Issue::from).collect(),
            total_clusters: top.total_clusters,
            items: top.items,
        }
    }
}

impl From<Cluster> for Issue {
    fn from(cluster: Cluster) -> Self {
        Self {
            label: Clean::line(&cluster.label),
            quote: crate::similar::quote(&cluster.label),
            keys: cluster.keys,
            apps: crate::similar::app_names(cluster.apps),
            first_seen: cluster.first_seen,
            last_seen: cluster.last_seen,
            series: cluster.series,
        }
    }
}

impl TopIssuesScreen {
    /// A screen waiting for the answer to request `request_id`.
    #[must_use]
    pub fn computing(request_id: u64) -> Self {
        Self {
            request_id,
            ..Self::default()
        }
    }

    /// Progress of request `request_id`; false (nothing changed) for a stale one or a step back.
    pub fn on_progress(&mut self, request_id: u64, percent: u8) -> bool {
        if request_id != self.request_id || self.result.is_some() || percent <= self.progress {
            return false;
        }
        self.progress = percent.min(100);
        true
    }

    /// The answer to request `request_id`; false for a stale one.
    pub fn on_loaded(&mut self, request_id: u64, result: Result<TopIssues, Failure>) -> bool {
        if request_id != self.request_id {
            return false;
        }
        self.selected = 0;
        match result {
            Ok(top) => {
                self.progress = 100;
                self.result = Some(Issues::from(top));
                self.error = None;
            }
            Err(error) => self.error = Some(Clean::line(&error.to_string())),
        }
        true
    }

    /// Moves the selection by `delta` clusters, within the list.
    pub fn move_by(&mut self, delta: isize) {
        let len = self.result.as_ref().map_or(0, |t| t.clusters.len());
        if len == 0 {
            return;
        }
        self.selected = self.selected.saturating_add_signed(delta).min(len - 1);
    }

    /// The selected cluster's item keys, newest first (for narrowing the list to them).
    #[must_use]
    pub fn selected_keys(&self) -> Option<&[i64]> {
        self.result
            .as_ref()
            .and_then(|t| t.clusters.get(self.selected))
            .map(|c| c.keys.as_slice())
    }
}
