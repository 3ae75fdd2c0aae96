//! The team's work in the inbox: a change recorded in the outbox on the writes' thread (in
//! order with the triage writes, answered once committed, so nothing shows as made before it
//! is durable), and the live link started beside the loop, its news passed on as messages.

use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use super::reads::Task;
use crate::action::Msg;
use crate::effect::Effect;
use crate::team::HistoryLine;
use feedback_store::Shared;
use feedback_team_sync::live::{Ask, LiveSettings, live};

/// The outbox write, or the history read, an effect asks for; `None` for other effects.
#[must_use]
pub fn task(store: &Shared, effect: Effect) -> Option<Task> {
    let store = store.clone();
    match effect {
        Effect::TeamRecord {
            member,
            changes,
            at,
        } => Some(Box::new(move || {
            let result = store
                .write(|s| feedback_team_sync::record_in(s, &member, &changes, at))
                .map(|ids| ids.len())
                .map_err(|e| e.to_string());
            Msg::TeamRecorded(result)
        })),
        Effect::TeamHistory { id } => Some(Box::new(move || {
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
                .map_err(|e| e.to_string());
            Msg::TeamHistory { id, result }
        })),
        Effect::UndoStates { step, confirmed } => Some(Box::new(move || {
            let ids = step.ids();
            let result = store
                .read(|s| crate::triage::UndoStates::read(s, &ids))
                .map_err(|e| e.to_string());
            Msg::UndoStates {
                step,
                confirmed,
                result,
            }
        })),
        _ => None,
    }
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
