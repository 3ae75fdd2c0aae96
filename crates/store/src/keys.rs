//! An item's key is its place in time, newest first: minus `received` in Unix microseconds times
//! [`TIES_PER_MICROSECOND`], minus a tie-breaker. Newest first is then `k ASC` in the table, in
//! every index (they all end in the key) and in the full-text index (whose rowid is the key).
//!
//! Ascending, because a sync walks the lists newest first: a first mirror and every backfill
//! then append to the end of each B-tree, which SQLite packs full (descending inserts left its
//! pages about half full, 30% more bytes per item), and the full-text index's new entries come
//! in the ascending order it flushes without a new segment per item.
//!
//! In terms of a received time `m` (microseconds): items received at `m` hold the keys
//! `(micros_key(m) - TIES_PER_MICROSECOND, micros_key(m)]`, so "received at or after `m`" is
//! `k <= micros_key(m)` and "received before `m`" is `k > micros_key(m)`.

use rusqlite::{Transaction, params};

use super::{Store, StoreError};

/// Items received within one microsecond the key can tell apart.
pub const TIES_PER_MICROSECOND: i64 = 1024;

/// The first key of items received at `at` (the highest of its microsecond). Times the key
/// cannot hold (before 1685 or after 2255, nothing a real service sends) are clamped to its ends.
#[must_use]
pub fn time_key(at: jiff::Timestamp) -> i64 {
    micros_key(at.as_microsecond())
}

/// [`time_key`] of a time in Unix microseconds.
#[must_use]
pub fn micros_key(micros: i64) -> i64 {
    let limit = i64::MAX / TIES_PER_MICROSECOND - 1;
    -(micros.clamp(-limit, limit) * TIES_PER_MICROSECOND)
}

/// A free key for an item received at `at`: the first of its microsecond, or the next one
/// down after the items already stored in that microsecond (ties are kept in the order they
/// were stored, the last stored first). A microsecond that already holds 1,024 items lends the
/// nearest free key of the older side, so the order stays right to the microsecond and no page
/// ever fails on a collision.
pub(super) fn free_key(tx: &Transaction<'_>, at: jiff::Timestamp) -> rusqlite::Result<i64> {
    let base = time_key(at);
    let floor = base - TIES_PER_MICROSECOND;
    let last: Option<i64> = tx
        .prepare_cached("SELECT min(k) FROM items WHERE k > ?1 AND k <= ?2")?
        .query_row(params![floor, base], |row| row.get(0))?;
    match last {
        None => Ok(base),
        Some(last) if last - 1 > floor => Ok(last - 1),
        Some(_) => {
            let mut taken = tx.prepare_cached("SELECT 1 FROM items WHERE k = ?1")?;
            let mut key = base + 1;
            while taken.exists([key])? {
                key += 1;
            }
            Ok(key)
        }
    }
}

/// The SQL condition "received at or after the time whose [`micros_key`] is the parameter `p`".
#[must_use]
pub fn at_or_after(p: &str) -> String {
    format!("items.k <= {p}")
}

/// The SQL condition "received before the time whose [`micros_key`] is the parameter `p`".
#[must_use]
pub fn before(p: &str) -> String {
    format!("items.k > {p}")
}

impl Store {
    /// The keys of `keys` still stored, in their order.
    pub fn keys_still_stored(&self, keys: &[i64]) -> Result<Vec<i64>, StoreError> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT 1 FROM items WHERE k = ?1")
            .map_err(|e| self.error(e))?;
        let mut stored = Vec::with_capacity(keys.len());
        for &key in keys {
            if statement.exists([key]).map_err(|e| self.error(e))? {
                stored.push(key);
            }
        }
        Ok(stored)
    }
}
