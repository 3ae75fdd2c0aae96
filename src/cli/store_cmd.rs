//! The local store on the command line: which file a command uses (`--store`, `FEEDBACK_STORE`,
//! or the profile's file in the platform data folder; none with `--no-store`), and opening it with
//! the configured `retention_days` applied.

use std::path::PathBuf;

use jiff::{SignedDuration, Timestamp};

use super::{Args, CliError, config_path};
use crate::config;
use crate::store::{self, Store, StoreError};

/// The environment variable naming the store file (what `--store` overrides).
pub const ENV_STORE: &str = "FEEDBACK_STORE";

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

/// Opens (creating if needed) the store of this command line, `None` with `--no-store`, and
/// drops the items older than `retention_days`. The setting is checked before the file is
/// touched, so a bad value creates nothing.
pub fn open_store(args: &Args) -> Result<Option<Store>, CliError> {
    let Some(path) = store_path(args)? else {
        return Ok(None);
    };
    let keep = retention(args)?;
    let mut store = Store::open(&path)?;
    if let Some(keep) = keep {
        let dropped = apply_retention(&mut store, keep, Timestamp::now())?;
        if dropped > 0 {
            tracing::info!(dropped, "retention_days: dropped old items from the store");
        }
    }
    Ok(Some(store))
}

/// `retention_days` of the selected profile (or the top level), as a duration; `None` keeps all.
pub fn retention(args: &Args) -> Result<Option<SignedDuration>, CliError> {
    let (path, required) = config_path(args);
    let loaded = match &path {
        Some(path) => config::load(path, required)?,
        None => None,
    };
    Ok(config::retention(loaded.as_ref(), args.profile.as_deref())?)
}

/// Drops the items received more than `keep` before `now`; returns how many.
pub fn apply_retention(
    store: &mut Store,
    keep: SignedDuration,
    now: Timestamp,
) -> Result<usize, StoreError> {
    let cutoff = now.checked_sub(keep).unwrap_or(Timestamp::MIN);
    store.drop_older_than(cutoff)
}

#[cfg(test)]
mod tests;
