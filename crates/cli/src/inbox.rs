//! The interactive inbox: `feedback-inbox` (the configured account, over its local store) and
//! `feedback-inbox demo` (the embedded simulator with its seeded data, no key needed, over a
//! throwaway store in a temporary folder removed at exit: it never touches the user's store).
//! This prepares what the inbox runs on (account, store, syncer, webhook receivers, the config
//! file's settings), opens it through a [`Screen`], and cleans up after it.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::CliError;
use super::screen::{Inbox, Screen, Settings};
use crate::context::Context;
use feedback_api::webhook::{DEFAULT_TOLERANCE, Event, Secret};
use feedback_api::{ApiKey, Client, Wait};
use feedback_sim::submit::{SubmitHandle, Submitter};
use feedback_sim::webhooks::{Plan, Sender, WebhookTarget};
use feedback_sim::{self as sim, DEMO_KEY};
use feedback_store::{Shared, Store};
use feedback_sync::{SyncSettings, Syncer};
use feedback_webhook::inbox_journal;
use feedback_webhook::receiver::{self, Arrival, Notice, ReceiverConfig, ReceiverHandle};
use feedback_webhook::seen::Seen;

/// `demo` takes the simulator's data flags, and can make new feedback arrive live.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoArgs {
    #[command(flatten)]
    pub data: super::sim_cmd::DataArgs,
    /// Receive a new submission every SECONDS, delivered to the inbox as a signed webhook.
    #[arg(long, value_name = "SECONDS")]
    pub live_every: Option<f64>,
    /// Join the team `demo` in the PostgreSQL database at URL (as its role, which may create
    /// schemas and roles), with two simulated teammates who claim, label and assign items.
    #[arg(long, value_name = "URL")]
    pub team: Option<String>,
}

/// The inbox for the configured account.
pub async fn inbox(args: &Context, screen: &impl Screen) -> Result<(), CliError> {
    require_terminal()?;
    let (settings, sync) = account_settings(args, screen)?;
    let resolved = super::resolve_account(args)?;
    for warning in &resolved.warnings {
        eprintln!("warning: {warning}");
    }
    // `--no-store`: in memory, gone at exit.
    let mut store = match crate::context::store::open_store(args)? {
        Some(store) => store,
        None => Store::open_memory()?,
    };
    if args.scope.is_set() {
        let client = Client::builder(resolved.base_url.as_str(), resolved.key.clone())?
            .on_wait(super::wait_reporter(false))
            .build()?;
        super::scope::start_view(&mut store, &client, &args.scope).await?;
    }
    let builder = Client::builder(resolved.base_url.as_str(), resolved.key)?;
    let live = match (&args.listen, &args.secret_env) {
        (Some(addr), Some(var)) => {
            let secret = Secret::from_env(var)?;
            if let Some(journal) = inbox_journal::path(store.path(), *addr) {
                catch_up(&mut store, &journal);
            }
            Some(listen(*addr, secret, store.path()).await?)
        }
        _ => None,
    };
    let (receiver, arrivals) = live.unzip();
    let team = crate::context::team::live_settings(args)?;
    let result = open(screen, builder, store, settings, sync, arrivals, team).await;
    if let Some(receiver) = receiver {
        receiver.shutdown().await;
    }
    result
}

/// Stores what the receiver's journal kept of the last run and the store lacks (deliveries
/// acknowledged, then lost to a kill before they were stored). A failure is said and logged,
/// and the journal kept for the next start; the inbox goes on.
fn catch_up(store: &mut Store, journal: &std::path::Path) {
    match inbox_journal::catch_up(store, journal) {
        Ok(caught_up) if caught_up.stored > 0 => {
            tracing::info!(stored = caught_up.stored, "stored the journal's items");
        }
        Ok(_) => {}
        Err(error) => {
            tracing::warn!(%error, "cannot catch up from the webhook journal");
            eprintln!("warning: {error}; it is kept for the next start");
        }
    }
}

/// Starts a webhook receiver whose accepted `feedback.created` events are handed to the inbox,
/// which shows them. With the store at `store` (`None`: a store in memory), the receiver keeps
/// the deliveries' ids there and stores each item (with the metadata it carries) in the
/// transaction that records its delivery, before answering: an acknowledged delivery is never
/// lost, and a retry after a restart is a duplicate. In memory, the ids are kept in memory and
/// the inbox stores the items. Rejections are logged by the receiver, never drawn over the
/// inbox.
async fn listen(
    addr: SocketAddr,
    secret: Secret,
    store: Option<&Path>,
) -> Result<(ReceiverHandle, UnboundedReceiver<Arrival>), CliError> {
    let store = store.map(Store::open).transpose()?;
    let config = ReceiverConfig {
        addr,
        secret,
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::memory(),
        store,
        jsonl: None,
        clock: feedback_core::clock::system(),
    };
    let (notice_tx, mut notices) = unbounded_channel();
    let handle = receiver::start(config, notice_tx)
        .await
        .map_err(|e| CliError::Other(format!("cannot listen for webhooks on {addr}: {e}")))?;
    let (tx, arrivals) = unbounded_channel();
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            if let Notice::Accepted { event, stored } = notice
                && let Event::FeedbackCreated(submission) = *event
                && tx.send(Arrival { submission, stored }).is_err()
            {
                break;
            }
        }
    });
    Ok((handle, arrivals))
}

/// The demo's throwaway store: a file in a fresh temporary folder (removed with the returned
/// handle), never the user's account store, whatever `--store` or `FEEDBACK_STORE` say.
fn demo_store() -> Result<(tempfile::TempDir, Store), CliError> {
    let folder = tempfile::Builder::new()
        .prefix("feedback-inbox-demo-")
        .tempdir()
        .map_err(|e| CliError::Other(format!("cannot make the demo's store: {e}")))?;
    let store = Store::open(&folder.path().join("demo.db"))?;
    Ok((folder, store))
}

/// The inbox on the embedded simulator; with `--live-every`, the simulator also receives new
/// submissions and delivers them as signed webhooks to a receiver feeding this inbox.
pub async fn demo(args: &Context, demo: &DemoArgs, screen: &impl Screen) -> Result<(), CliError> {
    require_terminal()?;
    let settings = settings(args, screen)?;
    let handle = sim::start(demo.data.config())
        .await
        .map_err(|e| CliError::Other(format!("cannot start the demo simulator: {e}")))?;
    let key = ApiKey::parse(DEMO_KEY).map_err(|e| CliError::Other(e.to_string()))?;
    let builder = Client::builder(&handle.base_url(), key)?;
    let (folder, store) = demo_store()?;
    let live = match demo.live_every {
        Some(every) => Some(live_demo(&handle, demo.data.seed, every, store.path()).await?),
        None => None,
    };
    let (parts, arrivals) = live.map(|(r, s, a)| ((r, s), a)).unzip();
    // The demo's throwaway store keeps everything the simulator has: the sync's defaults.
    let sync = SyncSettings::default();
    let (team, teammates, made) = match &demo.team {
        Some(url) => {
            let (settings, teammates, made) = super::demo_team::set_up(url).await?;
            let you = settings.url.role().unwrap_or_default().to_owned();
            let newest: Vec<String> = handle
                .state()
                .read()
                .items()
                .take(40)
                .map(|d| d.feedback.id.0)
                .collect();
            let running = super::demo_team::start(teammates, &newest, &you, demo.data.seed);
            (Some(settings), Some(running), Some(made))
        }
        None => (None, None, None),
    };
    let result = open(screen, builder, store, settings, sync, arrivals, team).await;
    drop(teammates);
    if let Some(made) = made {
        super::demo_team::tear_down(made).await;
    }
    if let Some((receiver, submitter)) = parts {
        submitter.stop().await;
        receiver.shutdown().await;
    }
    handle.shutdown().await;
    drop(folder);
    result
}

/// New submissions every `every` seconds, signed with a one-off secret and delivered over
/// loopback to an in-process receiver.
async fn live_demo(
    sim: &sim::SimHandle,
    seed: u64,
    every: f64,
    store: Option<&Path>,
) -> Result<(ReceiverHandle, SubmitHandle, UnboundedReceiver<Arrival>), CliError> {
    let every = super::sim_cmd::positive_seconds(every, "--live-every")?;
    let secret =
        Secret::new(demo_secret_bytes()?.to_vec()).map_err(|e| CliError::Other(e.to_string()))?;
    let (receiver, arrivals) = listen(([127, 0, 0, 1], 0).into(), secret.clone(), store).await?;
    let sender = sender_to(&receiver, secret)
        .map_err(|e| CliError::Other(format!("cannot set up webhook delivery: {e}")))?;
    let submitter = Submitter::new(Arc::clone(sim.state()), seed, Some(sender)).start(every, None);
    Ok((receiver, submitter, arrivals))
}

/// Delivers signed submissions to `receiver`, once each, as the service would.
fn sender_to(receiver: &ReceiverHandle, secret: Secret) -> Result<Sender, reqwest::Error> {
    let target = WebhookTarget {
        url: receiver.url(),
        secret,
        plan: Plan::Indie,
        time_scale: 1.0,
        duplicates: false,
        timeout: Duration::from_secs(10),
    };
    Sender::new(target, feedback_core::clock::system())
}

/// Bytes of the demo's webhook signing secret.
const DEMO_SECRET_BYTES: usize = 32;

/// A fresh signing secret from the operating system's cryptographic source: the receiver
/// listens on a real port, so anyone who could guess the secret could inject items.
fn demo_secret_bytes() -> Result<[u8; DEMO_SECRET_BYTES], CliError> {
    let mut bytes = [0u8; DEMO_SECRET_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| CliError::Other(format!("cannot make a webhook secret: {e}")))?;
    Ok(bytes)
}

/// The inbox draws on a terminal and reads keys from it: with stdin or stdout redirected it
/// would hang or fill a file with escape sequences, so it stops first (exit 2) and says so.
fn require_terminal() -> Result<(), CliError> {
    let missing = match (
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
    ) {
        (true, true) => return Ok(()),
        (false, true) => "stdin is not",
        (true, false) => "stdout is not",
        (false, false) => "stdin and stdout are not",
    };
    Err(CliError::Usage(format!(
        "the inbox needs a terminal and {missing} one (for a pipe or file use `feedback-inbox list`)"
    )))
}

/// The inbox's settings and its syncer's, which carry the store's `retention_days` (as `sync`
/// and `search` do): a walk never fetches what the store would drop.
fn account_settings<S: Screen>(
    args: &Context,
    screen: &S,
) -> Result<(Settings<S::Keys>, SyncSettings), CliError> {
    Ok((
        settings(args, screen)?,
        crate::context::store::sync_settings(args)?,
    ))
}

/// Every setting of the config file the inbox reads at its start, checked as the start checks
/// them (`doctor` runs this, so a config the inbox refuses never passes there).
pub(crate) fn check_settings(args: &Context, screen: &impl Screen) -> Result<(), CliError> {
    account_settings(args, screen)?;
    crate::context::store::retention(args)?;
    Ok(())
}

/// The config file's settings, the screen's own first (a file without them, or no file, gives
/// the defaults).
fn settings<S: Screen>(args: &Context, screen: &S) -> Result<Settings<S::Keys>, CliError> {
    let Some(loaded) = args.config()? else {
        return Ok(Settings {
            keys: screen.keys(None)?,
            refresh_seconds: feedback_config::DEFAULT_REFRESH_SECONDS,
            triage: feedback_config::triage::TriageSettings::default(),
            // None yet; `:save-view` creates the file.
            views: feedback_config::views::ViewsSettings {
                views: Vec::new(),
                path: super::config_path(args).0,
            },
            looks: feedback_config::looks::LooksSettings::default(),
            preview: feedback_config::preview::PreviewSetting::default(),
            mail: None,
            templates: Vec::new(),
        });
    };
    let keys = screen.keys(Some(loaded))?;
    let triage = loaded
        .file
        .triage
        .clone()
        .unwrap_or_default()
        .settings(&loaded.path.display().to_string())?;
    // Checked with the file's lines, as `[keys]` is.
    let views = feedback_config::views::parse(&loaded.text, &loaded.path.display().to_string())
        .map_err(|e| CliError::Usage(format!("config: {e}")))?;
    let looks = feedback_config::looks::LooksSettings::from_file(&loaded.file)
        .map_err(|e| CliError::Usage(format!("config {}: {e}", loaded.path.display())))?;
    Ok(Settings {
        keys,
        refresh_seconds: loaded
            .file
            .refresh_seconds
            .unwrap_or(feedback_config::DEFAULT_REFRESH_SECONDS),
        triage,
        views: feedback_config::views::ViewsSettings {
            views,
            path: Some(loaded.path.clone()),
        },
        looks,
        preview: loaded.file.preview.unwrap_or_default(),
        mail: feedback_config::mail::MailSettings::from_config(loaded.file.mail.as_ref())?,
        templates: feedback_config::mail::templates(&loaded.file.templates)?,
    })
}

/// Opens the inbox on `screen`: the client reports its waits to the status bar, and the
/// syncer shares the store with the list.
async fn open<S: Screen>(
    screen: &S,
    builder: feedback_api::ClientBuilder,
    store: Store,
    settings: Settings<S::Keys>,
    sync: SyncSettings,
    arrivals: Option<UnboundedReceiver<Arrival>>,
    team: Option<feedback_team_sync::live::LiveSettings>,
) -> Result<(), CliError> {
    let (wait_tx, waits): (_, UnboundedReceiver<Wait>) = unbounded_channel();
    let client = builder
        .on_wait(Arc::new(move |wait: &Wait| {
            let _ = wait_tx.send(wait.clone());
        }))
        .build()?;
    let store = Shared::new(store)?;
    let syncer = Arc::new(Syncer::new(
        client,
        store.clone(),
        feedback_core::clock::system(),
        sync,
    ));
    let walk = team.as_ref().map(|live| {
        Arc::new(feedback_team_sync::team_walk::TeamWalk::new(
            live.url.clone(),
            live.team.clone(),
            store.clone(),
            live.clock.clone(),
        ))
    });
    let inbox = Inbox {
        store,
        syncer: Arc::clone(&syncer),
        settings,
        arrivals,
        waits,
        team,
        walk: walk.clone(),
    };
    // The callers clean up (receiver, simulator) before the process ends with 128 + the signal.
    let opened = screen.open(inbox).await;
    if let Some(walk) = walk {
        // Walking for the team, the rest is published and the lease given up, so another
        // member's process takes the walk over at once.
        walk.end(&syncer.rate_limit()).await;
    }
    opened
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A screen with no settings of its own, never opened.
    struct Keyless;

    impl Screen for Keyless {
        type Keys = ();

        fn keys(&self, _: Option<&feedback_config::Loaded>) -> Result<(), CliError> {
            Ok(())
        }

        async fn open(&self, _: Inbox<()>) -> Result<(), CliError> {
            unreachable!("the tests never open the inbox")
        }
    }

    /// With a store, the receiver stores a delivery's item in the transaction that records
    /// its id, before answering: an acknowledged delivery is in the store even when the
    /// inbox never took it (the process killed after the answer), the inbox is told it need
    /// not store it, and the service's retry after a restart is acknowledged as a duplicate.
    #[tokio::test]
    async fn an_acknowledged_delivery_is_stored_and_remembered_before_its_answer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite3");
        let mut store = Store::open(&path).unwrap();
        let project = feedback_api::Project {
            id: "prj_1".into(),
            name: "Acme".into(),
            slug: None,
            created_at: None,
        };
        store.check_account(&[project]).unwrap();
        let addr: SocketAddr = ([127, 0, 0, 1], 0).into();
        let secret = Secret::new(vec![7; 32]).unwrap();
        let submission = feedback_api::webhook::Submission {
            id: feedback_api::FeedbackId("fb_1".to_owned()),
            app_id: "app_1".into(),
            app_name: "Acme iOS".into(),
            project_id: "prj_1".into(),
            project_name: "Acme".into(),
            message: "the export crashes".into(),
            email: None,
            metadata: feedback_api::webhook::event::WebhookMetadata::default(),
            received_at: "2026-11-01T11:59:00Z".parse().unwrap(),
        };
        let (receiver, mut arrivals) = listen(addr, secret.clone(), Some(&path)).await.unwrap();
        let sender = sender_to(&receiver, secret.clone()).unwrap();
        assert!(sender.deliver(&submission).await.acknowledged);
        let arrival = arrivals.recv().await.unwrap();
        assert_eq!(arrival.submission.id.0, "fb_1");
        assert!(arrival.stored);
        receiver.shutdown().await;
        assert!(store.item("fb_1").unwrap().is_some());

        // The next start: the service delivers the same event again.
        let (receiver, mut arrivals) = listen(addr, secret.clone(), Some(&path)).await.unwrap();
        let sender = sender_to(&receiver, secret).unwrap();
        assert!(sender.deliver(&submission).await.acknowledged);
        receiver.shutdown().await;
        assert!(
            arrivals.recv().await.is_none(),
            "a duplicate reached the inbox"
        );
    }

    /// Without a store file (`--no-store`), the inbox stores what arrives itself.
    #[tokio::test]
    async fn in_memory_the_inbox_is_told_to_store_what_arrives() {
        let secret = Secret::new(vec![7; 32]).unwrap();
        let (receiver, mut arrivals) = listen(([127, 0, 0, 1], 0).into(), secret.clone(), None)
            .await
            .unwrap();
        let sender = sender_to(&receiver, secret).unwrap();
        let submission = feedback_api::webhook::Submission {
            id: feedback_api::FeedbackId("fb_2".to_owned()),
            app_id: "app_1".into(),
            app_name: "Acme iOS".into(),
            project_id: "prj_1".into(),
            project_name: "Acme".into(),
            message: "dark mode please".into(),
            email: None,
            metadata: feedback_api::webhook::event::WebhookMetadata::default(),
            received_at: "2026-11-01T11:59:00Z".parse().unwrap(),
        };
        assert!(sender.deliver(&submission).await.acknowledged);
        let arrival = arrivals.recv().await.unwrap();
        assert!(!arrival.stored);
        receiver.shutdown().await;
    }

    #[test]
    fn demo_secrets_are_fresh_full_length_random_bytes() {
        let a = demo_secret_bytes().unwrap();
        let b = demo_secret_bytes().unwrap();
        assert_ne!(a, b);
        for secret in [a, b] {
            assert_eq!(secret.len(), 32);
            let mut distinct = secret.to_vec();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(distinct.len() > 16, "{secret:?} does not look random");
        }
    }

    #[test]
    fn the_demo_store_is_a_throwaway_file_removed_with_its_folder() {
        let (folder, store) = demo_store().unwrap();
        let path = store.path().unwrap().to_owned();
        assert!(path.starts_with(folder.path()));
        assert!(path.starts_with(std::env::temp_dir()));
        let user = feedback_store::default_path(None);
        assert!(user.is_none_or(|user| !path.starts_with(user.parent().unwrap())));
        let (other, _) = demo_store().unwrap();
        assert_ne!(folder.path(), other.path(), "each demo its own");
        drop(store);
        let kept = folder.path().to_owned();
        drop(folder);
        assert!(!kept.exists(), "removed at exit");
    }

    #[test]
    fn the_account_inbox_syncs_with_the_configured_retention() {
        use clap::Parser;
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        std::fs::write(&config, "retention_days = 30\nrefresh_seconds = 60\n").unwrap();
        let command = ["feedback-inbox", "--config", config.to_str().unwrap()];
        // A run reads its config once: each reading below is a run of its own.
        let run = || Context::new(crate::Args::try_parse_from(command).unwrap());
        let (settings, sync) = account_settings(&run(), &Keyless).unwrap();
        assert_eq!(settings.refresh_seconds, 60);
        assert_eq!(sync.retention, Some(Duration::from_secs(30 * 86_400)));
        std::fs::write(&config, "retention_days = 0\n").unwrap();
        assert!(account_settings(&run(), &Keyless).is_err());
    }

    #[test]
    fn the_inbox_refreshes_every_minute_unless_the_config_says_otherwise() {
        use clap::Parser;
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        let command = ["feedback-inbox", "--config", config.to_str().unwrap()];
        // A run reads its config once: each reading below is a run of its own.
        let run = || Context::new(crate::Args::try_parse_from(command).unwrap());
        // A file without the setting, the example config: a minute.
        std::fs::write(&config, "retention_days = 30\n").unwrap();
        assert_eq!(settings(&run(), &Keyless).unwrap().refresh_seconds, 60);
        std::fs::write(&config, include_str!("../../../assets/config.example.toml")).unwrap();
        assert_eq!(settings(&run(), &Keyless).unwrap().refresh_seconds, 60);
        // 0 turns it off.
        std::fs::write(&config, "refresh_seconds = 0\n").unwrap();
        assert_eq!(settings(&run(), &Keyless).unwrap().refresh_seconds, 0);
    }

    #[test]
    fn the_demo_secret_does_not_come_from_a_seedable_generator() {
        // Only the code, not this test: it names what it looks for.
        let code = include_str!("inbox.rs")
            .split("#[cfg(test)]")
            .next()
            .unwrap_or_default();
        assert!(!code.contains("fastrand"));
        assert!(code.contains("getrandom::fill(&mut bytes)"));
    }
}
