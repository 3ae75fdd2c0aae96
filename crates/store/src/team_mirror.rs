//! The team's shared mirror as this store follows it: the service's items the team's syncer
//! stored in the team's database, applied here in the order they were written there, each batch
//! with the position after it in one commit (`team_replica.mirror_seq`), so a follow that stops
//! at any moment resumes where the store is, never from zero and never with a hole. The items
//! are the service's as the list gives them: stored as a list page is.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::write::{Sighting, forget_id};
use super::{Store, StoreError};
use feedback_api::{Extras, Feedback};

impl Store {
    /// The number of the mirror's last write this store holds; `None` without a replica.
    pub fn team_mirror_position(&self) -> Result<Option<i64>, StoreError> {
        self.conn
            .query_row(
                "SELECT mirror_seq FROM team_replica WHERE one = 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Stores `items` read from the mirror after its write number `after` and removes the
    /// items it marks `removed` (the service no longer has them), up to its write number
    /// `seq`, with that position, in one commit (which need not wait for the disk: the mirror
    /// can give them again). `None`, with nothing written, when the store's position is no
    /// longer `after`: another follow of this store moved it meanwhile, and a batch read
    /// before that may hold older copies than the store has now (or an item since removed).
    pub fn team_mirror_apply(
        &mut self,
        (items, extras): (&[Feedback], &[Option<Extras>]),
        removed: &[String],
        (after, seq): (i64, i64),
        at: Timestamp,
    ) -> Result<Option<Applied>, StoreError> {
        // Each item as a list page gives it, with what a member's store knew beyond that.
        let mut sightings = Sighting::listed_all(items);
        for (sighting, extras) in sightings.iter_mut().zip(extras) {
            if let Some(extras) = extras {
                sighting.metadata = Some(&extras.metadata);
                sighting.delivery = extras.delivery.as_deref();
            }
        }
        self.write_refetchable(|tx| {
            let position: Option<i64> = tx
                .raw()
                .query_row(
                    "SELECT mirror_seq FROM team_replica WHERE one = 1",
                    [],
                    |r| r.get(0),
                )
                .optional()?;
            if position != Some(after) {
                return Ok(None);
            }
            let written = super::write::items::put_followed(tx.raw(), &sightings, at)?;
            let mut applied = Applied {
                added: written.added,
                changed: written.changed,
                removed: 0,
            };
            for id in removed {
                applied.removed += usize::from(forget_id(tx, id)?);
            }
            tx.raw().execute(
                "UPDATE team_replica SET mirror_seq = ?1 WHERE one = 1 AND mirror_seq < ?1",
                params![seq],
            )?;
            Ok(Some(applied))
        })
    }

    /// Moves the store's position in the mirror to `seq` (never back): the syncer's store,
    /// which holds what it published itself.
    pub fn team_mirror_reached(&mut self, seq: i64) -> Result<(), StoreError> {
        self.write_refetchable(|tx| {
            tx.raw().execute(
                "UPDATE team_replica SET mirror_seq = ?1 WHERE one = 1 AND mirror_seq < ?1",
                params![seq],
            )?;
            Ok(())
        })
    }
}

/// What a batch of the mirror changed in the store.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Applied {
    /// Items the store did not hold.
    pub added: usize,
    /// Stored items whose copy changed.
    pub changed: usize,
    /// Stored items removed.
    pub removed: usize,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_api::Status;

    fn item(n: usize) -> Feedback {
        Feedback {
            id: feedback_api::FeedbackId(format!("fb_{n}")),
            message: format!("message {n}"),
            reporter_email: None,
            status: Status::New,
            received_at: Timestamp::from_second(1_790_000_000 + i64::try_from(n).unwrap()).unwrap(),
            tags: Vec::new(),
            app: None,
            project: feedback_api::ProjectRef {
                id: "prj_1".into(),
                name: "Acme".into(),
            },
        }
    }

    #[test]
    fn items_and_their_position_are_stored_together_and_never_go_back() {
        let mut store = Store::open_memory().unwrap();
        let at = Timestamp::UNIX_EPOCH;
        assert_eq!(store.team_mirror_position().unwrap(), None, "no replica");
        store.team_start_replica("support", "ana").unwrap();
        assert_eq!(store.team_mirror_position().unwrap(), Some(0));
        let items: Vec<Feedback> = (0..5).map(item).collect();
        let written = store
            .team_mirror_apply((&items, &[]), &[], (0, 5), at)
            .unwrap();
        assert_eq!(written.unwrap().added, 5);
        assert_eq!(store.team_mirror_position().unwrap(), Some(5));
        // A batch read from before the store's position (another follow of this store went
        // further meanwhile) is not applied, so its older copies never replace newer ones.
        assert_eq!(
            store
                .team_mirror_apply((&items[3..], &[]), &[], (2, 5), at)
                .unwrap(),
            None
        );
        assert_eq!(store.team_mirror_position().unwrap(), Some(5));
        // The service no longer has two of them (one never stored here).
        let gone = store
            .team_mirror_apply(
                (&[], &[]),
                &["fb_1".to_owned(), "fb_99".to_owned()],
                (5, 6),
                at,
            )
            .unwrap()
            .unwrap();
        assert_eq!(gone.removed, 1);
        assert!(store.item("fb_1").unwrap().is_none());
        assert_eq!(store.team_mirror_position().unwrap(), Some(6));
        // A stale batch that still held the removed item does not bring it back.
        assert_eq!(
            store
                .team_mirror_apply((&items[..2], &[]), &[], (4, 5), at)
                .unwrap(),
            None
        );
        assert!(store.item("fb_1").unwrap().is_none());
        // Items read from the mirror are never noted for it, even while this store publishes.
        store.start_mirror_publishing(1).unwrap();
        let more: Vec<Feedback> = (10..12).map(item).collect();
        store
            .team_mirror_apply((&more, &[]), &[], (6, 8), at)
            .unwrap()
            .unwrap();
        assert!(store.mirror_publication(10).unwrap().is_empty());
        // An item with what a member's store knew beyond its list fields lands with it.
        let extras = feedback_api::Extras {
            metadata: feedback_api::Metadata {
                built_in: [("os".to_owned(), "iOS 18".to_owned())].into(),
                ..feedback_api::Metadata::default()
            },
            delivery: Some(Vec::new()),
        };
        store
            .team_mirror_apply((&more[..1], &[Some(extras.clone())]), &[], (8, 9), at)
            .unwrap()
            .unwrap();
        let (_, stored) = store.item_with_extras("fb_10").unwrap().unwrap();
        assert_eq!(stored, Some(extras));
        // The syncer's store moves its position to what it published, never back.
        store.team_mirror_reached(12).unwrap();
        store.team_mirror_reached(7).unwrap();
        assert_eq!(store.team_mirror_position().unwrap(), Some(12));
        // A replica started anew follows the mirror from its start.
        store.team_start_replica("billing", "ana").unwrap();
        assert_eq!(store.team_mirror_position().unwrap(), Some(0));
    }
}
