//! Fetching the details a copy or a pipe of many items wants: never more than
//! [`FETCH_AT_ONCE`] requests out at a time (each through the syncer's paced client), at most
//! [`FETCH_CAP`] per action (the rest go with what is stored, and the copy's note counts them),
//! with the progress in the status bar.

use crate::effect::{Effect, Network, Read};
use crate::state::AppState;
use crate::update::info;

/// Requests out at once for one action: a marked page must not burst the rate limit.
pub(crate) const FETCH_AT_ONCE: usize = 4;
/// Items fetched for one action at most; beyond, what is stored is used.
pub(crate) const FETCH_CAP: usize = 20;

/// Starts fetching the `missing` details (the first [`FETCH_CAP`] of them).
pub(super) fn start(state: &mut AppState, mut missing: Vec<String>) -> Vec<Effect> {
    let Some(gathering) = state.acting.gathering.as_mut() else {
        return Vec::new();
    };
    let beyond = missing.len().saturating_sub(FETCH_CAP);
    missing.truncate(FETCH_CAP);
    gathering.planned = missing.len();
    gathering.answered = 0;
    gathering.queue = missing.into_iter().collect();
    let effects = ask_more(state);
    progress(state, beyond);
    effects
}

/// A fetch answered (stored or failed): the next queued one is asked; once every fetch is in,
/// the store is read again and the action runs on what it holds.
pub(in crate::update) fn detail_arrived(state: &mut AppState, id: &str) -> Vec<Effect> {
    let answered = state.acting.gathering.as_mut().is_some_and(|g| {
        let ours = g.fetching.remove(id);
        g.answered += usize::from(ours);
        ours
    });
    if !answered {
        return Vec::new();
    }
    let mut effects = ask_more(state);
    let Some(gathering) = state.acting.gathering.as_mut() else {
        return effects;
    };
    if !gathering.fetching.is_empty() {
        progress(state, 0);
        return effects;
    }
    let request_id = state.request_id();
    let Some(gathering) = state.acting.gathering.as_mut() else {
        return effects;
    };
    gathering.request_id = request_id;
    gathering.second = true;
    let ids = gathering.ids.clone();
    effects.push(Effect::Read(Read::Gather { request_id, ids }));
    effects
}

/// Asks for queued details until [`FETCH_AT_ONCE`] are out.
fn ask_more(state: &mut AppState) -> Vec<Effect> {
    let Some(gathering) = state.acting.gathering.as_mut() else {
        return Vec::new();
    };
    let mut effects = Vec::new();
    while gathering.fetching.len() < FETCH_AT_ONCE {
        let Some(id) = gathering.queue.pop_front() else {
            break;
        };
        gathering.fetching.insert(id.clone());
        effects.push(Effect::Network(Network::FetchDetail { id }));
    }
    state.in_flight += u32::try_from(effects.len()).unwrap_or(u32::MAX);
    effects
}

/// "Fetching details: 3 / 12…" (and how many go without, past the cap).
fn progress(state: &mut AppState, beyond: usize) {
    let Some(gathering) = state.acting.gathering.as_ref() else {
        return;
    };
    let (done, planned) = (gathering.answered, gathering.planned);
    let text = if planned == 1 {
        "Fetching the details of 1 item…".to_owned()
    } else {
        format!(
            "Fetching details: {} / {}…",
            feedback_core::text::output::thousands(done),
            feedback_core::text::output::thousands(planned)
        )
    };
    let text = if beyond > 0 {
        format!(
            "{text} ({beyond} more use what is stored: at most {FETCH_CAP} are fetched per action)"
        )
    } else {
        text
    };
    info(state, text);
}
