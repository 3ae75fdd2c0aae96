//! `feedback-inbox sync [--status new|archived|all] [--full]`: brings the local store up to
//! date from the command line, as the inbox does in the background: discovery (account check,
//! projects, apps, tags), then per status a head walk and backfill until the status is mirrored
//! to its end. `--full` forgets how far each status was mirrored and reads every page again,
//! refreshing every stored item's status and tags (with `--status new` alone it also walks the
//! reconcile walk to its end, the one way to see items that left `new` without the archived
//! list).
//!
//! On a terminal, a progress line on stderr (items, requests, the budget and when it resets,
//! what the budget allows per minute, waits); otherwise plain lines on stdout. Every page is
//! committed as it comes, so a failure (exit non-zero) or a kill keeps what was stored and the
//! next run continues. Another process's sync is refused at once ("another sync is running").
//!
//! The store: `FEEDBACK_STORE` when set, otherwise the profile's store in the data folder.

mod progress;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use jiff::Timestamp;

use super::CliError;
use crate::api::{Client, Status};
use crate::clock;
use crate::store::{self, Shared, Store};
use crate::sync::{Priority, Report, SyncError, Syncer};
use progress::Progress;

/// The variable naming the store file (the `--store` flag's environment).
pub const ENV_STORE: &str = "FEEDBACK_STORE";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SyncStatus {
    New,
    Archived,
    All,
}

#[derive(Debug, Clone, Args)]
pub struct SyncArgs {
    /// Which status to sync.
    #[arg(long, value_enum, default_value_t = SyncStatus::All)]
    pub status: SyncStatus,
    /// Read every page again, even where the store is up to date (refreshes statuses and tags).
    #[arg(long)]
    pub full: bool,
}

/// The store file to use: `FEEDBACK_STORE`, else the profile's default.
pub fn store_path(profile: Option<&str>) -> Result<PathBuf, CliError> {
    if let Some(path) = std::env::var_os(ENV_STORE).filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(path));
    }
    store::default_path(profile).ok_or_else(|| {
        CliError::Usage(format!(
            "no home folder to keep the store in; set {ENV_STORE} to a file path"
        ))
    })
}

pub async fn run(
    args: &super::Args,
    sync: &SyncArgs,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = Progress::new(terminal);
    let client = client(args, &progress)?;
    // --store / FEEDBACK_STORE / the profile's store, with retention_days applied.
    let store = super::store_cmd::open_store(args)?
        .ok_or_else(|| CliError::Usage("sync fills the local store; --no-store has none".into()))?;
    let shared = Shared::new(store).map_err(|e| store_error(&e))?;
    let syncer = Syncer::new(
        client,
        shared.clone(),
        clock::system(),
        super::store_cmd::sync_settings(args)?,
    );
    let _session = syncer.session().map_err(sync_error)?;
    progress.say(out, "discovery: projects, apps, tags")?;
    syncer.discovery().await.map_err(sync_error)?;
    // The oldest project's creation: no item is older (the progress bar's far end).
    let origin = shared
        .read(Store::projects)
        .map_err(|e| store_error(&e))?
        .iter()
        .filter_map(|p| p.created_at)
        .min();
    let walk = Walk {
        syncer: &syncer,
        progress: &progress,
        origin,
    };
    let statuses: &[Status] = match sync.status {
        SyncStatus::New => &[Status::New],
        SyncStatus::Archived => &[Status::Archived],
        SyncStatus::All => &[Status::New, Status::Archived],
    };
    for status in statuses {
        walk.status(status, sync.full, out).await?;
        if sync.full && sync.status == SyncStatus::New {
            walk.reconcile(out).await?;
        }
    }
    progress.finish();
    let totals = progress.totals();
    let budget = progress::budget_text(syncer.rate_limit(), Timestamp::now())
        .map(|b| format!("; {b}"))
        .unwrap_or_default();
    writeln!(
        out,
        "synced: {} added, {} changed, {} requests{budget}",
        totals.added, totals.changed, totals.requests,
    )?;
    Ok(())
}

/// One run's walks.
struct Walk<'a> {
    syncer: &'a Syncer,
    progress: &'a Progress,
    origin: Option<Timestamp>,
}

impl Walk<'_> {
    /// Head walk then backfill to the end of one status.
    async fn status(
        &self,
        status: &Status,
        full: bool,
        out: &mut impl Write,
    ) -> Result<(), CliError> {
        let name = status.as_str();
        self.progress.start(name);
        if full {
            self.syncer.restart(status).await.map_err(sync_error)?;
        }
        let head = self
            .syncer
            .head(status, Priority::User)
            .await
            .map_err(sync_error)?;
        self.record(status, &head)?;
        self.progress.say(
            out,
            &format!(
                "{name}: head: {} added, {} changed, {} requests",
                head.added, head.changed, head.requests
            ),
        )?;
        let mut deep = Report::default();
        let mut pages = 0_u32;
        while let Some(page) = self
            .syncer
            .backfill_page(status, Priority::User)
            .await
            .map_err(sync_error)?
        {
            self.record(status, &page)?;
            deep.added += page.added;
            deep.requests += page.requests;
            pages += 1;
            if pages.is_multiple_of(10) {
                self.progress.say(
                    out,
                    &format!(
                        "{name}: backfill: {} added so far, {} requests",
                        deep.added, deep.requests
                    ),
                )?;
            }
        }
        let state = self.syncer.state(status).map_err(sync_error)?;
        let reach = if state.complete {
            "mirrored to the end".to_owned()
        } else {
            format!("{} walks pending", state.pending_walks)
        };
        self.progress
            .say(out, &format!("{name}: {} stored, {reach}", state.stored))
    }

    /// The reconcile walk of `new` to its end.
    async fn reconcile(&self, out: &mut impl Write) -> Result<(), CliError> {
        loop {
            let page = self
                .syncer
                .reconcile_page(Priority::User)
                .await
                .map_err(sync_error)?;
            self.record(&Status::New, &page)?;
            if page.reached_end {
                return self.progress.say(out, "new: reconciled");
            }
        }
    }

    fn record(&self, status: &Status, step: &Report) -> Result<(), CliError> {
        let state = self.syncer.state(status).map_err(sync_error)?;
        self.progress
            .record(step, &state, self.origin, self.syncer.rate_limit());
        Ok(())
    }
}

fn client(args: &super::Args, progress: &Progress) -> Result<Client, CliError> {
    let resolved = super::resolve_account(args)?;
    for warning in &resolved.warnings {
        eprintln!("warning: {}", crate::api::key::redact_keys(warning));
    }
    let shown = progress.clone();
    let builder = Client::builder(resolved.base_url.as_str(), resolved.key)?;
    Ok(builder
        .on_wait(Arc::new(move |wait: &crate::api::Wait| {
            shown.wait(&super::describe_wait(wait));
        }))
        .build()?)
}

fn store_error(error: &store::StoreError) -> CliError {
    CliError::Other(error.to_string())
}

fn sync_error(error: SyncError) -> CliError {
    match error {
        SyncError::Api(api) => match Arc::try_unwrap(api) {
            Ok(api) => CliError::Api(api),
            Err(shared) => CliError::Other(shared.to_string()),
        },
        SyncError::Store(store) => store_error(&store),
        other => CliError::Other(other.to_string()),
    }
}
