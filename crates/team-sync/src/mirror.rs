//! A member's store and the team's shared mirror. Following ([`follow`]): the items written
//! there after the store's position, read in batches of [`BATCH`] and stored each with the
//! position after it in one commit (`store::team_mirror`); a member that was away for a day
//! catches up from the team's database, not the service's API, and at the database's speed.
//! Syncing for the team: the process that holds the lease takes the walk over ([`take_over`]:
//! the mirror followed to its end, its walk state laid into the store; [`take_over_held`]
//! first publishes what this store's own killed turn stored and never published), walks the
//! API as the local sync does, and publishes what that stored ([`publish`]), fenced by its
//! lease.

use jiff::Timestamp;

use super::{TeamSyncError, blocking};
use feedback_api::RateLimit;
use feedback_store::{Shared, WalkState};
use feedback_team::{Lease, MirrorWrite, Team};

/// Items read from the mirror per batch (memory stays flat whatever the mirror's size).
pub const BATCH: i64 = 1000;

/// Notes published per transaction: a publication of a whole store (the first syncer's) goes
/// in parts, in flat memory.
pub(crate) const PUBLISH_BATCH: usize = 2000;

/// What a follow read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Followed {
    /// Items read from the mirror.
    pub items: usize,
    /// Of those, items the store did not hold, and items whose stored copy changed.
    pub added: usize,
    pub changed: usize,
    /// Items removed: the service no longer has them.
    pub removed: usize,
    /// The position reached.
    pub position: i64,
}

impl Followed {
    /// This follow and a `later` one together: their counts summed, the later position.
    pub fn then(&mut self, later: Followed) {
        self.items += later.items;
        self.added += later.added;
        self.changed += later.changed;
        self.removed += later.removed;
        self.position = later.position;
    }
}

/// Reads every item of the mirror after the store's position into the store.
///
/// # Errors
/// The store has no replica of the team (it must join first), or the database or the store
/// failed: what was stored before stays, with its position.
pub async fn follow(
    team: &Team,
    store: &Shared,
    now: impl Fn() -> Timestamp,
) -> Result<Followed, TeamSyncError> {
    let Some(mut position) = blocking(store, |s| s.team_mirror_position()).await?? else {
        return Err(TeamSyncError::NotJoined);
    };
    let mut followed = Followed {
        position,
        ..Followed::default()
    };
    loop {
        let batch = team.mirror_after(position, BATCH).await?;
        let Some(last) = batch.last().map(|m| m.seq) else {
            lay_walk(team, store).await?;
            // Said to the team, for `team status`; a follow that could not say it still read.
            if let Err(error) = team.record_mirror_position(position).await {
                tracing::warn!(%error, "the mirror position could not be recorded");
            }
            return Ok(followed);
        };
        let count = batch.len();
        let (mut items, mut extras, mut removed) = (Vec::new(), Vec::new(), Vec::new());
        for entry in batch {
            match entry.item {
                Some(item) => {
                    items.push(item);
                    extras.push(entry.extras);
                }
                None => removed.push(entry.id),
            }
        }
        let at = now();
        let after = position;
        let written = blocking(store, move |s| {
            s.team_mirror_apply((&items, &extras), &removed, (after, last), at)
        })
        .await??;
        let Some(written) = written else {
            // Another follow of this store went further meanwhile: on from where it is.
            match blocking(store, |s| s.team_mirror_position()).await?? {
                Some(now_at) => position = now_at,
                None => return Err(TeamSyncError::NotJoined),
            }
            followed.position = position;
            continue;
        };
        position = last;
        followed.items += count;
        followed.added += written.added;
        followed.changed += written.changed;
        followed.removed += written.removed;
        followed.position = position;
    }
}

/// Lays the walk state the mirror holds into a follower's store (a publishing store keeps its
/// own): how far each status is mirrored, as the syncer last published it. A state that does
/// not read is logged and left: the items followed are what matters to the follower.
async fn lay_walk(team: &Team, store: &Shared) -> Result<(), TeamSyncError> {
    let json = match team.mirror_walk().await {
        Ok(Some(json)) => json,
        Ok(None) => return Ok(()),
        Err(feedback_team::TeamError::Json(error)) => {
            tracing::warn!(%error, "the mirror's walk state does not read");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    match serde_json::from_value::<WalkState>(json) {
        Ok(walk) => {
            blocking(store, move |s| s.follow_walk_state(&walk)).await??;
        }
        Err(error) => tracing::warn!(%error, "the mirror's walk state does not read"),
    }
    Ok(())
}

/// Makes `store` ready to walk for the team, once the lease of `generation` is this process's: follows the
/// mirror to its end, then lays the walk state the last syncer published into the store (its
/// items are all in the mirror, so now in the store) and notes what the store writes from now
/// on. A team whose mirror was never walked starts from this store: what it holds and its own
/// walk state are published first, so the account is not walked again.
///
/// # Errors
/// The store has not joined the team, or the database or the store failed.
pub async fn take_over(
    team: &Team,
    store: &Shared,
    generation: i64,
    now: impl Fn() -> Timestamp,
) -> Result<Followed, TeamSyncError> {
    let followed = follow(team, store, now).await?;
    let walk = match team.mirror_walk().await {
        Ok(walk) => walk.map(serde_json::from_value::<WalkState>),
        Err(feedback_team::TeamError::Json(error)) => Some(Err(error)),
        Err(error) => return Err(error.into()),
    };
    match walk {
        Some(Ok(walk)) => {
            blocking(store, move |s| {
                s.restore_walk_state(&walk)?;
                s.start_mirror_publishing(generation)
            })
            .await??;
        }
        // A walk state that does not read (written by hand, or by a newer version) stops no
        // one: the mirror's items are in this store, which walks on from its own state.
        Some(Err(error)) => {
            tracing::warn!(%error, "the team's walk state does not read: walking on from this store's");
            blocking(store, move |s| s.start_mirror_publishing(generation)).await??;
        }
        None => {
            blocking(store, move |s| {
                s.start_mirror_publishing(generation)?;
                s.seed_mirror_outbox()
            })
            .await??;
        }
    }
    Ok(followed)
}

/// [`take_over`] by the process that holds `lease`, which first publishes what the turn before
/// it left in this store. A turn killed between storing a page and publishing it leaves the
/// page noted in its store (for that turn's generation) and the store's walk state that page
/// ahead of the mirror's. When that turn was this store's and came just before `lease` (no
/// turn between, so the mirror holds no walk state newer than the one this store went on
/// from), its notes are published with this store's walk state under `lease`, and the walk
/// goes on from where this store left it: no page the store holds is asked for again. Another
/// member's store cannot hand such a page over; it is walked again from the mirror's state.
///
/// # Errors
/// The store has not joined the team, or the database or the store failed.
pub(crate) async fn take_over_held(
    team: &mut Team,
    store: &Shared,
    lease: &Lease,
    now: impl Fn() -> Timestamp,
) -> Result<Followed, TeamSyncError> {
    let noted = blocking(store, |s| s.mirror_publishing()).await??;
    let mut followed = Followed::default();
    if noted.is_some_and(|generation| generation.checked_add(1) == Some(lease.generation)) {
        // Followed first, so what members added to the mirror since is in the store before
        // the publication moves the store's position to the mirror's end.
        followed = follow(team, store, &now).await?;
        // Fenced: the lease lapsed already; nothing was written, and the turn's next
        // publication ends it.
        publish(team, store, lease, None).await?;
    }
    followed.then(take_over(team, store, lease.generation, now).await?);
    Ok(followed)
}

/// What a publication did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    /// Written: items and removals sent (in parts of [`PUBLISH_BATCH`]), and the walk state.
    Written { items: usize, removed: usize },
    /// The lease is no longer this process's: nothing more was written; the process must stop
    /// walking for the team (what it noted is published by nobody: the next syncer walks
    /// those pages again from the walk state the mirror holds).
    Fenced,
}

/// Publishes what the store noted since the last publication, with the walk state that goes
/// with it, fenced by `lease`; the notes are taken out once the team's database has them.
///
/// # Errors
/// The database or the store failed: the notes stay, for the next publication.
pub async fn publish(
    team: &mut Team,
    store: &Shared,
    lease: &Lease,
    budget: Option<&RateLimit>,
) -> Result<Published, TeamSyncError> {
    let budget = budget.and_then(|b| serde_json::to_value(b).ok());
    let (mut items, mut removed) = (0, 0);
    loop {
        let publication = blocking(store, |s| s.mirror_publication(PUBLISH_BATCH)).await??;
        let walk = match &publication.walk {
            Some(walk) => Some(
                serde_json::to_value(walk).map_err(|e| TeamSyncError::WalkState(e.to_string()))?,
            ),
            None => None,
        };
        let written = team
            .mirror_write(
                lease,
                (&publication.items, &publication.extras),
                &publication.removed,
                walk.as_ref(),
                budget.as_ref(),
            )
            .await?;
        if written == MirrorWrite::Fenced {
            return Ok(Published::Fenced);
        }
        items += publication.items.len();
        removed += publication.removed.len();
        let whole = publication.walk.is_some();
        blocking(store, move |s| s.mirror_published(&publication)).await??;
        if whole {
            // Only the lease's holder writes the mirror, and its store followed it before its
            // turn: the store holds the mirror up to its last write.
            let seq = team.mirror_last_seq().await?;
            blocking(store, move |s| s.team_mirror_reached(seq)).await??;
            team.record_mirror_position(seq).await?;
            return Ok(Published::Written { items, removed });
        }
    }
}
