//! The search language ([`feedback_core::query`]) over the store: a parsed query compiled to one SQL
//! condition ([`compile`]), with app and project names and qualifier values looked up in the
//! store. Words reach FTS5 only as quoted strings, so an FTS5 syntax error cannot happen.

mod compile;
mod resolve;
mod triage;

#[cfg(test)]
mod tests;

pub(crate) use compile::compile;
pub use compile::{Sql, exact_word};
// The parsing that comes before compiling, and the values `--since`/`--until` share with
// `age:`/`after:`/`before:`, for the callers that name them beside `compile`.
pub use feedback_core::query::{Basis, Query, age_cutoff, date, duration, local_instant, parse};

impl super::Store {
    /// The word the query's `app:` takes for each app id alone: its slug, else its name,
    /// when that names no other app; else its id.
    pub(crate) fn app_words(
        &self,
    ) -> Result<std::collections::HashMap<String, String>, super::StoreError> {
        resolve::words(self.conn(), resolve::RefKind::App).map_err(|e| self.error(e))
    }
}

/// What the compiler needs besides the store: "now" for `age:` and for what a view hides, the
/// user's zone for dates, and the views `view:NAME` can name (`store::saved_views`).
#[derive(Debug, Clone)]
pub struct Context {
    pub now: jiff::Timestamp,
    pub tz: jiff::tz::TimeZone,
    pub views: std::sync::Arc<[super::NamedView]>,
}

/// What every search of one process shares, whenever it runs: the user's zone and the views
/// `view:NAME` names. [`Reading::at`] makes the context of one read.
#[derive(Debug, Clone)]
pub struct Reading {
    pub tz: jiff::tz::TimeZone,
    pub views: std::sync::Arc<[super::NamedView]>,
}

impl Reading {
    /// The context of a read at `now`.
    #[must_use]
    pub fn at(&self, now: jiff::Timestamp) -> Context {
        Context {
            now,
            tz: self.tz.clone(),
            views: std::sync::Arc::clone(&self.views),
        }
    }
}
