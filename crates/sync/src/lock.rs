//! One sync at a time per store, across processes: an exclusive lock on `<store>.lock` (fs4:
//! `flock` on Unix, `LockFileEx` on Windows),
//! non-blocking (another process's sync is [`SyncError::Busy`]), or waited for in the kernel's
//! queue ([`SyncLock::acquire_waiting`], `sync` without `--no-wait`). The kernel releases it
//! when the process ends however it ends, so a killed sync never leaves the store locked. A
//! process takes it once, however many of its operations (or a whole `sync` run,
//! [`SyncLock::acquire`]) hold it; an in-memory store has no file and only the in-process
//! turn-taking.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::SyncError;
use feedback_core::mutex::lock;

/// The lock file next to a store file.
#[must_use]
pub(crate) fn lock_path(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// The store's sync lock as this process holds it.
#[derive(Debug)]
pub(crate) struct SyncLock {
    path: Option<PathBuf>,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    count: usize,
    /// The lock file, locked (closing it lets go).
    file: Option<File>,
}

/// Holds the lock while alive.
#[derive(Debug)]
pub struct LockGuard {
    lock: Arc<SyncLock>,
}

impl SyncLock {
    #[must_use]
    pub(crate) fn new(path: Option<PathBuf>) -> Self {
        Self {
            path,
            held: Mutex::new(Held::default()),
        }
    }

    /// Takes the lock (or another hold on it, when this process has it already).
    pub(crate) fn acquire(this: &Arc<Self>) -> Result<LockGuard, SyncError> {
        let mut held = lock(&this.held);
        if held.count == 0
            && let Some(path) = &this.path
        {
            held.file = Some(take(path)?);
        }
        held.count += 1;
        Ok(LockGuard {
            lock: Arc::clone(this),
        })
    }
}

impl SyncLock {
    /// [`SyncLock::acquire`], but while another process holds the lock, blocks until it lets
    /// go (run it off the async threads). Once the kernel grants it, no other open file of this
    /// process holds it (flock locks of two open files conflict), so it is this process's one
    /// hold.
    pub(crate) fn acquire_waiting(this: &Arc<Self>) -> Result<LockGuard, SyncError> {
        match Self::acquire(this) {
            Err(SyncError::Busy) => {}
            other => return other,
        }
        let Some(path) = &this.path else {
            return Self::acquire(this);
        };
        let file = take_waiting(path)?;
        let mut held = lock(&this.held);
        if held.count == 0 {
            held.file = Some(file);
        }
        held.count += 1;
        Ok(LockGuard {
            lock: Arc::clone(this),
        })
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let mut held = lock(&self.lock.held);
        held.count = held.count.saturating_sub(1);
        if held.count == 0 {
            // Closing the file releases the lock.
            held.file = None;
        }
    }
}

fn open(path: &Path) -> Result<File, SyncError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // A lock file others could read is tightened as the store is.
    let opened = options
        .open(path)
        .and_then(|file| feedback_config::private_files::tighten(&file).map(|()| file));
    opened.map_err(|e| {
        SyncError::Store(feedback_store::StoreError::Io {
            path: path.display().to_string(),
            message: format!("cannot open the sync lock: {e}"),
        })
    })
}

/// The lock, now or [`SyncError::Busy`].
fn take(path: &Path) -> Result<File, SyncError> {
    let file = open(path)?;
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => Ok(file),
        Err(fs4::TryLockError::WouldBlock) => Err(SyncError::Busy),
        Err(fs4::TryLockError::Error(error)) => Err(cannot_lock(path, &error)),
    }
}

/// The lock, once whoever holds it lets go.
fn take_waiting(path: &Path) -> Result<File, SyncError> {
    let file = open(path)?;
    fs4::FileExt::lock(&file).map_err(|e| cannot_lock(path, &e))?;
    Ok(file)
}

fn cannot_lock(path: &Path, error: &std::io::Error) -> SyncError {
    SyncError::Store(feedback_store::StoreError::Io {
        path: path.display().to_string(),
        message: format!("cannot lock: {error}"),
    })
}
