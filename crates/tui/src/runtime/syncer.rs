//! The real syncer behind the inbox's [`SyncPort`]: each job stores what the service said and
//! reports what it did and how fresh the status now is. Failures are sorted into what the inbox
//! does about them: offline (run on the store), refused key, another account's store, another
//! sync busy.

use crate::action::{FailureKind, Freshness, SyncFailure, SyncJob, Synced};
use crate::runtime::sync_jobs::{Job, SyncPort};
use feedback_api::{ApiError, RateLimit, Status};
use feedback_store::{Store, StoreError, StoredDetail};
use feedback_sync::{Priority, SyncError, Syncer};

impl SyncPort for Syncer {
    fn settings(&self) -> feedback_sync::SyncSettings {
        Syncer::settings(self)
    }

    fn run(&self, job: SyncJob) -> Job<Result<Synced, SyncFailure>> {
        let syncer = self.clone();
        Box::pin(async move {
            let mut done = run_job(&syncer, &job).await.map_err(|e| failure(&e))?;
            done.freshness = fresh(&syncer, status_of(&job)).await;
            Ok(done)
        })
    }

    fn detail(&self, id: String) -> Job<Result<StoredDetail, SyncFailure>> {
        let syncer = self.clone();
        Box::pin(async move { syncer.detail(&id).await.map_err(|e| failure(&e)) })
    }

    fn freshness(&self, store: &Store, status: &str) -> Option<Freshness> {
        let state = feedback_sync::status_state(store, &Status::from(status)).ok()?;
        Some(Freshness {
            status: status.to_owned(),
            synced_at: state.synced_at,
            complete: state.complete,
        })
    }

    fn rate_limit(&self) -> RateLimit {
        Syncer::rate_limit(self)
    }
}

pub(super) fn status_of(job: &SyncJob) -> &Status {
    match job {
        SyncJob::Start(status)
        | SyncJob::Head(status)
        | SyncJob::Refresh(status)
        | SyncJob::Backfill { status, .. }
        | SyncJob::Background { listed: status } => status,
    }
}

pub(super) async fn run_job(syncer: &Syncer, job: &SyncJob) -> Result<Synced, SyncError> {
    let report = match job {
        SyncJob::Start(status) => syncer.start(status).await?,
        SyncJob::Head(status) => syncer.head(status, Priority::User).await?,
        SyncJob::Refresh(status) => {
            let priority = if syncer.settings().background {
                Priority::Background
            } else {
                Priority::User
            };
            syncer.head(status, priority).await?
        }
        SyncJob::Backfill { status, user } => {
            let priority = if *user {
                Priority::User
            } else {
                Priority::Background
            };
            match syncer.backfill_page(status, priority).await? {
                Some(report) => report,
                None => {
                    return Ok(Synced {
                        reached_end: true,
                        ..Synced::default()
                    });
                }
            }
        }
        SyncJob::Background { .. } => match syncer.background_step().await? {
            Some(report) => report,
            None => {
                return Ok(Synced {
                    idle: true,
                    ..Synced::default()
                });
            }
        },
    };
    Ok(Synced {
        added: report.added,
        changed: report.changed,
        ..Synced::default()
    })
}

pub(super) async fn fresh(syncer: &Syncer, status: &Status) -> Option<Freshness> {
    let (syncer, status) = (syncer.clone(), status.clone());
    tokio::task::spawn_blocking(move || {
        let state = syncer.state(&status).ok()?;
        Some(Freshness {
            status: status.as_str().to_owned(),
            synced_at: state.synced_at,
            complete: state.complete,
        })
    })
    .await
    .ok()
    .flatten()
}

/// What the inbox does about a failed job.
pub(super) fn failure(error: &SyncError) -> SyncFailure {
    let kind = match error {
        SyncError::Api(api) => match api.as_ref() {
            ApiError::Unauthorized | ApiError::IndiePlanRequired => FailureKind::Refused,
            ApiError::Cancelled => FailureKind::Cancelled,
            e if e.is_transient() => FailureKind::Offline,
            _ => FailureKind::Other,
        },
        SyncError::Store(StoreError::AccountMismatch { .. }) => FailureKind::WrongAccount,
        SyncError::Busy => FailureKind::Busy,
        _ => FailureKind::Other,
    };
    SyncFailure {
        text: capitalise(&error.to_string()),
        kind,
    }
}

pub(super) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
