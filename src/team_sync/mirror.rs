//! A member's store following the team's shared mirror: the items written there after the
//! store's position, read in batches of [`BATCH`] and stored each with the position after it
//! in one commit (`store::team_mirror`). A member that was away for a day catches up from the
//! team's database, not the service's API, and at the database's speed.

use jiff::Timestamp;

use super::{TeamSyncError, blocking};
use crate::store::Shared;
use crate::team::Team;

/// Items read from the mirror per batch (memory stays flat whatever the mirror's size).
pub const BATCH: i64 = 1000;

/// What a follow read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Followed {
    /// Items read from the mirror.
    pub items: usize,
    /// Of those, items the store did not hold, and items whose stored copy changed.
    pub added: usize,
    pub changed: usize,
    /// The position reached.
    pub position: i64,
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
            return Ok(followed);
        };
        let items: Vec<_> = batch.into_iter().map(|m| m.item).collect();
        let count = items.len();
        let at = now();
        let written = blocking(store, move |s| s.team_mirror_apply(&items, last, at)).await??;
        position = last;
        followed.items += count;
        followed.added += written.added;
        followed.changed += written.changed;
        followed.position = position;
    }
}
