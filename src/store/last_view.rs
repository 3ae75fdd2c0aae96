//! The view the inbox showed when it last closed, kept so the next start shows it again
//! (`meta` key `last_view`, the view as JSON; the inbox owns its shape).

use rusqlite::OptionalExtension;

use super::{Store, StoreError};

/// The `meta` key of the view to show at start.
pub const LAST_VIEW: &str = "last_view";

impl Store {
    /// The JSON of the view last saved; `None` when none was, or it cannot be read.
    #[must_use]
    pub fn last_view(&self) -> Option<String> {
        self.conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [LAST_VIEW],
                |row| row.get(0),
            )
            .optional()
            .ok()
            .flatten()
    }

    /// Keeps `json` as the view to show at the next start.
    pub fn save_view(&mut self, json: &str) -> Result<(), StoreError> {
        self.write(|tx| {
            tx.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                [LAST_VIEW, json],
            )
            .map(|_| ())
        })
    }
}
