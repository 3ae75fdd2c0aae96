//! The inbox's [`SyncPort`] on a team that shares one mirror of the account: before each job
//! its part in the team's walk is settled (`team_sync::part`). Walking for the team, the job
//! runs as alone, each page published as it is stored (the head walk's too), and a member's
//! ask for the lists' tops is served after it; following another member's walk, a job reads
//! the team's mirror instead of the service (the catalog of names excepted, which is the
//! store's own), except what the user asks for: `r` reads the head from the service at once
//! and adds what the mirror lacks to it; alone (no shared mirror, the database away), the job
//! runs as without a team. Opening a detail always asks the service directly; a follower shares
//! what it said (metadata, delivery links) with the mirror's copy of the item.

use std::sync::Arc;

use super::sync_jobs::{Job, SyncPort};
use super::syncer::{failure, fresh, run_job, status_of};
use crate::action::{FailureKind, Freshness, SyncFailure, SyncJob, Synced};
use feedback_api::{Extras, RateLimit, Status};
use feedback_store::{Store, StoredDetail};
use feedback_sync::{Priority, SyncSettings, Syncer};
use feedback_team_sync::mirror::Published;
use feedback_team_sync::syncer::Turn;
use feedback_team_sync::team_walk::{Part, TeamWalk};

/// The syncer of an inbox whose team shares one mirror.
pub struct TeamSyncer {
    /// Alone, or following (the catalog).
    alone: Syncer,
    /// Walking for the team: every page of a head walk stored (and published) on its own.
    walking: Syncer,
    walk: Arc<TeamWalk>,
}

impl TeamSyncer {
    /// `syncer` keeps the store fresh from the service; `walk` settles, job by job, whether it
    /// does that for the team, follows the team's walk, or syncs alone.
    #[must_use]
    pub fn new(syncer: Syncer, walk: Arc<TeamWalk>) -> Self {
        let walking = syncer.with_settings(syncer.settings().walking_for_team());
        Self {
            alone: syncer,
            walking,
            walk,
        }
    }
}

impl SyncPort for TeamSyncer {
    fn settings(&self) -> SyncSettings {
        self.alone.settings()
    }

    fn run(&self, job: SyncJob) -> Job<Result<Synced, SyncFailure>> {
        let (alone, walking, walk) = (
            self.alone.clone(),
            self.walking.clone(),
            Arc::clone(&self.walk),
        );
        Box::pin(async move {
            let mut done = match walk.part().await {
                Part::Alone => run_job(&alone, &job).await.map_err(|e| failure(&e))?,
                Part::Walking(turn) => walk_for_team(&walking, &turn, &job).await?,
                Part::Following => follow_team(&alone, &walk, &job).await?,
            };
            if done.freshness.is_none() {
                done.freshness = fresh(&alone, status_of(&job)).await;
            }
            Ok(done)
        })
    }

    fn detail(&self, id: String) -> Job<Result<StoredDetail, SyncFailure>> {
        let (alone, walk) = (self.alone.clone(), Arc::clone(&self.walk));
        Box::pin(async move {
            let stored = alone.detail(&id).await.map_err(|e| failure(&e))?;
            // Shared with the team's copy of the item, so nobody asks the service again; the
            // detail is shown without waiting for the database.
            let extras = Extras {
                metadata: stored.metadata.clone(),
                delivery: stored.delivery.clone(),
            };
            tokio::spawn(async move { walk.share_extras(&id, &extras).await });
            Ok(stored)
        })
    }

    fn freshness(&self, store: &Store, status: &str) -> Option<Freshness> {
        SyncPort::freshness(&self.alone, store, status)
    }

    fn rate_limit(&self) -> RateLimit {
        self.alone.rate_limit()
    }
}

/// This process walks for the team: the job, then what it stored published; then, when a
/// member asked for the lists' tops since the last walk of them, a walk of them published.
async fn walk_for_team(syncer: &Syncer, turn: &Turn, job: &SyncJob) -> Result<Synced, SyncFailure> {
    let ask = match job {
        SyncJob::Backfill { .. } | SyncJob::Start(_) => false,
        SyncJob::Head(_) | SyncJob::Refresh(_) | SyncJob::Background { .. } => {
            turn.asked().await.unwrap_or_else(|error| {
                tracing::warn!(%error, "the team's asks could not be read");
                false
            })
        }
    };
    let done = run_job(syncer, job).await;
    publish(syncer, turn).await;
    if ask && done.is_ok() {
        serve(syncer, turn).await;
    }
    done.map_err(|e| failure(&e))
}

/// Walks the tops of every status for the members who asked, each page published as stored;
/// says the ask served once all is published.
async fn serve(syncer: &Syncer, turn: &Turn) {
    let started = match turn.server_now().await {
        Ok(started) => started,
        Err(error) => {
            tracing::warn!(%error, "the team's database did not say its time");
            return;
        }
    };
    for status in [Status::New, Status::Archived] {
        if let Err(error) = syncer.head(&status, Priority::User).await {
            tracing::warn!(%error, "the tops a member asked for could not be read");
            return;
        }
        if !publish(syncer, turn).await {
            return;
        }
    }
    if let Err(error) = turn.served(started).await {
        tracing::warn!(%error, "the ask served could not be said");
    }
}

/// Publishes what the store wrote; whether it was (a failure is logged: the notes wait for
/// the next publication; a fenced one ends the turn at the next job).
async fn publish(syncer: &Syncer, turn: &Turn) -> bool {
    match turn.publish(Some(&syncer.rate_limit())).await {
        Ok(Published::Written { .. }) => true,
        Ok(Published::Fenced) => {
            tracing::info!("another member's process walks for the team now");
            false
        }
        Err(error) => {
            tracing::warn!(%error, "the team's mirror could not be published to");
            false
        }
    }
}

/// Another member's process walks for the team: the store follows the mirror. `r` (the user
/// asking) reads the head from the service itself, at once, and shares the items it read that
/// the mirror lacks; a first visit reads the catalog when due (its names are the store's own);
/// the background has nothing to do.
async fn follow_team(
    syncer: &Syncer,
    walk: &TeamWalk,
    job: &SyncJob,
) -> Result<Synced, SyncFailure> {
    let team_failure = |error: feedback_team_sync::TeamSyncError| SyncFailure {
        text: super::syncer::capitalise(&format!("the team's mirror: {error}")),
        kind: FailureKind::Other,
    };
    let mut read = Synced::default();
    if let SyncJob::Head(status) = job {
        let head = syncer
            .head(status, Priority::User)
            .await
            .map_err(|e| failure(&e))?;
        (read.added, read.changed) = (head.added, head.changed);
        // The pages it read: their items, newest first.
        let per_page = usize::try_from(syncer.settings().page_size.clamp(1, 100)).unwrap_or(100);
        let read_items = usize::try_from(head.requests)
            .unwrap_or(usize::MAX)
            .saturating_mul(per_page);
        walk.share_newest(status, read_items).await;
    }
    if matches!(job, SyncJob::Start(_)) {
        syncer.discovery_if_due().await.map_err(|e| failure(&e))?;
    }
    let followed = walk.follow().await.map_err(team_failure)?;
    let freshness = fresh(syncer, status_of(job)).await;
    Ok(Synced {
        added: read.added + followed.added,
        changed: read.changed + followed.changed + followed.removed,
        reached_end: matches!(job, SyncJob::Backfill { .. })
            && freshness.as_ref().is_some_and(|f| f.complete),
        idle: matches!(job, SyncJob::Background { .. }),
        freshness,
    })
}
