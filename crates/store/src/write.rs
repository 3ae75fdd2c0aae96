//! Writing what the service said. Every call is one `IMMEDIATE` transaction: it waits for
//! another process's write to finish (busy timeout), then either all of it lands or none.
//!
//! A sighting updates an item's mutable fields (status, tags, app, email, message) only when it
//! is at least as recent as the last one, so a slow page cannot undo what a newer detail said.
//! The full-text index is written here, in the same transaction, and only when the message is
//! new or changed.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use counts::Deltas;
pub(super) use items::recounted;
use items::{forget_item, put_all, put_groups};

pub(crate) mod counts;
pub(crate) mod items;
#[cfg(test)]
pub(super) mod tests_counts;

use super::keys::time_key;
use super::{Store, StoreError};
use feedback_api::{App, Delivery, Feedback, FeedbackDetail, Metadata, Project, Status, Tag};

/// One thing the service said about an item: the list fields, and what a detail or a webhook
/// delivery adds.
#[derive(Debug, Clone, Copy)]
pub struct Sighting<'a> {
    pub feedback: &'a Feedback,
    /// The status of the list page it was on (`None`: a detail or a webhook delivery). An item
    /// whose own status is a value this version does not know is kept in that list.
    pub listed: Option<&'a Status>,
    pub metadata: Option<&'a Metadata>,
    /// Known only from a detail.
    pub delivery: Option<&'a [Delivery]>,
}

impl<'a> Sighting<'a> {
    /// Items as a list page gives them, each listed under its status (an unknown status, as
    /// the service's list of `new` would list it: under `new`, the status kept).
    #[must_use]
    pub(crate) fn listed_all(items: &'a [Feedback]) -> Vec<Self> {
        items
            .iter()
            .map(|f| {
                let listed = if f.status.is_known() {
                    &f.status
                } else {
                    &Status::New
                };
                Sighting::listed(f, listed)
            })
            .collect()
    }

    /// An item on a page of the list of `status`.
    #[must_use]
    pub fn listed(feedback: &'a Feedback, status: &'a Status) -> Self {
        Self {
            feedback,
            listed: Some(status),
            metadata: None,
            delivery: None,
        }
    }

    #[must_use]
    pub fn detail(detail: &'a FeedbackDetail) -> Self {
        Self {
            feedback: &detail.feedback,
            listed: None,
            metadata: Some(&detail.metadata),
            delivery: Some(&detail.delivery),
        }
    }
}

/// What a write did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Items that were not stored before.
    pub added: usize,
    /// Stored items whose status, tags, app, email or message changed.
    pub changed: usize,
    /// For each sighting, in order: was its item already stored?
    pub known: Vec<bool>,
}

impl Store {
    /// Stores items seen at `at`, each on the list of its own status (`new` for a status this
    /// version does not know).
    pub fn put_items(&mut self, items: &[Feedback], at: Timestamp) -> Result<Written, StoreError> {
        self.put(&Sighting::listed_all(items), at)
    }

    /// Stores a detail: the item, its metadata and its delivery.
    pub fn put_detail(
        &mut self,
        detail: &FeedbackDetail,
        at: Timestamp,
    ) -> Result<Written, StoreError> {
        self.put(&[Sighting::detail(detail)], at)
    }

    /// Stores sightings made at `at`, all or none.
    pub fn put(
        &mut self,
        sightings: &[Sighting<'_>],
        at: Timestamp,
    ) -> Result<Written, StoreError> {
        self.transact(|tx| put_all(tx, sightings, at))
    }

    /// Replaces the stored projects with the account's list.
    pub fn put_projects(&mut self, projects: &[Project]) -> Result<(), StoreError> {
        self.transact(|tx| replace_projects(tx, projects))
    }

    /// Replaces the stored apps: all of them, or (with `project`) those of one project.
    pub fn put_apps(&mut self, apps: &[App], project: Option<&str>) -> Result<(), StoreError> {
        self.transact(|tx| {
            match project {
                Some(project) => tx.execute("DELETE FROM apps WHERE project_id = ?1", [project])?,
                None => tx.execute("DELETE FROM apps", [])?,
            };
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO apps (id, project_id, name, slug, platform, app_identifier, region)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for a in apps {
                let platform = a.platform.as_ref().map(|p| p.as_str().to_owned());
                let region = a.region.as_ref().map(|r| r.as_str().to_owned());
                insert.execute(params![
                    a.id,
                    a.project_id.as_deref().or(project),
                    a.name,
                    a.slug,
                    platform,
                    a.app_identifier,
                    region
                ])?;
            }
            Ok(())
        })
    }

    /// Replaces the account-wide tag list (the server's counts).
    pub fn put_server_tags(&mut self, tags: &[Tag]) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute("DELETE FROM server_tags", [])?;
            let mut insert = tx.prepare_cached(
                "INSERT OR REPLACE INTO server_tags (tag, count) VALUES (?1, ?2)",
            )?;
            for t in tags {
                insert.execute(params![t.tag, i64::try_from(t.count).unwrap_or(i64::MAX)])?;
            }
            Ok(())
        })
    }

    /// Drops items received before `cutoff` (the `retention_days` setting); returns how many.
    pub fn drop_older_than(&mut self, cutoff: Timestamp) -> Result<usize, StoreError> {
        // Keys start with the received time: "older than" is a range of the table's own key,
        // checked by a read first (at every start, usually nothing is due and nothing is locked),
        // then dropped in batches, each its own short transaction, so other processes' writes
        // get their turn between them.
        let cutoff_key = time_key(cutoff);
        let due = self
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM items WHERE k > ?1)")
            .and_then(|mut s| s.query_row([cutoff_key], |row| row.get::<_, bool>(0)))
            .map_err(|e| self.error(e))?;
        let mut dropped = 0;
        if !due {
            return Ok(0);
        }
        loop {
            let batch =
                self.transact(|tx| {
                    let rows: Vec<(i64, String, String)> = tx
                    .prepare_cached(
                        "SELECT k, status, tags FROM items WHERE k > ?1 ORDER BY k DESC LIMIT 1000",
                    )?
                    .query_map([cutoff_key], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
                    .collect::<Result<_, _>>()?;
                    let mut deltas = Deltas::default();
                    for (k, status, tags) in &rows {
                        forget_item(tx, *k, status, tags, &mut deltas)?;
                    }
                    deltas.apply(tx)?;
                    if !rows.is_empty() {
                        super::write_counts::bump(tx, super::write_counts::ITEMS_REV)?;
                    }
                    Ok(rows.len())
                })?;
            dropped += batch;
            if batch == 0 {
                break;
            }
        }
        Ok(dropped)
    }

    /// Runs `f` in one `IMMEDIATE` transaction: committed when it succeeds, rolled back (nothing
    /// written) when it fails. The store's own writes; callers write through [`Store::write`].
    pub(crate) fn transact<T>(
        &mut self,
        f: impl FnOnce(&Transaction<'_>) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let path = self.describe();
        let wrap = |source| StoreError::sqlite(path.clone(), source);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(&wrap)?;
        let value = f(&tx).map_err(&wrap)?;
        tx.commit().map_err(&wrap)?;
        Ok(value)
    }
}

/// Stores sightings made at `at` inside the caller's transaction (the sync writes a page and the
/// walk state it advances together).
pub fn put_in(
    tx: &super::Tx<'_>,
    sightings: &[Sighting<'_>],
    at: Timestamp,
) -> super::TxResult<Written> {
    Ok(put_all(tx.raw(), sightings, at)?)
}

/// Stores groups of sightings, each made at its own time, inside the caller's transaction (a
/// walk's pages written together): as [`put_in`] for each group in turn, with one pass of the
/// full-text index and the counts for all.
pub fn put_groups_in(
    tx: &super::Tx<'_>,
    groups: &[(&[Sighting<'_>], Timestamp)],
) -> super::TxResult<Written> {
    Ok(put_groups(tx.raw(), groups)?)
}

/// Removes the item with this server id, inside the caller's transaction (the service no
/// longer has it); false when it was not stored.
pub fn forget_id(tx: &super::Tx<'_>, id: &str) -> super::TxResult<bool> {
    Ok(forget_in(tx.raw(), id)?)
}

fn forget_in(tx: &Transaction<'_>, id: &str) -> rusqlite::Result<bool> {
    let row: Option<(i64, String, String)> = tx
        .prepare_cached("SELECT k, status, tags FROM items WHERE id = ?1")?
        .query_row([id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .optional()?;
    match row {
        Some((k, status, tags)) => {
            if let Some(n) = super::mirror_outbox::note_count(tx)? {
                super::mirror_outbox::note(tx, id, n)?;
            }
            let mut deltas = Deltas::default();
            forget_item(tx, k, &status, &tags, &mut deltas)?;
            deltas.apply(tx)?;
            super::write_counts::bump(tx, super::write_counts::ITEMS_REV)?;
            Ok(true)
        }
        None => Ok(false),
    }
}

pub(super) fn replace_projects(tx: &Transaction<'_>, projects: &[Project]) -> rusqlite::Result<()> {
    tx.execute("DELETE FROM projects", [])?;
    let mut insert = tx.prepare_cached(
        "INSERT OR REPLACE INTO projects (id, name, slug, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for p in projects {
        let created = p.created_at.map(|t| t.to_string());
        insert.execute(params![p.id, p.name, p.slug, created])?;
    }
    Ok(())
}
