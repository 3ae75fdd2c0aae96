//! The run's store: which file it uses (`--store`, `FEEDBACK_STORE`, or the profile's file in
//! the platform data folder; none with `--no-store`), opening it with the configured
//! `retention_days` and `first_run` applied, refusing a damaged one, and the sync's settings
//! that follow from the same config.

use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};

use super::Context;
use crate::CliError;
use feedback_config as config;
use feedback_config::triage::FirstRun;
use feedback_core::text::Clean;
use feedback_store::{self as store, Store, StoreError};

/// The environment variable naming the store file (what `--store` overrides).
pub(crate) const ENV_STORE: &str = "FEEDBACK_STORE";

/// The store file this command line uses: `None` with `--no-store`; else `--store`, else
/// `FEEDBACK_STORE` (when set and not empty), else the profile's default. `--no-store` beats the
/// variable, so a one-off run in memory needs no `unset`.
pub(crate) fn store_path(args: &Context) -> Result<Option<PathBuf>, CliError> {
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
pub(crate) fn schema_version(path: &Path) -> Result<i64, feedback_store::probe::ProbeError> {
    feedback_store::probe::schema_version(path, feedback_store::probe::Probe::ReadOnly)
}

/// Opens (creating if needed) the store of this command line, `None` with `--no-store`, and
/// drops the items older than `retention_days`. The setting is checked before the file is
/// touched, so a bad value creates nothing.
pub(crate) fn open_store(args: &Context) -> Result<Option<Store>, CliError> {
    let Some(path) = store_path(args)? else {
        return Ok(None);
    };
    let keep = retention(args)?;
    // Another program's file named by a mistyped --store is refused before it is touched
    // (Store::open would chmod it, switch it to WAL and add the store's tables).
    check_store_file(&path, "not opening it as the local store")?;
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
pub(crate) fn refuse_damaged(args: &Context) -> Result<(), CliError> {
    let Some(path) = store_path(args)?.filter(|p| p.exists()) else {
        return Ok(());
    };
    check_store_file(&path, "not opening it as the local store")?;
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
fn first_run(args: &Context) -> Result<FirstRun, CliError> {
    let loaded = args.config()?;
    Ok(loaded
        .as_ref()
        .and_then(|l| l.file.triage.as_ref())
        .and_then(|t| t.first_run)
        .unwrap_or_default())
}

/// `retention_days` of the selected profile (or the top level), as a duration; `None` keeps all.
pub(crate) fn retention(args: &Context) -> Result<Option<SignedDuration>, CliError> {
    let loaded = args.config()?;
    Ok(config::retention(loaded, args.profile.as_deref())?)
}

/// The sync's settings for this command line: the defaults, with `retention_days` so a walk
/// never fetches what the store would drop, and the background's share from `[sync]`.
pub(crate) fn sync_settings(args: &Context) -> Result<feedback_sync::SyncSettings, CliError> {
    let loaded = args.config()?;
    let retention = config::retention(loaded, args.profile.as_deref())?
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

/// Refuses a `path` that is not a store (`refusal` says what is not done): it must be a
/// regular file that is empty (created but never written) or a SQLite database with the
/// store's `items` table; a missing file passes. A database whose tables cannot be read
/// (damaged) passes only in the default stores folder, where nothing else lives. Nothing is
/// written to the file.
pub(crate) fn check_store_file(path: &Path, refusal: &str) -> Result<(), CliError> {
    let not_a_store = |why: &str| {
        CliError::Usage(format!(
            "{} {why}; {refusal}",
            feedback_core::text::Clean::line(&path.display().to_string())
        ))
    };
    let meta = match path.symlink_metadata() {
        Ok(meta) => meta,
        // Only leftovers (-wal, -shm, .lock) of a store whose database is gone.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.into()),
    };
    if !meta.is_file() {
        return Err(not_a_store("is not a regular file"));
    }
    if meta.len() == 0 {
        return Ok(());
    }
    let mut header = [0u8; 16];
    let read =
        std::fs::File::open(path).and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header));
    match read {
        Ok(()) => {}
        // Too short for a header: not a database.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            return Err(not_a_store("is not a SQLite database"));
        }
        // What it holds is unknown: saying "not a store" would invite deleting a store whose
        // permissions or disk are all that is wrong.
        Err(e) => return Err(unreadable(path, &e)),
    }
    if &header != b"SQLite format 3\0" {
        return Err(not_a_store("is not a SQLite database"));
    }
    match feedback_store::probe::has_store_tables(path) {
        Some(true) => Ok(()),
        Some(false) => Err(not_a_store(
            "is a SQLite database but not a feedback-inbox store",
        )),
        None if in_default_folder(path) => Ok(()),
        None => Err(not_a_store("cannot be read as a feedback-inbox store")),
    }
}

/// A store file that cannot be read: the reason, and for a permission what to check (the file
/// is someone else's, or its mode was changed); nothing suggests deleting it.
fn unreadable(path: &Path, error: &std::io::Error) -> CliError {
    let shown = feedback_core::text::Clean::line(&path.display().to_string());
    if error.kind() == std::io::ErrorKind::PermissionDenied {
        return CliError::Usage(format!(
            "{shown} cannot be read: permission denied; check its owner and mode (`ls -l {shown}`): the store is to be yours, mode 0600 (`chmod 600 {shown}`)"
        ));
    }
    CliError::Other(format!("{shown} cannot be read: {error}"))
}

fn in_default_folder(path: &Path) -> bool {
    let folder = feedback_store::default_path(None).and_then(|p| p.parent().map(Path::to_owned));
    match (folder, path.parent()) {
        (Some(folder), Some(parent)) => {
            std::fs::canonicalize(folder).ok() == std::fs::canonicalize(parent).ok()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
