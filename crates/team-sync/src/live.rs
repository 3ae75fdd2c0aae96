//! The inbox's live link to the team, run as a task of its own so nothing on screen waits for
//! the database: it connects (listening on the team's channel), sends the outbox, catches the
//! replica up, and says what changed. It reads again on a hint of a new event, when asked (a
//! change was recorded), and every poll interval besides, so it stays right where `NOTIFY`
//! never arrives (a transaction-mode pooler, an engine without it). A heartbeat says which item
//! this member has open. When the database goes away (or restarts) it says so and tries again,
//! backing off to 15 s, and at once when a change is recorded; nothing recorded meanwhile is
//! lost (it waits in the outbox).

use std::time::Duration;

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use super::{CaughtUp, Sent, TeamSyncError};
use feedback_core::clock::SharedClock;
use feedback_store::Shared;
use feedback_team::{Hint, PRESENCE_EXPIRY_SECONDS, Presence, Team, TeamUrl};

/// How the link runs.
#[derive(Debug, Clone)]
pub struct LiveSettings {
    pub url: TeamUrl,
    /// The team, when the role is in several.
    pub team: Option<String>,
    /// How often to read without a hint.
    pub poll: Duration,
    /// Listen for hints (`NOTIFY`); without, only the poll reads (an engine or pooler that
    /// drops notifications).
    pub listen: bool,
    /// The first wait before connecting again (doubled up to 15 s).
    pub retry: Duration,
    pub clock: SharedClock,
}

/// What this member has open, as the heartbeat says it: the item, and whether a reply to its
/// reporter is being composed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Looking {
    item: Option<String>,
    replying: bool,
}

/// What the inbox asks of the link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Changes were recorded in the outbox: send them now.
    Send,
    /// This member has this item open now (`None`: none).
    Looking(Option<String>),
    /// This member is composing a reply to the item they have open (or no longer).
    Replying(bool),
}

/// What the link tells the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum News {
    /// Connected as `member` of `team`, whose members are `members`.
    Connected {
        team: String,
        member: String,
        members: Vec<String>,
    },
    /// The database cannot be reached (why); `pending` changes wait in the outbox.
    Offline { why: String, pending: usize },
    /// The team refused this store or member (why): tried again later, slowly.
    Refused(String),
    /// The replica moved (the view may need reading again).
    Changed(CaughtUp),
    /// The team's database is not the one the replica followed (why): the replica is read
    /// again from it, the outbox kept.
    Rebuilt(feedback_store::Rebuilt),
    /// The outbox was sent (lost changes among them are reported here), or its length changed
    /// (`Sent::pending`: what waits now).
    Sent(Sent),
    /// Who is connected, and what each has open.
    Present(Vec<Presence>),
    /// The store followed the team's shared mirror: items were added, changed or removed.
    Mirrored(super::mirror::Followed),
    /// A member asked the team's syncer for the lists' tops (served where this process walks
    /// for the team).
    Asked,
    /// The team's shared reply templates changed (as they are now).
    Templates(Vec<feedback_store::TeamTemplate>),
}

/// Runs the link until `asks` closes (the inbox ended).
pub async fn live(
    settings: LiveSettings,
    store: Shared,
    mut asks: UnboundedReceiver<Ask>,
    news: UnboundedSender<News>,
) {
    let mut looking = Looking::default();
    let mut wait = settings.retry;
    loop {
        let team = settings.team.as_deref();
        let (opened, hints) = if settings.listen {
            let (hint_tx, hints) = unbounded_channel();
            let opened = Team::open_listening(&settings.url, team, hint_tx).await;
            (opened, Some(hints))
        } else {
            (Team::open(&settings.url, team).await, None)
        };
        let outcome = match opened {
            Ok(team) => {
                // A link that got connected starts its waits again from the first.
                wait = settings.retry;
                let mut link = Link {
                    team,
                    store: &store,
                    news: &news,
                    clock: &settings.clock,
                    pending_said: None,
                };
                link.run(&settings, hints, &mut asks, &mut looking).await
            }
            Err(error) => Err(TeamSyncError::Team(error)),
        };
        let error = match outcome {
            Ok(()) => return,
            Err(error) => error,
        };
        let refused = !error.is_unreachable();
        let said = if refused {
            News::Refused(error.to_string())
        } else {
            let pending = store
                .read(feedback_store::Store::team_outbox_len)
                .unwrap_or(0);
            News::Offline {
                why: error.to_string(),
                pending,
            }
        };
        tracing::info!(%error, "the team link is down; trying again");
        if news.send(said).is_err() {
            return;
        }
        // Wait before trying again, taking what the inbox asks meanwhile (the outbox keeps
        // the changes; the item looked at is sent once connected). A change recorded while the
        // database is away is a reason to try at once; a refusal (another account, not a
        // member) is not asked again soon, whatever is recorded.
        let pause = if refused {
            REFUSED_WAIT.max(wait)
        } else {
            wait
        };
        let mut deadline = settings.clock.sleep(pause);
        loop {
            tokio::select! {
                () = &mut deadline => break,
                ask = asks.recv() => match ask {
                    None => return,
                    Some(Ask::Looking(item)) => looking.item = item,
                    Some(Ask::Replying(replying)) => looking.replying = replying,
                    Some(Ask::Send) if !refused => break,
                    Some(Ask::Send) => {}
                },
            }
        }
        wait = (wait * 2).min(OFFLINE_WAIT);
    }
}

/// The longest wait between tries while the database is away: once it is back, the outbox goes
/// out within this long even when nobody acts.
const OFFLINE_WAIT: Duration = Duration::from_secs(15);

/// The wait after a refusal.
const REFUSED_WAIT: Duration = Duration::from_secs(60);

/// The next hint; never, without listening.
async fn next_hint(
    hints: &mut Option<UnboundedReceiver<feedback_team::Notice>>,
) -> Option<feedback_team::Notice> {
    match hints {
        Some(hints) => hints.recv().await,
        None => std::future::pending().await,
    }
}

/// One connection's life.
struct Link<'a> {
    team: Team,
    store: &'a Shared,
    news: &'a UnboundedSender<News>,
    clock: &'a SharedClock,
    /// The outbox's length last said: said again when it changes, whoever sent the changes
    /// (a command may have sent them meanwhile).
    pending_said: Option<usize>,
}

impl Link<'_> {
    /// Serves until the connection ends (an error) or the inbox does (`Ok`).
    async fn run(
        &mut self,
        settings: &LiveSettings,
        mut hints: Option<UnboundedReceiver<feedback_team::Notice>>,
        asks: &mut UnboundedReceiver<Ask>,
        looking: &mut Looking,
    ) -> Result<(), TeamSyncError> {
        if let Some(rebuilt) = super::join(&self.team, self.store).await? {
            self.say(News::Rebuilt(rebuilt));
        }
        let members = self.team.members().await?;
        self.say(News::Connected {
            team: self.team.name().to_owned(),
            member: self.team.member().to_owned(),
            members,
        });
        self.beat(looking).await?;
        self.round().await?;
        self.follow().await?;
        self.templates().await?;
        let beat_every =
            Duration::from_secs(u64::try_from(PRESENCE_EXPIRY_SECONDS / 3).unwrap_or(15));
        let mut beat = self.clock.sleep(beat_every);
        let mut poll = self.clock.sleep(settings.poll);
        loop {
            tokio::select! {
                hint = next_hint(&mut hints) => match hint {
                    None => return Err(TeamSyncError::Team(feedback_team::TeamError::Gone)),
                    Some(notice) => match self.team.hint(&notice) {
                        Some(Hint::Event(_)) => self.round().await?,
                        Some(Hint::Presence) => self.present().await?,
                        Some(Hint::Mirror) => self.follow().await?,
                        Some(Hint::Ask) => self.say(News::Asked),
                        Some(Hint::Templates) => self.templates().await?,
                        None => {}
                    },
                },
                ask = asks.recv() => match ask {
                    None => return Ok(()),
                    Some(Ask::Send) => self.round().await?,
                    Some(Ask::Looking(item)) => {
                        looking.item = item;
                        self.beat(looking).await?;
                    }
                    Some(Ask::Replying(replying)) => {
                        looking.replying = replying;
                        self.beat(looking).await?;
                    }
                },
                () = &mut beat => {
                    self.beat(looking).await?;
                    beat = self.clock.sleep(beat_every);
                }
                () = &mut poll => {
                    self.round().await?;
                    self.follow().await?;
                    self.templates().await?;
                    poll = self.clock.sleep(settings.poll);
                }
            }
        }
    }

    /// Sends the outbox, then reads what is new; says what happened.
    async fn round(&mut self) -> Result<(), TeamSyncError> {
        let clock = self.clock.clone();
        let sent = super::send(&self.team, self.store, || clock.now()).await?;
        if sent.count > 0 || self.pending_said != Some(sent.pending) {
            self.pending_said = Some(sent.pending);
            self.say(News::Sent(sent));
        }
        let clock = self.clock.clone();
        let mut caught_up = super::catch_up(&self.team, self.store, || clock.now()).await?;
        if let Some(rebuilt) = caught_up.rebuilt.take() {
            self.say(News::Rebuilt(rebuilt));
        }
        if caught_up.events > 0 {
            self.say(News::Changed(caught_up));
        }
        Ok(())
    }

    /// On a team that shares one mirror, reads what its syncer published since the store's
    /// position; says so when items changed.
    async fn follow(&mut self) -> Result<(), TeamSyncError> {
        if !self.team.shared_mirror().await? {
            return Ok(());
        }
        let clock = self.clock.clone();
        let followed = super::mirror::follow(&self.team, self.store, || clock.now()).await?;
        if followed.added + followed.changed + followed.removed > 0 {
            self.say(News::Mirrored(followed));
        }
        Ok(())
    }

    /// Reads the team's templates; says so when they changed.
    async fn templates(&mut self) -> Result<(), TeamSyncError> {
        if let Some(templates) = super::templates::refresh(&self.team, self.store).await? {
            self.say(News::Templates(templates));
        }
        Ok(())
    }

    /// This member's heartbeat, then who is present.
    async fn beat(&mut self, looking: &Looking) -> Result<(), TeamSyncError> {
        self.team
            .heartbeat(looking.item.as_deref(), looking.replying)
            .await?;
        self.present().await
    }

    async fn present(&mut self) -> Result<(), TeamSyncError> {
        let present = self.team.presence().await?;
        self.say(News::Present(present));
        Ok(())
    }

    fn say(&self, news: News) {
        // The inbox ended: the next ask's channel closes too, which ends the link.
        let _ = self.news.send(news);
    }
}
