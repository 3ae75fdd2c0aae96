//! The one entry point to the interactive inbox. `cli` prepares what it owns (the account's
//! client and syncer, the store, the arrivals of a webhook receiver, the settings of the config
//! file) and hands them to a [`Screen`]. The screen is supplied by the room above both the
//! command line and the inbox (`crate::launch`), so `cli` never depends on the inbox's code.

use std::future::Future;
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::CliError;
use feedback_api::Wait;
use feedback_config::Loaded;
use feedback_config::looks::LooksSettings;
use feedback_config::preview::PreviewSetting;
use feedback_config::triage::TriageSettings;
use feedback_config::views::ViewsSettings;
use feedback_store::Shared;
use feedback_sync::Syncer;
use feedback_webhook::receiver::Arrival;

/// The interactive inbox, as the command line opens it.
pub trait Screen {
    /// The screen's own settings from the config file (its key table).
    type Keys;

    /// Reads and checks the screen's own settings in `config` (`None`: there is no config
    /// file). The inbox's start asks this before anything else in the file, and `doctor` asks
    /// it too, so a config the inbox refuses fails there as well.
    fn keys(&self, config: Option<&Loaded>) -> Result<Self::Keys, CliError>;

    /// Runs the inbox until it ends: `Ok` when the user quit, [`CliError::Signal`] when a
    /// terminating signal ended it (the caller cleans up, then the process exits 128 + n).
    fn open(&self, inbox: Inbox<Self::Keys>) -> impl Future<Output = Result<(), CliError>>;
}

/// The settings of the config file the inbox reads at its start, the screen's own included.
pub struct Settings<K> {
    pub keys: K,
    pub refresh_seconds: u64,
    pub triage: TriageSettings,
    /// `[[views]]` and the file `:save-view` writes.
    pub views: ViewsSettings,
    /// Privacy, theme and `|` commands.
    pub looks: LooksSettings,
    pub preview: PreviewSetting,
    /// `[mail]` (how `R` sends; none without it) and `[[templates]]`.
    pub mail: Option<feedback_config::mail::MailSettings>,
    pub templates: Vec<feedback_config::mail::Template>,
}

/// What the inbox runs on.
pub struct Inbox<K> {
    /// The store the list shows (in memory with `--no-store`).
    pub store: Shared,
    /// Keeps the store fresh from the service.
    pub syncer: Arc<Syncer>,
    pub settings: Settings<K>,
    /// Submissions a webhook receiver accepted while the inbox runs (`--listen`, `demo
    /// --live-every`): stored, then shown.
    pub arrivals: Option<UnboundedReceiver<Arrival>>,
    /// Every wait of the client (rate limits, retries), for the status bar.
    pub waits: UnboundedReceiver<Wait>,
    /// The team that shares triage state, when one is configured.
    pub team: Option<feedback_team_sync::live::LiveSettings>,
    /// The process's part in the team's walk, when the team is configured: whether its sync
    /// jobs walk for the team, follow its mirror, or run alone is settled job by job.
    pub walk: Option<Arc<feedback_team_sync::team_walk::TeamWalk>>,
}
