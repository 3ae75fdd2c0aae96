//! An item's key is its place in time: `received` in Unix microseconds times
//! [`TIES_PER_MICROSECOND`], plus a tie-breaker. Newest first is then `k DESC` in the table, in
//! every index (they all end in the key) and in the full-text index (whose rowid is the key).

use rusqlite::{Transaction, params};

/// Items received within one microsecond the key can tell apart.
pub const TIES_PER_MICROSECOND: i64 = 1024;

/// The first key of items received at `at`: Unix microseconds times [`TIES_PER_MICROSECOND`],
/// so keys order items as their received times do. Times the key cannot hold (before 1685 or
/// after 2255, nothing a real service sends) are clamped to its ends.
#[must_use]
pub fn time_key(at: jiff::Timestamp) -> i64 {
    micros_key(at.as_microsecond())
}

/// [`time_key`] of a time in Unix microseconds.
#[must_use]
pub fn micros_key(micros: i64) -> i64 {
    let limit = i64::MAX / TIES_PER_MICROSECOND - 1;
    micros.clamp(-limit, limit) * TIES_PER_MICROSECOND
}

/// A free key for an item received at `at`: the first of its microsecond, or one after the
/// items already stored in that microsecond (ties are kept in the order they were stored). A
/// microsecond that already holds 1,024 items lends the nearest free key below it, so the order
/// stays right to the microsecond and no page ever fails on a collision.
pub(super) fn free_key(tx: &Transaction<'_>, at: jiff::Timestamp) -> rusqlite::Result<i64> {
    let base = time_key(at);
    let last: Option<i64> = tx
        .prepare_cached("SELECT max(k) FROM items WHERE k >= ?1 AND k < ?2")?
        .query_row(params![base, base + TIES_PER_MICROSECOND], |row| row.get(0))?;
    match last {
        None => Ok(base),
        Some(last) if last + 1 < base + TIES_PER_MICROSECOND => Ok(last + 1),
        Some(_) => {
            let mut taken = tx.prepare_cached("SELECT 1 FROM items WHERE k = ?1")?;
            let mut key = base - 1;
            while taken.exists([key])? {
                key -= 1;
            }
            Ok(key)
        }
    }
}
