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

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};

use super::CliError;
use crate::api::{Client, RateLimit, Status};
use crate::clock;
use crate::store::{self, Shared, Store};
use crate::sync::{Priority, Report, SyncError, SyncSettings, Syncer};

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
    let path = store_path(args.profile.as_deref())?;
    let opened = Store::open(&path)
        .and_then(Shared::new)
        .map_err(|e| store_error(&e))?;
    let syncer = Syncer::new(client, opened, clock::system(), SyncSettings::default());
    let _session = syncer.session().map_err(sync_error)?;
    progress.say(out, "discovery: projects, apps, tags")?;
    syncer.discovery().await.map_err(sync_error)?;
    let statuses: &[Status] = match sync.status {
        SyncStatus::New => &[Status::New],
        SyncStatus::Archived => &[Status::Archived],
        SyncStatus::All => &[Status::New, Status::Archived],
    };
    for status in statuses {
        sync_status(&syncer, status, sync.full, &progress, out).await?;
        if sync.full && sync.status == SyncStatus::New {
            reconcile(&syncer, &progress, out).await?;
        }
    }
    progress.finish();
    let rate = syncer.rate_limit();
    writeln!(
        out,
        "synced: {} added, {} changed, {} requests{}",
        progress.added(),
        progress.changed(),
        progress.requests(),
        budget_text(rate)
            .map(|b| format!("; {b}"))
            .unwrap_or_default()
    )?;
    Ok(())
}

/// Head walk then backfill to the end of one status.
async fn sync_status(
    syncer: &Syncer,
    status: &Status,
    full: bool,
    progress: &Progress,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let name = status.as_str();
    if full {
        syncer.restart(status).await.map_err(sync_error)?;
    }
    let head = syncer
        .head(status, Priority::User)
        .await
        .map_err(sync_error)?;
    progress.record(name, &head, syncer.rate_limit());
    progress.say(
        out,
        &format!(
            "{name}: head: {} added, {} changed, {} requests",
            head.added, head.changed, head.requests
        ),
    )?;
    let mut deep = Report::default();
    let mut pages = 0_u32;
    while let Some(page) = syncer
        .backfill_page(status, Priority::User)
        .await
        .map_err(sync_error)?
    {
        progress.record(name, &page, syncer.rate_limit());
        deep.add_to(&page);
        pages += 1;
        if pages.is_multiple_of(10) {
            progress.say(
                out,
                &format!(
                    "{name}: backfill: {} added so far, {} requests",
                    deep.added, deep.requests
                ),
            )?;
        }
    }
    let state = syncer.state(status).map_err(sync_error)?;
    progress.say(
        out,
        &format!(
            "{name}: {} stored, {}",
            state.stored,
            if state.complete {
                "mirrored to the end".to_owned()
            } else {
                format!("{} walks pending", state.pending_walks)
            }
        ),
    )?;
    Ok(())
}

/// The reconcile walk of `new` to its end.
async fn reconcile(
    syncer: &Syncer,
    progress: &Progress,
    out: &mut impl Write,
) -> Result<(), CliError> {
    loop {
        let page = syncer
            .reconcile_page(Priority::User)
            .await
            .map_err(sync_error)?;
        progress.record("new", &page, syncer.rate_limit());
        if page.reached_end {
            return progress.say(out, "new: reconciled");
        }
    }
}

trait AddTo {
    fn add_to(&mut self, other: &Report);
}

impl AddTo for Report {
    fn add_to(&mut self, other: &Report) {
        self.added += other.added;
        self.changed += other.changed;
        self.requests += other.requests;
    }
}

/// A progress bar on a terminal, plain lines otherwise; counts what was done.
#[derive(Clone)]
struct Progress {
    bar: Option<ProgressBar>,
    totals: Arc<Mutex<Report>>,
}

impl Progress {
    fn new(terminal: bool) -> Self {
        let bar = terminal.then(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) =
                ProgressStyle::with_template("{spinner} {prefix:.bold} {wide_msg} [{elapsed}]")
            {
                bar.set_style(style);
            }
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
        Self {
            bar,
            totals: Arc::new(Mutex::new(Report::default())),
        }
    }

    fn record(&self, status: &str, step: &Report, rate: RateLimit) {
        let totals = {
            let mut totals = clock::lock(&self.totals);
            totals.add_to(step);
            *totals
        };
        if let Some(bar) = &self.bar {
            bar.set_prefix(status.to_owned());
            let budget = budget_text(rate)
                .map(|b| format!(" · {b}"))
                .unwrap_or_default();
            let pace = rate
                .limit
                .map(|l| format!(" · up to {} items/min", u64::from(l) * 100))
                .unwrap_or_default();
            bar.set_message(format!(
                "{} items added, {} changed · {} requests{budget}{pace}",
                totals.added, totals.changed, totals.requests
            ));
        }
    }

    /// A line: above the bar on a terminal, on `out` otherwise.
    fn say(&self, out: &mut impl Write, line: &str) -> Result<(), CliError> {
        match &self.bar {
            Some(bar) => bar.println(crate::text::sanitize_line(line)),
            None => writeln!(out, "{line}")?,
        }
        Ok(())
    }

    /// A wait of the client (pacing, retry): in the bar, or a line on stderr.
    fn wait(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(line.to_owned()),
            None => eprintln!("{line}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    fn added(&self) -> usize {
        clock::lock(&self.totals).added
    }

    fn changed(&self) -> usize {
        clock::lock(&self.totals).changed
    }

    fn requests(&self) -> u32 {
        clock::lock(&self.totals).requests
    }
}

/// "budget 812/1000, resets in 42s".
fn budget_text(rate: RateLimit) -> Option<String> {
    let (remaining, limit) = (rate.remaining?, rate.limit?);
    let reset = rate
        .seconds_to_reset(jiff::Timestamp::now())
        .map(|s| format!(", resets in {s}s"))
        .unwrap_or_default();
    Some(format!("budget {remaining}/{limit}{reset}"))
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
