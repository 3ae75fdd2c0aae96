//! A process's turn as the team's syncer, on a team that shares one mirror: it takes the lease
//! when nobody holds it, takes the walk over (`mirror::take_over_held`), and publishes what its
//! store wrote after every step of the walk (`mirror::publish`). A heartbeat on a connection of
//! its own renews the lease every third of its length, so a long step (pages paced by the
//! budget) never lets it lapse; when a renewal finds the lease gone (a laptop that slept
//! through it), the turn is over: the next publication is fenced and says so.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use jiff::Timestamp;

use super::TeamSyncError;
use super::mirror::{self, Followed, Published};
use feedback_api::RateLimit;
use feedback_store::Shared;
use feedback_team::{LEASE_SECONDS, Lease, Syncer, Team, TeamUrl};

/// A turn as the team's syncer, until [`Turn::end`] (or the process ends: the lease then
/// lapses within [`LEASE_SECONDS`] and another member's process takes over).
pub struct Turn {
    team: tokio::sync::Mutex<Team>,
    store: Shared,
    lease: Lease,
    lost: Arc<AtomicBool>,
    heartbeat: tokio::task::JoinHandle<()>,
    /// What taking the walk over read from the mirror.
    pub followed: Followed,
}

/// Whether this process walks for the team.
pub enum Began {
    /// It does: its turn.
    Walking(Arc<Turn>),
    /// Another member's process holds the lease (`holder`); the connection given back.
    Following { holder: Syncer, team: Box<Team> },
}

impl Turn {
    /// Takes the team's syncer lease when nobody holds it, then the walk (the mirror followed
    /// into `store`, its walk state laid in; what this store's own turn just before stored and
    /// never published is published first). `team` is this process's connection to the team;
    /// the heartbeat opens one more with `url`.
    ///
    /// # Errors
    /// The database or the store failed; the lease, when taken, is given up again.
    pub async fn begin(
        mut team: Team,
        url: &TeamUrl,
        store: &Shared,
        now: impl Fn() -> Timestamp,
    ) -> Result<Began, TeamSyncError> {
        let Some(lease) = team.take_syncer(LEASE_SECONDS).await? else {
            let holder = team.syncer().await?;
            return match holder {
                Some(holder) => Ok(Began::Following {
                    holder,
                    team: Box::new(team),
                }),
                // Released between the two reads: the next run takes it.
                None => Err(TeamSyncError::Team(feedback_team::TeamError::Gone)),
            };
        };
        // The heartbeat first: following a large mirror may take longer than a lease lasts.
        let beat = match Team::open(url, Some(team.name())).await {
            Ok(beat) => beat,
            Err(error) => {
                // No heartbeat, no turn: the lease given up at once, so another process need
                // not wait for it to lapse.
                let _ = team.release_syncer(&lease).await;
                return Err(error.into());
            }
        };
        let lost = Arc::new(AtomicBool::new(false));
        let heartbeat = tokio::spawn(heartbeat(beat, lease, Arc::clone(&lost)));
        let followed = match mirror::take_over_held(&mut team, store, &lease, now).await {
            Ok(followed) => followed,
            Err(error) => {
                heartbeat.abort();
                let _ = team.release_syncer(&lease).await;
                // The store may have started noting its writes: they are nobody's to publish.
                let generation = lease.generation;
                super::blocking(store, move |s| s.end_mirror_publishing(generation)).await??;
                return Err(error);
            }
        };
        Ok(Began::Walking(Arc::new(Self {
            team: tokio::sync::Mutex::new(team),
            store: store.clone(),
            lease,
            lost,
            heartbeat,
            followed,
        })))
    }

    /// Publishes what the store wrote since the last publication; `Fenced` once the lease is
    /// no longer this turn's (nothing is written then).
    ///
    /// # Errors
    /// The database or the store failed: what is noted stays for the next publication.
    /// `budget` is the service's rate limit as this process last read it (the team's budget).
    pub async fn publish(&self, budget: Option<&RateLimit>) -> Result<Published, TeamSyncError> {
        if self.lost.load(Ordering::Acquire) {
            return Ok(Published::Fenced);
        }
        let mut team = self.team.lock().await;
        let published = mirror::publish(&mut team, &self.store, &self.lease, budget)
            .await
            .inspect_err(|error| {
                if error.is_unreachable() {
                    // The connection is gone (the database restarted): this turn can publish
                    // no more; the next one starts on a new connection from the mirror.
                    self.lost.store(true, Ordering::Release);
                }
            })?;
        if published == Published::Fenced {
            // Another process took the lease over: this turn is over.
            self.lost.store(true, Ordering::Release);
        }
        Ok(published)
    }

    /// Whether the team still shares one mirror (a member may have turned it off).
    ///
    /// # Errors
    /// The database failed.
    pub async fn shared(&self) -> Result<bool, TeamSyncError> {
        Ok(self.team.lock().await.shared_mirror().await?)
    }

    /// Whether a member asked for the lists' tops after the last walk published whole began
    /// (or before any was): a walk of the tops is wanted.
    ///
    /// # Errors
    /// The database failed.
    pub async fn asked(&self) -> Result<bool, TeamSyncError> {
        let (asked, served) = self.team.lock().await.mirror_asks().await?;
        Ok(asked.is_some_and(|asked| served.is_none_or(|served| asked > served)))
    }

    /// The database's clock now: a walk's start, to say later which asks it served.
    ///
    /// # Errors
    /// The database failed.
    pub async fn server_now(&self) -> Result<Timestamp, TeamSyncError> {
        Ok(self.team.lock().await.server_now().await?)
    }

    /// Says the walk started at `started` is published whole (the members' asks before it are
    /// served); whether a member asked again after it started (another walk of the tops is
    /// wanted).
    ///
    /// # Errors
    /// The database failed.
    pub async fn served(&self, started: Timestamp) -> Result<bool, TeamSyncError> {
        let team = self.team.lock().await;
        team.mirror_served(started).await?;
        let (asked, _) = team.mirror_asks().await?;
        Ok(asked.is_some_and(|asked| asked > started))
    }

    /// Whether the turn is over: its lease found gone (a laptop that slept through it), or
    /// its connections to the database (the database restarted).
    #[must_use]
    pub fn lost(&self) -> bool {
        self.lost.load(Ordering::Acquire)
    }

    /// The lease this turn holds (or held).
    #[must_use]
    pub fn lease(&self) -> Lease {
        self.lease
    }

    /// Publishes what is left, stops noting writes and gives the lease up, so another member's
    /// process may take over at once.
    ///
    /// # Errors
    /// The database or the store failed (the lease then lapses by itself).
    pub async fn end(&self, budget: Option<&RateLimit>) -> Result<Published, TeamSyncError> {
        let published = self.publish(budget).await;
        self.heartbeat.abort();
        self.lost.store(true, Ordering::Release);
        self.team.lock().await.release_syncer(&self.lease).await?;
        let generation = self.lease.generation;
        super::blocking(&self.store, move |s| s.end_mirror_publishing(generation)).await??;
        published
    }
}

/// Renews `lease` every third of its length on its own connection, until a renewal finds it
/// gone or the connection fails (the lease then lapses by itself, and a publication after that
/// is fenced by the database); either way `lost` is set: the turn is over.
async fn heartbeat(team: Team, lease: Lease, lost: Arc<AtomicBool>) {
    let every = std::time::Duration::from_secs(u64::try_from(LEASE_SECONDS / 3).unwrap_or(5));
    loop {
        tokio::time::sleep(every).await;
        match team.renew_syncer(&lease, LEASE_SECONDS).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                lost.store(true, Ordering::Release);
                return;
            }
            Err(error) => {
                tracing::warn!(%error, "the syncer's lease could not be renewed");
                lost.store(true, Ordering::Release);
                return;
            }
        }
    }
}
