//! The walk state in the store (schema 2): per status, the head key, the deep end's completion
//! and the reconcile walk's position; the gaps head walks left; the items to re-read. Writers
//! take the caller's transaction, so the state moves with the items it describes.

use jiff::Timestamp;
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::{Store, StoreError, Tx, TxResult};
use feedback_api::{Cursor, Feedback, Status};

/// A place in a list: the list's order is `(received, id)` descending.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// `received_at` in Unix microseconds, as `items.received`.
    pub received: i64,
    pub id: String,
}

impl Key {
    #[must_use]
    pub fn of(item: &Feedback) -> Self {
        Self {
            received: item.received_at.as_microsecond(),
            id: item.id.as_str().to_owned(),
        }
    }

    /// The `received_at` this key stands for.
    #[must_use]
    pub fn timestamp(&self) -> Option<Timestamp> {
        Timestamp::from_microsecond(self.received).ok()
    }

    fn from_columns(received: Option<i64>, id: Option<String>) -> Option<Self> {
        Some(Self {
            received: received?,
            id: id?,
        })
    }
}

/// A stretch of a list not yet mirrored, below `last` and above `until`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub g: i64,
    /// The next page; `None`: start again from the head (after `invalid_cursor`).
    pub cursor: Option<Cursor>,
    /// The position `cursor` continues after: every item of its page lies below it.
    pub cursor_key: Option<Key>,
    /// The last (oldest) item the walk stored.
    pub last: Key,
    /// The stored item the gap ends at; `None`: the deep end of the list.
    pub until: Option<Key>,
}

/// How far a status is mirrored and how fresh it is (`store info`, the inbox's "as of").
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusState {
    /// When the last head walk read the top of the list.
    pub synced_at: Option<Timestamp>,
    /// The deep end was reached (and no gap is open): every item is stored.
    pub complete: bool,
    /// Items stored with this status.
    pub stored: u64,
    /// When the last complete reconcile walk started (statuses are right as of then).
    pub reconciled_at: Option<Timestamp>,
    /// A reconcile walk is under way (it resumes from its stored cursor).
    pub reconciling: bool,
    /// Gaps still to fetch (the deep end counts as one).
    pub pending_walks: usize,
    /// When the newest item mirrored from the top was received.
    pub head_at: Option<Timestamp>,
    /// How far back the walk towards the deep end has come (the last item it stored); `None`
    /// when it is done or has not started. With `head_at`, a measure of a first mirror's
    /// progress.
    pub deep_at: Option<Timestamp>,
}

/// The per-status row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatusRow {
    pub head: Option<Key>,
    pub synced_at: Option<i64>,
    pub complete: bool,
    pub reconcile_cursor: Option<Cursor>,
    pub reconcile_key: Option<Key>,
    pub reconcile_started: Option<i64>,
    pub reconciled_at: Option<i64>,
}

/// How far `status` is mirrored, read from `store`.
pub fn status_state(store: &Store, status: &Status) -> Result<StatusState, StoreError> {
    status_state_with(store, status, true)
}

/// [`status_state`]; without `count`, `stored` stays 0 and no `count(*)` runs (a read of two
/// small tables, cheap at any store size).
pub fn status_state_with(
    store: &Store,
    status: &Status,
    count: bool,
) -> Result<StatusState, StoreError> {
    let conn = store.conn();
    let read = || -> rusqlite::Result<StatusState> {
        let row = status_row_in(conn, status.as_str())?;
        let gaps = gaps(conn, status.as_str())?;
        let stored: i64 = if count {
            conn.prepare_cached("SELECT count(*) FROM items WHERE status = ?1")?
                .query_row([status.as_str()], |r| r.get(0))?
        } else {
            0
        };
        Ok(StatusState {
            synced_at: row.synced_at.and_then(|s| Timestamp::from_second(s).ok()),
            complete: row.complete && gaps.is_empty(),
            stored: stored.unsigned_abs(),
            reconciled_at: row
                .reconciled_at
                .and_then(|s| Timestamp::from_second(s).ok()),
            pending_walks: gaps.len(),
            reconciling: row.reconcile_started.is_some(),
            head_at: row.head.as_ref().and_then(Key::timestamp),
            deep_at: gaps
                .iter()
                .find(|g| g.until.is_none())
                .and_then(|g| g.last.timestamp()),
        })
    };
    read().map_err(|e| store.error(e))
}

/// What the store holds of both statuses' history: every item received at or after the later
/// of the two statuses' edges. A status mirrored to its end holds everything; one being
/// mirrored holds what lies above its newest gap (a first mirror's walk towards the deep end
/// is one); one never walked holds nothing yet. Both count, because an item moves between
/// them: a view of either is whole only where both are.
pub fn held(store: &Store) -> Result<crate::pivot::Held, StoreError> {
    let mut since: Option<Timestamp> = None;
    for status in [Status::New, Status::Archived] {
        let edge = held_since(store, status.as_str()).map_err(|e| store.error(e))?;
        since = match (since, edge) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    Ok(crate::pivot::Held { since })
}

/// The time from which `status` is wholly stored (`None`: all of it).
fn held_since(store: &Store, status: &str) -> rusqlite::Result<Option<Timestamp>> {
    let conn = store.conn();
    let row = status_row_in(conn, status)?;
    let gaps = gaps(conn, status)?;
    if row.complete && gaps.is_empty() {
        return Ok(None);
    }
    // Below a gap's `last` items are missing; above the newest such edge every one is stored.
    // A gap that starts above every position (a page with no readable item) holds nothing.
    let edge = gaps
        .iter()
        .map(|g| g.last.timestamp().unwrap_or(Timestamp::MAX))
        .max()
        .or_else(|| row.head.as_ref().and_then(Key::timestamp));
    Ok(Some(edge.unwrap_or(Timestamp::MAX)))
}

/// The per-status row of `status`, inside a write's transaction.
pub fn status_row(tx: &Tx<'_>, status: &str) -> TxResult<StatusRow> {
    Ok(status_row_in(tx.raw(), status)?)
}

fn status_row_in(conn: &Connection, status: &str) -> rusqlite::Result<StatusRow> {
    conn.prepare_cached(
        "SELECT head_received, head_id, synced_at, complete, reconcile_cursor, reconcile_received,
                reconcile_id, reconcile_started, reconciled_at FROM sync_status WHERE status = ?1",
    )?
    .query_row([status], |r| {
        Ok(StatusRow {
            head: Key::from_columns(r.get(0)?, r.get(1)?),
            synced_at: r.get(2)?,
            complete: r.get::<_, i64>(3)? != 0,
            reconcile_cursor: r.get::<_, Option<String>>(4)?.map(Cursor),
            reconcile_key: Key::from_columns(r.get(5)?, r.get(6)?),
            reconcile_started: r.get(7)?,
            reconciled_at: r.get(8)?,
        })
    })
    .optional()
    .map(Option::unwrap_or_default)
}

fn ensure_row(tx: &Transaction<'_>, status: &str) -> rusqlite::Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO sync_status (status) VALUES (?1)")?
        .execute([status])?;
    Ok(())
}

/// Records the head a walk just read (at `at`, Unix seconds).
pub fn set_head(tx: &Tx<'_>, status: &str, head: &Key, at: i64) -> TxResult<()> {
    let tx = tx.raw();
    ensure_row(tx, status)?;
    tx.prepare_cached(
        "UPDATE sync_status SET head_received = ?2, head_id = ?3, synced_at = ?4 WHERE status = ?1",
    )?
    .execute(params![status, head.received, head.id, at])?;
    Ok(())
}

/// Records that the top of `status` was read at `at` (Unix seconds) without moving its head.
pub fn set_synced(tx: &Tx<'_>, status: &str, at: i64) -> TxResult<()> {
    let tx = tx.raw();
    ensure_row(tx, status)?;
    tx.prepare_cached("UPDATE sync_status SET synced_at = ?2 WHERE status = ?1")?
        .execute(params![status, at])?;
    Ok(())
}

/// Marks the deep end of `status` as reached.
pub fn set_complete(tx: &Tx<'_>, status: &str) -> TxResult<()> {
    let tx = tx.raw();
    ensure_row(tx, status)?;
    tx.prepare_cached("UPDATE sync_status SET complete = 1 WHERE status = ?1")?
        .execute([status])?;
    Ok(())
}

/// Open gaps of `status`: bounded ones newest first, then the deep end.
pub(crate) fn gaps(conn: &Connection, status: &str) -> rusqlite::Result<Vec<Gap>> {
    let mut stmt = conn.prepare_cached(
        "SELECT g, cursor, cursor_received, cursor_id, last_received, last_id, until_received,
                until_id FROM sync_gaps WHERE status = ?1
         ORDER BY until_received IS NULL, last_received DESC, last_id DESC",
    )?;
    stmt.query_map([status], |r| {
        Ok(Gap {
            g: r.get(0)?,
            cursor: r.get::<_, Option<String>>(1)?.map(Cursor),
            cursor_key: Key::from_columns(r.get(2)?, r.get(3)?),
            last: Key {
                received: r.get(4)?,
                id: r.get(5)?,
            },
            until: Key::from_columns(r.get(6)?, r.get(7)?),
        })
    })?
    .collect()
}

/// Opens a gap; returns its key.
pub fn insert_gap(tx: &Tx<'_>, status: &str, gap: &Gap) -> TxResult<i64> {
    let tx = tx.raw();
    tx.prepare_cached(
        "INSERT INTO sync_gaps (status, cursor, cursor_received, cursor_id, last_received, last_id,
                                until_received, until_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        status,
        gap.cursor.as_ref().map(Cursor::as_str),
        gap.cursor_key.as_ref().map(|k| k.received),
        gap.cursor_key.as_ref().map(|k| k.id.as_str()),
        gap.last.received,
        gap.last.id,
        gap.until.as_ref().map(|k| k.received),
        gap.until.as_ref().map(|k| k.id.as_str()),
    ])?;
    Ok(tx.last_insert_rowid())
}

/// Moves a gap's cursor and last stored item.
pub fn update_gap(tx: &Tx<'_>, gap: &Gap) -> TxResult<()> {
    let tx = tx.raw();
    tx.prepare_cached(
        "UPDATE sync_gaps SET cursor = ?2, cursor_received = ?3, cursor_id = ?4,
                              last_received = ?5, last_id = ?6 WHERE g = ?1",
    )?
    .execute(params![
        gap.g,
        gap.cursor.as_ref().map(Cursor::as_str),
        gap.cursor_key.as_ref().map(|k| k.received),
        gap.cursor_key.as_ref().map(|k| k.id.as_str()),
        gap.last.received,
        gap.last.id,
    ])?;
    Ok(())
}

pub fn delete_gap(tx: &Tx<'_>, g: i64) -> TxResult<()> {
    let tx = tx.raw();
    tx.prepare_cached("DELETE FROM sync_gaps WHERE g = ?1")?
        .execute([g])?;
    Ok(())
}

/// Moves the reconcile walk of `status`: its next cursor and the key it continues after
/// (`None` and `None`: start from the top), and when the running walk started.
pub fn set_reconcile(
    tx: &Tx<'_>,
    status: &str,
    cursor: Option<&Cursor>,
    key: Option<&Key>,
    started: Option<i64>,
) -> TxResult<()> {
    let tx = tx.raw();
    ensure_row(tx, status)?;
    tx.prepare_cached(
        "UPDATE sync_status SET reconcile_cursor = ?2, reconcile_received = ?3, reconcile_id = ?4,
                                reconcile_started = ?5 WHERE status = ?1",
    )?
    .execute(params![
        status,
        cursor.map(Cursor::as_str),
        key.map(|k| k.received),
        key.map(|k| k.id.as_str()),
        started,
    ])?;
    Ok(())
}

/// Ends the reconcile walk of `status`: statuses are right as of `started`.
pub fn finish_reconcile(tx: &Tx<'_>, status: &str, started: i64) -> TxResult<()> {
    set_reconcile(tx, status, None, None, None)?;
    tx.raw()
        .prepare_cached("UPDATE sync_status SET reconciled_at = ?2 WHERE status = ?1")?
        .execute(params![status, started])?;
    Ok(())
}

/// [`queue_missing`]'s statement (its plan is tested: a rowid range, not a status scan).
const QUEUE_MISSING: &str = "INSERT OR IGNORE INTO sync_recheck (id, found)
     SELECT id, ?5 FROM items WHERE status = ?1 AND k <= ?7 AND k > ?8 AND seen <= ?5
       AND (received > ?2 OR (received = ?2 AND id >= ?3))
       AND (?4 IS NULL OR received < ?4 OR (received = ?4 AND id < ?6))";

/// Queues for a re-read the items stored with `status` in the key range `[low, high)` (an
/// open end is `None`) last seen at or before `before` (Unix seconds); returns how many were
/// queued.
pub fn queue_missing(
    tx: &Tx<'_>,
    status: &str,
    low: Option<&Key>,
    high: Option<&Key>,
    before: i64,
) -> TxResult<usize> {
    let tx = tx.raw();
    let (low_r, low_id) = low.map_or((i64::MIN, ""), |k| (k.received, k.id.as_str()));
    let (high_r, high_id) = high.map_or((None, None), |k| (Some(k.received), Some(k.id.as_str())));
    // `items.k` orders as `received` does, newest first (see `crate::micros_key`): the same
    // range on the rowid keeps the scan to the page's stretch instead of every stored `new` item.
    let low_k = crate::micros_key(low_r);
    let high_k = high_r.map_or(i64::MIN, |r| crate::micros_key(r.saturating_add(1)));
    Ok(tx.prepare_cached(QUEUE_MISSING)?.execute(params![
        status, low_r, low_id, high_r, before, high_id, low_k, high_k
    ])?)
}

/// The ids waiting for a re-read, oldest queued first.
pub(crate) fn rechecks(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    conn.prepare_cached("SELECT id FROM sync_recheck ORDER BY found, id")?
        .query_map([], |r| r.get(0))?
        .collect()
}

/// The item was re-read (or found gone): it leaves the queue.
pub fn recheck_done(tx: &Tx<'_>, id: &str) -> TxResult<()> {
    let tx = tx.raw();
    tx.prepare_cached("DELETE FROM sync_recheck WHERE id = ?1")?
        .execute([id])?;
    Ok(())
}

/// Forgets how far `status` is mirrored (not the items): the next head walk is a first mirror
/// again and re-reads every page (`sync --full`). The reconcile walk is forgotten too and made
/// due: the walk from the top to the end serves as the next one (`reconcile::share`).
pub fn restart(tx: &Tx<'_>, status: &str) -> TxResult<()> {
    let tx = tx.raw();
    tx.prepare_cached("DELETE FROM sync_gaps WHERE status = ?1")?
        .execute([status])?;
    tx.prepare_cached(
        "UPDATE sync_status SET head_received = NULL, head_id = NULL, complete = 0,
                reconcile_cursor = NULL, reconcile_received = NULL, reconcile_id = NULL,
                reconcile_started = NULL, reconciled_at = NULL WHERE status = ?1",
    )?
    .execute([status])?;
    Ok(())
}

/// The head of a scoped walk (`sync --app/--project`), kept in `meta` under `meta`'s key as
/// "received id".
fn scoped_head(conn: &Connection, meta: &str) -> rusqlite::Result<Option<Key>> {
    let value: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [meta], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(value.and_then(|v| {
        let (received, id) = v.split_once(' ')?;
        Some(Key {
            received: received.parse().ok()?,
            id: id.to_owned(),
        })
    }))
}

/// Moves the scoped walk's head kept under `meta` up to `head` (never down: a walk with `full`
/// may end below it).
pub fn raise_scoped_head(tx: &Tx<'_>, meta: &str, head: &Key) -> TxResult<()> {
    let tx = tx.raw();
    let newer = scoped_head(tx, meta)?.map_or(head.clone(), |old| old.max(head.clone()));
    tx.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        (meta, format!("{} {}", newer.received, newer.id)),
    )?;
    Ok(())
}

/// Reads of the walk state on the store's own connection, for steps that write nothing.
impl Store {
    /// The per-status row of `status` ([`status_row`]).
    pub fn sync_status(&self, status: &str) -> Result<StatusRow, StoreError> {
        status_row_in(&self.conn, status).map_err(|e| self.error(e))
    }

    /// The open gaps of `status` ([`gaps`]).
    pub fn sync_gaps(&self, status: &str) -> Result<Vec<Gap>, StoreError> {
        gaps(&self.conn, status).map_err(|e| self.error(e))
    }

    /// The ids waiting for a re-read ([`rechecks`]).
    pub fn sync_rechecks(&self) -> Result<Vec<String>, StoreError> {
        rechecks(&self.conn).map_err(|e| self.error(e))
    }

    /// The head of the scoped walk kept under `meta` ([`raise_scoped_head`]).
    pub fn scoped_head(&self, meta: &str) -> Result<Option<Key>, StoreError> {
        scoped_head(&self.conn, meta).map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn queue_missing_reads_a_rowid_range_not_every_stored_item_of_the_status() {
        let store = Store::open_memory().unwrap();
        let plan: Vec<String> = store
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {QUEUE_MISSING}"))
            .unwrap()
            .query_map(
                rusqlite::params!["new", 1, "a", 2, 3, "b", 1024, 3072],
                |r| r.get::<_, String>(3),
            )
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let plan = plan.join("\n");
        assert!(
            plan.contains("k>? AND k<?") || plan.contains("rowid>? AND rowid<?"),
            "{plan}"
        );
    }
}
