//! The network keeping the store fresh, as the inbox sees it: the start-up sync (discovery and
//! the head of the listed status), `r` and the automatic refresh (the head again), backfill pages
//! (asked by the list's scrolling, or in the background while the budget allows), and what their
//! answers change: the view is queried again, freshness ("as of") and "offline" are shown.

use super::list::{Requery, maybe_prefetch, requery};
use super::{after, error, info};
use crate::action::{FailureKind, Freshness, SyncFailure, SyncJob, Synced};
use crate::effect::{Effect, Network, Read, Write};
use crate::state::{AppState, Fatal, Note, budget_low};

/// Sends a sync job, counting it in flight.
pub(super) fn job(state: &mut AppState, job: SyncJob) -> Effect {
    state.sync.running += 1;
    state.in_flight += 1;
    Effect::Network(Network::Sync(job))
}

/// The start-up sync: discovery, then the head of the listed status.
pub(super) fn start(state: &mut AppState) -> Effect {
    let status = state.view.listed_status();
    job(state, SyncJob::Start(status))
}

/// The head of the listed status, unless it was synced this session.
pub(super) fn head_once(state: &mut AppState) -> Option<Effect> {
    let status = state.view.listed_status();
    if state.sync.headed.contains(status.as_str()) || state.sync.offline.is_some() {
        return None;
    }
    Some(job(state, SyncJob::Head(status)))
}

/// The listed status changed: how fresh it is comes with its first answer.
pub(super) fn status_changed(state: &mut AppState) {
    state.sync.as_of = None;
    state.sync.complete = false;
    state.list.paging = state.list.paging.answered();
}

/// Applies a status's freshness, when it is the listed status.
pub(in crate::update) fn fresh(state: &mut AppState, freshness: &Freshness) {
    if freshness.status == state.view.listed() {
        state.sync.as_of = freshness.synced_at;
        state.sync.complete = freshness.complete;
    }
}

/// True once the listed status synced (this session or before): until then its head walk is
/// what fills the store, and a backfill would walk the same pages.
pub(super) fn started(state: &AppState) -> bool {
    state.sync.as_of.is_some() || state.sync.headed.contains(state.view.listed())
}

/// A background backfill page, when nothing else syncs, the status is not mirrored to its end
/// and the budget is not low (the syncer also keeps its floor).
pub(super) fn background(state: &mut AppState) -> Option<Effect> {
    let idle = state.sync.running == 0 && state.list.loaded() && state.fatal.is_none();
    if !started(state) {
        return None;
    }
    if !idle || !state.sync.background || state.sync.offline.is_some() || budget_low(state) {
        return None;
    }
    let listed = state.view.listed_status();
    state.sync.background_busy = true;
    Some(job(state, SyncJob::Background { listed }))
}

pub(super) fn synced(
    state: &mut AppState,
    job: &SyncJob,
    result: Result<Synced, SyncFailure>,
) -> Vec<Effect> {
    state.sync.running = state.sync.running.saturating_sub(1);
    state.in_flight = state.in_flight.saturating_sub(1);
    state.wait = None;
    let listed = state.view.listed_status();
    let retry = matches!(
        job,
        SyncJob::Start(_) | SyncJob::Head(_) | SyncJob::Backfill { user: true, .. }
    ) && std::mem::take(&mut state.sync.retrying);
    let (status, user) = match job {
        SyncJob::Start(status) | SyncJob::Head(status) => (status, true),
        SyncJob::Refresh(status) => (status, false),
        SyncJob::Backfill { status, user } => (status, *user),
        SyncJob::Background { listed } => {
            state.sync.background_busy = false;
            (listed, false)
        }
    };
    if matches!(job, SyncJob::Backfill { user: true, .. }) && *status == listed {
        state.list.paging = state.list.paging.answered();
    }
    let mut effects = Vec::new();
    match result {
        Ok(done) => {
            back_online(state);
            // The listed status's first walk fills an empty mirror: what it stores is the
            // newest page of the history, not feedback new since the last look.
            let first_walk = !started(state);
            if std::mem::take(&mut state.sync.others_synced) {
                // Another process stored what this window was not told of.
                effects.extend(store_changed(state));
            }
            if let Some(freshness) = &done.freshness {
                fresh(state, freshness);
            }
            if done.reached_end && *status == listed {
                state.sync.complete = true;
            }
            if done.idle {
                // Nothing to do for now: the next head sync (r, the automatic refresh) wakes it.
                state.sync.background = false;
            }
            if let SyncJob::Start(s) | SyncJob::Head(s) | SyncJob::Refresh(s) = job {
                state.sync.headed.insert(s.as_str().to_owned());
                state.sync.background = true;
                if done.added > 0 && *s == listed {
                    let added = feedback_core::text::output::thousands(done.added);
                    let text = if first_walk {
                        format!("Mirroring: the newest {added} stored, older ones follow")
                    } else {
                        format!("{added} new")
                    };
                    info(state, text);
                }
            }
            if matches!(job, SyncJob::Start(_)) {
                effects.extend(store_changed(state));
                state.sync.panes_due = false;
                effects.push(super::panes::load(state));
            } else if done.added + done.changed > 0 {
                effects.extend(store_changed(state));
            } else if matches!(job, SyncJob::Head(_) | SyncJob::Refresh(_)) {
                // A refresh with nothing new: another window may have triaged meanwhile.
                effects.push(Effect::Write(Write::StoreRevs));
            }
        }
        Err(failure) if failure.kind == FailureKind::Busy => busy(state, job, user, retry),
        Err(failure) => failed(state, &failure, user && !retry),
    }
    if state.sync.waiting_turn.is_none()
        && state.note.as_ref().is_some_and(|n| n.text == WAITING_TURN)
    {
        // The job that waited ran.
        state.note = None;
    }
    // After a requery, its answer decides whether more is wanted (the keys here are old).
    if !effects
        .iter()
        .any(|e| matches!(e, Effect::Read(Read::Query { .. })))
    {
        effects.extend(maybe_prefetch(state));
    }
    effects
}

fn failed(state: &mut AppState, failure: &SyncFailure, user: bool) {
    let text = failure.text.clone();
    match failure.kind {
        // Another process's sync (`Busy`) is sorted out before, in `busy`.
        FailureKind::Cancelled | FailureKind::Busy => {}
        FailureKind::Offline => {
            went_offline(state, text.clone());
            if user {
                error(
                    state,
                    format!("Offline: {text} — showing what is stored; r to retry"),
                );
            }
        }
        FailureKind::Refused if state.list.keys.is_empty() => {
            state.fatal = Some(Fatal {
                title: "The service refused the key".to_owned(),
                body: feedback_core::text::Clean::line(&text),
            });
        }
        FailureKind::WrongAccount => wrong_account(state, &text),
        FailureKind::Refused | FailureKind::Other => {
            state.sync.background = false;
            if user {
                error(state, format!("{text} — r to retry"));
            }
        }
    }
}

/// How often a window checks whether another process's sync ended.
pub(crate) const BUSY_RETRY_SECONDS: u64 = 2;

/// What the status bar says while a job the user asked for waits for another process's sync
/// (until it runs: a note that lasts as long as the wait).
pub(crate) const WAITING_TURN: &str =
    "Another sync is running on this store (a window or `sync`): yours runs when it ends";

/// Another process (a window, `sync`) holds the store's sync lock: the background rests, and
/// the lock is tried again every [`BUSY_RETRY_SECONDS`] ([`busy_retry`]); a job the user asked
/// for waits its turn and runs then (said once: not again when `retry` found it still held).
fn busy(state: &mut AppState, job: &SyncJob, user: bool, retry: bool) {
    state.sync.background = false;
    state.sync.others_synced = true;
    state.sync.busy_retry_at = Some(after(state.now, BUSY_RETRY_SECONDS));
    if user {
        if !retry {
            super::notes::show(
                state,
                Note {
                    text: feedback_core::text::Clean::fixed(WAITING_TURN),
                    error: false,
                    until: None,
                },
            );
        }
        state.sync.waiting_turn = Some(job.clone());
    }
}

/// The wait for another process's sync is over: the job the user asked for runs, or else the
/// background goes on (the lock is taken by the job itself; if still held, it waits again).
pub(super) fn busy_retry(state: &mut AppState) -> Vec<Effect> {
    let due = state.sync.busy_retry_at.is_some_and(|at| at <= state.now);
    if !due || state.sync.running > 0 || state.fatal.is_some() {
        return Vec::new();
    }
    state.sync.busy_retry_at = None;
    // The background goes on after the job the user waits for, if any (it needs an idle sync).
    state.sync.background = true;
    let Some(waiting) = state.sync.waiting_turn.take() else {
        return Vec::new();
    };
    // Said once: another `Busy` keeps it waiting quietly.
    state.sync.retrying = true;
    vec![job(state, waiting)]
}

/// The key's account is not the store's (a sync's or a detail's check said so): the inbox
/// stops on a screen that explains it, and nothing of this account is written.
pub(super) fn wrong_account(state: &mut AppState, text: &str) {
    state.fatal = Some(Fatal {
        title: "This store holds another account's feedback".to_owned(),
        body: feedback_core::text::Clean::line(text),
    });
}

/// `r`: retry what failed and sync what is new (discovery again when it never succeeded).
pub(super) fn reload(state: &mut AppState) -> Vec<Effect> {
    state.note = None;
    state.list.error = None;
    state.sync.background = true;
    let status = state.view.listed_status();
    let job_kind = if state.sync.headed.is_empty() {
        SyncJob::Start(status)
    } else {
        SyncJob::Head(status)
    };
    // Another window's triage shows whatever the network does (offline, 429, busy).
    let mut effects = vec![job(state, job_kind), Effect::Write(Write::StoreRevs)];
    if !state.list.loaded() {
        effects.push(requery(state, Requery::New));
    }
    effects
}

/// The automatic refresh (every `refresh_seconds`, a minute unless configured), when due, idle,
/// and the budget allows: the head of the listed status at the background's priority (the
/// syncer keeps the budget's floor); the store's triage count is read at each attempt,
/// whatever the network then does.
pub(super) fn auto_refresh(state: &mut AppState) -> Vec<Effect> {
    let due = state.next_refresh.is_some_and(|at| at <= state.now);
    // Background work may wait long for the budget's reset: it does not hold the refresh back.
    let user_jobs = state
        .sync
        .running
        .saturating_sub(u32::from(state.sync.background_busy));
    if !due || user_jobs > 0 || state.fatal.is_some() {
        return Vec::new();
    }
    state.next_refresh = Some(super::after(state.now, state.refresh_seconds));
    let mut effects = vec![Effect::Write(Write::StoreRevs)];
    if !budget_low(state) {
        let status = state.view.listed_status();
        effects.push(job(state, SyncJob::Refresh(status)));
    }
    effects
}

/// A member asked the team's syncer for the lists' tops: the listed status's head is read now,
/// unless a job the user waits for runs (it serves the ask itself). Where this process walks
/// for the team the job serves the ask; where it follows, it reads the mirror.
pub(super) fn asked(state: &mut AppState) -> Vec<Effect> {
    let user_jobs = state
        .sync
        .running
        .saturating_sub(u32::from(state.sync.background_busy));
    if user_jobs > 0 || state.fatal.is_some() || budget_low(state) {
        return Vec::new();
    }
    let status = state.view.listed_status();
    vec![job(state, SyncJob::Refresh(status))]
}

/// The first wait before an offline inbox tries the service again by itself.
pub(crate) const RETRY_FIRST_SECONDS: u64 = 30;
/// The longest such wait (each failed retry doubles it up to this).
pub(crate) const RETRY_MAX_SECONDS: u64 = 300;

/// The service could not be reached: the inbox runs on the store and tries the head again by
/// itself after a wait that doubles with each failure (30 s up to 5 min), `r` at any time.
pub(super) fn went_offline(state: &mut AppState, text: String) {
    state.sync.offline = Some(text);
    state.sync.background = false;
    let wait = match state.sync.retry_seconds {
        0 => RETRY_FIRST_SECONDS,
        last => last.saturating_mul(2).min(RETRY_MAX_SECONDS),
    };
    state.sync.retry_seconds = wait;
    state.sync.retry_at = Some(after(state.now, wait));
}

/// The service answered: no longer offline, and the next outage waits from the start again.
pub(super) fn back_online(state: &mut AppState) {
    state.sync.offline = None;
    state.sync.retry_at = None;
    state.sync.retry_seconds = 0;
}

/// Offline and the wait is over, with nothing else syncing: the head (discovery too when it
/// never succeeded) once more, quietly (the status bar says offline until it works); the
/// store's triage count is read too (another window on the same store works offline as well).
pub(super) fn retry(state: &mut AppState) -> Vec<Effect> {
    let due = state.sync.offline.is_some() && state.sync.retry_at.is_some_and(|at| at <= state.now);
    if !due || state.sync.running > 0 || state.fatal.is_some() {
        return Vec::new();
    }
    state.sync.retry_at = None;
    state.sync.retrying = true;
    let status = state.view.listed_status();
    let kind = if state.sync.headed.is_empty() {
        SyncJob::Start(status)
    } else {
        SyncJob::Head(status)
    };
    vec![job(state, kind), Effect::Write(Write::StoreRevs)]
}

/// The store changed under the view (a sync stored items, an arrival, a refreshed detail): the
/// view is queried again at once, or on the next tick when a query is under way, so that any
/// number of changes during a mirror cost one query at a time; the panes' counts are read
/// again on the next tick.
pub(super) fn store_changed(state: &mut AppState) -> Option<Effect> {
    state.sync.panes_due = true;
    if state.list.querying() {
        state.sync.requery_due = true;
        state.sync.requery_counts_new = true;
        return None;
    }
    state.sync.requery_due = false;
    state.sync.requery_counts_new = false;
    Some(requery(state, Requery::Same))
}

/// Only triage changed (a write committed, another window's, a snooze's end): the view is
/// queried again as for [`store_changed`], but the panes' counts stay (triage changes none of
/// them) and items that come back on top are not counted as new.
pub(super) fn triage_changed(state: &mut AppState) -> Option<Effect> {
    if state.list.querying() {
        state.sync.requery_due = true;
        return None;
    }
    if state.sync.requery_due && state.sync.requery_counts_new {
        return store_changed(state);
    }
    state.sync.requery_due = false;
    Some(requery(state, Requery::Triage))
}

/// What a tick owes the store's changes: the coalesced query of the view and the panes' counts
/// (each once, and only when no read of it is under way).
pub(super) fn catch_up(state: &mut AppState) -> Vec<Effect> {
    let mut effects = Vec::new();
    if state.sync.requery_due && !state.list.querying() {
        state.sync.requery_due = false;
        let mode = if std::mem::take(&mut state.sync.requery_counts_new) {
            Requery::Same
        } else {
            Requery::Triage
        };
        effects.push(requery(state, mode));
    }
    if state.sync.panes_due && !state.sync.panes_reading {
        state.sync.panes_due = false;
        effects.push(super::panes::load(state));
    }
    effects
}
