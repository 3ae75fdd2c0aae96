//! The Top issues screen's state: the current view's clusters of near-duplicates
//! (`Store::top_issues`), computed off the UI thread with its progress shown, then listed
//! largest first (`view::top_issues` draws them). Plain data and pure transitions; answers
//! carry the request id they answer and a stale one is dropped.

use crate::store::similar::TopIssues;

/// The screen: computing (with progress), failed, or listing clusters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TopIssuesScreen {
    pub request_id: u64,
    /// Percent done while computing.
    pub progress: u8,
    pub result: Option<TopIssues>,
    pub error: Option<crate::text::Clean>,
    pub selected: usize,
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
    pub fn on_loaded(&mut self, request_id: u64, result: Result<TopIssues, String>) -> bool {
        if request_id != self.request_id {
            return false;
        }
        self.selected = 0;
        match result {
            Ok(top) => {
                self.progress = 100;
                self.result = Some(top);
                self.error = None;
            }
            Err(error) => self.error = Some(crate::text::Clean::line(&error)),
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
