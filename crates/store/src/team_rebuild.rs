//! The replica read again from the start when the team's database is not the one it followed:
//! the team was dropped and made again under its name (it has another id), or its database was
//! restored from an earlier copy (the event the replica's position is after is gone, or is
//! another). What the team said is forgotten, with the done and snooze it laid into the triage
//! state; the outbox's unsent changes and the lost changes not yet reported are kept, and the
//! next catch-up reads every event again.

use std::collections::HashSet;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// Why the replica was read again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rebuilt {
    /// The team has another id than the one followed: it was dropped and made again, or the
    /// address now leads to another database's team of that name.
    OtherTeam,
    /// The team's events went back: the event at `seq`, which the replica had read, is gone or
    /// is another (a database restored from an earlier copy).
    WentBack { seq: i64 },
}

impl Rebuilt {
    /// What happened, for a warning line.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::OtherTeam => "the team's database holds another team of this name than the \
                                one this store followed (dropped and made again?)"
                .to_owned(),
            Self::WentBack { seq } => format!(
                "the team's database went back: event {seq}, which this store had read, is no \
                 longer there as it was (restored from an earlier copy?)"
            ),
        }
    }
}

impl Store {
    /// The id of the team's event at `seq`, when this store holds it.
    pub fn team_event_id_at(&self, seq: i64) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row(
                "SELECT event_id FROM team_events WHERE seq = ?1",
                [seq],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Records the id of the team the replica follows, where none is recorded yet (a replica
    /// made before stores kept it).
    pub fn team_record_instance(&mut self, instance: &str) -> Result<(), StoreError> {
        self.transact(|tx| {
            tx.execute(
                "UPDATE team_replica SET instance = ?1 WHERE one = 1 AND instance IS NULL",
                [instance],
            )?;
            Ok(())
        })
    }

    /// Forgets what the team said and starts the replica again from the first event of the
    /// team `instance`, in one transaction; the number of changes kept in the outbox.
    pub fn team_rebuild_replica(
        &mut self,
        instance: &str,
        now: Timestamp,
    ) -> Result<usize, StoreError> {
        self.transact(|tx| {
            let waiting: HashSet<String> = tx
                .prepare("SELECT DISTINCT item_id FROM team_outbox")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let laid: Vec<String> = tx
                .prepare(
                    "SELECT item_id FROM team_items WHERE done != 0 OR snoozed_until IS NOT NULL",
                )?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut deltas = super::write::counts::Deltas::default();
            // An item whose change waits shows that change until it is sent.
            for id in laid.iter().filter(|id| !waiting.contains(*id)) {
                super::triage::take_shared(tx, id, (false, None), now, &mut deltas)?;
            }
            deltas.apply(tx)?;
            tx.execute_batch(
                "DELETE FROM team_items; DELETE FROM team_labels; DELETE FROM team_events;
                 DELETE FROM team_notes; DELETE FROM team_links; DELETE FROM team_templates;",
            )?;
            tx.execute(
                "UPDATE team_replica SET seq = 0, caught_up_at = NULL, mirror_seq = 0,
                   instance = ?1
                 WHERE one = 1",
                params![instance],
            )?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)?;
            let kept: i64 = tx.query_row("SELECT count(*) FROM team_outbox", [], |r| r.get(0))?;
            Ok(usize::try_from(kept).unwrap_or(0))
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::{OutboxEntry, TeamBatch, TeamItemRecord, TriageChange};
    use feedback_core::team_event::{Change, EventChange, TeamEvent};

    fn at(seconds: i64) -> Timestamp {
        Timestamp::from_second(1_700_000_000 + seconds).unwrap()
    }

    fn event(seq: i64, item: &str) -> TeamEvent {
        TeamEvent {
            seq,
            event_id: format!("e{seq}"),
            member: "bo".to_owned(),
            item_id: item.to_owned(),
            change: EventChange::Known(Change::Done(true)),
            at: at(seq),
        }
    }

    fn done(item: &str, seq: i64) -> TeamItemRecord {
        TeamItemRecord {
            item_id: item.to_owned(),
            owner: Some("bo".to_owned()),
            labels: vec!["crash".to_owned()],
            done: true,
            snoozed_until: None,
            last_seq: seq,
        }
    }

    /// A store with items `id00000`.. and a replica of team `support` (id `first`) that read
    /// two events: bo marked `id00001` and `id00002` done; Ana's own change to `id00002` waits.
    fn replica() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("s.db")).unwrap();
        let items: Vec<_> = (0..4).map(feedback_sim::fixtures::item).collect();
        store
            .put_items(&items, feedback_sim::fixtures::now())
            .unwrap();
        store.team_start_replica("support", "ana").unwrap();
        store.team_record_instance("first").unwrap();
        let batch = TeamBatch {
            events: vec![event(1, "id00001"), event(2, "id00002")],
            items: vec![done("id00001", 1), done("id00002", 2)],
            seq: 2,
            caught_up: true,
        };
        store.team_apply(&batch, at(10)).unwrap();
        store
            .team_outbox_push(&[OutboxEntry {
                event_id: "mine".to_owned(),
                item_id: "id00002".to_owned(),
                change: Ok(Change::Claim),
                member: "ana".to_owned(),
                made_at: at(11),
            }])
            .unwrap();
        (dir, store)
    }

    fn is_done(store: &Store, id: &str) -> bool {
        store
            .triage_of(&[id])
            .unwrap()
            .get(id)
            .is_some_and(|t| t.done)
    }

    #[test]
    fn the_instance_is_recorded_once_and_the_event_at_a_position_is_read_back() {
        let (_dir, mut store) = replica();
        store.team_record_instance("second").unwrap();
        let replica = store.team_replica().unwrap().unwrap();
        assert_eq!(replica.instance.as_deref(), Some("first"), "kept");
        assert_eq!(store.team_event_id_at(2).unwrap().as_deref(), Some("e2"));
        assert_eq!(store.team_event_id_at(3).unwrap(), None);
    }

    #[test]
    fn a_rebuild_forgets_what_the_team_said_and_keeps_the_outbox() {
        let (_dir, mut store) = replica();
        assert!(is_done(&store, "id00001"));
        assert!(is_done(&store, "id00002"));
        assert_eq!(store.team_rebuild_replica("second", at(20)).unwrap(), 1);

        let replica = store.team_replica().unwrap().unwrap();
        assert_eq!(
            (
                replica.seq,
                replica.caught_up_at,
                replica.instance.as_deref()
            ),
            (0, None, Some("second"))
        );
        assert_eq!(store.team_mirror_position().unwrap(), Some(0));
        assert!(store.team_history("id00001").unwrap().is_empty());
        assert!(
            store
                .team_items(&["id00001".to_owned()])
                .unwrap()
                .is_empty()
        );
        // The done the old team laid is gone; the item whose own change waits keeps its state
        // until the change is sent.
        assert!(!is_done(&store, "id00001"));
        assert!(is_done(&store, "id00002"));
        assert_eq!(store.team_outbox().unwrap().len(), 1);
        // The store's own triage of an item the team never touched is left alone.
        store
            .set_triage(&["id00003".to_owned()], &TriageChange::Seen(true), at(21))
            .unwrap();
        store.team_rebuild_replica("third", at(22)).unwrap();
        assert!(store.triage_of(&["id00003"]).unwrap()["id00003"].seen);
    }
}
