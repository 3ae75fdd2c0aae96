//! The pivots' counts (`pivot_counts`, schema 8), kept as items are written: per status,
//! project, app and done or not (the inbox's views hide done items), how many items there are, how many are untagged, per tag, how many have
//! their metadata known, and per metadata key and value. A pivot of a status view then reads a
//! few hundred rows instead of walking a million (`store::pivot::counts`).
//!
//! A write collects the changes of its items in [`Deltas`] (an item's [`Shape`] taken away
//! before it changes and added after) and applies them once per count at the end of the
//! transaction: a page of 100 new items touches a few dozen counts, not hundreds, so storing
//! stays fast. Everything that writes `items`, `item_tags` or `item_meta` goes through
//! `write::items`, and every triage write through `store::triage`, which keep them;
//! `tests_counts` recounts them from the tables after random writes.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use crate::api::Metadata;
use crate::store::pivot::OS_KEYS;

/// What a count counts (the `dim` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    /// Items (`key` and `value` empty).
    Items = 0,
    /// Items without tags.
    Untagged = 1,
    /// Items with the tag `value`.
    Tag = 2,
    /// Items whose metadata is known (a detail or a webhook delivery brought it, even empty).
    Covered = 3,
    /// Items with built-in metadata `key` = `value`.
    BuiltIn = 4,
    /// Items with custom metadata `key` = `value`.
    Custom = 5,
    /// Items with both OS keys, by their `androidVersion` (`value`): a pivot by OS counts them
    /// under their `iOSVersion` only, and takes these off the Android groups.
    BothOs = 6,
}

/// One count's identity: (dim, key, status, project, app (0: none), done, value).
type CountKey = (i64, String, String, i64, i64, bool, String);

/// What an item adds to the counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shape {
    pub status: String,
    pub project: i64,
    pub app: Option<i64>,
    /// The item's tags as stored (a JSON array; `[]` untagged, as the `items_untagged` index).
    pub tags_json: String,
    /// Its metadata is known (`items.meta_at` set).
    pub covered: bool,
    /// Its metadata rows: (custom, key, value).
    pub meta: Vec<(i64, String, String)>,
    /// The user marked it done (`triage`).
    pub done: bool,
}

impl Shape {
    /// Metadata as `put_extras` stores it: built-in rows then custom ones.
    #[must_use]
    pub fn meta_rows(metadata: &Metadata) -> Vec<(i64, String, String)> {
        let built_in = metadata.built_in.iter().map(|(k, v)| (0, k, v));
        let custom = metadata.custom.iter().map(|(k, v)| (1, k, v));
        built_in
            .chain(custom)
            .map(|(c, k, v)| (c, k.clone(), v.clone()))
            .collect()
    }

    /// Every count this item is in, once each.
    fn counts(&self) -> Vec<(Dim, String, String)> {
        let mut out = vec![(Dim::Items, String::new(), String::new())];
        let mut tags: Vec<String> = serde_json::from_str(&self.tags_json).unwrap_or_default();
        tags.sort();
        tags.dedup();
        if self.tags_json == "[]" {
            out.push((Dim::Untagged, String::new(), String::new()));
        }
        out.extend(tags.into_iter().map(|t| (Dim::Tag, String::new(), t)));
        if self.covered {
            out.push((Dim::Covered, String::new(), String::new()));
        }
        for (custom, key, value) in &self.meta {
            let dim = if *custom == 0 {
                Dim::BuiltIn
            } else {
                Dim::Custom
            };
            out.push((dim, key.clone(), value.clone()));
        }
        let [ios, android] = OS_KEYS;
        let built_in = |name: &str| {
            self.meta
                .iter()
                .find(|(c, k, _)| *c == 0 && k == name)
                .map(|(_, _, v)| v.clone())
        };
        if let (Some(_), Some(version)) = (built_in(ios), built_in(android)) {
            out.push((Dim::BothOs, android.to_owned(), version));
        }
        out
    }
}

/// The stored shape of the item with key `k` (`None`: not stored).
pub fn read_shape(tx: &Transaction<'_>, k: i64) -> rusqlite::Result<Option<Shape>> {
    let Some(mut shape) = tx
        .prepare_cached(
            "SELECT status, project, app, tags, meta_at,
                    coalesce((SELECT done FROM triage t WHERE t.id = items.id), 0)
             FROM items WHERE k = ?1",
        )?
        .query_row([k], |row| {
            Ok(Shape {
                status: row.get(0)?,
                project: row.get(1)?,
                app: row.get(2)?,
                tags_json: row.get(3)?,
                covered: row.get::<_, Option<i64>>(4)?.is_some(),
                meta: Vec::new(),
                done: row.get(5)?,
            })
        })
        .optional()?
    else {
        return Ok(None);
    };
    shape.meta = tx
        .prepare_cached("SELECT custom, key, value FROM item_meta WHERE k = ?1")?
        .query_map([k], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(shape))
}

/// Changes to the counts, applied together.
#[derive(Debug, Default)]
pub struct Deltas {
    changes: HashMap<CountKey, i64>,
}

impl Deltas {
    /// Counts `shape` in (`sign` 1) or out (`sign` -1).
    pub fn add(&mut self, shape: &Shape, sign: i64) {
        for (dim, key, value) in shape.counts() {
            let id = (
                dim as i64,
                key,
                shape.status.clone(),
                shape.project,
                shape.app.unwrap_or(0),
                shape.done,
                value,
            );
            *self.changes.entry(id).or_default() += sign;
        }
    }

    /// Writes the changes (those that cancel out are skipped) and forgets them.
    pub fn apply(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT DO UPDATE SET n = n + excluded.n",
        )?;
        for ((dim, key, status, project, app, done, value), n) in self.changes.drain() {
            if n != 0 {
                upsert.execute(params![dim, key, status, project, app, done, value, n])?;
            }
        }
        Ok(())
    }
}

/// The stored item with server id `id`: its key, if stored.
pub fn key_of(tx: &Transaction<'_>, id: &str) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached("SELECT k FROM items WHERE id = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()
}
