//! Sync jobs of the inbox, run in tokio tasks through a [`SyncPort`] (the syncer): each stores
//! what the service said and reports what it did (and how fresh the status now is); the inbox
//! then queries the store again.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::action::{Freshness, Msg, SyncFailure, SyncJob, Synced};
use feedback_api::RateLimit;
use feedback_store::{Store, StoredDetail};

/// A boxed future, as the sync port returns them.
pub type Job<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// What the inbox needs of a syncer: the jobs it sends, the detail, how fresh a status is,
/// and the budget. `feedback_sync::Syncer` is the real one; tests may bring their own.
pub trait SyncPort: Send + Sync {
    /// Runs a job to its end, storing what the service said.
    fn run(&self, job: SyncJob) -> Job<Result<Synced, SyncFailure>>;
    /// Fetches one detail and stores it.
    fn detail(&self, id: String) -> Job<Result<StoredDetail, SyncFailure>>;
    /// How fresh a status is in the store (a blocking read).
    fn freshness(&self, store: &Store, status: &str) -> Option<Freshness>;
    /// The last rate-limit figures the service sent.
    fn rate_limit(&self) -> RateLimit;
    /// The sync's settings (the enrichment's estimate and whether it can run).
    fn settings(&self) -> feedback_sync::SyncSettings {
        feedback_sync::SyncSettings::default()
    }
}

/// Runs sync jobs in tasks that report back over the channel.
#[derive(Clone)]
pub(super) struct SyncJobs {
    pub(super) port: Arc<dyn SyncPort>,
}

impl SyncJobs {
    /// Jobs run through `port`; insight takes the sync's settings (enrichment is background
    /// work: its floor, and whether it runs at all).
    pub(super) fn new(port: Arc<dyn SyncPort>, insight: &mut crate::insight::InsightState) -> Self {
        insight.follow(&port.settings());
        Self { port }
    }

    pub(super) fn run(&self, job: SyncJob, tx: &UnboundedSender<Msg>, root: &CancellationToken) {
        let port = Arc::clone(&self.port);
        let (tx, cancel) = (tx.clone(), root.clone());
        tokio::spawn(async move {
            let result = tokio::select! {
                result = port.run(job.clone()) => result,
                () = cancel.cancelled() => return,
            };
            let _ = tx.send(Msg::Synced { job, result });
            let _ = tx.send(Msg::RateLimited(port.rate_limit()));
        });
    }

    pub(super) fn detail(&self, id: String, tx: &UnboundedSender<Msg>, root: &CancellationToken) {
        let port = Arc::clone(&self.port);
        let (tx, cancel) = (tx.clone(), root.clone());
        tokio::spawn(async move {
            let result = tokio::select! {
                result = port.detail(id.clone()) => result,
                () = cancel.cancelled() => return,
            };
            let result = result.map(Box::new);
            let _ = tx.send(Msg::DetailLoaded { id, result });
            let _ = tx.send(Msg::RateLimited(port.rate_limit()));
        });
    }
}
