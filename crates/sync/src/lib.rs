//! The network keeps the store fresh. The API has no change feed and no search, only lists
//! ordered newest first with keyset cursors, so the sync walks them:
//!
//! - **Head sync** (per status): pages of `page_size` (100) from the top until a page reaches the
//!   newest item the last head walk mirrored (the status's *head key*, compared by the list's
//!   order `(received_at, id)`, so an item that has since left the status still marks the
//!   place). After a first mirror, k new items cost ceil(k/100) requests, plus one when k is a
//!   multiple of 100. A head walk that stops early (`head_page_cap` pages, an error, a kill)
//!   leaves a **gap**: the cursor of its next page, the key that cursor continues after, the
//!   last item it stored, and the key the gap ends at. Nothing is ever a silent hole.
//! - **Backfill**: one page at a time, the newest gap first, then the deep end (a gap with no
//!   end key) until the server says there is no next page (the status is then *complete*).
//! - Every page and the walk state it advances are written in one transaction: after a kill at
//!   any moment, the stored cursor is exactly the one after the stored items.
//! - A stored cursor the server rejects (`invalid_cursor`) restarts that walk from the head: the
//!   gap's cursor is cleared, and pages above the gap's last stored item only refresh what is
//!   stored (upserts by id: no duplicate) until the walk passes it. A server that repeats a
//!   cursor, sends an empty page with a cursor, or items received after the cursor's own
//!   position is an [`ApiError::Paging`] error, never a loop (items of the same time in another
//!   tie order are accepted: a service may break ties otherwise).
//! - **Status moves**: an item's status is "as of" its last sighting (`items.seen`). The
//!   reconcile walk goes down the `new` list (background, paced, its cursor persisted, so it
//!   resumes). A stored item whose status is `new`, lies between the walk's previous page and
//!   the bottom of this one, and was not seen since the page was asked for, has left `new`: it
//!   is queued (`sync_recheck`, in the page's transaction) and re-read by its detail, which
//!   tells its real status, tags and delivery (an item the service no longer has is removed;
//!   one seen on any list meanwhile leaves the queue, its status known).
//!   One request per moved item is the cheapest exact way: the archived list is ordered by
//!   received time, so a moved item sits anywhere in it, and guessing "archived" would be
//!   wrong for an item in a status this version does not know. Items that came back to `new`
//!   are simply seen on the walk. A page of `new` that a head walk or backfill reads and that
//!   is the page the reconcile walk would ask for next (the top page when a walk is due, or the
//!   page after its position) serves that walk in the same transaction: no pass asks for a page
//!   another just read, and a complete first mirror of `new` is a complete reconcile walk.
//! - **One sync at a time per store**: an exclusive `flock` on `<store>.lock` (released by the
//!   kernel when a process dies, so a kill -9 never leaves it stuck); another process's sync
//!   makes every walk fail at once with [`SyncError::Busy`] (a detail is still fetched and
//!   stored: it is one independent write; the inbox tries again every few seconds, without a
//!   request; `feedback-inbox sync` waits for the lock, [`Syncer::session_waiting`]). In one
//!   process, operations take turns, and those the user asked for ([`Priority::User`]) go
//!   first: a background operation waits while one is pending and checks again between pages
//!   and requests; a background list page in flight (in the client's pacing or retry waits
//!   too) is dropped when the user arrives (nothing is written before a page returns).
//! - **Budget**: background requests never take the remaining budget under the floor
//!   (`floor_percent` of the limit); they wait for the window's reset instead (and give up the
//!   wait when the user asks for something). The client paces every request by the budget, so
//!   no 429 is provoked while headers are present.
//! - **Background**: [`Syncer::background_step`] is the background's next piece of work (gaps
//!   and the deep end of `new`, then of `archived`, then the queued re-reads, then the reconcile
//!   walk every `reconcile_every`); `Ok(None)` when there is nothing to do.
//! - **Enrichment** (`enrich`): details queued in the store (`Store::queue_details`), newest
//!   first, one per background step, taking turns with the backfill, paced like it; an item
//!   whose detail fails for its own reasons is parked or left out, never blocking the rest.
//! - **Account**: nothing the service says is stored, and no item is removed on a 404, before
//!   the key's account is confirmed to be the store's (`account`): another account's key
//!   answers 404 for every item of this store.
//! - **Retention**: with `retention` set, walks stop at the first page reaching past the
//!   cutoff and store nothing older, so the sync never undoes the store's `retention_days`.
//!
//! It builds on the API client and the store and never imports the team backend, the inbox or
//! the command line; the team's part in a walk is `feedback-team-sync`'s.

pub mod account;
mod catalog;
mod enrich;
mod fill;
mod gate;
mod lock;
mod paging;
mod reconcile;
mod scoped;
mod start;
mod walk;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use jiff::Timestamp;
use thiserror::Error;

use feedback_api::{ApiError, Client, RateLimit, Status};
use feedback_core::clock::SharedClock;
use feedback_store::{self as store, Shared, Store, StoreError};

pub use catalog::CATALOG_FRESH;
pub use enrich::{PARK as ENRICH_PARK, estimate as enrich_estimate};
use feedback_store::sync_state as state;
pub use feedback_store::sync_state::{StatusState, status_state};
pub use scoped::Scope;

/// Who asked: the user (goes first, may use the whole budget) or the background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    User,
    /// Respects the budget floor and yields to anything the user asked for.
    Background,
}

/// The sync's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncSettings {
    /// Background requests never take the remaining budget under this share of the limit.
    pub floor_percent: u8,
    /// Whether background walks (backfill, reconcile) run at all; operations of
    /// [`Priority::Background`] fail with [`SyncError::BackgroundOff`] when not.
    pub background: bool,
    /// Items per page (the API allows 1 to 100).
    pub page_size: u32,
    /// Pages a head walk takes before it leaves the rest as a gap for backfill.
    pub head_page_cap: u32,
    /// Items older than this are not fetched nor stored (the store's `retention_days`): the
    /// walk towards the deep end stops at the first page that reaches past it.
    pub retention: Option<std::time::Duration>,
    /// How long after a reconcile walk of `new` started the background starts the next one.
    pub reconcile_every: std::time::Duration,
}

impl Default for SyncSettings {
    fn default() -> Self {
        Self {
            floor_percent: 20,
            background: true,
            page_size: 100,
            head_page_cap: 10,
            reconcile_every: std::time::Duration::from_secs(15 * 60),
            retention: None,
        }
    }
}

impl SyncSettings {
    /// These settings for a process walking for its team: every page of a head walk stored on
    /// its own, so each is published to the team's mirror as it is stored (a syncer killed
    /// loses at most the page in hand).
    #[must_use]
    pub fn walking_for_team(self) -> Self {
        Self {
            head_page_cap: 1,
            ..self
        }
    }
}

/// What one operation did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Report {
    /// Items that were not stored before.
    pub added: usize,
    /// Stored items whose status, tags or text changed.
    pub changed: usize,
    /// Requests sent (retries inside one request not counted).
    pub requests: u32,
    /// Head: the walk reached what was stored (no gap left). Backfill: the walk it continued
    /// is closed. Reconcile: the walk reached the end of the list.
    pub reached_end: bool,
}

impl Report {
    fn add(&mut self, other: Report) {
        self.added += other.added;
        self.changed += other.changed;
        self.requests += other.requests;
    }
}

/// What can stop a sync.
#[derive(Debug, Error)]
pub enum SyncError {
    #[error("{0}")]
    Api(Arc<ApiError>),
    #[error("{0}")]
    Store(StoreError),
    /// Another process is syncing this store.
    #[error("another sync is running on this store; try again when it ends")]
    Busy,
    /// A background operation while background sync is turned off.
    #[error("background sync is turned off")]
    BackgroundOff,
    /// A blocking store task died (a bug).
    #[error("internal error: a store task failed: {0}")]
    Task(String),
}

impl From<ApiError> for SyncError {
    fn from(error: ApiError) -> Self {
        Self::Api(Arc::new(error))
    }
}

impl From<StoreError> for SyncError {
    fn from(error: StoreError) -> Self {
        Self::Store(error)
    }
}

/// Keeps the store fresh from the service. Cheap to clone; clones share the turn-taking and
/// the lock.
#[derive(Clone)]
pub struct Syncer {
    client: Client,
    store: Shared,
    clock: SharedClock,
    settings: SyncSettings,
    gate: Arc<gate::Gate>,
    lock: Arc<lock::SyncLock>,
    /// Background steps alternate between enrichment and the walks when both have work.
    walks_first: Arc<std::sync::atomic::AtomicBool>,
    /// The key's account was confirmed to be the store's (see `account`).
    confirmed: Arc<std::sync::atomic::AtomicBool>,
}

impl std::fmt::Debug for Syncer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Syncer")
            .field("store", &self.store.describe())
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

/// Holds the store's sync lock while alive (see [`Syncer::session`]).
pub use lock::LockGuard as Session;

impl Syncer {
    #[must_use]
    pub fn new(client: Client, store: Shared, clock: SharedClock, settings: SyncSettings) -> Self {
        let path = store.read(|s| s.path().map(lock::lock_path));
        Self {
            client,
            store,
            clock,
            settings,
            gate: Arc::new(gate::Gate::default()),
            lock: Arc::new(lock::SyncLock::new(path)),
            walks_first: Arc::default(),
            confirmed: Arc::default(),
        }
    }

    #[must_use]
    pub fn settings(&self) -> SyncSettings {
        self.settings
    }

    /// This syncer with other settings, sharing its turn-taking and its lock (a session held
    /// by one is held by both).
    #[must_use]
    pub fn with_settings(&self, settings: SyncSettings) -> Self {
        Self {
            settings,
            ..self.clone()
        }
    }

    /// Takes the store's sync lock for as long as the guard lives, so a run of operations (the
    /// `sync` command) is not interleaved with another process's. Fails at once with
    /// [`SyncError::Busy`] when another process holds it.
    pub fn session(&self) -> Result<Session, SyncError> {
        lock::SyncLock::acquire(&self.lock)
    }

    /// [`Syncer::session`], but while another process holds the lock, waits (off the async
    /// threads) until it lets go.
    pub async fn session_waiting(&self) -> Result<Session, SyncError> {
        let lock = Arc::clone(&self.lock);
        tokio::task::spawn_blocking(move || lock::SyncLock::acquire_waiting(&lock))
            .await
            .map_err(|e| SyncError::Task(e.to_string()))?
    }

    /// Head sync of one status; stops at the first page that reaches the stored head.
    pub async fn head(&self, status: &Status, priority: Priority) -> Result<Report, SyncError> {
        walk::head(self, status, priority).await
    }

    /// One page deeper than the store reaches for `status` (gaps first, then the deep end);
    /// `Ok(None)` when that status is mirrored to its end.
    pub async fn backfill_page(
        &self,
        status: &Status,
        priority: Priority,
    ) -> Result<Option<Report>, SyncError> {
        walk::backfill_pages(self, status, priority, 1).await
    }

    /// Up to `max` pages deeper than the store reaches for `status`, along its first gap (the
    /// deep end when there is none), each next page asked for while the one before is written;
    /// `Ok(None)` when that status is mirrored to its end. The operation keeps its turn for
    /// all of them: for a walk nothing else waits on (`sync`), not the inbox's steps.
    pub async fn backfill_pages(
        &self,
        status: &Status,
        priority: Priority,
        max: u32,
    ) -> Result<Option<Report>, SyncError> {
        walk::backfill_pages(self, status, priority, max).await
    }

    /// One page of the reconcile walk of `new`, then the re-reads of the items it found gone
    /// from `new`. `reached_end` when the walk reached the end of the list (the next call
    /// starts a new walk from the top).
    pub async fn reconcile_page(&self, priority: Priority) -> Result<Report, SyncError> {
        reconcile::page(self, priority).await
    }

    /// Re-reads, by their detail, the stored items queued because a page of `new` should have
    /// held them and did not; `Ok(None)` when none waits.
    pub async fn recheck(&self, priority: Priority) -> Result<Option<Report>, SyncError> {
        reconcile::recheck(self, priority).await
    }

    /// Forgets how far `status` is mirrored (the items stay), so the next head walk and its
    /// backfill read every page again, refreshing every stored item's status and tags. For
    /// `new`, that walk is also the next reconcile walk (any running one is dropped).
    pub async fn restart(&self, status: &Status) -> Result<(), SyncError> {
        let _session = self.session()?;
        let _turn = self.gate.turn(Priority::User).await;
        let name = status.as_str().to_owned();
        self.blocking(move |s| s.write(|tx| state::restart(tx, &name)))
            .await
    }

    /// The next piece of background work, in this order: a queued detail (enrichment; it takes
    /// turns with the next two), a gap or the deep end of `new`, then of `archived`, then the
    /// queued re-reads, then a page of the reconcile walk of `new` (while one runs, or when the
    /// last one started `reconcile_every` ago or more). `Ok(None)`: nothing to do now. Waits as
    /// [`Priority::Background`] does (for the user's operations, for the budget floor).
    pub async fn background_step(&self) -> Result<Option<Report>, SyncError> {
        // The details someone asked for (`e`) and the walks take turns, so that neither a big
        // enrichment holds the mirror back nor the reverse.
        let walks_first = self
            .walks_first
            .fetch_xor(true, std::sync::atomic::Ordering::Relaxed);
        if !walks_first && let Some(report) = self.enrich_step().await? {
            return Ok(Some(report));
        }
        for status in [Status::New, Status::Archived] {
            if let Some(report) = self.backfill_page(&status, Priority::Background).await? {
                return Ok(Some(report));
            }
        }
        if walks_first && let Some(report) = self.enrich_step().await? {
            return Ok(Some(report));
        }
        if let Some(report) = self.recheck(Priority::Background).await? {
            return Ok(Some(report));
        }
        if !self.reconcile_due().await? {
            return Ok(None);
        }
        self.reconcile_page(Priority::Background).await.map(Some)
    }

    /// Whether the reconcile walk of `new` has work: one is under way, or the last one started
    /// `reconcile_every` ago or more (or none ever ran). Read off the async threads.
    pub async fn reconcile_due(&self) -> Result<bool, SyncError> {
        let state = self.read_state(&Status::New, false).await?;
        Ok(state.reconciling
            || state.reconciled_at.is_none_or(|at| {
                feedback_core::clock::until(at, self.now()) >= self.settings.reconcile_every
            }))
    }

    /// [`Syncer::state`] off the async threads; without `count`, `stored` is left at 0 and
    /// the read stays cheap at any size (no `count(*)` over the status), for a per-page
    /// progress line.
    pub async fn read_state(&self, status: &Status, count: bool) -> Result<StatusState, SyncError> {
        let store = self.store.clone();
        let status = status.clone();
        let state = tokio::task::spawn_blocking(move || {
            store.read(|s| state::status_state_with(s, &status, count))
        })
        .await
        .map_err(|e| SyncError::Task(e.to_string()))??;
        Ok(state)
    }

    /// Fetches one detail and stores it (status, tags, metadata, delivery updated at once). An
    /// item the service no longer has is removed from the store, and the error says so; both
    /// wait for the account to be confirmed (see `account`): with another account's key the
    /// answer is the account error, and the store is left as it was.
    pub async fn detail(&self, id: &str) -> Result<store::StoredDetail, SyncError> {
        let detail = match self.client.get_feedback(id).await {
            Ok(detail) => detail,
            Err(error @ ApiError::NotFound { .. }) => {
                if !reconcile::unfetchable(id) {
                    self.forget_gone(id).await?;
                }
                return Err(error.into());
            }
            Err(error) => return Err(error.into()),
        };
        self.confirm_detail(&detail.feedback).await?;
        let at = self.clock.now();
        let id = detail.feedback.id.as_str().to_owned();
        self.blocking(move |s| {
            s.write(|tx| {
                store::put_in(tx, &[store::Sighting::detail(&detail)], at)?;
                state::recheck_done(tx, &id)
            })?;
            s.detail(&id)
        })
        .await?
        .ok_or_else(|| SyncError::Task("the stored detail vanished".to_owned()))
    }

    /// How far `status` is mirrored and how fresh it is. Blocking (a short read).
    pub fn state(&self, status: &Status) -> Result<StatusState, SyncError> {
        Ok(self.store.read(|s| status_state(s, status))?)
    }

    /// The rate-limit budget as the service last reported it.
    #[must_use]
    pub fn rate_limit(&self) -> RateLimit {
        self.client.rate_limit()
    }

    pub(crate) fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// Runs a store call on the writing connection off the async threads.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, SyncError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || store.write(f))
            .await
            .map_err(|e| SyncError::Task(e.to_string()))?
            .map_err(SyncError::Store)
    }
}
