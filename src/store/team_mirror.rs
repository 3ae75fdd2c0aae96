//! The team's shared mirror as this store follows it: the service's items the team's syncer
//! stored in the team's database, applied here in the order they were written there, each batch
//! with the position after it in one commit (`team_replica.mirror_seq`), so a follow that stops
//! at any moment resumes where the store is, never from zero and never with a hole. The items
//! are the service's as the list gives them: stored as a list page is.

use jiff::Timestamp;
use rusqlite::params;

use super::write::{Sighting, forget_id, put_in};
use super::{Store, StoreError};
use crate::api::Feedback;

impl Store {
    /// The number of the mirror's last write this store holds; `None` without a replica.
    pub fn team_mirror_position(&self) -> Result<Option<i64>, StoreError> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(
                "SELECT mirror_seq FROM team_replica WHERE one = 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Stores `items` read from the mirror and removes the items it marks `removed` (the
    /// service no longer has them), up to its write number `seq`, with that position, in one
    /// commit (which need not wait for the disk: the mirror can give them again). A position
    /// behind the stored one is not gone back to.
    pub fn team_mirror_apply(
        &mut self,
        items: &[Feedback],
        removed: &[String],
        seq: i64,
        at: Timestamp,
    ) -> Result<Applied, StoreError> {
        let sightings = Sighting::listed_all(items);
        self.write_refetchable(|tx| {
            let written = put_in(tx, &sightings, at)?;
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
            Ok(applied)
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
    use crate::api::Status;

    fn item(n: usize) -> Feedback {
        Feedback {
            id: crate::api::FeedbackId(format!("fb_{n}")),
            message: format!("message {n}"),
            reporter_email: None,
            status: Status::New,
            received_at: Timestamp::from_second(1_790_000_000 + i64::try_from(n).unwrap()).unwrap(),
            tags: Vec::new(),
            app: None,
            project: crate::api::ProjectRef {
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
        let written = store.team_mirror_apply(&items, &[], 5, at).unwrap();
        assert_eq!(written.added, 5);
        assert_eq!(store.team_mirror_position().unwrap(), Some(5));
        // Read again (a follow that stopped before its position was kept): nothing changes.
        let again = store.team_mirror_apply(&items[3..], &[], 5, at).unwrap();
        assert_eq!((again.added, again.changed), (0, 0));
        store.team_mirror_apply(&items[..1], &[], 2, at).unwrap();
        assert_eq!(store.team_mirror_position().unwrap(), Some(5));
        // The service no longer has two of them (one never stored here).
        let gone = store
            .team_mirror_apply(&[], &["fb_1".to_owned(), "fb_99".to_owned()], 6, at)
            .unwrap();
        assert_eq!(gone.removed, 1);
        assert!(store.item("fb_1").unwrap().is_none());
        assert_eq!(store.team_mirror_position().unwrap(), Some(6));
        // A replica started anew follows the mirror from its start.
        store.team_start_replica("billing", "ana").unwrap();
        assert_eq!(store.team_mirror_position().unwrap(), Some(0));
    }
}
