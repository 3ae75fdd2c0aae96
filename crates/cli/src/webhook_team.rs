//! `webhook listen --team`: each item a delivery brings, stored (and noted) in the receiver's
//! store in the delivery's transaction, is added to the team's shared mirror by a task of its
//! own (`team_sync::deliveries`), so one receiver serves every member and the answer to the
//! service never waits for the team's database; an item several members' receivers delivered
//! is in the mirror once. While the database is away the items wait in the store.

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use super::CliError;
use crate::context::Context;
use feedback_core::text::Clean;
use feedback_store::Shared;
use feedback_team::Team;
use feedback_team_sync::deliveries::{Sharing, share_until};

/// The sharing task of a receiver: woken on each delivery stored, saying what it did.
pub(crate) struct TeamSharing {
    wake: UnboundedSender<()>,
    pub said: UnboundedReceiver<Sharing>,
    stop: CancellationToken,
    /// The team's name, for the banner.
    pub name: String,
}

impl TeamSharing {
    /// Starts sharing the deliveries the store at the command line's store path notes: the
    /// team must be configured and share one mirror (checked when its database answers; when
    /// it does not, receiving starts all the same and the items wait in the store).
    ///
    /// # Errors
    /// No team configured, no store (`--no-store`: the items could not wait anywhere), or the
    /// team does not share one mirror.
    pub(crate) async fn start(args: &Context, store: Option<Shared>) -> Result<Self, CliError> {
        let Some((settings, url)) = crate::context::team::configured(args)? else {
            return Err(CliError::Usage(
                "--team needs a team: [team] in config.toml, or FEEDBACK_TEAM_URL".to_owned(),
            ));
        };
        let Some(store) = store else {
            return Err(CliError::Usage(
                "--team needs the store (the items wait there for the team's database); drop \
                 --no-store"
                    .to_owned(),
            ));
        };
        let mut name = settings.team.clone().unwrap_or_default();
        match Team::open(&url, settings.team.as_deref()).await {
            Ok(team) => {
                name = team.name().to_owned();
                if !team.shared_mirror().await? {
                    return Err(CliError::Usage(format!(
                        "the team {} does not share one mirror: `feedback-inbox team set \
                         shared-mirror on` first",
                        Clean::line(&name)
                    )));
                }
            }
            Err(error) if error.is_unreachable() => eprintln!(
                "warning: cannot reach the team database {} ({error}): deliveries are stored \
                 and shared once it answers",
                Clean::line(&url.describe())
            ),
            Err(error) => return Err(error.into()),
        }
        let (wake, woken) = unbounded_channel();
        let (said_tx, said) = unbounded_channel();
        let stop = CancellationToken::new();
        tokio::spawn(share_until(
            url,
            settings.team,
            store,
            woken,
            said_tx,
            stop.clone(),
        ));
        Ok(Self {
            wake,
            said,
            stop,
            name: Clean::line(&name).into_string(),
        })
    }

    /// A delivery's item was stored: share it now.
    pub(crate) fn wake(&self) {
        let _ = self.wake.send(());
    }

    /// What to say on stderr of what the task did.
    #[must_use]
    pub(crate) fn line(said: &Sharing) -> String {
        match said {
            Sharing::Added(added) => format!(
                "shared {} item(s) with the team's mirror",
                feedback_core::text::output::thousands(added)
            ),
            Sharing::Failed(why) => format!(
                "warning: the team's database: {}; the items wait in the store, trying again",
                Clean::line(why)
            ),
        }
    }
}

impl Drop for TeamSharing {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}
