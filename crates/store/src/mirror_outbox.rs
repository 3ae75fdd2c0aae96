//! What this store publishes to the team's shared mirror while its process is the team's
//! syncer: every item a write adds or changes, and every item the service no longer has, is
//! noted in `mirror_outbox` in the write's own transaction (with the write's count), so what
//! the sync stored is published even after a kill between storing and publishing. A
//! publication is read in one snapshot, the noted items as stored now with the walk state that
//! goes with them; once the team's database has it, the notes it covered are taken out (a note
//! written again meanwhile stays, for the next publication).

use rusqlite::{OptionalExtension, Transaction, params};

use super::walk_handoff::{WalkState, walk_state_in};
use super::{Store, StoreError};
use feedback_api::{Extras, Feedback};

/// The meta key that is set while this store publishes.
const PUBLISHING: &str = "mirror_publishing";

/// The count a write while publishing notes its items with (the write count it will leave,
/// `items_rev` + 1); `None` when this store does not publish.
pub(super) fn note_count(tx: &Transaction<'_>) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached(
        "SELECT (SELECT coalesce(max(CAST(value AS INTEGER)), 0) + 1 FROM meta WHERE key = ?2)
         FROM meta WHERE key = ?1",
    )?
    .query_row([PUBLISHING, super::write_counts::ITEMS_REV], |row| {
        row.get(0)
    })
    .optional()
}

/// The lease generation the store's writes are noted for, if they are.
fn publishing_for(conn: &rusqlite::Connection) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1")?
        .query_row([PUBLISHING], |row| row.get(0))
        .optional()
}

/// Notes the item `id` as written (or removed) by the write counted `n`.
pub(super) fn note(tx: &Transaction<'_>, id: &str, n: i64) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO mirror_outbox (id, n) VALUES (?1, ?2)
         ON CONFLICT (id) DO UPDATE SET n = excluded.n",
    )?
    .execute(params![id, n])?;
    Ok(())
}

/// What the store has to publish, read in one snapshot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Publication {
    /// The noted items as stored now, in the order noted.
    pub items: Vec<Feedback>,
    /// What the store knows of each of `items` beyond its list fields (by position).
    pub extras: Vec<Option<Extras>>,
    /// The noted items no longer stored: the service no longer has them.
    pub removed: Vec<String>,
    /// The walk state as of the same snapshot, when this publication takes every note: it
    /// describes these items and those published before. A publication of part of the notes
    /// has none (the walk state must not run ahead of what the mirror holds).
    pub walk: Option<WalkState>,
    /// The notes this publication covers: (id, count).
    covered: Vec<(String, i64)>,
}

impl Publication {
    /// Nothing noted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.covered.is_empty()
    }
}

impl Store {
    /// Starts noting writes for the mirror, for the syncer's lease of `generation`. Starting
    /// forgets notes left from before: what this store wrote while it was not the syncer, or
    /// in an earlier turn as the syncer whose pages the walk state it takes over will walk
    /// again, is not this turn's to publish.
    pub fn start_mirror_publishing(&mut self, generation: i64) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute("DELETE FROM mirror_outbox", [])?;
            tx.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                params![PUBLISHING, generation.to_string()],
            )?;
            Ok(())
        })
    }

    /// The lease generation this store notes its writes for, if it does.
    pub fn mirror_publishing(&self) -> Result<Option<i64>, StoreError> {
        publishing_for(self.conn()).map_err(|e| self.error(e))
    }

    /// A turn's end: stops noting writes (forgetting the notes left) when they are noted for
    /// the lease of `generation`; a later turn's (another process of this store's) goes on.
    pub fn end_mirror_publishing(&mut self, generation: i64) -> Result<(), StoreError> {
        self.stop_publishing_if(|publishing| publishing == generation)
    }

    /// Stops noting writes unless they are noted for `alive`, the generation of the team's
    /// lease held now (`None`: nobody's, or not this store's to know): a turn killed before
    /// its end leaves the store noting, and the notes are nobody's to publish once its lease
    /// is gone; a turn of another process of this store, alive, goes on.
    pub fn settle_mirror_publishing(&mut self, alive: Option<i64>) -> Result<(), StoreError> {
        self.stop_publishing_if(|publishing| Some(publishing) != alive)
    }

    fn stop_publishing_if(&mut self, stop: impl FnOnce(i64) -> bool) -> Result<(), StoreError> {
        // Read first: a store that does not publish (nearly always) takes no write lock.
        if self.mirror_publishing()?.is_none() {
            return Ok(());
        }
        self.transact(|tx| {
            let Some(publishing) = publishing_for(tx)? else {
                return Ok(());
            };
            if stop(publishing) {
                tx.execute("DELETE FROM mirror_outbox", [])?;
                tx.execute("DELETE FROM meta WHERE key = ?1", [PUBLISHING])?;
            }
            Ok(())
        })
    }

    /// Notes every stored item: a store that starts a team's mirror publishes what it holds,
    /// with the walk state that describes it, instead of the mirror walking the account again.
    pub fn seed_mirror_outbox(&mut self) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute(
                "INSERT OR REPLACE INTO mirror_outbox (id, n) SELECT id, 0 FROM items",
                [],
            )?;
            Ok(())
        })
    }

    /// The first `limit` notes not yet published (oldest first), in one snapshot; with the walk
    /// state when they are all of them.
    pub fn mirror_publication(&self, limit: usize) -> Result<Publication, StoreError> {
        let conn = self.conn();
        let snapshot = if conn.is_autocommit() {
            Some(conn.unchecked_transaction().map_err(|e| self.error(e))?)
        } else {
            None
        };
        let asked = i64::try_from(limit).unwrap_or(i64::MAX - 1) + 1;
        let mut covered: Vec<(String, i64)> = conn
            .prepare_cached("SELECT id, n FROM mirror_outbox ORDER BY n, id LIMIT ?1")
            .and_then(|mut s| {
                // One more than asked: whether these are all of them.
                s.query_map([asked], |row| Ok((row.get(0)?, row.get(1)?)))?
                    .collect()
            })
            .map_err(|e| self.error(e))?;
        let whole = covered.len() <= limit;
        covered.truncate(limit);
        let mut publication = Publication::default();
        for (id, _) in &covered {
            match self.item_with_extras(id)? {
                Some((item, extras)) => {
                    publication.items.push(item);
                    publication.extras.push(extras);
                }
                None => publication.removed.push(id.clone()),
            }
        }
        if whole {
            publication.walk = Some(walk_state_in(conn).map_err(|e| self.error(e))?);
        }
        publication.covered = covered;
        drop(snapshot);
        Ok(publication)
    }

    /// Takes out the notes `publication` covered, once the team's database has it; a note
    /// written again since it was read stays.
    pub fn mirror_published(&mut self, publication: &Publication) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut delete =
                tx.prepare_cached("DELETE FROM mirror_outbox WHERE id = ?1 AND n = ?2")?;
            for (id, n) in &publication.covered {
                delete.execute(params![id, n])?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use jiff::Timestamp;

    use super::*;
    use crate::{Sighting, forget_id};
    use feedback_api::{FeedbackId, ProjectRef, Status};

    fn item(n: usize, message: &str) -> Feedback {
        Feedback {
            id: FeedbackId(format!("fb_{n}")),
            message: message.to_owned(),
            reporter_email: None,
            status: Status::New,
            received_at: Timestamp::from_second(1_790_000_000 + i64::try_from(n).unwrap()).unwrap(),
            tags: Vec::new(),
            app: None,
            project: ProjectRef {
                id: "prj_1".into(),
                name: "Acme".into(),
            },
        }
    }

    fn ids(items: &[Feedback]) -> Vec<&str> {
        items.iter().map(|i| i.id.as_str()).collect()
    }

    #[test]
    fn writes_while_publishing_are_published_once_with_the_walk_state() {
        let mut store = Store::open_memory().unwrap();
        let at = Timestamp::UNIX_EPOCH;
        store
            .put_items(&[item(1, "before"), item(2, "before")], at)
            .unwrap();
        store.start_mirror_publishing(3).unwrap();
        assert_eq!(store.mirror_publishing().unwrap(), Some(3));
        assert!(
            store.mirror_publication(100).unwrap().is_empty(),
            "{:?}",
            "nothing noted yet"
        );
        // Added, changed and unchanged items: each is noted (the unchanged one was stored
        // before this turn began, and the mirror may not have it).
        store
            .put_items(&[item(1, "before"), item(2, "after"), item(3, "new")], at)
            .unwrap();
        store
            .write(|tx| {
                crate::sync_state::set_head(
                    tx,
                    "new",
                    &crate::sync_state::Key::of(&item(3, "new")),
                    7,
                )
            })
            .unwrap();
        let first = store.mirror_publication(100).unwrap();
        assert_eq!(ids(&first.items), ["fb_1", "fb_2", "fb_3"]);
        assert_eq!(first.items[1].message, "after");
        assert!(first.removed.is_empty());
        assert_eq!(first.walk, Some(store.walk_state().unwrap()));
        assert!(!store.walk_state().unwrap().is_empty());
        // A part of the notes has no walk state: it must not run ahead of the mirror.
        let part = store.mirror_publication(1).unwrap();
        assert_eq!(ids(&part.items), ["fb_1"]);
        assert_eq!(part.walk, None);
        // Removed, and one changed again after the publication was read.
        store.write(|tx| forget_id(tx, "fb_1").map(|_| ())).unwrap();
        store.put_items(&[item(3, "newer")], at).unwrap();
        store.mirror_published(&first).unwrap();
        let second = store.mirror_publication(100).unwrap();
        assert_eq!(ids(&second.items), ["fb_3"]);
        assert_eq!(second.items[0].message, "newer");
        assert_eq!(second.removed, ["fb_1"]);
        store.mirror_published(&second).unwrap();
        assert!(store.mirror_publication(100).unwrap().is_empty());
        // Another turn's end, or a settling with this turn's lease alive, leaves it noting.
        store.end_mirror_publishing(2).unwrap();
        store.settle_mirror_publishing(Some(3)).unwrap();
        assert_eq!(store.mirror_publishing().unwrap(), Some(3));
        // Stopped: writes are not noted; started again: old notes are forgotten.
        store.end_mirror_publishing(3).unwrap();
        assert_eq!(store.mirror_publishing().unwrap(), None);
        store.put_items(&[item(4, "off")], at).unwrap();
        assert!(store.mirror_publication(100).unwrap().is_empty());
        let sightings = [item(5, "on")];
        store.start_mirror_publishing(4).unwrap();
        store.put(&Sighting::listed_all(&sightings), at).unwrap();
        assert_eq!(ids(&store.mirror_publication(100).unwrap().items), ["fb_5"]);
        // Seeded: every stored item is noted (removed ones are not stored).
        store.seed_mirror_outbox().unwrap();
        let seeded = store.mirror_publication(100).unwrap();
        let mut seeded = ids(&seeded.items);
        seeded.sort_unstable();
        assert_eq!(seeded, ["fb_2", "fb_3", "fb_4", "fb_5"]);
        // A later lease is alive (this turn was killed before its end): its notes are nobody's.
        store.settle_mirror_publishing(Some(5)).unwrap();
        assert_eq!(store.mirror_publishing().unwrap(), None);
        assert!(store.mirror_publication(100).unwrap().is_empty());
        store.start_mirror_publishing(6).unwrap();
        store.settle_mirror_publishing(None).unwrap();
        assert_eq!(store.mirror_publishing().unwrap(), None);
    }
}
