//! The local store: a SQLite database per account that mirrors what the service said (list pages
//! of both statuses, details, projects, apps, tags, webhook deliveries), so the inbox starts at
//! once, works offline, and searches everything ever fetched. The network keeps it fresh
//! (`crate::sync`); this module only reads and writes it.
//!
//! One file per profile in the platform data folder, created `0600` in a `0700` folder: it holds
//! customer emails and messages. WAL mode and a busy timeout let several processes share it (two
//! inbox windows, a `sync`, a `webhook listen`). Every write is one transaction, committed with
//! `synchronous=FULL`: what a call reports written survives kill -9 and power loss, and a failed
//! write leaves nothing half done. Text is stored raw and sanitized where it is shown.

mod account;
mod files;
mod read;
pub mod schema;
pub mod search;
mod shared;
mod write;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;
use thiserror::Error;

pub use files::{default_path, store_file_name};
pub use read::{Counts, Info, NameCount, StoredDetail, StoredItem, ViewQuery};
pub use shared::Shared;
pub use write::Sighting;
pub use write::Written;
pub use write::{TIES_PER_MICROSECOND, forget_id, micros_key, put_in, time_key};

/// How long a statement waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// What can go wrong with the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("store {path}: {source}")]
    Sqlite {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("store {path}: {message}")]
    Io { path: String, message: String },
    #[error(
        "store {path}: written by a newer feedback-inbox (schema {found}; this one knows up to {known}); upgrade, or use another store"
    )]
    TooNew {
        path: String,
        found: usize,
        known: usize,
    },
    #[error("store {path}: cannot update its schema: {message}")]
    Migration { path: String, message: String },
    #[error(
        "store {path} holds another account's feedback (none of its projects is among this account's); use another --profile, or `feedback-inbox store forget`"
    )]
    AccountMismatch { path: String },
}

/// An open store: one connection. Open another (`open_again`) for another thread.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    /// Where it lives, for messages and `open_again` (a `file:` URI for an in-memory store).
    location: Location,
}

#[derive(Debug, Clone)]
enum Location {
    File(PathBuf),
    /// A private in-memory database (`--no-store`, tests): one connection only.
    Memory,
}

impl Store {
    /// Opens (creating if needed) the store at `path`, bringing its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        files::prepare(path)?;
        let conn = Connection::open(path).map_err(|e| sqlite_at(path, e))?;
        let mut store = Self {
            conn,
            location: Location::File(path.to_owned()),
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// A store that lives in memory and is gone when dropped (`--no-store`, tests).
    pub fn open_memory() -> Result<Self, StoreError> {
        let conn = Connection::open_in_memory().map_err(|e| sqlite_at(Path::new(":memory:"), e))?;
        let mut store = Self {
            conn,
            location: Location::Memory,
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// Another connection to the same store file, for another thread or task. `None` for an
    /// in-memory store, which has one connection only.
    pub fn open_again(&self) -> Option<Result<Self, StoreError>> {
        match &self.location {
            Location::File(path) => Some(Self::open(path)),
            Location::Memory => None,
        }
    }

    /// The file, or `None` in memory.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match &self.location {
            Location::File(path) => Some(path),
            Location::Memory => None,
        }
    }

    /// The connection, for the sync and search modules' own statements.
    #[must_use]
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn conn_mut(&mut self) -> &mut Connection {
        &mut self.conn
    }

    /// The store's name in messages: its path, or "in-memory store".
    #[must_use]
    pub fn describe(&self) -> String {
        match &self.location {
            Location::File(path) => path.display().to_string(),
            Location::Memory => "in-memory store".to_owned(),
        }
    }

    /// Wraps a SQLite error with the store's name.
    #[must_use]
    pub fn error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sqlite {
            path: self.describe(),
            source,
        }
    }

    fn configure(&mut self) -> Result<(), StoreError> {
        let conn = &self.conn;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| self.error(e))?;
        // WAL: readers never block the writer nor each other; FULL: a commit is on disk before
        // it returns. `journal_mode` answers a row, so it is read, not executed.
        let _mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .map_err(|e| self.error(e))?;
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32000;",
        )
        .map_err(|e| self.error(e))?;
        conn.set_prepared_statement_cache_capacity(64);
        Ok(())
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let migrations = schema::migrations();
        let found: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error(e))?;
        let found = usize::try_from(found).unwrap_or(usize::MAX);
        if found > schema::latest() {
            return Err(StoreError::TooNew {
                path: self.describe(),
                found,
                known: schema::latest(),
            });
        }
        let path = self.describe();
        migrations
            .to_latest(&mut self.conn)
            .map_err(|e| StoreError::Migration {
                path,
                message: e.to_string(),
            })
    }
}

fn sqlite_at(path: &Path, source: rusqlite::Error) -> StoreError {
    StoreError::Sqlite {
        path: path.display().to_string(),
        source,
    }
}
