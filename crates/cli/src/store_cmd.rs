//! The local store on the command line: which file a command uses (`--store`, `FEEDBACK_STORE`,
//! or the profile's file in the platform data folder; none with `--no-store`), opening it with
//! the configured `retention_days` applied, and `feedback-inbox store info|forget|export`.

pub mod forget;
pub mod info;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};

use super::output::{ListFormat, ShowFormat};
use super::{Args, CliError};
use feedback_config as config;
use feedback_config::triage::FirstRun;
use feedback_core::text::Clean;
use feedback_store::{self as store, Store, StoreError};

#[derive(Debug, clap::Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Where the local store is, its size, and what it holds per status.
    Info {
        #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
        format: ShowFormat,
    },
    /// Delete the local store's files (after a confirmation; the service keeps every item).
    /// Close inbox windows and `webhook listen` using the store first: a running sync is
    /// refused, but a window that only reads it is not seen.
    Forget {
        /// Do not ask (for scripts; without a terminal, forget refuses unless this is given).
        #[arg(long, short)]
        yes: bool,
    },
    /// Write every stored item, newest first, in the API's shape (JSONL by default): the fast
    /// path for backups and BI tools. Reads only the store; `--since`/`--until`, `--app` and
    /// `--project` narrow it.
    Export(ExportArgs),
}

#[derive(Debug, Clone, clap::Args)]
pub struct ExportArgs {
    #[arg(long, value_enum, default_value_t = ListFormat::Jsonl)]
    pub format: ListFormat,
    /// Columns, in order (comma list), or `all`: as for `list --fields`.
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// Write CSV cells (and a piped table's tab-separated cells) as they are, even ones a
    /// spreadsheet would run as formulas.
    #[arg(long)]
    pub raw_csv: bool,
    #[command(flatten)]
    pub filters: super::scope::FilterArgs,
}

/// Runs `store info`, `store forget` or `store export`.
pub async fn run(
    args: &Args,
    store: &StoreArgs,
    out: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let path = || {
        store_path(args)?.ok_or_else(|| {
            CliError::Usage("--no-store: there is no store to describe or delete".to_owned())
        })
    };
    match &store.command {
        StoreCommand::Info { format } => {
            let path = path()?;
            let keep = retention(args)?;
            let report = if path.exists() {
                info::read(&path, keep)?
            } else {
                info::missing(&path, keep)
            };
            info::write(&report, *format, Timestamp::now(), &TimeZone::system(), out)
        }
        StoreCommand::Forget { yes } => forget_store(&path()?, *yes, out),
        StoreCommand::Export(export) => super::search_cmd::export(args, export, out).await,
    }
}

fn forget_store(path: &Path, yes: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let files = forget::existing_files(path);
    let shown = feedback_core::text::Clean::line(&path.display().to_string());
    if files.is_empty() {
        writeln!(out, "No store at {shown}; nothing to delete.")?;
        return Ok(());
    }
    forget::check_is_store(path)?;
    let _held = forget::hold_sync_lock(path)?;
    // The lock file may have just been made: it goes too.
    let files = forget::existing_files(path);
    if !yes {
        if !std::io::stdin().is_terminal() {
            return Err(CliError::Usage(format!(
                "not deleting {shown} without a confirmation: no terminal to ask on; pass --yes"
            )));
        }
        // An empty file (created, never written) is not opened: that would make it a store.
        let written = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0);
        let items = written
            .then(|| info::read(path, None).ok())
            .flatten()
            .and_then(|r| r.contents.map(|c| c.items));
        let confirmed = forget::confirm(
            path,
            items,
            &mut std::io::stdin().lock(),
            &mut std::io::stderr(),
        )?;
        if !confirmed {
            writeln!(out, "Kept {shown}.")?;
            return Ok(());
        }
    }
    forget::delete(&files)?;
    let noun = if files.len() == 1 { "file" } else { "files" };
    writeln!(out, "Deleted {shown} ({} {noun}).", files.len())?;
    Ok(())
}

/// `path` with `suffix` appended to its file name (`store.sqlite3-wal`).
#[must_use]
pub(crate) fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The environment variable naming the store file (what `--store` overrides).
pub(crate) const ENV_STORE: &str = "FEEDBACK_STORE";

/// The store file this command line uses: `None` with `--no-store`; else `--store`, else
/// `FEEDBACK_STORE` (when set and not empty), else the profile's default. `--no-store` beats the
/// variable, so a one-off run in memory needs no `unset`.
pub fn store_path(args: &Args) -> Result<Option<PathBuf>, CliError> {
    if args.no_store {
        return Ok(None);
    }
    if let Some(path) = &args.store {
        return Ok(Some(path.clone()));
    }
    if let Some(path) = std::env::var_os(ENV_STORE).filter(|v| !v.is_empty()) {
        return Ok(Some(PathBuf::from(path)));
    }
    store::default_path(args.profile.as_deref())
        .map(Some)
        .ok_or_else(|| {
            CliError::Usage(
                "no home folder to keep the local store in; pass --store PATH or --no-store"
                    .to_owned(),
            )
        })
}

/// The schema version of the store file at `path` (SQLite's `user_version`, 0 for an empty
/// file), read over a read-only connection: nothing is created, migrated or switched to WAL.
pub fn schema_version(path: &Path) -> Result<i64, feedback_store::probe::ProbeError> {
    feedback_store::probe::schema_version(path, feedback_store::probe::Probe::ReadOnly)
}

/// Opens (creating if needed) the store of this command line, `None` with `--no-store`, and
/// drops the items older than `retention_days`. The setting is checked before the file is
/// touched, so a bad value creates nothing.
pub(crate) fn open_store(args: &Args) -> Result<Option<Store>, CliError> {
    let Some(path) = store_path(args)? else {
        return Ok(None);
    };
    let keep = retention(args)?;
    // Another program's file named by a mistyped --store is refused before it is touched
    // (Store::open would chmod it, switch it to WAL and add the store's tables).
    forget::check_store_file(&path, "not opening it as the local store")?;
    let mut store = Store::open(&path)?;
    if first_run(args)? == FirstRun::FromNow && store.start_from_now(Timestamp::now())? {
        tracing::info!("first_run = from-now: items received before now start as seen");
    }
    if let Some(keep) = keep {
        let dropped = apply_retention(&mut store, keep, Timestamp::now())?;
        if dropped > 0 {
            tracing::info!(dropped, "retention_days: dropped old items from the store");
        }
    }
    Ok(Some(store))
}

/// What to do with a damaged store: it is built again from the service, but what was only
/// ever in it goes with it.
pub(crate) const REBUILD_DAMAGED: &str = "keep a copy of the file (notes, stars and snoozes live only \
    there), then `feedback-inbox store forget` and `feedback-inbox sync` build it again from the \
    service";

/// Refuses (exit 1) to write into a store that `quick_check` finds damaged: SQLite reads past
/// much damage without a word, and new rows written over it would bury what went wrong. A
/// store not made yet has nothing to check.
pub(crate) fn refuse_damaged(args: &Args) -> Result<(), CliError> {
    let Some(path) = store_path(args)?.filter(|p| p.exists()) else {
        return Ok(());
    };
    forget::check_store_file(&path, "not opening it as the local store")?;
    let problems = store::check_pages(&path)?;
    if problems.is_empty() {
        return Ok(());
    }
    Err(CliError::Other(format!(
        "the store {} is damaged, so nothing was synced into it ({}); {REBUILD_DAMAGED}",
        path.display(),
        problems.join("; ")
    )))
}

/// Refuses, as a usage error (exit 2), a command naming items the store does not hold: what it
/// would do to them could not be shown or checked, so nothing is changed or sent.
pub(crate) fn require_stored(store: &store::Shared, ids: &[&str]) -> Result<(), CliError> {
    let stored = store.read(|s| s.contains_ids(ids))?;
    let missing: Vec<Clean> = ids
        .iter()
        .zip(&stored)
        .filter(|(_, stored)| !**stored)
        .map(|(id, _)| Clean::line(id))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(CliError::Usage(format!(
        "not in the local store: {} (nothing was changed; `sync` brings new items)",
        Clean::join(&missing, ", ")
    )))
}

/// `first_run` of `[triage]`: what a new store's items start as.
fn first_run(args: &Args) -> Result<FirstRun, CliError> {
    let loaded = super::load_config(args)?;
    Ok(loaded
        .as_ref()
        .and_then(|l| l.file.triage.as_ref())
        .and_then(|t| t.first_run)
        .unwrap_or_default())
}

/// `retention_days` of the selected profile (or the top level), as a duration; `None` keeps all.
pub fn retention(args: &Args) -> Result<Option<SignedDuration>, CliError> {
    let loaded = super::load_config(args)?;
    Ok(config::retention(loaded.as_ref(), args.profile.as_deref())?)
}

/// The sync's settings for this command line: the defaults, with `retention_days` so a walk
/// never fetches what the store would drop, and the background's share from `[sync]`.
pub(crate) fn sync_settings(args: &Args) -> Result<feedback_sync::SyncSettings, CliError> {
    let loaded = super::load_config(args)?;
    let retention = config::retention(loaded.as_ref(), args.profile.as_deref())?
        .and_then(|keep| std::time::Duration::try_from(keep).ok());
    let share = match &loaded {
        Some(loaded) => loaded
            .file
            .sync
            .clone()
            .unwrap_or_default()
            .share(&loaded.path.display().to_string())?,
        None => config::sync::BackgroundShare::default(),
    };
    Ok(feedback_sync::SyncSettings {
        retention,
        background: share.background,
        floor_percent: share.floor_percent,
        ..feedback_sync::SyncSettings::default()
    })
}

/// Drops the items received more than `keep` before `now`; returns how many.
pub(crate) fn apply_retention(
    store: &mut Store,
    keep: SignedDuration,
    now: Timestamp,
) -> Result<usize, StoreError> {
    let cutoff = now.checked_sub(keep).unwrap_or(Timestamp::MIN);
    store.drop_older_than(cutoff)
}

#[cfg(test)]
mod tests;
