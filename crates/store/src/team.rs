//! This store's replica of the team's shared triage state, and its outbox. The team's database
//! is the truth; what it said is kept here after a position (`team_replica`), so the inbox and
//! the commands read owners, labels, notes and history locally, instantly and offline. A
//! change made here goes to the outbox in the order made, durably, before it is shown; it
//! leaves the outbox when the team has it (or refused it: then it is kept in `team_lost` until
//! reported). The store keeps a change as the team's own text (`change`): it does not read it.

use feedback_core::team_event::{Change, EventChange, TeamEvent};
use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, params};

use super::{Store, StoreError};

/// Where this store's replica is in the team's events: the team and member it mirrors, and
/// the number of the last event read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaPosition {
    pub team: String,
    pub member: String,
    pub seq: i64,
    /// When the replica last read everything there was.
    pub caught_up_at: Option<Timestamp>,
    /// The id made with the team it follows (`None` until a connection recorded it).
    pub instance: Option<String>,
}

/// One item's shared state as the team last said it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamItemRecord {
    pub item_id: String,
    pub owner: Option<String>,
    pub labels: Vec<String>,
    /// Done and snoozed are the team's: laid into this store's triage state (`store::triage`),
    /// where the views read them.
    pub done: bool,
    pub snoozed_until: Option<Timestamp>,
    pub last_seq: i64,
}

/// A note's version as the team recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamNoteRecord {
    pub note_id: String,
    pub seq: i64,
    pub author: String,
    pub body: String,
    pub at: Timestamp,
}

/// What one read from the team brings: its events, the state of the items they touched, and
/// the position after them.
#[derive(Debug, Clone, Default)]
pub struct TeamBatch {
    /// The events, each kept once; a note among them is kept as a version of its note too.
    pub events: Vec<TeamEvent>,
    pub items: Vec<TeamItemRecord>,
    /// The number of the last event read.
    pub seq: i64,
    /// True when nothing was left to read after this batch.
    pub caught_up: bool,
}

/// A change made here and not yet sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub event_id: String,
    pub item_id: String,
    /// The change, or the text of one this version cannot read (a newer version wrote it: it
    /// is reported lost, never sent as something else or dropped unsaid).
    pub change: Result<Change, UnreadableChange>,
    /// The member who made it (shown as its owner while it waits, for a claim).
    pub member: String,
    pub made_at: Timestamp,
}

/// An outbox's change this version cannot read: its text as kept, and why it does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableChange {
    pub text: String,
    pub why: String,
}

/// The outbox's text of `change`, its serde JSON (the store's searches read it: `$.note.body`,
/// `$.assign.to`).
fn change_text(change: &Result<Change, UnreadableChange>) -> String {
    match change {
        Ok(change) => serde_json::to_string(change).unwrap_or_default(),
        Err(unreadable) => unreadable.text.clone(),
    }
}

/// The outbox's change kept as `text`.
fn change_of(text: String) -> Result<Change, UnreadableChange> {
    serde_json::from_str(&text).map_err(|error| UnreadableChange {
        why: error.to_string(),
        text,
    })
}

/// A change the team refused, kept until it is reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostChange {
    pub event_id: String,
    pub item_id: String,
    pub change: String,
    pub why: String,
    pub at: Timestamp,
}

/// Whether the replica could start for a team and member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplicaStart {
    /// The replica is this team's and member's (kept, or started empty).
    Ready,
    /// The store holds changes not yet sent to another team or as another member: nothing was
    /// changed, so they are not lost.
    OtherTeamPending {
        team: String,
        member: String,
        pending: usize,
    },
}

impl Store {
    /// Where the replica is, when this store has one.
    pub fn team_replica(&self) -> Result<Option<ReplicaPosition>, StoreError> {
        self.conn
            .query_row(
                "SELECT team, member, seq, caught_up_at, instance FROM team_replica WHERE one = 1",
                [],
                |r| {
                    Ok(ReplicaPosition {
                        team: r.get(0)?,
                        member: r.get(1)?,
                        seq: r.get(2)?,
                        caught_up_at: r.get::<_, Option<i64>>(3)?.and_then(micros),
                        instance: r.get(4)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Makes the replica `team`'s as seen by `member`: kept when it is already theirs, else
    /// emptied and started from the first event. Refused, changing nothing, while changes made
    /// for another team or member wait to be sent.
    pub fn team_start_replica(
        &mut self,
        team: &str,
        member: &str,
    ) -> Result<ReplicaStart, StoreError> {
        self.transact(|tx| {
            let current: Option<(String, String)> = tx
                .query_row(
                    "SELECT team, member FROM team_replica WHERE one = 1",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            match current {
                Some((t, m)) if t == team && m == member => return Ok(ReplicaStart::Ready),
                Some((t, m)) => {
                    let pending = count(tx, "SELECT count(*) FROM team_outbox")?;
                    if pending > 0 {
                        return Ok(ReplicaStart::OtherTeamPending {
                            team: t,
                            member: m,
                            pending,
                        });
                    }
                }
                None => {}
            }
            tx.execute_batch(
                "DELETE FROM team_items; DELETE FROM team_labels; DELETE FROM team_events;
                 DELETE FROM team_notes; DELETE FROM team_links; DELETE FROM team_templates; DELETE FROM team_lost;
                 DELETE FROM team_replica;",
            )?;
            tx.execute(
                "INSERT INTO team_replica (one, team, member, seq) VALUES (1, ?1, ?2, 0)",
                params![team, member],
            )?;
            Ok(ReplicaStart::Ready)
        })
    }

    /// Stores what one read from the team brought, and its position, in one transaction: an
    /// event stored before is kept once; an item's state is replaced only by a newer one (by
    /// the team's sequence of the event that last changed it).
    pub fn team_apply(&mut self, batch: &TeamBatch, now: Timestamp) -> Result<(), StoreError> {
        self.transact(|tx| {
            {
                let mut event = tx.prepare_cached(
                    "INSERT INTO team_events (seq, event_id, member, item_id, kind, body, at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
                )?;
                let mut note = tx.prepare_cached(
                    "INSERT INTO team_notes (note_id, seq, item_id, author, body, at)
                     SELECT ?2, seq, item_id, member, ?3, at FROM team_events WHERE seq = ?1
                     ON CONFLICT DO NOTHING",
                )?;
                for e in &batch.events {
                    let new = event.execute(params![
                        e.seq,
                        e.event_id,
                        e.member,
                        e.item_id,
                        e.change.kind(),
                        e.change.body_text(),
                        e.at.as_microsecond()
                    ])? > 0;
                    // An event stored before was laid in when it was first read.
                    match e.change.known() {
                        Some(Change::Note { note_id, body }) => {
                            note.execute(params![e.seq, note_id, body])?;
                        }
                        Some(Change::Link(link)) if new => {
                            super::links::team_linked(
                                tx, &e.item_id, link, &e.member, e.at, e.seq,
                            )?;
                        }
                        Some(Change::Unlink { url }) if new => {
                            super::links::team_unlinked(tx, &e.item_id, url, e.seq)?;
                        }
                        _ => {}
                    }
                }
            }
            let waiting: std::collections::HashSet<String> = tx
                .prepare_cached("SELECT DISTINCT item_id FROM team_outbox")?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut deltas = super::write::counts::Deltas::default();
            for item in &batch.items {
                // A change of this member's still waiting is what the item shows until sent.
                if put_item(tx, item)? && !waiting.contains(&item.item_id) {
                    let shared = (item.done, item.snoozed_until);
                    super::triage::take_shared(tx, &item.item_id, shared, now, &mut deltas)?;
                }
            }
            deltas.apply(tx)?;
            tx.execute(
                "UPDATE team_replica SET seq = ?1,
                   caught_up_at = CASE WHEN ?2 THEN ?3 ELSE caught_up_at END
                 WHERE one = 1",
                params![batch.seq, batch.caught_up, now.as_microsecond()],
            )?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)
        })
    }

    /// The shared state of these items as the team last said it (items it never changed are
    /// left out).
    pub fn team_items(&self, item_ids: &[String]) -> Result<Vec<TeamItemRecord>, StoreError> {
        let read = || -> rusqlite::Result<Vec<TeamItemRecord>> {
            let mut select = self.conn.prepare_cached(
                "SELECT item_id, owner, labels, done, snoozed_until, last_seq FROM team_items
                 WHERE item_id = ?1",
            )?;
            let mut found = Vec::new();
            for id in item_ids {
                if let Some(item) = select.query_row([id], item_record).optional()? {
                    found.push(item);
                }
            }
            Ok(found)
        };
        read().map_err(|e| self.error(e))
    }

    /// Every event of one item, oldest first (its history).
    pub fn team_history(&self, item_id: &str) -> Result<Vec<TeamEvent>, StoreError> {
        self.team_events_where("WHERE item_id = ?1 ORDER BY seq", item_id)
    }

    /// The `reply` events of one item, oldest first (the replies teammates sent).
    pub fn team_replies(&self, item_id: &str) -> Result<Vec<TeamEvent>, StoreError> {
        self.team_events_where(
            "WHERE item_id = ?1 AND kind = 'reply' ORDER BY seq",
            item_id,
        )
    }

    /// The `limit` newest events, oldest first.
    pub fn team_recent(&self, limit: usize) -> Result<Vec<TeamEvent>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX).to_string();
        let mut events = self.team_events_where("ORDER BY seq DESC LIMIT ?1", &limit)?;
        events.reverse();
        Ok(events)
    }

    fn team_events_where(&self, clause: &str, value: &str) -> Result<Vec<TeamEvent>, StoreError> {
        let sql = format!(
            "SELECT seq, event_id, member, item_id, kind, body, at FROM team_events {clause}"
        );
        let read = || -> rusqlite::Result<Vec<TeamEvent>> {
            self.conn
                .prepare_cached(&sql)?
                .query_map([value], |r| {
                    let (kind, body): (String, String) = (r.get(4)?, r.get(5)?);
                    Ok(TeamEvent {
                        seq: r.get(0)?,
                        event_id: r.get(1)?,
                        member: r.get(2)?,
                        item_id: r.get(3)?,
                        change: EventChange::decode(&kind, &body),
                        at: micros(r.get(6)?).unwrap_or_default(),
                    })
                })?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// Every version of every note of one item, oldest first.
    pub fn team_notes(&self, item_id: &str) -> Result<Vec<TeamNoteRecord>, StoreError> {
        let read = || -> rusqlite::Result<Vec<TeamNoteRecord>> {
            self.conn
                .prepare_cached(
                    "SELECT note_id, seq, author, body, at FROM team_notes WHERE item_id = ?1
                     ORDER BY seq",
                )?
                .query_map([item_id], |r| {
                    Ok(TeamNoteRecord {
                        note_id: r.get(0)?,
                        seq: r.get(1)?,
                        author: r.get(2)?,
                        body: r.get(3)?,
                        at: micros(r.get(4)?).unwrap_or_default(),
                    })
                })?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// Puts changes in the outbox, in this order, in one transaction: each is durable before
    /// the call returns. An event id already there is kept once.
    pub fn team_outbox_push(&mut self, entries: &[OutboxEntry]) -> Result<(), StoreError> {
        self.transact(|tx| {
            push_outbox(tx, entries)?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)
        })
    }

    /// The changes waiting to be sent, in the order made.
    pub fn team_outbox(&self) -> Result<Vec<OutboxEntry>, StoreError> {
        let read = || -> rusqlite::Result<Vec<OutboxEntry>> {
            self.conn
                .prepare_cached(
                    "SELECT event_id, item_id, change, member, made_at FROM team_outbox ORDER BY n",
                )?
                .query_map([], outbox_entry)?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// How many changes wait to be sent (counted, not read).
    pub fn team_outbox_len(&self) -> Result<usize, StoreError> {
        self.conn
            .query_row("SELECT count(*) FROM team_outbox", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(|e| self.error(e))
    }

    /// The oldest changes waiting, at most `limit`, in the order made; only those of
    /// `items` when given.
    pub fn team_outbox_first(
        &self,
        limit: usize,
        items: Option<&[String]>,
    ) -> Result<Vec<OutboxEntry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let read = || -> rusqlite::Result<Vec<OutboxEntry>> {
            match items {
                None => self
                    .conn
                    .prepare_cached(
                        "SELECT event_id, item_id, change, member, made_at FROM team_outbox
                         ORDER BY n LIMIT ?1",
                    )?
                    .query_map([limit], outbox_entry)?
                    .collect(),
                Some(items) => {
                    let items = std::rc::Rc::new(
                        items
                            .iter()
                            .map(|id| rusqlite::types::Value::from(id.clone()))
                            .collect::<Vec<_>>(),
                    );
                    self.conn
                        .prepare_cached(
                            "SELECT event_id, item_id, change, member, made_at FROM team_outbox
                             WHERE item_id IN rarray(?1) ORDER BY n LIMIT ?2",
                        )?
                        .query_map(params![items, limit], outbox_entry)?
                        .collect()
                }
            }
        };
        read().map_err(|e| self.error(e))
    }

    /// [`Store::team_outbox_settle`] of many changes, in one transaction: each event id with
    /// why the team refused it, if it did.
    pub fn team_outbox_settle_all(
        &mut self,
        settled: &[(String, Option<String>)],
        now: Timestamp,
    ) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut deltas = super::write::counts::Deltas::default();
            for (event_id, lost) in settled {
                settle_one(tx, event_id, lost.as_deref(), now, &mut deltas)?;
            }
            deltas.apply(tx)?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)
        })
    }

    /// Takes a change out of the outbox once the team has it; `lost`: the team refused it (why),
    /// and it is kept in the lost changes until reported.
    pub fn team_outbox_settle(
        &mut self,
        event_id: &str,
        lost: Option<&str>,
        now: Timestamp,
    ) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut deltas = super::write::counts::Deltas::default();
            settle_one(tx, event_id, lost, now, &mut deltas)?;
            deltas.apply(tx)?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)
        })
    }

    /// The changes the team refused and not yet reported, oldest first.
    pub fn team_lost(&self) -> Result<Vec<LostChange>, StoreError> {
        let read = || -> rusqlite::Result<Vec<LostChange>> {
            self.conn
                .prepare_cached(
                    "SELECT event_id, item_id, change, why, at FROM team_lost ORDER BY at, event_id",
                )?
                .query_map([], |r| {
                    Ok(LostChange {
                        event_id: r.get(0)?,
                        item_id: r.get(1)?,
                        change: r.get(2)?,
                        why: r.get(3)?,
                        at: micros(r.get(4)?).unwrap_or_default(),
                    })
                })?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// Forgets lost changes once they were reported.
    pub fn team_lost_reported(&mut self, event_ids: &[String]) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut delete = tx.prepare_cached("DELETE FROM team_lost WHERE event_id = ?1")?;
            for id in event_ids {
                delete.execute([id])?;
            }
            Ok(())
        })
    }
}

/// Puts `entries` in the outbox, in this order (an event id already there is kept once).
/// One change out of the outbox; kept among the lost changes when `lost` says why.
fn settle_one(
    tx: &Transaction<'_>,
    event_id: &str,
    lost: Option<&str>,
    now: Timestamp,
    deltas: &mut super::write::counts::Deltas,
) -> rusqlite::Result<()> {
    let item: Option<String> = tx
        .prepare_cached("SELECT item_id FROM team_outbox WHERE event_id = ?1")?
        .query_row([event_id], |r| r.get(0))
        .optional()?;
    if let Some(why) = lost {
        tx.prepare_cached(
            "INSERT INTO team_lost (event_id, item_id, change, why, at)
             SELECT event_id, item_id, change, ?2, ?3 FROM team_outbox WHERE event_id = ?1
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![event_id, why, now.as_microsecond()])?;
    }
    tx.prepare_cached("DELETE FROM team_outbox WHERE event_id = ?1")?
        .execute([event_id])?;
    match item {
        Some(item) => show_team_state(tx, &item, event_id, lost.is_some(), now, deltas),
        None => Ok(()),
    }
}

/// Once an item's last waiting change has left the outbox, the item shows the team's done and
/// snooze, where the replica holds the team's state from after the change: a refused change
/// changed nothing, and a change whose event the replica has read is in the state it holds.
/// (A catch-up that read the item while the change waited left the item as the change made
/// it; without this, a teammate's done read meanwhile would never show.) Otherwise the
/// catch-up that reads the change's event lays the state.
fn show_team_state(
    tx: &Transaction<'_>,
    item: &str,
    event_id: &str,
    refused: bool,
    now: Timestamp,
    deltas: &mut super::write::counts::Deltas,
) -> rusqlite::Result<()> {
    let waiting: bool = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM team_outbox WHERE item_id = ?1)")?
        .query_row([item], |r| r.get(0))?;
    if waiting {
        return Ok(());
    }
    let read = refused
        || tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM team_events WHERE event_id = ?1)")?
            .query_row([event_id], |r| r.get::<_, bool>(0))?;
    if !read {
        return Ok(());
    }
    let state: Option<(bool, Option<i64>)> = tx
        .prepare_cached("SELECT done, snoozed_until FROM team_items WHERE item_id = ?1")?
        .query_row([item], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((done, snoozed_until)) = state {
        super::triage::take_shared(
            tx,
            item,
            (done, snoozed_until.and_then(micros)),
            now,
            deltas,
        )?;
    }
    Ok(())
}

fn outbox_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<OutboxEntry> {
    Ok(OutboxEntry {
        event_id: r.get(0)?,
        item_id: r.get(1)?,
        change: change_of(r.get(2)?),
        member: r.get(3)?,
        made_at: micros(r.get(4)?).unwrap_or_default(),
    })
}

pub(super) fn push_outbox(tx: &Transaction<'_>, entries: &[OutboxEntry]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO team_outbox (event_id, item_id, change, member, made_at)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (event_id) DO NOTHING",
    )?;
    for e in entries {
        insert.execute(params![
            e.event_id,
            e.item_id,
            change_text(&e.change),
            e.member,
            e.made_at.as_microsecond()
        ])?;
    }
    Ok(())
}

/// Replaces an item's state unless the stored one is as new (the team's sequence of the event
/// that last changed it names the state), with its rows in `team_labels`; true when replaced.
fn put_item(tx: &Transaction<'_>, item: &TeamItemRecord) -> rusqlite::Result<bool> {
    let labels = serde_json::to_string(&item.labels).unwrap_or_else(|_| "[]".to_owned());
    let changed = tx
        .prepare_cached(
            "INSERT INTO team_items (item_id, owner, labels, done, snoozed_until, last_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (item_id) DO UPDATE SET owner = excluded.owner,
               labels = excluded.labels, done = excluded.done,
               snoozed_until = excluded.snoozed_until, last_seq = excluded.last_seq
             WHERE excluded.last_seq > team_items.last_seq",
        )?
        .execute(params![
            item.item_id,
            item.owner,
            labels,
            item.done,
            item.snoozed_until.map(Timestamp::as_second),
            item.last_seq
        ])?;
    if changed == 0 {
        return Ok(false);
    }
    tx.prepare_cached("DELETE FROM team_labels WHERE item_id = ?1")?
        .execute([&item.item_id])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO team_labels (label, item_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
    )?;
    for label in &item.labels {
        insert.execute(params![label, item.item_id])?;
    }
    Ok(true)
}

fn item_record(r: &rusqlite::Row<'_>) -> rusqlite::Result<TeamItemRecord> {
    let labels: String = r.get(2)?;
    Ok(TeamItemRecord {
        item_id: r.get(0)?,
        owner: r.get(1)?,
        labels: serde_json::from_str(&labels).unwrap_or_default(),
        done: r.get(3)?,
        snoozed_until: r
            .get::<_, Option<i64>>(4)?
            .and_then(|s| Timestamp::from_second(s).ok()),
        last_seq: r.get(5)?,
    })
}

fn count(tx: &Transaction<'_>, sql: &str) -> rusqlite::Result<usize> {
    tx.query_row(sql, [], |r| r.get::<_, i64>(0))
        .map(|n| usize::try_from(n).unwrap_or(0))
}

fn micros(value: i64) -> Option<Timestamp> {
    Timestamp::from_microsecond(value).ok()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(second).unwrap()
    }

    fn event(seq: i64, item: &str, change: Change) -> TeamEvent {
        TeamEvent {
            seq,
            event_id: format!("ev{seq}"),
            member: "ana".to_owned(),
            item_id: item.to_owned(),
            change: EventChange::Known(change),
            at: at(seq),
        }
    }

    fn item(id: &str, owner: Option<&str>, labels: &[&str], seq: i64) -> TeamItemRecord {
        TeamItemRecord {
            item_id: id.to_owned(),
            owner: owner.map(str::to_owned),
            labels: labels.iter().map(|l| (*l).to_owned()).collect(),
            done: false,
            snoozed_until: None,
            last_seq: seq,
        }
    }

    fn waiting(n: usize, item: &str) -> OutboxEntry {
        OutboxEntry {
            event_id: format!("e{n}"),
            item_id: item.to_owned(),
            change: Ok(Change::Claim),
            member: "ana".to_owned(),
            made_at: at(i64::try_from(n).unwrap()),
        }
    }

    fn done_here(store: &Store, id: &str) -> bool {
        store
            .triage_of(&[id])
            .unwrap()
            .get(id)
            .is_some_and(|t| t.done)
    }

    /// A teammate's done read while this member's claim of the item waited: the item shows
    /// it once the claim leaves the outbox, refused or applied, whatever order the send and
    /// the catch-up ran in.
    #[test]
    fn a_done_read_while_a_change_waited_shows_once_the_change_is_settled() {
        for refused in [true, false] {
            let mut store = Store::open_memory().unwrap();
            store.team_start_replica("support", "ana").unwrap();
            store.team_outbox_push(&[waiting(1, "fb_1")]).unwrap();
            // Read meanwhile: Bo's done, and (when it was applied) the claim's own event.
            let mut events = vec![event(1, "fb_1", Change::Done(true))];
            if !refused {
                events.push(TeamEvent {
                    event_id: "e1".to_owned(),
                    ..event(2, "fb_1", Change::Claim)
                });
            }
            let done = TeamItemRecord {
                done: true,
                ..item("fb_1", Some("bo"), &[], 2)
            };
            let batch = TeamBatch {
                events,
                items: vec![done],
                seq: 2,
                caught_up: true,
            };
            store.team_apply(&batch, at(10)).unwrap();
            assert!(!done_here(&store, "fb_1"), "the waiting change shows first");
            let lost = refused.then(|| "bo claimed this".to_owned());
            store
                .team_outbox_settle_all(&[("e1".to_owned(), lost)], at(11))
                .unwrap();
            assert!(done_here(&store, "fb_1"), "refused: {refused}");
        }
    }

    /// An applied change whose event the replica has not read yet leaves the item as the
    /// change made it: the catch-up that reads the event brings the state after it.
    #[test]
    fn an_applied_change_not_yet_read_leaves_the_item_as_it_shows() {
        let mut store = Store::open_memory().unwrap();
        store.team_start_replica("support", "ana").unwrap();
        let older = TeamBatch {
            items: vec![TeamItemRecord {
                done: true,
                ..item("fb_1", None, &[], 1)
            }],
            seq: 1,
            ..TeamBatch::default()
        };
        store.team_apply(&older, at(5)).unwrap();
        assert!(done_here(&store, "fb_1"));
        // This member reopens it: shown at once, sent, applied, not yet read back.
        store
            .set_triage(
                &["fb_1".to_owned()],
                &crate::TriageChange::Done(false),
                at(6),
            )
            .unwrap();
        store.team_outbox_push(&[waiting(1, "fb_1")]).unwrap();
        store
            .team_outbox_settle_all(&[("e1".to_owned(), None)], at(7))
            .unwrap();
        assert!(!done_here(&store, "fb_1"), "not the replica's older done");
    }

    #[test]
    fn the_outbox_is_read_a_chunk_at_a_time_of_all_or_some_items_and_settled_at_once() {
        let mut store = Store::open_memory().unwrap();
        let entries: Vec<OutboxEntry> = (0..10)
            .map(|n| waiting(n, ["fb_1", "fb_2", "fb_3"][n % 3]))
            .collect();
        store.team_outbox_push(&entries).unwrap();
        assert_eq!(store.team_outbox_len().unwrap(), 10);
        let ids = |entries: Vec<OutboxEntry>| -> Vec<String> {
            entries.into_iter().map(|e| e.event_id).collect()
        };
        assert_eq!(
            ids(store.team_outbox_first(4, None).unwrap()),
            ["e0", "e1", "e2", "e3"]
        );
        let some = ["fb_2".to_owned(), "fb_3".to_owned()];
        assert_eq!(
            ids(store.team_outbox_first(5, Some(&some)).unwrap()),
            ["e1", "e2", "e4", "e5", "e7"]
        );
        store
            .team_outbox_settle_all(
                &[
                    ("e0".to_owned(), None),
                    ("e1".to_owned(), Some("bo claimed this".to_owned())),
                ],
                at(50),
            )
            .unwrap();
        assert_eq!(store.team_outbox_len().unwrap(), 8);
        assert_eq!(ids(store.team_outbox_first(1, None).unwrap()), ["e2"]);
        let lost = store.team_lost().unwrap();
        assert_eq!(lost.len(), 1);
        assert_eq!(
            (lost[0].event_id.as_str(), lost[0].why.as_str()),
            ("e1", "bo claimed this")
        );
    }

    #[test]
    fn a_batch_is_stored_with_its_position_and_an_older_state_never_replaces_a_newer() {
        let mut store = Store::open_memory().unwrap();
        assert_eq!(store.team_replica().unwrap(), None);
        assert_eq!(
            store.team_start_replica("support", "ana").unwrap(),
            ReplicaStart::Ready
        );
        let batch = TeamBatch {
            events: vec![
                event(1, "fb_1", Change::Claim),
                event(
                    2,
                    "fb_1",
                    Change::Note {
                        note_id: "n1".to_owned(),
                        body: "first look".to_owned(),
                    },
                ),
            ],
            items: vec![item("fb_1", Some("ana"), &["crash", "ios"], 2)],
            seq: 2,
            caught_up: true,
        };
        store.team_apply(&batch, at(100)).unwrap();
        // The same batch again (a read repeated after a crash) changes nothing.
        store.team_apply(&batch, at(100)).unwrap();
        let older = TeamBatch {
            items: vec![item("fb_1", None, &[], 1)],
            seq: 3,
            ..TeamBatch::default()
        };
        store.team_apply(&older, at(101)).unwrap();
        let items = store
            .team_items(&["fb_1".to_owned(), "fb_2".to_owned()])
            .unwrap();
        assert_eq!(items, [item("fb_1", Some("ana"), &["crash", "ios"], 2)]);
        assert_eq!(store.team_history("fb_1").unwrap().len(), 2);
        let notes = store.team_notes("fb_1").unwrap();
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].author, "ana");
        assert_eq!(notes[0].body, "first look");
        let position = store.team_replica().unwrap().unwrap();
        assert_eq!(position.seq, 3);
        assert_eq!(position.caught_up_at, Some(at(100)));
        assert_eq!(store.team_recent(1).unwrap()[0].seq, 2);
    }

    #[test]
    fn the_outbox_keeps_order_and_a_refused_change_until_reported() {
        let mut store = Store::open_memory().unwrap();
        let entry = |id: &str, item: &str| OutboxEntry {
            event_id: id.to_owned(),
            item_id: item.to_owned(),
            change: Ok(Change::Claim),
            member: "ana".to_owned(),
            made_at: at(5),
        };
        store
            .team_outbox_push(&[entry("e2", "fb_9"), entry("e1", "fb_1")])
            .unwrap();
        store.team_outbox_push(&[entry("e2", "fb_9")]).unwrap();
        let ids: Vec<String> = store
            .team_outbox()
            .unwrap()
            .into_iter()
            .map(|e| e.event_id)
            .collect();
        assert_eq!(ids, ["e2", "e1"]);
        store.team_outbox_settle("e2", None, at(6)).unwrap();
        store
            .team_outbox_settle("e1", Some("bo claimed it 3 s ago"), at(7))
            .unwrap();
        assert!(store.team_outbox().unwrap().is_empty());
        let lost = store.team_lost().unwrap();
        assert_eq!(lost.len(), 1);
        assert_eq!(lost[0].why, "bo claimed it 3 s ago");
        store.team_lost_reported(&["e1".to_owned()]).unwrap();
        assert!(store.team_lost().unwrap().is_empty());
    }

    #[test]
    fn another_team_starts_afresh_but_never_over_changes_not_yet_sent() {
        let mut store = Store::open_memory().unwrap();
        store.team_start_replica("support", "ana").unwrap();
        let batch = TeamBatch {
            items: vec![item("fb_1", Some("ana"), &[], 1)],
            seq: 1,
            ..TeamBatch::default()
        };
        store.team_apply(&batch, at(1)).unwrap();
        store
            .team_outbox_push(&[OutboxEntry {
                event_id: "e1".to_owned(),
                item_id: "fb_1".to_owned(),
                change: Ok(Change::Unclaim),
                member: "ana".to_owned(),
                made_at: at(2),
            }])
            .unwrap();
        assert_eq!(
            store.team_start_replica("billing", "ana").unwrap(),
            ReplicaStart::OtherTeamPending {
                team: "support".to_owned(),
                member: "ana".to_owned(),
                pending: 1
            }
        );
        assert_eq!(store.team_items(&["fb_1".to_owned()]).unwrap().len(), 1);
        store.team_outbox_settle("e1", None, at(3)).unwrap();
        assert_eq!(
            store.team_start_replica("billing", "ana").unwrap(),
            ReplicaStart::Ready
        );
        assert!(store.team_items(&["fb_1".to_owned()]).unwrap().is_empty());
        assert_eq!(store.team_replica().unwrap().unwrap().team, "billing");
    }

    #[test]
    fn the_teams_done_and_snooze_reach_the_triage_state_but_never_over_a_change_waiting() {
        let mut store = Store::open_memory().unwrap();
        store.team_start_replica("support", "ana").unwrap();
        store
            .set_triage(
                &["a".to_owned()],
                &crate::TriageChange::Starred(true),
                at(1),
            )
            .unwrap();
        store
            .team_outbox_push(&[OutboxEntry {
                event_id: "e1".to_owned(),
                item_id: "b".to_owned(),
                change: Ok(Change::Done(false)),
                member: "ana".to_owned(),
                made_at: at(2),
            }])
            .unwrap();
        let until = at(10_000);
        let shared = |id: &str| TeamItemRecord {
            item_id: id.to_owned(),
            done: true,
            snoozed_until: Some(until),
            last_seq: 1,
            ..TeamItemRecord::default()
        };
        let batch = TeamBatch {
            items: vec![shared("a"), shared("b")],
            seq: 1,
            ..TeamBatch::default()
        };
        store.team_apply(&batch, at(3)).unwrap();
        let a = store.triage("a").unwrap();
        assert!(a.done && a.starred, "the team's done, this member's star");
        assert_eq!(a.snoozed_until, Some(until));
        assert!(
            !store.triage("b").unwrap().done,
            "this member's change waits"
        );
        assert!(store.team_items(&["b".to_owned()]).unwrap()[0].done);
    }
}
