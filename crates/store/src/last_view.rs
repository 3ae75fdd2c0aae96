//! The view the inbox showed when it last closed, kept so the next start shows it again
//! (`meta` key `last_view`, the view as JSON).

use rusqlite::OptionalExtension;

use super::{Store, StoreError, ViewSpec};

/// The `meta` key of the view to show at start.
pub const LAST_VIEW: &str = "last_view";

impl Store {
    /// The view last saved, if there is one that still reads.
    #[must_use]
    pub fn last_view(&self) -> Option<ViewSpec> {
        let json: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [LAST_VIEW],
                |row| row.get(0),
            )
            .optional()
            .ok()
            .flatten();
        json.and_then(|j| serde_json::from_str(&j).ok())
    }

    /// Keeps `spec` as the view to show at the next start.
    pub fn save_view(&mut self, spec: &ViewSpec) -> Result<(), StoreError> {
        let json = serde_json::to_string(spec).unwrap_or_default();
        self.transact(|tx| {
            tx.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                [LAST_VIEW, json.as_str()],
            )
            .map(|_| ())
        })
    }
}
