//! `feedback-inbox store info|forget` and the flags of `store export` (which writes as `search`
//! does). Which file a run uses and how it is opened is the run's context's
//! (`context::store`).

pub mod forget;
pub mod info;

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::CliError;
use super::output::{ListFormat, ShowFormat};
use crate::context::Context;
use crate::context::store::{retention, store_path};

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

/// The store file `store info` describes and `store forget` deletes.
fn path(args: &Context) -> Result<PathBuf, CliError> {
    store_path(args)?.ok_or_else(|| {
        CliError::Usage("--no-store: there is no store to describe or delete".to_owned())
    })
}

/// `store info`. (`store export` writes as `search` does: `search_cmd::export`.)
pub fn info(args: &Context, format: ShowFormat, out: &mut dyn Write) -> Result<(), CliError> {
    let path = path(args)?;
    let keep = retention(args)?;
    let report = if path.exists() {
        info::read(&path, keep)?
    } else {
        info::missing(&path, keep)
    };
    info::write(&report, format, Timestamp::now(), &TimeZone::system(), out)
}

/// `store forget`.
pub fn forget(args: &Context, yes: bool, out: &mut dyn Write) -> Result<(), CliError> {
    forget_store(&path(args)?, yes, out)
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

#[cfg(test)]
mod tests;
