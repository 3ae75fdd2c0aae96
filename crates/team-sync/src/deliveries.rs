//! A member's webhook receiver sharing what it stored with the team's mirror (`webhook listen
//! --team`): the items its deliveries brought, noted in the store with each delivery, are added
//! to the mirror (each item once, whichever receivers delivered it) and taken out of the store's
//! notes once the team's database has them. [`share_until`] does that on every delivery, and
//! again while the database is away, so a delivery acknowledged meanwhile is shared once it is
//! back.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio_util::sync::CancellationToken;

use super::{TeamSyncError, blocking};
use feedback_store::Shared;
use feedback_team::{Team, TeamUrl};

/// Items shared per transaction.
pub(crate) const SHARE_BATCH: usize = 500;

/// How long to wait before trying again while the team's database is away.
const RETRY: Duration = Duration::from_secs(5);

/// Adds the items the store noted to the team's mirror; how many were new there.
///
/// # Errors
/// The database or the store failed: what is noted stays for the next try.
pub async fn share(team: &mut Team, store: &Shared) -> Result<u64, TeamSyncError> {
    let mut added = 0;
    loop {
        let batch = blocking(store, |s| s.deliveries_to_share(SHARE_BATCH)).await??;
        if batch.is_empty() {
            return Ok(added);
        }
        added += team.mirror_deliver(&batch.items, &batch.extras).await?;
        blocking(store, move |s| s.deliveries_shared(&batch)).await??;
    }
}

/// What sharing says, for the receiver's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sharing {
    /// Items added to the team's mirror (new there).
    Added(u64),
    /// The team's database could not be reached, or refused (why): tried again.
    Failed(String),
}

/// Shares at once and then on every `wake` (a delivery stored), until `stop`; while the
/// database is away, tries again every few seconds. What happened is sent on `said` (a failure
/// once, until sharing works again).
pub async fn share_until(
    url: TeamUrl,
    team_name: Option<String>,
    store: Shared,
    mut wake: UnboundedReceiver<()>,
    said: tokio::sync::mpsc::UnboundedSender<Sharing>,
    stop: CancellationToken,
) {
    let mut connected: Option<Team> = None;
    let mut failing = false;
    loop {
        let opened = match connected.take() {
            Some(team) => Ok(team),
            None => Team::open(&url, team_name.as_deref())
                .await
                .map_err(TeamSyncError::from),
        };
        let outcome = match opened {
            Ok(mut team) => {
                let added = share(&mut team, &store).await;
                if added.is_ok() {
                    connected = Some(team);
                }
                added
            }
            Err(error) => Err(error),
        };
        let retry = match outcome {
            Ok(added) => {
                if added > 0 {
                    let _ = said.send(Sharing::Added(added));
                }
                failing = false;
                false
            }
            Err(error) => {
                if !failing {
                    let _ = said.send(Sharing::Failed(error.to_string()));
                }
                failing = true;
                true
            }
        };
        tokio::select! {
            () = stop.cancelled() => return,
            woken = wake.recv() => {
                if woken.is_none() {
                    return;
                }
                // Deliveries that came together are shared together.
                while wake.try_recv().is_ok() {}
            }
            () = tokio::time::sleep(RETRY), if retry => {}
        }
    }
}
