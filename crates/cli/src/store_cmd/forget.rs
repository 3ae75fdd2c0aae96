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
    check_store_file(path, "not deleting it (delete it yourself if you are sure)")
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
