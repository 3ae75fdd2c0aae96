//! A long-lived process's part in the walk of a team that shares one mirror (the inbox's).
//! Before each sync job it is settled again: the process walks for the team (it holds the
//! syncer's lease, taken when nobody held it: a turn, kept from job to job), follows the
//! team's walk (another member's process holds the lease: the store reads the mirror, the
//! service is asked for no list page), or syncs alone (the team shares no mirror, or its
//! database cannot be reached: tried again after a while). A turn lasts until
//! [`TeamWalk::end`] (the process ends), until its lease or its connection is found gone (then
//! the next job settles again), or until the team stops sharing.

use std::sync::Arc;

use jiff::Timestamp;

use super::mirror::{self, Followed};
use super::syncer::{Began, Turn};
use super::{TeamSyncError, blocking};
use feedback_api::{Extras, RateLimit, Status};
use feedback_core::clock::SharedClock;
use feedback_store::Shared;
use feedback_team::{Lease, Syncer, Team, TeamUrl};

/// The process's part in its team's walk, settled job by job.
pub struct TeamWalk {
    url: TeamUrl,
    /// The team, when the role is in several.
    team: Option<String>,
    store: Shared,
    clock: SharedClock,
    place: tokio::sync::Mutex<Place>,
}

/// What is held between jobs: the turn, or a connection to follow and share on.
#[derive(Default)]
struct Place {
    turn: Option<Arc<Turn>>,
    team: Option<Team>,
    /// The lease of a turn lost with its connection: given up on the next connection, so the
    /// next turn need not wait for it to lapse.
    stale: Option<Lease>,
    /// The database could not be reached: until then, jobs run alone without trying again (a
    /// host that does not answer would hold every job for the connection's timeout).
    away_until: Option<tokio::time::Instant>,
}

/// How long jobs run alone after the team's database could not be reached.
const AWAY: std::time::Duration = std::time::Duration::from_secs(30);

/// What this process does for the next job.
pub enum Part {
    /// Syncs alone, as without a team.
    Alone,
    /// Walks for the team: what the job stores is published by `Turn::publish`.
    Walking(Arc<Turn>),
    /// Another member's process walks for the team: the store follows the mirror.
    Following,
}

impl TeamWalk {
    /// The part of the process whose store is `store`, on the team at `url`.
    #[must_use]
    pub fn new(url: TeamUrl, team: Option<String>, store: Shared, clock: SharedClock) -> Self {
        Self {
            url,
            team,
            store,
            clock,
            place: tokio::sync::Mutex::new(Place::default()),
        }
    }

    /// Settles this process's part for the next job: its turn goes on while its lease holds;
    /// otherwise it takes the lease when nobody holds it (following the mirror to its end and
    /// taking the walk over first), or follows. A team that cannot be reached, or that
    /// refuses, leaves the process syncing alone for this job (said in the log).
    pub async fn part(&self) -> Part {
        let mut place = self.place.lock().await;
        if let Some(turn) = place.turn.clone() {
            if !turn.lost() && still_shared(&turn).await {
                return Part::Walking(turn);
            }
            // The lease or the connection was found gone (nothing more can be published), or
            // the team stopped sharing its mirror: the turn is over.
            if let Some(turn) = place.turn.take() {
                if turn.lost() {
                    place.stale = Some(turn.lease());
                }
                if let Err(error) = turn.end(None).await {
                    tracing::info!(%error, "a lost turn as the team's syncer ended uncleanly");
                }
            }
        }
        if place
            .away_until
            .is_some_and(|until| tokio::time::Instant::now() < until)
        {
            return Part::Alone;
        }
        match self.settle(&mut place).await {
            Ok(part) => {
                place.away_until = None;
                part
            }
            Err(error) => {
                tracing::warn!(%error, "the team's walk cannot be settled: syncing alone");
                if error.is_unreachable() {
                    place.away_until = Some(tokio::time::Instant::now() + AWAY);
                }
                place.team = None;
                Part::Alone
            }
        }
    }

    async fn settle(&self, place: &mut Place) -> Result<Part, TeamSyncError> {
        let team = match place.team.take() {
            Some(team) => team,
            None => Team::open(&self.url, self.team.as_deref()).await?,
        };
        if let Some(stale) = place.stale.take() {
            // Only that generation's: a turn another process took since is left alone.
            team.release_syncer(&stale).await?;
        }
        let clock = self.clock.clone();
        Ok(
            match settle(team, &self.url, &self.store, move || clock.now()).await? {
                Settled::NotShared(team) => {
                    place.team = Some(team);
                    Part::Alone
                }
                Settled::Walking(turn) => {
                    place.turn = Some(Arc::clone(&turn));
                    Part::Walking(turn)
                }
                Settled::Following { team, .. } => {
                    place.team = Some(*team);
                    Part::Following
                }
            },
        )
    }

    /// Follows the team's mirror into the store (a follower's job).
    ///
    /// # Errors
    /// The database or the store failed; the connection is opened again for the next job.
    pub async fn follow(&self) -> Result<Followed, TeamSyncError> {
        let mut place = self.place.lock().await;
        let team = match place.team.take() {
            Some(team) => team,
            None => Team::open(&self.url, self.team.as_deref()).await?,
        };
        let clock = self.clock.clone();
        let followed = mirror::follow(&team, &self.store, move || clock.now()).await?;
        place.team = Some(team);
        Ok(followed)
    }

    /// Adds the newest `count` items of `status` in the store, which this process read from
    /// the service itself (a follower's `r`), to the team's mirror: those it lacks, as a webhook
    /// receiver's are (never over the syncer's copy); how many. Errors are logged: the items
    /// are stored here either way, and the syncer's walk brings them to the mirror later.
    pub async fn share_newest(&self, status: &Status, count: usize) -> u64 {
        let listed = status.as_str().to_owned();
        let newest = blocking(&self.store, move |s| s.newest_to_share(&listed, count))
            .await
            .and_then(|read| read.map_err(TeamSyncError::from));
        let newest = match newest {
            Ok(newest) => newest,
            Err(error) => {
                tracing::warn!(%error, "what this member read could not be shared");
                return 0;
            }
        };
        let mut place = self.place.lock().await;
        let Some(team) = place.team.as_mut() else {
            return 0;
        };
        match team.mirror_deliver(&newest.items, &newest.extras).await {
            Ok(shared) => shared,
            Err(error) => {
                tracing::warn!(%error, "what this member read could not be shared with the team");
                0
            }
        }
    }

    /// Shares what a detail read from the service said of the item `id` beyond its list fields
    /// with the mirror's copy, where this process follows (walking for the team, its
    /// publication carries them). Errors are logged: the item itself is stored either way.
    pub async fn share_extras(&self, id: &str, extras: &Extras) {
        let place = self.place.lock().await;
        if place.turn.is_some() {
            return;
        }
        if let Some(team) = &place.team
            && let Err(error) = team.mirror_share_extras(id, extras).await
        {
            tracing::warn!(%error, "a detail could not be shared with the team's mirror");
        }
    }

    /// Ends the turn, if this process walks for the team: the rest published, the lease given
    /// up so another member's process takes over at once. Errors are logged: the lease then
    /// lapses by itself.
    pub async fn end(&self, budget: &RateLimit) {
        let turn = self.place.lock().await.turn.take();
        if let Some(turn) = turn
            && let Err(error) = turn.end(Some(budget)).await
        {
            tracing::warn!(%error, "the turn as the team's syncer did not end cleanly");
        }
    }
}

/// Whether the team still shares its mirror, read before each job of a turn (taken to be so
/// when the read fails: the turn's publications then say what is wrong).
async fn still_shared(turn: &Turn) -> bool {
    match turn.shared().await {
        Ok(shared) => shared,
        Err(error) => {
            tracing::warn!(%error, "whether the team still shares its mirror is unknown");
            true
        }
    }
}

/// What a process's part in its team's walk is, settled on its connection `team`.
pub enum Settled {
    /// The team shares no mirror: each member syncs alone (the connection given back).
    NotShared(Team),
    /// This process walks for the team: its turn.
    Walking(Arc<Turn>),
    /// Another member's process walks for the team (`holder`); the connection given back.
    Following { holder: Syncer, team: Box<Team> },
}

/// Settles what the process whose store is `store` does on `team`: nothing shared; or, on a
/// team that shares its mirror (the store joined first), its turn when nobody holds the lease
/// (`Turn::begin`), else following. Whether the store's writes are noted for the mirror is
/// settled with it: notes a killed turn of this store left are nobody's to publish, unless the
/// turn alive now is this store's (its other process walking for the team).
///
/// # Errors
/// The database or the store failed, or the team refused the store.
pub async fn settle(
    team: Team,
    url: &TeamUrl,
    store: &Shared,
    now: impl Fn() -> Timestamp,
) -> Result<Settled, TeamSyncError> {
    if !team.shared_mirror().await? {
        blocking(store, |s| s.settle_mirror_publishing(None)).await??;
        return Ok(Settled::NotShared(team));
    }
    // A replica read again is logged where it happens; the walk goes on either way.
    let _rebuilt = super::join(&team, store).await?;
    match Turn::begin(team, url, store, now).await? {
        Began::Walking(turn) => Ok(Settled::Walking(turn)),
        Began::Following { holder, team } => {
            let alive = holder.alive.then_some(holder.generation);
            blocking(store, move |s| s.settle_mirror_publishing(alive)).await??;
            Ok(Settled::Following { holder, team })
        }
    }
}
