//! The inbox's triage writes, run in order on a thread of their own (a toggle pressed twice must
//! commit twice, in order), and the triage figures read with a view. A write's answer goes back
//! only after its transaction committed: what the screen shows as done survives kill -9.

use jiff::Timestamp;

use super::reads::Task;
use crate::action::{Msg, TriageFigures};
use crate::failure::Failure;
use crate::triage::{Cause, Triaged};
use feedback_store::{Shared, Store, StoreError, TriageChange};

/// The view's unseen count, the store's write counts, the next snooze's end.
pub fn figures(store: &Store, keys: &[i64], now: Timestamp) -> Result<TriageFigures, StoreError> {
    let revs = store.revs()?;
    Ok(TriageFigures {
        unseen: store.unseen_among(keys)?,
        rev: revs.triage,
        items_rev: revs.items,
        next_wake: store.next_wake(now)?,
    })
}

/// `Write::Triage`: one change to these items, in one transaction, and what the team is told
/// of it in the same one.
pub(super) fn triage(
    store: &Shared,
    ids: Vec<String>,
    change: TriageChange,
    at: Timestamp,
    cause: Cause,
    what: String,
    team: Option<String>,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let each: Vec<(String, TriageChange)> =
            ids.iter().map(|id| (id.clone(), change.clone())).collect();
        let share = feedback_team_sync::triage_outbox(team.as_deref(), &each, at);
        let shared = share.len();
        let result = store
            .write(|s| {
                let before = s.set_triage_shared(&ids, &change, at, &share)?;
                Ok::<_, StoreError>((before, s.triage_rev()?))
            })
            .map(|(before, rev)| {
                let after = before
                    .iter()
                    .map(|(id, old)| (id.clone(), change.apply(old)))
                    .collect();
                let undo = before
                    .iter()
                    .map(|(id, old)| (id.clone(), change.inverse(old)))
                    .collect();
                Box::new(Triaged {
                    after,
                    before,
                    undo,
                    hides: change.hides(),
                    rev,
                    cause,
                    what,
                    shared,
                })
            })
            .map_err(Failure::from);
        Msg::Triaged(result)
    })
}

/// `Write::TriageUndo`: each item's own change (an undo step), in one transaction.
pub(super) fn undo(
    store: &Shared,
    changes: Vec<(String, TriageChange)>,
    at: Timestamp,
    team: Option<String>,
    what: String,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let share = feedback_team_sync::triage_outbox(team.as_deref(), &changes, at);
        let shared = share.len();
        let result = store
            .write(|s| {
                let before = s.set_triage_each_shared(&changes, at, &share)?;
                Ok::<_, StoreError>((before, s.triage_rev()?))
            })
            .map(|(before, rev)| {
                let after = before
                    .iter()
                    .zip(&changes)
                    .map(|((id, old), (_, change))| (id.clone(), change.apply(old)))
                    .collect();
                Box::new(Triaged {
                    after,
                    before,
                    undo: Vec::new(),
                    hides: changes.iter().any(|(_, c)| c.hides()),
                    rev,
                    cause: Cause::Undo,
                    what,
                    shared,
                })
            })
            .map_err(Failure::from);
        Msg::Triaged(result)
    })
}

/// `Write::AppendNote`: `text` after each item's note as it is when the write runs (a blank
/// line between), cut to the most a note holds; one transaction, with what the team is told.
pub(super) fn append_note(
    store: &Shared,
    ids: Vec<String>,
    text: String,
    at: Timestamp,
    what: String,
    team: Option<String>,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = store
            .write(|s| {
                let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
                let notes = s.triage_of(&refs)?;
                let changes: Vec<(String, TriageChange)> = ids
                    .iter()
                    .map(|id| {
                        let note = notes.get(id.as_str()).and_then(|t| t.note.as_deref());
                        (id.clone(), TriageChange::Note(Some(appended(note, &text))))
                    })
                    .collect();
                let share = feedback_team_sync::triage_outbox(team.as_deref(), &changes, at);
                let before = s.set_triage_each_shared(&changes, at, &share)?;
                Ok::<_, StoreError>((before, changes, share.len(), s.triage_rev()?))
            })
            .map(|(before, changes, shared, rev)| {
                let after = before
                    .iter()
                    .zip(&changes)
                    .map(|((id, old), (_, change))| (id.clone(), change.apply(old)))
                    .collect();
                let undo = before
                    .iter()
                    .zip(&changes)
                    .map(|((id, old), (_, change))| (id.clone(), change.inverse(old)))
                    .collect();
                Box::new(Triaged {
                    after,
                    before,
                    undo,
                    hides: false,
                    rev,
                    cause: Cause::Key,
                    what,
                    shared,
                })
            })
            .map_err(Failure::from);
        Msg::Triaged(result)
    })
}

/// `text` after `note` (a blank line between), cut to the most a note holds.
fn appended(note: Option<&str>, text: &str) -> String {
    let joined = match note.map(str::trim_end).filter(|n| !n.is_empty()) {
        Some(note) => format!("{note}\n\n{text}"),
        None => text.to_owned(),
    };
    feedback_store::capped_note(&joined).0.to_owned()
}

/// `Write::StoreRevs`: the store's write counts, read after the writes queued.
pub(super) fn store_revs(store: &Shared) -> Task {
    let store = store.clone();
    Box::new(move || Msg::StoreRevs(store.read(Store::revs).map_err(Failure::from)))
}
