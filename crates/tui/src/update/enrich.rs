//! Enrichment from the inbox: `e` queues the current view's items that have no
//! detail (off the UI thread); the sync's background fetches them, and after each of its steps
//! the queue is counted again for the status bar's "details 120/812 · ~4 min". `e` again
//! cancels (the queue is emptied). The queue is in the store: at start it is counted, and a
//! queue left by the last run shows and goes on by itself.

use super::info;
use crate::action::{Msg, SyncJob};
use crate::effect::{Count, Effect};
use crate::insight::{CONFIRM_ABOVE, Enrich};

/// How long the confirmation of a big enrichment waits for its second `e`.
const CONFIRM_SECONDS: i64 = 10;
use crate::failure::Failure;
use crate::state::AppState;

/// `e`: queue the view's missing details, or cancel the enrichment under way.
pub(super) fn toggle(state: &mut AppState) -> Vec<Effect> {
    if state.insight.enrich.is_some() {
        return vec![Effect::Count(Count::ClearQueue)];
    }
    if !state.insight.background_allowed {
        // The syncer refuses background work: a queue would never be fetched.
        info(
            state,
            "Background sync is off ([sync] background = false): enrichment cannot run",
        );
        return Vec::new();
    }
    if !confirmed(state) {
        return Vec::new();
    }
    vec![Effect::Count(Count::QueueDetails {
        spec: state.view_spec(),
        now: state.now,
    })]
}

/// A view of more than `CONFIRM_ABOVE` items is queued on a second `e` within
/// `CONFIRM_SECONDS`: the first says how many and how long (one write queues them all, and
/// the fetch can take hours).
fn confirmed(state: &mut AppState) -> bool {
    // A search that reads details fetches those of the items it is about that lack them.
    let items = match state.list.basis {
        Some(b) => usize::try_from(b.total.saturating_sub(b.with_detail)).unwrap_or(usize::MAX),
        None => state.visible_len(),
    };
    let asked = state
        .insight
        .confirm_until
        .take()
        .is_some_and(|until| state.now < until);
    if items <= CONFIRM_ABOVE || asked {
        return true;
    }
    state.insight.confirm_until = state
        .now
        .checked_add(jiff::SignedDuration::from_secs(CONFIRM_SECONDS))
        .ok();
    let pending = u64::try_from(items).unwrap_or(u64::MAX);
    let eta = crate::insight::enrich_eta(state, pending)
        .map(|eta| format!(", {}", crate::insight::rough(eta)))
        .unwrap_or_default();
    info(
        state,
        format!(
            "The view has {}: e again within {CONFIRM_SECONDS} s to fetch the details \
             of those without (one request each{eta} at most)",
            feedback_core::text::output::counted(pending, "item")
        ),
    );
    false
}

/// At start: is a queue left from the last run?
pub(super) fn start(state: &mut AppState) -> Effect {
    state.insight.counting = true;
    Effect::Count(Count::QueuedCount)
}

/// Before a message is applied: a background step ended, the queue is counted again.
pub(super) fn observe(state: &mut AppState, msg: &Msg) {
    if state.insight.enrich.is_some()
        && matches!(
            msg,
            Msg::Synced {
                job: SyncJob::Background { .. },
                ..
            }
        )
    {
        state.insight.enrich_due = true;
    }
}

/// Each tick: the due count, when none runs.
pub(super) fn tick(state: &mut AppState) -> Option<Effect> {
    if !state.insight.enrich_due || state.insight.counting {
        return None;
    }
    state.insight.enrich_due = false;
    state.insight.counting = true;
    Some(Effect::Count(Count::QueuedCount))
}

pub(super) fn on_msg(state: &mut AppState, msg: Msg) {
    match msg {
        Msg::Enqueued(Ok(enqueued)) if enqueued.pending == 0 => {
            info(state, "Every item of the view has its details");
        }
        Msg::Enqueued(Ok(enqueued)) => {
            state.insight.enrich = Some(Enrich {
                total: enqueued.pending,
                pending: enqueued.pending,
            });
            // The background may rest (nothing to do at its last look): it has work now.
            state.sync.background = true;
            info(
                state,
                format!(
                    "Fetching {} details in the background; e cancels",
                    feedback_core::text::output::thousands(enqueued.pending)
                ),
            );
        }
        Msg::QueueCleared(Ok(left)) => {
            state.insight.enrich = None;
            info(
                state,
                format!(
                    "Enrichment cancelled: {} details not fetched",
                    feedback_core::text::output::thousands(left)
                ),
            );
        }
        Msg::QueueCount(result) => {
            state.insight.counting = false;
            counted(state, result);
        }
        Msg::Enqueued(Err(why)) | Msg::QueueCleared(Err(why)) => {
            super::error(state, format!("Enrichment: {why}"));
        }
        _ => state.dirty = false,
    }
}

fn counted(state: &mut AppState, result: Result<u64, Failure>) {
    let pending = match result {
        Ok(pending) => pending,
        Err(why) => {
            tracing::warn!(%why, "cannot count the enrichment queue");
            state.dirty = false;
            return;
        }
    };
    match (&mut state.insight.enrich, pending) {
        (None, 0) => state.dirty = false,
        (Some(enrich), 0) => {
            let total = enrich.total;
            state.insight.enrich = None;
            info(
                state,
                format!(
                    "Details fetched: {}",
                    feedback_core::text::output::thousands(total)
                ),
            );
        }
        (Some(enrich), pending) => {
            enrich.pending = pending;
            enrich.total = enrich.total.max(pending);
        }
        (None, pending) => {
            // Left by the last run: the background goes on with it.
            state.insight.enrich = Some(Enrich {
                total: pending,
                pending,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::action::{Action, Msg};
    use crate::effect::{Count, Effect};
    use crate::state::AppState;

    fn enrich(state: &mut AppState) -> Vec<Effect> {
        super::super::update(state, Msg::Action(Action::Enrich))
    }

    #[test]
    fn e_over_a_big_view_asks_first_and_a_second_e_queues() {
        let mut state = AppState::new(crate::testkit::now(), 120, 30);
        state.list.keys = (0..10_001_i64).collect::<Vec<_>>().into();
        assert!(enrich(&mut state).is_empty());
        let note = state.note.clone().unwrap().text;
        assert!(
            note.contains("10,001 items") && note.contains("e again"),
            "{note}"
        );
        let effects = enrich(&mut state);
        assert!(
            matches!(effects[..], [Effect::Count(Count::QueueDetails { .. })]),
            "{effects:?}"
        );
        // A second e long after the first asks again.
        assert!(enrich(&mut state).is_empty());
        state.now += jiff::SignedDuration::from_secs(super::CONFIRM_SECONDS + 1);
        assert!(enrich(&mut state).is_empty());
        // A view of 10,000 items or fewer queues at once.
        state.list.keys = (0..10_000_i64).collect::<Vec<_>>().into();
        state.insight.confirm_until = None;
        assert!(matches!(
            enrich(&mut state)[..],
            [Effect::Count(Count::QueueDetails { .. })]
        ));
    }
}
