//! `sync` on a team that shares one mirror of the account (`team set shared-mirror on`): the
//! store follows the team's database first; then, when no other member's process walks the
//! service's API for the team, this one does (its turn: every step of the walk published with
//! the walk state, the lease given up at the end); while another does, the store is as current
//! as the team's mirror and the run asks the service for no page.

use std::io::Write;

use jiff::Timestamp;

use super::super::CliError;
use super::progress::Progress;
use crate::context::Context;
use feedback_api::RateLimit;
use feedback_core::text::Clean;
use feedback_store::Shared;
use feedback_team::Team;
use feedback_team_sync::syncer::Began;
pub(super) use feedback_team_sync::syncer::Turn;
use feedback_team_sync::team_walk::{Settled, settle};
use feedback_team_sync::{self as team_sync, mirror::Published};

/// How this run syncs.
pub(super) enum Mode {
    /// No team, or one whose members sync on their own.
    Alone,
    /// This process walks for the team.
    Walking(std::sync::Arc<Turn>),
    /// Another member's process walks for the team: the store followed the mirror.
    Followed,
}

/// With a team configured that shares its mirror, follows it and takes the walk when nobody
/// walks for the team. A team that cannot be reached is said, and the run syncs alone.
pub(super) async fn begin(
    args: &Context,
    store: &Shared,
    no_wait: bool,
    progress: &Progress,
    out: &mut impl Write,
) -> Result<Mode, CliError> {
    let Some((settings, url)) = crate::context::team::configured(args)? else {
        return Ok(Mode::Alone);
    };
    let team = match Team::open(&url, settings.team.as_deref()).await {
        Ok(team) => team,
        Err(error) if error.is_unreachable() => {
            progress.say(
                out,
                &format!(
                    "cannot reach the team database {} ({error}): syncing alone",
                    Clean::line(&url.describe())
                ),
            )?;
            return Ok(Mode::Alone);
        }
        Err(error) => return Err(error.into()),
    };
    let name = Clean::line(team.name()).into_string();
    let (holder, team) = match settle(team, &url, store, Timestamp::now).await? {
        Settled::NotShared(_) => return Ok(Mode::Alone),
        Settled::Walking(turn) => return walking(turn, &name, progress, out),
        Settled::Following { holder, team } => (holder, team),
    };
    let since = team_sync::ago(Timestamp::now().duration_since(holder.since).as_secs());
    progress.say(
        out,
        &format!(
            "team {name}: {}'s process walks the service for the team (since {since}){}",
            Clean::line(&holder.member),
            if no_wait {
                ""
            } else {
                "; asked it for the lists' tops, following its walk"
            }
        ),
    )?;
    let mut wake = Wake::open(&url, settings.team.as_deref(), !no_wait).await;
    let asked = if no_wait {
        None
    } else {
        Some(team.ask_mirror_walk().await?)
    };
    let mut total = team_sync::mirror::Followed::default();
    loop {
        total.then(team_sync::mirror::follow(&team, store, Timestamp::now).await?);
        let Some(asked) = asked else { break };
        if team
            .mirror_asks()
            .await?
            .1
            .is_some_and(|served| served >= asked)
        {
            // Published whole before it was said: one more follow reads the end of it.
            total.then(team_sync::mirror::follow(&team, store, Timestamp::now).await?);
            break;
        }
        if !team.syncer().await?.is_some_and(|s| s.alive) {
            // The syncer stopped before serving the ask: this process takes the walk over.
            match Turn::begin(*team, &url, store, Timestamp::now).await? {
                Began::Walking(turn) => return walking(turn, &name, progress, out),
                Began::Following { .. } => {
                    return Box::pin(begin(args, store, no_wait, progress, out)).await;
                }
            }
        }
        progress.waiting(&format!(
            "following the team's walk: {} added so far",
            total.added
        ));
        wake.next().await;
    }
    progress.say(
        out,
        &format!(
            "from the team's mirror: {} added, {} changed, {} removed",
            total.added, total.changed, total.removed
        ),
    )?;
    Ok(Mode::Followed)
}

/// How often a member waiting for the team's walk reads the mirror without hints.
const FOLLOW_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// How often it reads the mirror with hints, besides each hint: whether the syncer still
/// lives is read then too.
const FOLLOW_FALLBACK: std::time::Duration = std::time::Duration::from_secs(2);

/// Wakes a member waiting for the team's walk: on each hint on the team's channel (the
/// syncer's publications), and on a fallback beat: every [`FOLLOW_FALLBACK`] while listening (a
/// pooler may drop the hints), every [`FOLLOW_EVERY`] when no connection could listen.
struct Wake {
    hints: tokio::sync::mpsc::UnboundedReceiver<feedback_team::Notice>,
    /// The connection that listens, kept open while waiting.
    listening: Option<Team>,
}

impl Wake {
    async fn open(url: &feedback_team::TeamUrl, team: Option<&str>, listen: bool) -> Self {
        let (hint_tx, hints) = tokio::sync::mpsc::unbounded_channel();
        let listening = if listen {
            Team::open_listening(url, team, hint_tx).await.ok()
        } else {
            None
        };
        Self { hints, listening }
    }

    async fn next(&mut self) {
        let fallback = if self.listening.is_some() {
            FOLLOW_FALLBACK
        } else {
            FOLLOW_EVERY
        };
        tokio::select! {
            Some(_) = self.hints.recv() => {
                // Hints that came together are read as one.
                while self.hints.try_recv().is_ok() {}
            }
            () = tokio::time::sleep(fallback) => {}
        }
    }
}

/// This process walks for the team: said, with what it read from the mirror first.
fn walking(
    turn: std::sync::Arc<Turn>,
    name: &str,
    progress: &Progress,
    out: &mut impl Write,
) -> Result<Mode, CliError> {
    progress.say(
        out,
        &format!(
            "team {name}: this process walks the service for the team ({} items from the \
             team's mirror first)",
            turn.followed.items
        ),
    )?;
    Ok(Mode::Walking(turn))
}

/// Publishes the walk's last step (a turn's) to the team's mirror.
pub(super) async fn publish(turn: &Turn, budget: &RateLimit) -> Result<(), CliError> {
    match turn.publish(Some(budget)).await? {
        Published::Written { .. } => Ok(()),
        Published::Fenced => Err(fenced()),
    }
}

/// Ends a turn: the rest published, the lease given up.
pub(super) async fn end(turn: &Turn, budget: &RateLimit) -> Result<(), CliError> {
    match turn.end(Some(budget)).await? {
        Published::Written { .. } => Ok(()),
        Published::Fenced => Err(fenced()),
    }
}

fn fenced() -> CliError {
    CliError::Other(
        "another member's process walks for the team now (this one's lease lapsed): what this \
         run stored stays here, and the team's walk goes on from its mirror"
            .to_owned(),
    )
}
