//! One sighting into the tables: the item row, its tags, metadata and delivery, and (at the end
//! of the write, in key order) its words in the full-text index.

use std::borrow::Cow;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, params};

use super::super::interned::{Refs, app_ref, project_ref};
use super::super::keys::free_key;
use super::counts::{Deltas, Shape, read_shape};
use super::{Sighting, Written};
use feedback_api::Feedback;

pub(crate) fn put_all(
    tx: &Transaction<'_>,
    sightings: &[Sighting<'_>],
    at: Timestamp,
) -> rusqlite::Result<Written> {
    put_groups(tx, &[(sightings, at)])
}

/// Items read from the team's shared mirror, stored as a list page's are but never noted for
/// the mirror: it has them.
pub(crate) fn put_followed(
    tx: &Transaction<'_>,
    sightings: &[Sighting<'_>],
    at: Timestamp,
) -> rusqlite::Result<Written> {
    put_noting(tx, &[(sightings, at)], false)
}

/// Stores groups of sightings, each made at its own time (pages of a walk written in one
/// transaction), sharing one pass of what a write does once: the full-text index is fed all the
/// groups' messages in one key order, the pivots' counts change once.
pub(crate) fn put_groups(
    tx: &Transaction<'_>,
    groups: &[(&[Sighting<'_>], Timestamp)],
) -> rusqlite::Result<Written> {
    put_noting(tx, groups, true)
}

/// [`put_groups`]; with `noting`, while this store publishes to the team's mirror, every item
/// the write saw is noted, changed or not: an item this store held before its turn (walked
/// alone, or in a turn whose publication was lost with its connection) is confirmed by the
/// walk and must reach the mirror all the same (the mirror writes only what differs).
fn put_noting(
    tx: &Transaction<'_>,
    groups: &[(&[Sighting<'_>], Timestamp)],
    noting: bool,
) -> rusqlite::Result<Written> {
    let mut refs = Refs::default();
    let mut written = Written::default();
    let mut index = Vec::new();
    let mut deltas = Deltas::default();
    let mut added = Vec::new();
    // Triage states waiting for their item (triaged, then forgotten): usually none, and then
    // a new item has no state to look up.
    let waiting = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM triage WHERE k IS NULL)")?
        .query_row([], |row| row.get(0))?;
    let noted = if noting {
        super::super::mirror_outbox::note_count(tx)?
    } else {
        None
    };
    for (sightings, at) in groups {
        let batch = Batch {
            seen: at.as_second(),
            waiting,
        };
        for sighting in *sightings {
            let outcome = put_one(tx, &mut refs, sighting, batch, &mut index, &mut deltas)?;
            match outcome {
                Outcome::Added(k) => {
                    written.added += 1;
                    added.push(k);
                }
                Outcome::Changed => written.changed += 1,
                Outcome::Same => {}
            }
            if let Some(n) = noted {
                super::super::mirror_outbox::note(tx, sighting.feedback.id.as_str(), n)?;
            }
            written.known.push(!matches!(outcome, Outcome::Added(_)));
        }
    }
    index_messages(tx, &mut index)?;
    deltas.apply(tx)?;
    if let Some((_, at)) = groups.last() {
        super::super::first_run::mark_added(tx, &added, *at)?;
    }
    if written.added + written.changed > 0 {
        super::super::write_counts::bump(tx, super::super::write_counts::ITEMS_REV)?;
    }
    Ok(written)
}

/// Adds messages to the full-text index in ascending key order. FTS5 collects new entries in
/// memory and must write them out as a new segment whenever a key arrives that is not above the
/// last one: pages arrive newest first, so indexing them as they come wrote one tiny segment per
/// item, and merging those took most of the time of a write. An item sighted twice in one write
/// is indexed once, with its last text.
fn index_messages(tx: &Transaction<'_>, index: &mut Vec<(i64, &str)>) -> rusqlite::Result<()> {
    // Stable, so the last sighting of a key is the last of its run; keep that one.
    index.sort_by_key(|(k, _)| *k);
    index.reverse();
    index.dedup_by_key(|(k, _)| *k);
    index.reverse();
    let mut insert =
        tx.prepare_cached("INSERT INTO items_fts (rowid, message, stems) VALUES (?1, ?2, ?3)")?;
    for (k, message) in index.iter() {
        insert.execute(params![k, message, feedback_core::query::stems(message)])?;
    }
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Stored for the first time, with this key.
    Added(i64),
    Changed,
    Same,
}

/// The stored copy of an item's mutable fields.
struct Stored {
    k: i64,
    status: String,
    unknown_status: Option<String>,
    tags: String,
    message: String,
    email: Option<String>,
    project: i64,
    app: Option<i64>,
    seen: i64,
}

/// What every sighting of one write shares.
#[derive(Debug, Clone, Copy)]
struct Batch {
    /// When it was seen (Unix seconds).
    seen: i64,
    /// Some triage state waits for its item to be stored.
    waiting: bool,
}

/// Stores one sighting; a message the full-text index must (re)learn is added to `index`, and
/// what the item changes in the pivots' counts to `deltas`.
fn put_one<'a>(
    tx: &Transaction<'_>,
    refs: &mut Refs,
    sighting: &Sighting<'a>,
    batch: Batch,
    index: &mut Vec<(i64, &'a str)>,
    deltas: &mut Deltas,
) -> rusqlite::Result<Outcome> {
    let seen = batch.seen;
    let item = sighting.feedback;
    let project = project_ref(tx, refs, &item.project.id, &item.project.name)?;
    let app = match &item.app {
        Some(a) => Some(app_ref(tx, refs, &a.id, &a.name, a.platform.as_str())?),
        None => None,
    };
    let tags = serde_json::to_string(&item.tags).unwrap_or_else(|_| "[]".to_owned());
    let stored = read_stored(tx, item.id.as_str())?;
    let place = Place::of(sighting, stored.as_ref().map(|old| old.status.as_str()));
    match &stored {
        None => {
            let (k, done) = insert_item(tx, item, place, (project, app), &tags, batch)?;
            index.push((k, item.message.as_str()));
            put_extras(tx, k, sighting, seen)?;
            // Counted from what was written, without reading it back (the common case, a first
            // sync: the kept counts cost it about 8% of its speed).
            let shape = Shape {
                status: Cow::Borrowed(place.status),
                project,
                app,
                tags: Cow::Borrowed(&item.tags),
                covered: sighting.metadata.is_some(),
                meta: sighting.metadata.map(Shape::meta_rows).unwrap_or_default(),
                done,
            };
            deltas.add(&shape, 1);
            Ok(Outcome::Added(k))
        }
        Some(old) if seen >= old.seen => {
            let counted = old.status != place.status
                || old.unknown_status.as_deref() != place.unknown
                || old.tags != tags
                || old.project != project
                || old.app != app;
            let changed =
                counted || old.message != item.message || old.email != item.reporter_email;
            recounted(
                tx,
                old.k,
                deltas,
                counted || sighting.metadata.is_some(),
                || {
                    update_item(tx, old, item, place, (project, app), &tags, seen)?;
                    put_extras(tx, old.k, sighting, seen)
                },
            )?;
            if old.message != item.message {
                index.push((old.k, item.message.as_str()));
            }
            Ok(if changed {
                Outcome::Changed
            } else {
                Outcome::Same
            })
        }
        // An older sighting than what is stored changes none of its fields, and fills in only
        // metadata or a delivery the store does not have yet (a late webhook still brings the
        // metadata a list page never carries).
        Some(old) => {
            fill_extras(tx, old.k, sighting, seen, deltas)?;
            Ok(Outcome::Same)
        }
    }
}

/// The stored copy of the item with this server id.
fn read_stored(tx: &Transaction<'_>, id: &str) -> rusqlite::Result<Option<Stored>> {
    tx.prepare_cached(
        "SELECT k, status, tags, message, email, project, app, seen, unknown_status
         FROM items WHERE id = ?1",
    )?
    .query_row([id], |row| {
        Ok(Stored {
            k: row.get(0)?,
            status: row.get(1)?,
            unknown_status: row.get(8)?,
            tags: row.get(2)?,
            message: row.get(3)?,
            email: row.get(4)?,
            project: row.get(5)?,
            app: row.get(6)?,
            seen: row.get(7)?,
        })
    })
    .optional()
}

/// Where an item is kept: `status` is the list it is in, always a status this version knows
/// (views, panes, counts and the sync's walks rest on it); `unknown` is the service's own value
/// when it is not one of those, shown and searched instead.
#[derive(Debug, Clone, Copy)]
struct Place<'a> {
    status: &'a str,
    unknown: Option<&'a str>,
}

impl<'a> Place<'a> {
    /// An item with a known status is kept under it. One with a value this version does not
    /// know stays in the list it was listed in, or where it is stored, or else in `new` (the
    /// list's default: a delivery of a new item).
    fn of(sighting: &Sighting<'a>, stored: Option<&'a str>) -> Self {
        let status = &sighting.feedback.status;
        if status.is_known() {
            return Self {
                status: status.as_str(),
                unknown: None,
            };
        }
        let listed = sighting
            .listed
            .filter(|s| s.is_known())
            .map(feedback_api::Status::as_str);
        Self {
            status: listed.or(stored).unwrap_or("new"),
            unknown: Some(status.as_str()),
        }
    }
}

/// Runs `write` on the stored item `k`; when `counts` (it may change what the item counts in),
/// takes the item's counts out before and puts them back after.
pub(crate) fn recounted(
    tx: &Transaction<'_>,
    k: i64,
    deltas: &mut Deltas,
    counts: bool,
    write: impl FnOnce() -> rusqlite::Result<()>,
) -> rusqlite::Result<()> {
    if !counts {
        return write();
    }
    if let Some(before) = read_shape(tx, k)? {
        deltas.add(&before, -1);
    }
    write()?;
    if let Some(after) = read_shape(tx, k)? {
        deltas.add(&after, 1);
    }
    Ok(())
}

/// Inserts a new item: its key, and whether the user marked it done before it was stored.
fn insert_item(
    tx: &Transaction<'_>,
    item: &Feedback,
    place: Place<'_>,
    (project, app): (i64, Option<i64>),
    tags: &str,
    batch: Batch,
) -> rusqlite::Result<(i64, bool)> {
    let k = free_key(tx, item.received_at)?;
    tx.prepare_cached(
        "INSERT INTO items (k, id, received, status, project, app, email, message, tags, seen,
                            unknown_status)
         VALUES (?10, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?11)",
    )?
    .execute(params![
        item.id.as_str(),
        item.received_at.as_microsecond(),
        place.status,
        project,
        app,
        item.reporter_email,
        item.message,
        tags,
        batch.seen,
        k,
        place.unknown
    ])?;
    insert_tags(tx, k, place.status, &item.tags)?;
    // An item triaged before it was stored (or forgotten and stored again): its state finds
    // it, and says whether it is done (one seek for both).
    if !batch.waiting {
        return Ok((k, false));
    }
    let done = tx
        .prepare_cached("UPDATE triage SET k = ?2 WHERE id = ?1 RETURNING done")?
        .query_row(params![item.id.as_str(), k], |row| row.get(0))
        .optional()?;
    Ok((k, done.unwrap_or(false)))
}

fn update_item(
    tx: &Transaction<'_>,
    old: &Stored,
    item: &Feedback,
    place: Place<'_>,
    (project, app): (i64, Option<i64>),
    tags: &str,
    seen: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        // `received` is the item's place (its key): it never changes.
        "UPDATE items SET status = ?2, project = ?3, app = ?4, email = ?5,
                          message = ?6, tags = ?7, seen = ?8, unknown_status = ?9 WHERE k = ?1",
    )?
    .execute(params![
        old.k,
        place.status,
        project,
        app,
        item.reporter_email,
        item.message,
        tags,
        seen,
        place.unknown
    ])?;
    if old.tags != tags || old.status != place.status {
        delete_tags(tx, old.k, &old.status, &old.tags)?;
        insert_tags(tx, old.k, place.status, &item.tags)?;
    }
    if old.message != item.message {
        // The new text is indexed with the rest of the write (`index_messages`).
        tx.prepare_cached("DELETE FROM items_fts WHERE rowid = ?1")?
            .execute([old.k])?;
    }
    Ok(())
}

/// Metadata (replaced whole) and delivery, when the sighting carries them.
/// [`put_extras`] for an older sighting: only what is missing.
fn fill_extras(
    tx: &Transaction<'_>,
    k: i64,
    sighting: &Sighting<'_>,
    seen: i64,
    deltas: &mut Deltas,
) -> rusqlite::Result<()> {
    let (has_metadata, has_delivery): (bool, bool) = tx
        .prepare_cached("SELECT meta_at IS NOT NULL, delivery IS NOT NULL FROM items WHERE k = ?1")?
        .query_row([k], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let missing = Sighting {
        feedback: sighting.feedback,
        listed: sighting.listed,
        metadata: sighting.metadata.filter(|_| !has_metadata),
        delivery: sighting.delivery.filter(|_| !has_delivery),
    };
    recounted(tx, k, deltas, missing.metadata.is_some(), || {
        put_extras(tx, k, &missing, seen)
    })
}

fn put_extras(
    tx: &Transaction<'_>,
    k: i64,
    sighting: &Sighting<'_>,
    seen: i64,
) -> rusqlite::Result<()> {
    if let Some(metadata) = sighting.metadata {
        tx.prepare_cached("DELETE FROM item_meta WHERE k = ?1")?
            .execute([k])?;
        let mut insert = tx.prepare_cached(
            "INSERT OR REPLACE INTO item_meta (k, custom, key, value) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (custom, map) in [(0, &metadata.built_in), (1, &metadata.custom)] {
            for (key, value) in map {
                insert.execute(params![k, custom, key, value])?;
            }
        }
        // Known from now on, even when empty (a webhook of an item with no metadata).
        tx.prepare_cached("UPDATE items SET meta_at = ?2 WHERE k = ?1")?
            .execute(params![k, seen])?;
    }
    if let Some(delivery) = sighting.delivery {
        let json = serde_json::to_string(delivery).unwrap_or_else(|_| "[]".to_owned());
        tx.prepare_cached("UPDATE items SET delivery = ?2, detail_at = ?3 WHERE k = ?1")?
            .execute(params![k, json, seen])?;
    }
    Ok(())
}

fn insert_tags(
    tx: &Transaction<'_>,
    k: i64,
    status: &str,
    tags: &[String],
) -> rusqlite::Result<()> {
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO item_tags (tag, status, k) VALUES (?1, ?2, ?3)")?;
    for tag in tags {
        insert.execute(params![tag, status, k])?;
    }
    Ok(())
}

/// Deletes an item's tag rows by their full key (the table has no index on `k` alone).
fn delete_tags(
    tx: &Transaction<'_>,
    k: i64,
    status: &str,
    tags_json: &str,
) -> rusqlite::Result<()> {
    let tags: Vec<String> = serde_json::from_str(tags_json).unwrap_or_default();
    let mut delete =
        tx.prepare_cached("DELETE FROM item_tags WHERE tag = ?1 AND status = ?2 AND k = ?3")?;
    for tag in &tags {
        delete.execute(params![tag, status, k])?;
    }
    Ok(())
}

/// Removes an item and everything hanging off it (its counts taken out in `deltas`).
pub(crate) fn forget_item(
    tx: &Transaction<'_>,
    k: i64,
    status: &str,
    tags_json: &str,
    deltas: &mut Deltas,
) -> rusqlite::Result<()> {
    if let Some(shape) = read_shape(tx, k)? {
        deltas.add(&shape, -1);
    }
    tx.prepare_cached("UPDATE triage SET k = NULL WHERE id = (SELECT id FROM items WHERE k = ?1)")?
        .execute([k])?;
    delete_tags(tx, k, status, tags_json)?;
    tx.prepare_cached("DELETE FROM item_meta WHERE k = ?1")?
        .execute([k])?;
    tx.prepare_cached("DELETE FROM items_fts WHERE rowid = ?1")?
        .execute([k])?;
    tx.prepare_cached("DELETE FROM items WHERE k = ?1")?
        .execute([k])?;
    Ok(())
}
