//! The idempotency record of a receiver without a store (with one, the store keeps the keys:
//! [`super::stored::record_delivery`]): every accepted key (`feedback.id`, or the hash of a
//! body kept raw), one JSON string per line in a small file of the platform data folder, so a
//! delivery that arrives again (even after a restart) is acknowledged but not recorded twice.
//! Ids are written as terminal-safe JSON strings, so an id with a newline in it cannot forge a
//! second line and one with escape characters cannot drive a terminal that shows the file.
//!
//! The file is private (`0600` in a `0700` folder) and must be a regular file: a symlink or a
//! FIFO in its place is refused ([`feedback_config::private_files`]).
//!
//! Each id is synced to disk before [`Seen::insert`] returns. A leading BOM (an editor's) and
//! torn lines (a crash or a full disk mid-write) are skipped when the file is read, and
//! counted in [`Seen::skipped_lines`].

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::journal::{self, AppendLog, SyncDir};
use feedback_config::private_files;

/// When the file holds more ids than this at start, it is rewritten with the newest half (the
/// store's record is pruned the same way, [`super::stored::prune_seen`]).
pub(crate) const COMPACT_ABOVE: usize = 200_000;

/// The ids accepted so far.
#[derive(Debug, Default)]
pub struct Seen {
    ids: HashSet<String>,
    log: Option<AppendLog>,
    skipped: usize,
}

/// `<local data dir>/webhook-seen.txt`, the receiver's default record.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    feedback_config::project_dirs().map(|dirs| dirs.data_local_dir().join("webhook-seen.txt"))
}

impl Seen {
    /// A record kept in memory only (the inbox's receiver: what it shows is in the API anyway).
    #[must_use]
    pub fn memory() -> Self {
        Self::default()
    }

    /// An empty record written to `sink` (another store, or a test's failing writer).
    #[must_use]
    #[cfg(test)]
    pub(crate) fn with_sink(sink: Box<dyn journal::Sink>) -> Self {
        Self {
            log: Some(AppendLog::new(sink, false)),
            ..Self::default()
        }
    }

    /// Loads the record at `path` (created with its folders when missing) and appends to it.
    /// A file it creates or compacts is made durable in its folder ([`journal::sync_dir`]).
    pub fn open(path: &Path) -> io::Result<Self> {
        Self::open_with(path, &mut journal::sync_dir)
    }

    /// [`Seen::open`], with `sync_folder` in place of [`journal::sync_dir`].
    pub(super) fn open_with(path: &Path, sync_folder: &mut SyncDir<'_>) -> io::Result<Self> {
        if let Some(dir) = path.parent() {
            private_files::create_dir(dir)?;
        }
        let text = private_files::read_record(path)?.unwrap_or_default();
        let lines = journal::read_lines::<String>(&text);
        if !lines.torn.is_empty() {
            tracing::warn!(path = %path.display(), lines = ?lines.torn, "skipped torn lines of the seen file");
        }
        let mut order = lines.records;
        if order.len() > COMPACT_ABOVE {
            order.drain(..order.len() - COMPACT_ABOVE / 2);
            rewrite(path, &order, sync_folder)?;
        }
        Ok(Self {
            ids: order.into_iter().collect(),
            log: Some(AppendLog::open_record(path, sync_folder)?),
            skipped: lines.torn.len(),
        })
    }

    #[must_use]
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// How many lines of the file could not be read when it was opened (torn or not JSON).
    #[must_use]
    pub fn skipped_lines(&self) -> usize {
        self.skipped
    }

    /// Records `id`; false when it was already there. The line is written whole and synced
    /// before this returns. When the write fails the id is still remembered for this process
    /// (so a redelivery is not recorded twice), and the error is returned.
    pub fn insert(&mut self, id: &str) -> io::Result<bool> {
        if !self.ids.insert(id.to_owned()) {
            return Ok(false);
        }
        if let Some(log) = &mut self.log {
            log.append_line(&journal::json_line(&id).map_err(io::Error::other)?)?;
        }
        Ok(true)
    }
}

/// Replaces the file at `path` with `ids`: written to a temporary file, synced, renamed over
/// it, and the rename made durable in the folder.
pub(super) fn rewrite(
    path: &Path,
    ids: &[String],
    sync_folder: &mut SyncDir<'_>,
) -> io::Result<()> {
    let temp = path.with_extension("compacting");
    let mut out = io::BufWriter::new(private_files::create_truncated(&temp)?);
    for id in ids {
        out.write_all(&journal::json_line(id).map_err(io::Error::other)?)?;
    }
    out.into_inner()
        .map_err(io::IntoInnerError::into_error)?
        .sync_all()?;
    std::fs::rename(temp, path)?;
    sync_folder(journal::parent_dir(path))
}
