//! A view of the stored items as the inbox shows it and remembers it: a status (or both), the
//! panes' project, app and tag, and the search text. The inbox keeps the last one shown for the
//! next start (`Store::last_view`), and `inbox --project/--app` writes the one it starts on.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::api::Status;

/// An applied filter: the raw value for the query and its label for the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chosen {
    pub value: String,
    pub label: String,
}

/// A view's status that spans both: your own states (starred, snoozed, done) stay yours when
/// the service archives the item.
pub const ANY_STATUS: &str = "any";

/// What the store query of the list is: the filters and the search text.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ViewSpec {
    pub status: String,
    pub project: Option<Chosen>,
    pub app: Option<Chosen>,
    pub tag: Option<Chosen>,
    #[serde(default)]
    pub search: String,
    /// simtui: a fixed set of keys shown instead of the query (`S`'s similar items, a Top
    /// issues cluster), answered in this order without a query. Never saved.
    #[serde(skip)]
    pub pinned: Option<Arc<[i64]>>,
}

impl ViewSpec {
    /// The status the store filters on; `None` for a view of both.
    #[must_use]
    pub fn status_filter(&self) -> Option<&str> {
        (self.status != ANY_STATUS).then_some(self.status.as_str())
    }

    /// The status the sync walks and whose freshness is shown for this view.
    #[must_use]
    pub fn listed(&self) -> &str {
        self.status_filter().unwrap_or(Status::New.as_str())
    }
}
