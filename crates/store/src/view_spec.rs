//! A view of the stored items as the inbox shows it and remembers it: a status (or both), the
//! panes' project, app and tag, and the search text. The inbox keeps the last one shown for the
//! next start (`Store::last_view`), and `inbox --project/--app` writes the one it starts on.

use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use feedback_api::Status;
use feedback_core::query::SearchText;
use feedback_core::text::Clean;

/// An applied filter: the raw value for the query and its label for the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chosen {
    pub value: String,
    pub label: Clean,
}

/// A view's status that spans both: your own states (starred, snoozed, done) stay yours when
/// the service archives the item.
pub const ANY_STATUS: &str = "any";

/// The status a view lists: one of the service's, or both ([`ANY_STATUS`] in a saved view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewStatus {
    Any,
    Only(Status),
}

impl ViewStatus {
    /// The value a saved view writes: the status's wire value, or [`ANY_STATUS`].
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            Self::Any => ANY_STATUS,
            Self::Only(status) => status.as_str(),
        }
    }
}

/// A view of `new` when nothing says otherwise.
impl Default for ViewStatus {
    fn default() -> Self {
        Self::Only(Status::New)
    }
}

/// [`ANY_STATUS`], else the service's status of that value.
impl From<&str> for ViewStatus {
    fn from(value: &str) -> Self {
        if value == ANY_STATUS {
            Self::Any
        } else {
            Self::Only(Status::from(value))
        }
    }
}

impl Serialize for ViewStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ViewStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        Ok(Self::from(value.as_ref()))
    }
}

/// What the store query of the list is: the filters and the search text.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ViewSpec {
    pub status: ViewStatus,
    pub project: Option<Chosen>,
    pub app: Option<Chosen>,
    pub tag: Option<Chosen>,
    #[serde(default)]
    pub search: SearchText,
    /// A fixed set of keys shown instead of the query (`S`'s similar items, a Top
    /// issues cluster), answered in this order without a query. Never saved.
    #[serde(skip)]
    pub pinned: Option<Arc<[i64]>>,
}

impl ViewSpec {
    /// The status the store filters on; `None` for a view of both.
    #[must_use]
    pub fn status_filter(&self) -> Option<&str> {
        match &self.status {
            ViewStatus::Any => None,
            ViewStatus::Only(status) => Some(status.as_str()),
        }
    }

    /// The status the sync walks and whose freshness is shown for this view.
    #[must_use]
    pub fn listed(&self) -> &str {
        self.status_filter().unwrap_or(Status::New.as_str())
    }

    /// [`ViewSpec::listed`], as the service's status.
    #[must_use]
    pub fn listed_status(&self) -> Status {
        match &self.status {
            ViewStatus::Any => Status::New,
            ViewStatus::Only(status) => status.clone(),
        }
    }

    /// The view spans both statuses (the built-in Starred, Snoozed and Done).
    #[must_use]
    pub fn any_status(&self) -> bool {
        self.status == ViewStatus::Any
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_view_status_is_saved_as_the_text_a_view_always_had() {
        for (status, text) in [
            (ViewStatus::Any, "\"any\""),
            (ViewStatus::Only(Status::Archived), "\"archived\""),
            (ViewStatus::Only(Status::Other("spam".into())), "\"spam\""),
        ] {
            assert_eq!(serde_json::to_string(&status).unwrap(), text);
            assert_eq!(serde_json::from_str::<ViewStatus>(text).unwrap(), status);
        }
        let spec = ViewSpec {
            status: ViewStatus::Any,
            ..ViewSpec::default()
        };
        assert_eq!(spec.status_filter(), None);
        assert_eq!(spec.listed(), "new");
        assert_eq!(ViewSpec::default().status_filter(), Some("new"));
    }
}
