//! The inbox's search history: the searches kept with Enter in the `/` prompt, newest first, the
//! last [`SEARCHES_KEPT`] of them (a search kept again moves to the top, once).

use jiff::Timestamp;

use super::{Store, StoreError};

/// How many searches the history keeps.
pub const SEARCHES_KEPT: usize = 100;

/// [`SEARCHES_KEPT`] as SQL takes it.
fn kept() -> i64 {
    i64::try_from(SEARCHES_KEPT).unwrap_or(i64::MAX)
}

impl Store {
    /// The searches kept, newest first.
    pub fn searches(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT text FROM search_history ORDER BY n DESC LIMIT ?1")
            .map_err(|e| self.error(e))?;
        stmt.query_map([kept()], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e))
    }

    /// Keeps `text` as the newest search (blank text is not kept), at `at`; the oldest past
    /// [`SEARCHES_KEPT`] go.
    pub fn remember_search(&mut self, text: &str, at: Timestamp) -> Result<(), StoreError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(());
        }
        self.transact(|tx| {
            tx.execute("DELETE FROM search_history WHERE text = ?1", [text])?;
            tx.execute(
                "INSERT INTO search_history (text, at) VALUES (?1, ?2)",
                rusqlite::params![text, at.as_second()],
            )?;
            tx.execute(
                "DELETE FROM search_history WHERE n NOT IN \
                 (SELECT n FROM search_history ORDER BY n DESC LIMIT ?1)",
                [kept()],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_newest_first_once_each_and_the_last_hundred() {
        let mut store = Store::open_memory().unwrap();
        let at = Timestamp::UNIX_EPOCH;
        for text in ["crash", " refund ", "", "tag:bug", "crash"] {
            store.remember_search(text, at).unwrap();
        }
        assert_eq!(store.searches().unwrap(), ["crash", "tag:bug", "refund"]);
        for n in 0..150 {
            store.remember_search(&format!("q{n}"), at).unwrap();
        }
        let kept = store.searches().unwrap();
        assert_eq!(kept.len(), SEARCHES_KEPT);
        assert_eq!((kept[0].as_str(), kept[99].as_str()), ("q149", "q50"));
    }
}
