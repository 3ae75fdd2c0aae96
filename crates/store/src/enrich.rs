//! The enrichment queue: metadata comes only with an item's detail (or a webhook delivery), so
//! a metadata pivot covers the items whose metadata is known (`items.meta_at`). Enriching a view
//! queues its items whose metadata is not (schema 5, `enrich_queue`, by key: newest first); the
//! sync fetches their details one by one in the background (`feedback_sync`), paced by the budget.
//! The queue lives in the store: it outlives a restart, and an item leaves it when its metadata
//! is stored (by whatever path: enrichment, the detail view, a re-read, a webhook delivery) or
//! when the item is gone, so nothing is fetched twice, and an item a webhook brought is not
//! fetched at all. An item queued for its delivery links (`has:link`: only a detail has them)
//! stays until its detail is stored (`enrich_queue.detail`, schema 11).

use rusqlite::{OptionalExtension, params_from_iter};

use super::read::view_condition;
use super::{Store, StoreError, ViewQuery};
use feedback_core::query::Basis;

/// What queueing a view did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Enqueued {
    /// Items of the view newly queued.
    pub added: u64,
    /// Items queued in all (this view's and earlier ones') still without their metadata.
    pub pending: u64,
}

/// How many items of a view have their detail (so their metadata).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Coverage {
    pub with_detail: u64,
    pub total: u64,
}

/// A queued item still lacks what it was queued for (`q` the queue's row, `i` the item's).
const MISSING: &str = "(i.meta_at IS NULL OR (q.detail AND i.detail_at IS NULL))";

impl Store {
    /// Queues every item of `query` that lacks what `needs` names: its metadata, or its whole
    /// detail (delivery links). An item queued already is asked for its detail when `needs`
    /// says so.
    pub fn queue_details(
        &mut self,
        query: &ViewQuery,
        needs: Basis,
    ) -> Result<Enqueued, StoreError> {
        let (from, condition, params) =
            view_condition(self.conn(), query).map_err(|e| self.error(e))?;
        let sql = match needs {
            Basis::Metadata => format!(
                "INSERT OR IGNORE INTO enrich_queue (k) SELECT items.k {from} \
                 WHERE {condition} AND items.meta_at IS NULL"
            ),
            Basis::Delivery => format!(
                "INSERT INTO enrich_queue (k, detail) SELECT items.k, 1 {from} \
                 WHERE {condition} AND items.detail_at IS NULL \
                 ON CONFLICT (k) DO UPDATE SET detail = 1 WHERE NOT detail"
            ),
        };
        let added = self.transact(|tx| {
            let added = tx.prepare(&sql)?.execute(params_from_iter(params))?;
            Ok(u64::try_from(added).unwrap_or(u64::MAX))
        })?;
        Ok(Enqueued {
            added,
            pending: self.queued_details()?,
        })
    }

    /// Queued items still without their metadata.
    pub fn queued_details(&self) -> Result<u64, StoreError> {
        self.conn()
            .prepare_cached(&format!(
                "SELECT count(*) FROM enrich_queue q JOIN items i ON i.k = q.k WHERE {MISSING}"
            ))
            .and_then(|mut s| s.query_row([], |r| r.get::<_, i64>(0)))
            .map(i64::unsigned_abs)
            .map_err(|e| self.error(e))
    }

    /// The id of the newest queued item without its metadata and not parked after `now` (Unix
    /// seconds); rows before the first such item (items whose detail or webhook came
    /// meanwhile, or that are gone) leave the queue on the way.
    pub fn next_queued(&mut self, now: i64) -> Result<Option<String>, StoreError> {
        self.transact(|tx| {
            tx.execute(
                &format!(
                    "DELETE FROM enrich_queue WHERE k < coalesce((SELECT min(q.k) \
                     FROM enrich_queue q JOIN items i ON i.k = q.k WHERE {MISSING}), \
                     9223372036854775807)"
                ),
                [],
            )?;
            tx.query_row(
                &format!(
                    "SELECT i.id FROM enrich_queue q JOIN items i ON i.k = q.k \
                     WHERE {MISSING} AND (q.retry_at IS NULL OR q.retry_at <= ?1) \
                     ORDER BY q.k LIMIT 1"
                ),
                [now],
                |r| r.get(0),
            )
            .optional()
        })
    }

    /// Takes the item `id` out of the queue (its detail cannot be had: gone, or refused for
    /// good).
    pub fn unqueue(&mut self, id: &str) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute(
                "DELETE FROM enrich_queue WHERE k = (SELECT k FROM items WHERE id = ?1)",
                [id],
            )
            .map(drop)
        })
    }

    /// Parks the item `id` in the queue until `until` (Unix seconds): its fetch failed for
    /// reasons of the server's that may pass.
    pub fn park_queued(&mut self, id: &str, until: i64) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute(
                "UPDATE enrich_queue SET retry_at = ?2 WHERE k = (SELECT k FROM items WHERE id = ?1)",
                (id, until),
            )
            .map(drop)
        })
    }

    /// Empties the queue (the user cancelled); returns how many were waiting.
    pub fn clear_queue(&mut self) -> Result<u64, StoreError> {
        let pending = self.queued_details()?;
        self.transact(|tx| tx.execute("DELETE FROM enrich_queue", []))?;
        Ok(pending)
    }

    /// How many items of `query` have their detail.
    pub fn detail_coverage(&self, query: &ViewQuery) -> Result<Coverage, StoreError> {
        let (from, condition, params) =
            view_condition(self.conn(), query).map_err(|e| self.error(e))?;
        let sql = format!("SELECT count(*), count(items.detail_at) {from} WHERE {condition}");
        self.conn()
            .prepare_cached(&sql)
            .and_then(|mut s| {
                s.query_row(params_from_iter(params), |r| {
                    Ok(Coverage {
                        total: r.get::<_, i64>(0)?.unsigned_abs(),
                        with_detail: r.get::<_, i64>(1)?.unsigned_abs(),
                    })
                })
            })
            .map_err(|e| self.error(e))
    }

    /// How many items of `query` have the details a search resting on `basis` reads: their
    /// metadata (from the kept counts when the view allows, as a pivot counts it), or their
    /// delivery links (a fetched detail).
    pub fn basis_coverage(&self, query: &ViewQuery, basis: Basis) -> Result<Coverage, StoreError> {
        match basis {
            Basis::Metadata => {
                let (total, with_detail) = self.covered(query)?;
                Ok(Coverage { with_detail, total })
            }
            Basis::Delivery => self.detail_coverage(query),
        }
    }
}
