//! The replies to reporters, kept before they are sent and after: the outbox that makes a
//! reply leave once and never twice. A reply is written `waiting`; the sender marks it
//! `sending` (committed) just before it hands it to the mail server, and `sent` once the server
//! accepted it (or `waiting` again, with why, when the server could not take it now; `failed`
//! when it refused it for good). A reply found `sending` by a sender starting (the process that
//! sent it was killed between the server's answer and its record) is `unknown`: never sent
//! again on its own, shown with what to check, sent again only when the user says so. A bulk
//! send (`batch`) holds one reply per address.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

/// Where a reply is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyState {
    /// Kept, to be sent (first, or again after a failure the server may get over).
    Waiting,
    /// Being handed to the mail server now.
    Sending,
    /// The mail server accepted it.
    Sent,
    /// Handed over when its sender was killed: it may or may not have left.
    Unknown,
    /// The mail server refused it for good (`why`).
    Failed,
}

impl ReplyState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Waiting => "waiting",
            Self::Sending => "sending",
            Self::Sent => "sent",
            Self::Unknown => "unknown",
            Self::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "waiting" => Self::Waiting,
            "sending" => Self::Sending,
            "sent" => Self::Sent,
            "failed" => Self::Failed,
            // A state this version does not write is one nobody may send again on its own.
            _ => Self::Unknown,
        }
    }
}

/// A reply to be kept: to one address, about one or more items of a send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReply {
    /// Made once (the message's id is made from it).
    pub reply_id: String,
    /// The send it is part of (a bulk reply: one reply per address).
    pub batch: String,
    /// The items it answers (the reporter's, among the send's), the first the one it is about.
    pub item_ids: Vec<String>,
    pub to: String,
    pub subject: String,
    pub body: String,
    /// The member who wrote it (none in no team).
    pub by: Option<String>,
}

/// A reply as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub reply_id: String,
    pub batch: String,
    pub item_ids: Vec<String>,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub by: Option<String>,
    pub state: ReplyState,
    pub made_at: Timestamp,
    pub tried_at: Option<Timestamp>,
    pub sent_at: Option<Timestamp>,
    pub tries: u32,
    /// Why the last try did not send it.
    pub why: Option<String>,
}

/// What [`Store::queue_replies`] kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Queued {
    /// Replies kept, in the order given.
    pub kept: usize,
    /// Addresses given twice in the send: their items joined the first reply to them.
    pub joined: usize,
}

const COLUMNS: &str = "reply_id, batch, item_ids, to_addr, subject, body, by, state, made_at, \
                       tried_at, sent_at, tries, why";

fn reply(r: &rusqlite::Row<'_>) -> rusqlite::Result<Reply> {
    let ids: String = r.get(2)?;
    let state: String = r.get(7)?;
    let time = |v: Option<i64>| v.and_then(|v| Timestamp::from_microsecond(v).ok());
    Ok(Reply {
        reply_id: r.get(0)?,
        batch: r.get(1)?,
        item_ids: serde_json::from_str(&ids).unwrap_or_default(),
        to: r.get(3)?,
        subject: r.get(4)?,
        body: r.get(5)?,
        by: r.get(6)?,
        state: ReplyState::parse(&state),
        made_at: time(r.get(8)?).unwrap_or_default(),
        tried_at: time(r.get(9)?),
        sent_at: time(r.get(10)?),
        tries: r.get(11)?,
        why: r.get(12)?,
    })
}

/// Keeps `r` in `state` (`Waiting`, or `Sent` by another program) made at `now`; a reply id
/// kept before is kept once. How many rows it added.
fn insert(
    tx: &rusqlite::Transaction<'_>,
    r: &NewReply,
    state: ReplyState,
    now: Timestamp,
) -> rusqlite::Result<usize> {
    let sent = (state == ReplyState::Sent).then(|| now.as_microsecond());
    tx.execute(
        "INSERT INTO replies (reply_id, batch, item_ids, to_addr, subject, body, by, state,
                              made_at, sent_at, tries)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (reply_id) DO NOTHING",
        params![
            r.reply_id,
            r.batch,
            serde_json::to_string(&r.item_ids).unwrap_or_default(),
            r.to,
            r.subject,
            r.body,
            r.by,
            state.as_str(),
            now.as_microsecond(),
            sent,
            i64::from(sent.is_some())
        ],
    )
}

impl Store {
    /// Keeps `replies` waiting to be sent, in one transaction: durable before the call returns.
    /// A reply to an address the send already has (any case) is not kept twice: its items join
    /// the reply kept. A reply id kept before is kept once.
    pub fn queue_replies(
        &mut self,
        replies: &[NewReply],
        now: Timestamp,
    ) -> Result<Queued, StoreError> {
        self.transact(|tx| {
            let mut queued = Queued::default();
            for r in replies {
                let existing: Option<(String, String)> = tx
                    .query_row(
                        "SELECT reply_id, item_ids FROM replies
                         WHERE batch = ?1 AND to_addr = ?2 COLLATE NOCASE",
                        params![r.batch, r.to],
                        |row| Ok((row.get(0)?, row.get(1)?)),
                    )
                    .optional()?;
                if let Some((reply_id, ids)) = existing {
                    if reply_id != r.reply_id {
                        let mut ids: Vec<String> = serde_json::from_str(&ids).unwrap_or_default();
                        for id in &r.item_ids {
                            if !ids.contains(id) {
                                ids.push(id.clone());
                            }
                        }
                        tx.execute(
                            "UPDATE replies SET item_ids = ?2 WHERE reply_id = ?1",
                            params![reply_id, serde_json::to_string(&ids).unwrap_or_default()],
                        )?;
                        queued.joined += 1;
                    }
                    continue;
                }
                queued.kept += insert(tx, r, ReplyState::Waiting, now)?;
            }
            // `has:`-like searches (`is:replied`) and the inbox's rows read replies.
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)?;
            Ok(queued)
        })
    }

    /// Records `replies` as sent at `now` by another program (the desktop's mail client, once
    /// the user said they went), with what the team is told of them, in one transaction.
    pub fn replies_sent_elsewhere(
        &mut self,
        replies: &[NewReply],
        now: Timestamp,
        share: &[super::OutboxEntry],
    ) -> Result<usize, StoreError> {
        self.transact(|tx| {
            let mut kept = 0;
            for r in replies {
                kept += insert(tx, r, ReplyState::Sent, now)?;
            }
            super::team::push_outbox(tx, share)?;
            super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)?;
            Ok(kept)
        })
    }

    /// Replies found `sending` when nobody sends (their sender ended before it recorded the
    /// server's answer) become `unknown`; how many. Call it only holding the sender's lock.
    pub fn replies_recover(&mut self) -> Result<usize, StoreError> {
        self.transact(|tx| {
            let found = tx.execute(
                "UPDATE replies SET state = 'unknown',
                   why = 'the program sending it ended before it recorded whether the mail \
                          server took it'
                 WHERE state = 'sending'",
                [],
            )?;
            if found > 0 {
                super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)?;
            }
            Ok(found)
        })
    }

    /// The oldest waiting reply, marked `sending` (committed) at `now`: the one to hand to the
    /// mail server next. `None` when none waits.
    pub fn reply_to_send(&mut self, now: Timestamp) -> Result<Option<Reply>, StoreError> {
        self.transact(|tx| {
            let next: Option<Reply> = tx
                .query_row(
                    &format!(
                        "SELECT {COLUMNS} FROM replies WHERE state = 'waiting' ORDER BY n LIMIT 1"
                    ),
                    [],
                    reply,
                )
                .optional()?;
            let Some(mut next) = next else {
                return Ok(None);
            };
            tx.execute(
                "UPDATE replies SET state = 'sending', tried_at = ?2, tries = tries + 1
                 WHERE reply_id = ?1",
                params![next.reply_id, now.as_microsecond()],
            )?;
            next.state = ReplyState::Sending;
            next.tried_at = Some(now);
            next.tries += 1;
            Ok(Some(next))
        })
    }

    /// Records what became of a reply being sent: `Sent` (at `now`), `Waiting` again (with
    /// `why`: to be tried later) or `Failed` (with `why`). Only a reply `sending` changes; a
    /// sent one puts `share` (what the team is told of it) in the team's outbox in the same
    /// transaction, so a reply that left is never left out of the team's history.
    pub fn reply_settled(
        &mut self,
        reply_id: &str,
        state: ReplyState,
        why: Option<&str>,
        now: Timestamp,
        share: &[super::OutboxEntry],
    ) -> Result<bool, StoreError> {
        self.transact(|tx| {
            let sent = (state == ReplyState::Sent).then(|| now.as_microsecond());
            let changed = tx.execute(
                "UPDATE replies SET state = ?2, why = ?3, sent_at = coalesce(?4, sent_at)
                 WHERE reply_id = ?1 AND state = 'sending'",
                params![reply_id, state.as_str(), why, sent],
            )? > 0;
            if changed && state == ReplyState::Sent && !share.is_empty() {
                super::team::push_outbox(tx, share)?;
            }
            if changed {
                super::write_counts::bump(tx, super::write_counts::TRIAGE_REV)?;
            }
            Ok(changed)
        })
    }

    /// Sends an `unknown` or `failed` reply again, as the user asked (they checked it did not
    /// arrive); whether there was one to send again.
    pub fn reply_retry(&mut self, reply_id: &str) -> Result<bool, StoreError> {
        self.transact(|tx| {
            Ok(tx.execute(
                "UPDATE replies SET state = 'waiting', why = NULL
                 WHERE reply_id = ?1 AND state IN ('unknown', 'failed')",
                [reply_id],
            )? > 0)
        })
    }

    /// How many replies wait to be sent.
    pub fn replies_waiting(&self) -> Result<usize, StoreError> {
        self.conn
            .query_row(
                "SELECT count(*) FROM replies WHERE state = 'waiting'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(|e| self.error(e))
    }

    /// The replies of one send, in the order kept.
    pub fn replies_of_batch(&self, batch: &str) -> Result<Vec<Reply>, StoreError> {
        self.replies_where("WHERE batch = ?1 ORDER BY n", batch)
    }

    /// The replies about one item (it is among their items), oldest first.
    pub fn replies_about(&self, item_id: &str) -> Result<Vec<Reply>, StoreError> {
        self.replies_where(
            "WHERE EXISTS (SELECT 1 FROM json_each(item_ids) WHERE value = ?1) ORDER BY n",
            item_id,
        )
    }

    /// Replies in `state`, oldest first.
    pub fn replies_in(&self, state: ReplyState) -> Result<Vec<Reply>, StoreError> {
        self.replies_where("WHERE state = ?1 ORDER BY n", state.as_str())
    }

    fn replies_where(&self, clause: &str, value: &str) -> Result<Vec<Reply>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM replies {clause}");
        let read = || -> rusqlite::Result<Vec<Reply>> {
            self.conn
                .prepare_cached(&sql)?
                .query_map([value], reply)?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(1_790_000_000 + second).unwrap()
    }

    fn new(id: &str, batch: &str, item: &str, to: &str) -> NewReply {
        NewReply {
            reply_id: id.to_owned(),
            batch: batch.to_owned(),
            item_ids: vec![item.to_owned()],
            to: to.to_owned(),
            subject: "Re: your feedback".to_owned(),
            body: "Thanks".to_owned(),
            by: None,
        }
    }

    #[test]
    fn a_send_keeps_one_reply_per_address_and_each_leaves_once() {
        let mut store = Store::open_memory().unwrap();
        let queued = store
            .queue_replies(
                &[
                    new("r1", "b", "fb_1", "ana@example.org"),
                    new("r2", "b", "fb_2", "ANA@example.org"),
                    new("r3", "b", "fb_3", "bo@example.org"),
                ],
                at(0),
            )
            .unwrap();
        assert_eq!(queued, Queued { kept: 2, joined: 1 });
        // The same send kept again (a retried command) changes nothing.
        let again = store
            .queue_replies(&[new("r1", "b", "fb_1", "ana@example.org")], at(1))
            .unwrap();
        assert_eq!(again, Queued::default());
        let batch = store.replies_of_batch("b").unwrap();
        assert_eq!(batch[0].item_ids, ["fb_1", "fb_2"]);
        assert_eq!(store.replies_about("fb_2").unwrap().len(), 1);

        let first = store.reply_to_send(at(2)).unwrap().unwrap();
        assert_eq!((first.reply_id.as_str(), first.tries), ("r1", 1));
        // While it is being sent, the next is the other one.
        let second = store.reply_to_send(at(3)).unwrap().unwrap();
        assert_eq!(second.reply_id, "r3");
        assert!(store.reply_to_send(at(4)).unwrap().is_none());
        assert!(
            store
                .reply_settled("r1", ReplyState::Sent, None, at(5), &[])
                .unwrap()
        );
        assert!(
            !store
                .reply_settled("r1", ReplyState::Waiting, Some("x"), at(6), &[])
                .unwrap()
        );
        store
            .reply_settled("r3", ReplyState::Waiting, Some("421 try later"), at(6), &[])
            .unwrap();
        let again = store.reply_to_send(at(7)).unwrap().unwrap();
        assert_eq!((again.reply_id.as_str(), again.tries), ("r3", 2));
        assert_eq!(again.why.as_deref(), Some("421 try later"));
        store
            .reply_settled(
                "r3",
                ReplyState::Failed,
                Some("550 no such user"),
                at(8),
                &[],
            )
            .unwrap();
        let sent = store.replies_in(ReplyState::Sent).unwrap();
        assert_eq!(sent[0].sent_at, Some(at(5)));
        assert_eq!(store.replies_in(ReplyState::Failed).unwrap().len(), 1);
    }

    #[test]
    fn a_reply_whose_sender_died_is_unknown_and_leaves_again_only_when_asked() {
        let mut store = Store::open_memory().unwrap();
        store
            .queue_replies(&[new("r1", "b", "fb_1", "a@example.org")], at(0))
            .unwrap();
        store.reply_to_send(at(1)).unwrap().unwrap();
        // The process ended here: the next sender finds it sending.
        assert_eq!(store.replies_recover().unwrap(), 1);
        assert!(
            store.reply_to_send(at(2)).unwrap().is_none(),
            "never sent again on its own"
        );
        let unknown = store.replies_in(ReplyState::Unknown).unwrap();
        assert!(
            unknown[0]
                .why
                .as_deref()
                .unwrap()
                .contains("ended before it recorded")
        );
        assert!(store.reply_retry("r1").unwrap());
        assert_eq!(store.reply_to_send(at(3)).unwrap().unwrap().tries, 2);
        assert!(
            !store.reply_retry("r1").unwrap(),
            "a reply being sent is not sent again"
        );
    }
}
