//! `feedback-inbox store forget`: deletes the store's files (the database, its `-wal`, `-shm`
//! and `-journal` files, and the sync's `.lock`) and nothing else. The service keeps every item,
//! so a later sync rebuilds it; still, it asks first on a terminal, and without one it needs
//! `--yes`. A path that is not a feedback-inbox store (another program's database, a text file
//! named by a mistyped `--store`) is refused.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use crate::CliError;

/// The suffixes of the files that belong to a store at `path` (`path` itself first).
const SIDECARS: [&str; 5] = ["", "-wal", "-shm", "-journal", ".lock"];

/// The store's files that exist.
#[must_use]
pub(crate) fn existing_files(path: &Path) -> Vec<PathBuf> {
    SIDECARS
        .iter()
        .map(|suffix| super::sidecar(path, suffix))
        .filter(|p| p.symlink_metadata().is_ok())
        .collect()
}

/// Refuses a `path` that is not a store, before `forget` deletes it: see [`check_store_file`].
pub(crate) fn check_is_store(path: &Path) -> Result<(), CliError> {
    crate::context::store::check_store_file(
        path,
        "not deleting it (delete it yourself if you are sure)",
    )
}

/// Asks on `prompt` and reads one line from `answer`: true only for `y` or `yes`.
pub fn confirm(
    path: &Path,
    items: Option<u64>,
    answer: &mut dyn BufRead,
    prompt: &mut dyn Write,
) -> Result<bool, CliError> {
    let what = items.map_or_else(String::new, |n| {
        format!(" ({})", feedback_core::text::output::counted(n, "item"))
    });
    write!(
        prompt,
        "Delete the local store {}{what}? It holds customer emails and messages; the service keeps them all, and a sync fetches them again. Close any inbox window and `webhook listen` using it first. [y/N] ",
        feedback_core::text::Clean::line(&path.display().to_string())
    )?;
    prompt.flush()?;
    let mut line = String::new();
    answer.read_line(&mut line)?;
    Ok(matches!(line.trim().to_lowercase().as_str(), "y" | "yes"))
}

/// Deletes `files`, all of them attempted; the first failure is the error.
pub fn delete(files: &[PathBuf]) -> Result<(), CliError> {
    let mut first = None;
    for file in files {
        match std::fs::remove_file(file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                first.get_or_insert_with(|| {
                    CliError::Other(format!("cannot delete {}: {e}", file.display()))
                });
            }
        }
    }
    first.map_or(Ok(()), Err)
}

/// The sync lock (`<store>.lock`, created when missing, `0600`), held while the files are
/// deleted, so a `sync` (or an inbox's sync) that is writing the store is not cut off, and none
/// starts meanwhile. It does not see inbox windows that only read the store: the prompt asks
/// to close them first.
#[cfg(unix)]
pub(crate) fn hold_sync_lock(
    path: &Path,
) -> Result<Option<nix::fcntl::Flock<std::fs::File>>, CliError> {
    use nix::errno::Errno;
    use nix::fcntl::{Flock, FlockArg};
    use std::os::unix::fs::OpenOptionsExt;
    let lock = super::sidecar(path, ".lock");
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(&lock)
    {
        Ok(file) => file,
        Err(e) => {
            return Err(CliError::Other(format!(
                "cannot open {}: {e}",
                lock.display()
            )));
        }
    };
    match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
        Ok(held) => Ok(Some(held)),
        Err((_, Errno::EWOULDBLOCK)) => Err(CliError::Other(format!(
            "a sync is running on {} (a `sync`, or an inbox syncing); not deleting it: try again when it ends",
            path.display()
        ))),
        Err((_, errno)) => Err(CliError::Other(format!(
            "cannot lock {}: {errno}",
            lock.display()
        ))),
    }
}

/// No file lock elsewhere than Unix.
#[cfg(not(unix))]
pub(crate) fn hold_sync_lock(_path: &Path) -> Result<Option<()>, CliError> {
    Ok(None)
}
