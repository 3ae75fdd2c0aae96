//! The user's triage state per item: seen, starred, snoozed until a time, done, a note. Local
//! only (the API changes nothing), in the `triage` table keyed by the server's id, so it
//! survives re-syncs, retention and a re-fetch of the item. Every change of a set of items is
//! one transaction that also bumps `meta.triage_rev`: another window on the same store compares
//! that counter at its refresh and reads its view again when it moved.

use std::collections::HashMap;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Transaction, params};

use super::write::counts::{Deltas, key_of};
use super::write::recounted;
use super::write_counts::TRIAGE_REV;
use super::{Store, StoreError};

/// Up to this many keys, [`Store::unseen_among`] looks each up without counting the seen
/// items first (a first screen is about 60).
const FEW_KEYS: usize = 1000;

/// One item's triage state; the default is an untouched item (unseen, nothing set).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Triage {
    pub seen: bool,
    pub starred: bool,
    /// Hidden from the default view until then (a time past means nothing any more).
    pub snoozed_until: Option<Timestamp>,
    pub done: bool,
    /// Raw text, as typed: sanitized where it is shown.
    pub note: Option<String>,
    /// When the state last changed (`None`: never).
    pub changed: Option<Timestamp>,
}

impl Triage {
    /// Snoozed into the future as of `now`.
    #[must_use]
    pub fn snoozed(&self, now: Timestamp) -> bool {
        self.snoozed_until.is_some_and(|until| until > now)
    }

    /// A note with text in it.
    #[must_use]
    pub fn has_note(&self) -> bool {
        self.note.as_deref().is_some_and(|n| !n.trim().is_empty())
    }
}

/// One change, applied to a set of items at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriageChange {
    Seen(bool),
    Starred(bool),
    Done(bool),
    /// Snooze until then; `None` wakes the item.
    Snooze(Option<Timestamp>),
    /// The note; `None` (or blank) removes it.
    Note(Option<String>),
}

/// Most bytes a note holds (a paste or a script's text beyond it is cut).
pub const NOTE_MAX_BYTES: usize = 16 * 1024;

/// `text` cut to [`NOTE_MAX_BYTES`] (on a character's boundary), and whether it was.
#[must_use]
pub fn capped_note(text: &str) -> (&str, bool) {
    let mut cut = text.len().min(NOTE_MAX_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    (&text[..cut], cut < text.len())
}

impl TriageChange {
    /// `state` with this change made.
    #[must_use]
    pub fn apply(&self, state: &Triage) -> Triage {
        let mut out = state.clone();
        match self {
            Self::Seen(on) => out.seen = *on,
            Self::Starred(on) => out.starred = *on,
            // Done marks seen (what is dealt with was seen); not done leaves seen as it is.
            Self::Done(on) => {
                out.done = *on;
                out.seen |= *on;
            }
            Self::Snooze(until) => out.snoozed_until = *until,
            Self::Note(note) => {
                out.note = note.clone().filter(|n| !n.trim().is_empty());
            }
        }
        out
    }

    /// A done or snooze change: it can take an item out of a view (or bring it back).
    #[must_use]
    pub fn hides(&self) -> bool {
        matches!(self, Self::Done(_) | Self::Snooze(_))
    }

    /// The change that puts back what this one changed of `before` (the one field, so that
    /// an undo keeps what changed since in the other fields: a seen mark, another window's
    /// note).
    #[must_use]
    pub fn inverse(&self, before: &Triage) -> Self {
        match self {
            Self::Seen(_) => Self::Seen(before.seen),
            Self::Starred(_) => Self::Starred(before.starred),
            Self::Done(_) => Self::Done(before.done),
            Self::Snooze(_) => Self::Snooze(before.snoozed_until),
            Self::Note(_) => Self::Note(before.note.clone()),
        }
    }
}

impl Store {
    /// Makes `change` to every item of `ids` in one transaction (all or nothing), at `at`.
    /// Returns each item's state before, for an undo ([`Store::restore_triage`]).
    pub fn set_triage(
        &mut self,
        ids: &[String],
        change: &TriageChange,
        at: Timestamp,
    ) -> Result<Vec<(String, Triage)>, StoreError> {
        self.set_triage_shared(ids, change, at, &[])
    }

    /// [`Store::set_triage`], with `share` (what the team is to be told of it) put in the
    /// team's outbox in the same transaction: the change and its sending are durable together.
    pub fn set_triage_shared(
        &mut self,
        ids: &[String],
        change: &TriageChange,
        at: Timestamp,
        share: &[super::OutboxEntry],
    ) -> Result<Vec<(String, Triage)>, StoreError> {
        let each: Vec<(String, TriageChange)> =
            ids.iter().map(|id| (id.clone(), change.clone())).collect();
        self.set_triage_each_shared(&each, at, share)
    }

    /// Makes each item's own change (an undo: the inverses of one action's changes) in one
    /// transaction, at `at`; returns each item's state before.
    #[cfg(test)]
    pub(crate) fn set_triage_each(
        &mut self,
        changes: &[(String, TriageChange)],
        at: Timestamp,
    ) -> Result<Vec<(String, Triage)>, StoreError> {
        self.set_triage_each_shared(changes, at, &[])
    }

    /// [`Store::set_triage_each`], with `share` put in the team's outbox in the same
    /// transaction. Every triage write goes through here.
    pub fn set_triage_each_shared(
        &mut self,
        changes: &[(String, TriageChange)],
        at: Timestamp,
        share: &[super::OutboxEntry],
    ) -> Result<Vec<(String, Triage)>, StoreError> {
        self.transact(|tx| {
            super::team::push_outbox(tx, share)?;
            let mut before = Vec::with_capacity(changes.len());
            let mut deltas = Deltas::default();
            for (id, change) in changes {
                let old = read_one(tx, id)?.unwrap_or_default();
                put_counted(tx, id, &old, &change.apply(&old), at, &mut deltas)?;
                before.push((id.clone(), old));
            }
            deltas.apply(tx)?;
            super::write_counts::bump(tx, TRIAGE_REV)?;
            Ok(before)
        })
    }

    /// Puts back whole states, in one transaction, at `at`.
    pub fn restore_triage(
        &mut self,
        states: &[(String, Triage)],
        at: Timestamp,
    ) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut deltas = Deltas::default();
            for (id, state) in states {
                let old = read_one(tx, id)?.unwrap_or_default();
                put_counted(tx, id, &old, state, at, &mut deltas)?;
            }
            deltas.apply(tx)?;
            super::write_counts::bump(tx, TRIAGE_REV)
        })
    }

    /// The triage state of one item (the default when untouched).
    pub fn triage(&self, id: &str) -> Result<Triage, StoreError> {
        read_one(&self.conn, id)
            .map(Option::unwrap_or_default)
            .map_err(|e| self.error(e))
    }

    /// The states of those of `ids` that were ever triaged.
    pub fn triage_of(&self, ids: &[&str]) -> Result<HashMap<String, Triage>, StoreError> {
        let mut out = HashMap::new();
        for id in ids {
            if let Some(state) = read_one(&self.conn, id).map_err(|e| self.error(e))? {
                out.insert((*id).to_owned(), state);
            }
        }
        Ok(out)
    }

    /// The earliest snooze that ends after `now`: the inbox reads its view again then.
    pub fn next_wake(&self, now: Timestamp) -> Result<Option<Timestamp>, StoreError> {
        let first: Option<i64> = self
            .conn
            .query_row(
                "SELECT min(snoozed_until) FROM triage WHERE snoozed_until > ?1",
                [now.as_second()],
                |row| row.get(0),
            )
            .map_err(|e| self.error(e))?;
        Ok(first.and_then(|s| Timestamp::from_second(s).ok()))
    }

    /// How many of `keys` (a view's keys: newest first, ascending, except for woken items put
    /// on top) are unseen. Walks the smaller side: each of a few keys (a first screen, a narrow search) is looked up, else
    /// the seen items' keys are read and looked for among `keys`, whichever set is smaller
    /// (a user who saw 100k items must not pay for them on every first screen).
    pub fn unseen_among(&self, keys: &[i64]) -> Result<usize, StoreError> {
        let by_key = keys.len() <= FEW_KEYS || keys.len() <= self.seen_count()?;
        let seen_in_view = if by_key {
            self.seen_of_keys(keys)?
        } else {
            let sorted;
            let keys = if keys.is_sorted() {
                keys
            } else {
                sorted = {
                    let mut copy = keys.to_vec();
                    copy.sort_unstable();
                    copy
                };
                &sorted
            };
            self.seen_keys()?
                .iter()
                .filter(|k| keys.binary_search(k).is_ok())
                .count()
        };
        Ok(keys.len().saturating_sub(seen_in_view))
    }

    /// How many items were ever marked seen (one pass over the triage rows, no join).
    fn seen_count(&self) -> Result<usize, StoreError> {
        self.conn
            .prepare_cached("SELECT count(*) FROM triage WHERE seen = 1")
            .and_then(|mut stmt| stmt.query_row([], |row| row.get::<_, i64>(0)))
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
            .map_err(|e| self.error(e))
    }

    /// How many of `keys` are seen, each looked up (two index lookups a key).
    fn seen_of_keys(&self, keys: &[i64]) -> Result<usize, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT t.seen FROM items i JOIN triage t ON t.id = i.id WHERE i.k = ?1",
            )
            .map_err(|e| self.error(e))?;
        let mut seen = 0;
        for key in keys {
            let on: Option<bool> = stmt
                .query_row([key], |row| row.get(0))
                .optional()
                .map_err(|e| self.error(e))?;
            seen += usize::from(on == Some(true));
        }
        Ok(seen)
    }

    /// The keys of every seen item.
    fn seen_keys(&self) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE t.seen = 1")
            .map_err(|e| self.error(e))?;
        stmt.query_map([], |row| row.get(0))
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))
    }
}

fn read_one(conn: &rusqlite::Connection, id: &str) -> rusqlite::Result<Option<Triage>> {
    conn.prepare_cached(
        "SELECT seen, starred, snoozed_until, done, note, changed FROM triage WHERE id = ?1",
    )?
    .query_row([id], |row| {
        Ok(Triage {
            seen: row.get(0)?,
            starred: row.get(1)?,
            snoozed_until: row
                .get::<_, Option<i64>>(2)?
                .and_then(|s| Timestamp::from_second(s).ok()),
            done: row.get(3)?,
            note: row.get(4)?,
            changed: super::read::micros(row.get(5)?),
        })
    })
    .optional()
}

/// The team's done and snooze of `id` laid into its triage state (seen, starred and the note stay
/// this member's own), the pivot counts moved with it; true when anything changed.
pub(super) fn take_shared(
    tx: &Transaction<'_>,
    id: &str,
    (done, snoozed_until): (bool, Option<Timestamp>),
    at: Timestamp,
    deltas: &mut Deltas,
) -> rusqlite::Result<bool> {
    let old = read_one(tx, id)?.unwrap_or_default();
    if old.done == done && old.snoozed_until == snoozed_until {
        return Ok(false);
    }
    let state = Triage {
        snoozed_until,
        done,
        ..old.clone()
    };
    put_counted(tx, id, &old, &state, at, deltas)?;
    Ok(true)
}

/// [`put_one`], moving the item's pivot counts (`store::write::counts`) between done and not
/// done when that changes.
fn put_counted(
    tx: &Transaction<'_>,
    id: &str,
    old: &Triage,
    state: &Triage,
    at: Timestamp,
    deltas: &mut Deltas,
) -> rusqlite::Result<()> {
    let stored = key_of(tx, id)?.filter(|_| old.done != state.done);
    match stored {
        Some(k) => recounted(tx, k, deltas, true, || put_one(tx, id, state, at)),
        None => put_one(tx, id, state, at),
    }
}

fn put_one(tx: &Transaction<'_>, id: &str, state: &Triage, at: Timestamp) -> rusqlite::Result<()> {
    // `k`: the stored item's key, kept with the state (see `hidden_condition`).
    tx.prepare_cached(
        "INSERT OR REPLACE INTO triage (id, seen, starred, snoozed_until, done, note, changed, k)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, (SELECT k FROM items WHERE id = ?1))",
    )?
    .execute(params![
        id,
        state.seen,
        state.starred,
        state.snoozed_until.map(Timestamp::as_second),
        state.done,
        state.note,
        at.as_microsecond(),
    ])?;
    Ok(())
}

impl super::ViewQuery {
    /// This view without done items and items snoozed past `now` (the default view; a search
    /// that names `is:done` or `is:snoozed` asks for them and is not narrowed).
    #[must_use]
    pub fn hide_triaged(self, now: Timestamp) -> Self {
        self.hide(now, false)
    }

    /// [`ViewQuery::hide_triaged`] for a query that stops after a screen: each row the walk
    /// meets is looked up in the triage table (a few lookups per row shown), where the other
    /// form first collects every hidden item (cheaper over a whole view).
    #[must_use]
    pub fn hide_triaged_per_row(self, now: Timestamp) -> Self {
        self.hide(now, true)
    }

    fn hide(mut self, now: Timestamp, per_row: bool) -> Self {
        self.hide = Some(super::read::Hide {
            now: now.as_second(),
            per_row,
        });
        self
    }
}

/// The SQL of `hide`, its time the parameter numbered `param`.
pub(super) fn hide_condition(hide: super::read::Hide, param: usize) -> String {
    if hide.per_row {
        hidden_per_row(param)
    } else {
        hidden_condition(param)
    }
}

/// The condition that keeps done items and items snoozed past `?N` (the parameter number given)
/// out of a view: a set computed once per query (a scan of the triage table, which holds each
/// triaged item's key), so the walk of the view's index is unchanged.
#[must_use]
pub(crate) fn hidden_condition(param: usize) -> String {
    format!(
        "items.k NOT IN (SELECT t.k FROM triage t WHERE t.k IS NOT NULL \
         AND (t.done = 1 OR t.snoozed_until > ?{param}))"
    )
}

/// The items snoozed past `?N` and not done (the items a view hides beyond the done ones).
#[must_use]
pub(crate) fn snoozed_only(param: usize) -> String {
    format!(
        "items.k IN (SELECT t.k FROM triage t WHERE t.k IS NOT NULL \
         AND t.snoozed_until > ?{param} AND t.done = 0)"
    )
}

/// [`hidden_condition`], looked up row by row.
#[must_use]
pub(crate) fn hidden_per_row(param: usize) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM triage t WHERE t.id = items.id \
         AND (t.done = 1 OR t.snoozed_until > ?{param}))"
    )
}

#[cfg(test)]
mod tests;
