//! `first_run = "from-now"`: a new store's items received before its first sync start as seen.
//! The cutoff is fixed once, while the store holds no item (`meta` key `seen_before`,
//! microseconds), and every later write gives the items it adds that were received before it
//! a seen state (an item triaged already keeps its own), in the write's transaction: a
//! backfill that brings the history in over hours marks it as it comes.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, params};

use super::{Store, StoreError};

/// The `meta` key of the cutoff.
pub const SEEN_BEFORE: &str = "seen_before";

impl Store {
    /// Fixes the cutoff at `at` when the store holds no item and has none yet; true when it
    /// did. A store with items, or a cutoff, is left as it is.
    pub fn start_from_now(&mut self, at: Timestamp) -> Result<bool, StoreError> {
        self.transact(|tx| {
            let empty: bool = tx.query_row(
                "SELECT NOT EXISTS (SELECT 1 FROM items) \
                 AND NOT EXISTS (SELECT 1 FROM meta WHERE key = ?1)",
                [SEEN_BEFORE],
                |row| row.get(0),
            )?;
            if empty {
                tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params![SEEN_BEFORE, at.as_microsecond().to_string()],
                )?;
            }
            Ok(empty)
        })
    }

    /// The cutoff, when the store started from one.
    pub fn seen_before(&self) -> Result<Option<Timestamp>, StoreError> {
        cutoff(&self.conn)
            .map(|micros| micros.and_then(|m| Timestamp::from_microsecond(m).ok()))
            .map_err(|e| self.error(e))
    }
}

fn cutoff(conn: &rusqlite::Connection) -> rusqlite::Result<Option<i64>> {
    let value: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
        .query_row([SEEN_BEFORE], |row| row.get(0))
        .optional()?;
    Ok(value.and_then(|v| v.parse().ok()))
}

/// The items with keys `added` (just stored) received before the cutoff, when there is one,
/// start as seen (at `at`).
pub(super) fn mark_added(
    tx: &Transaction<'_>,
    added: &[i64],
    at: Timestamp,
) -> rusqlite::Result<()> {
    if added.is_empty() {
        return Ok(());
    }
    let Some(before) = cutoff(tx)? else {
        return Ok(());
    };
    // A list of integers always serializes.
    let keys = serde_json::to_string(added).unwrap_or_else(|_| "[]".to_owned());
    tx.prepare_cached(
        "INSERT OR IGNORE INTO triage (id, seen, changed, k)
         SELECT id, 1, ?3, k FROM items
         WHERE k IN (SELECT value FROM json_each(?1)) AND received < ?2",
    )?
    .execute(params![keys, before, at.as_microsecond()])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::TriageChange;
    use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};

    fn item(n: u32, at: &str) -> Feedback {
        Feedback {
            id: FeedbackId(format!("fb_{n}")),
            message: format!("message {n}"),
            reporter_email: None,
            status: Status::New,
            received_at: at.parse().unwrap(),
            tags: Vec::new(),
            app: None,
            project: ProjectRef {
                id: "prj_1".into(),
                name: "Acme".into(),
            },
        }
    }

    fn seen(store: &Store, n: u32) -> bool {
        store.triage(&format!("fb_{n}")).unwrap().seen
    }

    #[test]
    fn items_received_before_the_first_sync_start_seen_and_later_ones_unseen() {
        let mut store = Store::open_memory().unwrap();
        let start: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        assert!(store.start_from_now(start).unwrap());
        assert!(!store.start_from_now(start).unwrap(), "fixed once");
        assert_eq!(store.seen_before().unwrap(), Some(start));
        // Triaged before it was stored: its own state stays.
        store
            .set_triage(&["fb_2".to_owned()], &TriageChange::Starred(true), start)
            .unwrap();
        let page = [
            item(1, "2026-11-20T12:05:00Z"),
            item(2, "2026-11-19T08:00:00Z"),
            item(3, "2026-11-01T08:00:00Z"),
        ];
        store.put_items(&page, start).unwrap();
        assert!(!seen(&store, 1), "arrived after the first sync began");
        assert!(!seen(&store, 2) && store.triage("fb_2").unwrap().starred);
        assert!(seen(&store, 3));
        // A backfill's older page, hours later: marked as it comes.
        store
            .put_items(&[item(4, "2025-06-01T08:00:00Z")], start)
            .unwrap();
        assert!(seen(&store, 4));
    }

    #[test]
    fn a_store_with_items_does_not_start_from_now() {
        let mut store = Store::open_memory().unwrap();
        let start: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        store
            .put_items(&[item(1, "2026-11-01T08:00:00Z")], start)
            .unwrap();
        assert!(!store.start_from_now(start).unwrap());
        store
            .put_items(&[item(2, "2026-11-02T08:00:00Z")], start)
            .unwrap();
        assert!(!seen(&store, 2));
    }
}
