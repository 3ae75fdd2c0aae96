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

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use rusqlite::{OptionalExtension, Transaction, params};

use crate::pivot::OS_KEYS;
use feedback_api::Metadata;

/// What a count counts (the `dim` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Dim {
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

/// What an item adds to the counts; borrowed from the sighting being written, or read back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Shape<'a> {
    pub status: Cow<'a, str>,
    pub project: i64,
    pub app: Option<i64>,
    /// The item's tags (a tag given twice counts once).
    pub tags: Cow<'a, [String]>,
    /// Its metadata is known (`items.meta_at` set).
    pub covered: bool,
    /// Its metadata rows: (custom, key, value).
    pub meta: Vec<(i64, Cow<'a, str>, Cow<'a, str>)>,
    /// The user marked it done (`triage`).
    pub done: bool,
}

impl<'a> Shape<'a> {
    /// Metadata as `put_extras` stores it: built-in rows then custom ones.
    #[must_use]
    pub(crate) fn meta_rows(metadata: &'a Metadata) -> Vec<(i64, Cow<'a, str>, Cow<'a, str>)> {
        let built_in = metadata.built_in.iter().map(|(k, v)| (0, k, v));
        let custom = metadata.custom.iter().map(|(k, v)| (1, k, v));
        built_in
            .chain(custom)
            .map(|(c, k, v)| (c, Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
            .collect()
    }

    /// Calls `each` with every count this item is in, once each: (dim, key, value).
    fn each_count(&self, mut each: impl FnMut(Dim, &str, &str)) {
        each(Dim::Items, "", "");
        if self.tags.is_empty() {
            each(Dim::Untagged, "", "");
        }
        for (at, tag) in self.tags.iter().enumerate() {
            if !self.tags[..at].contains(tag) {
                each(Dim::Tag, "", tag);
            }
        }
        if self.covered {
            each(Dim::Covered, "", "");
        }
        for (custom, key, value) in &self.meta {
            let dim = if *custom == 0 {
                Dim::BuiltIn
            } else {
                Dim::Custom
            };
            each(dim, key, value);
        }
        let [ios, android] = OS_KEYS;
        let built_in = |name: &str| {
            self.meta
                .iter()
                .find(|(c, k, _)| *c == 0 && k == name)
                .map(|(_, _, v)| v)
        };
        if let (Some(_), Some(version)) = (built_in(ios), built_in(android)) {
            each(Dim::BothOs, android, version);
        }
    }
}

/// The stored shape of the item with key `k` (`None`: not stored).
pub(crate) fn read_shape(tx: &Transaction<'_>, k: i64) -> rusqlite::Result<Option<Shape<'static>>> {
    let Some(mut shape) = tx
        .prepare_cached(
            "SELECT status, project, app, tags, meta_at,
                    coalesce((SELECT done FROM triage t WHERE t.id = items.id), 0)
             FROM items WHERE k = ?1",
        )?
        .query_row([k], |row| {
            let tags: String = row.get(3)?;
            Ok(Shape {
                status: Cow::Owned(row.get(0)?),
                project: row.get(1)?,
                app: row.get(2)?,
                tags: Cow::Owned(serde_json::from_str(&tags).unwrap_or_default()),
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
        .query_map([k], |row| {
            Ok((
                row.get(0)?,
                Cow::Owned(row.get(1)?),
                Cow::Owned(row.get(2)?),
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Some(shape))
}

/// Changes to the counts, applied together. A count met again is found by its encoded
/// identity without allocating (most items of a page share their status, project and app).
#[derive(Debug, Default)]
pub(crate) struct Deltas {
    index: HashMap<String, usize>,
    changes: Vec<(CountKey, i64)>,
    scratch: String,
}

impl Deltas {
    /// Counts `shape` in (`sign` 1) or out (`sign` -1).
    pub(crate) fn add(&mut self, shape: &Shape<'_>, sign: i64) {
        shape.each_count(|dim, key, value| self.bump(shape, dim, key, value, sign));
    }

    fn bump(&mut self, shape: &Shape<'_>, dim: Dim, key: &str, value: &str, sign: i64) {
        let app = shape.app.unwrap_or(0);
        self.scratch.clear();
        // Every part but the last is fixed-width or length-prefixed: the encoding is one-to-one.
        let _ = write!(
            self.scratch,
            "{}|{}|{app}|{}|{}:{}|{}:{key}|{value}",
            dim as i64,
            shape.project,
            u8::from(shape.done),
            shape.status.len(),
            shape.status,
            key.len(),
        );
        if let Some(&at) = self.index.get(self.scratch.as_str()) {
            self.changes[at].1 += sign;
            return;
        }
        let id = (
            dim as i64,
            key.to_owned(),
            shape.status.clone().into_owned(),
            shape.project,
            app,
            shape.done,
            value.to_owned(),
        );
        self.index.insert(self.scratch.clone(), self.changes.len());
        self.changes.push((id, sign));
    }

    /// Writes the changes (those that cancel out are skipped) and forgets them.
    pub(crate) fn apply(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        let mut upsert = tx.prepare_cached(
            "INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT DO UPDATE SET n = n + excluded.n",
        )?;
        self.index.clear();
        for ((dim, key, status, project, app, done, value), n) in self.changes.drain(..) {
            if n != 0 {
                upsert.execute(params![dim, key, status, project, app, done, value, n])?;
            }
        }
        Ok(())
    }
}

/// The stored item with server id `id`: its key, if stored.
pub(crate) fn key_of(tx: &Transaction<'_>, id: &str) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached("SELECT k FROM items WHERE id = ?1")?
        .query_row([id], |row| row.get(0))
        .optional()
}
