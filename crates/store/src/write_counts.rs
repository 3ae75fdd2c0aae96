//! The store's write counts (`meta`): each moves when a write of its kind commits, in any
//! process. A window compares them with what it last read to learn, for the price of one small
//! read, that another process (a window, `sync` from cron, `webhook listen`) stored items or
//! triaged, and reads its view again only then.

use rusqlite::{Transaction, params};

use super::{Store, StoreError};

/// The meta key counting triage writes.
pub const TRIAGE_REV: &str = "triage_rev";
/// The meta key counting writes that added, changed or removed items.
pub const ITEMS_REV: &str = "items_rev";

/// The write counts as of one read (0: no such write yet).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Revs {
    pub items: i64,
    pub triage: i64,
}

/// Counts one more write of `key`'s kind, inside the write's own transaction.
pub(super) fn bump(tx: &Transaction<'_>, key: &str) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO meta (key, value) VALUES (?1, '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
    )?
    .execute([key])?;
    Ok(())
}

impl Store {
    /// Both write counts, in one read.
    pub fn revs(&self) -> Result<Revs, StoreError> {
        let mut revs = Revs::default();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT key, CAST(value AS INTEGER) FROM meta WHERE key IN (?1, ?2)")
            .map_err(|e| self.error(e))?;
        let rows = stmt
            .query_map(params![ITEMS_REV, TRIAGE_REV], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(|e| self.error(e))?;
        for (key, value) in rows {
            match key.as_str() {
                ITEMS_REV => revs.items = value,
                _ => revs.triage = value,
            }
        }
        Ok(revs)
    }

    /// How many triage writes the store has seen (0: none): a change means "read again".
    pub fn triage_rev(&self) -> Result<i64, StoreError> {
        self.revs().map(|revs| revs.triage)
    }
}
