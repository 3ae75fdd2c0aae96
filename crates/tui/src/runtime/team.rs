//! The team's work in the inbox: a change recorded in the outbox on the writes' thread (in
//! order with the triage writes, answered once committed, so nothing shows as made before it
//! is durable), and the live link started beside the loop, its news passed on as messages.

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use super::reads::Task;
use crate::action::Msg;
use crate::failure::Failure;
use crate::team::HistoryLine;
use crate::triage::UndoStep;
use feedback_store::Shared;
use feedback_team::Change;
use feedback_team_sync::live::{Ask, LiveSettings, live};
use jiff::Timestamp;

/// `Write::TeamRecord`: these changes into the team's outbox, in order; in no team (no
/// member), the links among them kept in the store itself.
pub(super) fn record(
    store: &Shared,
    member: Option<String>,
    changes: Vec<(String, Change)>,
    at: Timestamp,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = match &member {
            Some(member) => store
                .write(|s| feedback_team_sync::record_in(s, member, &changes, at))
                .map(|ids| ids.len()),
            None => store
                .write(|s| s.change_links(&changes, at))
                .map(|reached| reached.len()),
        };
        Msg::TeamRecorded(result.map_err(Failure::from))
    })
}

/// `Read::TeamHistory`: the item's events from the store's replica, as words.
pub(super) fn history(store: &Shared, id: String) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = store
            .read(|s| s.team_history(&id))
            .map(|events| {
                events
                    .iter()
                    .map(|e| HistoryLine {
                        member: feedback_core::text::Clean::line(&e.member),
                        what: feedback_team_sync::history::describe(&e.change),
                        at: e.at,
                    })
                    .collect()
            })
            .map_err(Failure::from);
        Msg::TeamHistory { id, result }
    })
}

/// `Write::UndoStates`: the states of an undo step's items as they are now.
pub(super) fn undo_states(store: &Shared, step: UndoStep, confirmed: bool) -> Task {
    let store = store.clone();
    Box::new(move || {
        let ids = step.ids();
        let result = store
            .read(|s| crate::triage::UndoStates::read(s, &ids))
            .map_err(Failure::from);
        Msg::UndoStates {
            step,
            confirmed,
            result,
        }
    })
}

/// Starts the live link on `store`; its news arrive on `tx`. The returned sender takes the
/// inbox's asks; the link ends when it is dropped.
#[must_use]
pub fn start(
    settings: LiveSettings,
    store: Shared,
    tx: UnboundedSender<Msg>,
) -> UnboundedSender<Ask> {
    let (asks, ask_rx) = unbounded_channel();
    let (news_tx, mut news) = unbounded_channel();
    tokio::spawn(live(settings, store, ask_rx, news_tx));
    tokio::spawn(async move {
        while let Some(news) = news.recv().await {
            if tx.send(Msg::Team(news)).is_err() {
                break;
            }
        }
    });
    asks
}
