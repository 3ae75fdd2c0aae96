//! The local store: a SQLite database per account that mirrors what the service said (list pages
//! of both statuses, details, projects, apps, tags, webhook deliveries), so the inbox starts at
//! once, works offline, and searches everything ever fetched. The network keeps it fresh
//! (`feedback-sync`); this crate only reads and writes it.
//!
//! One file per profile in the platform data folder, created `0600` in a `0700` folder: it holds
//! customer emails and messages. WAL mode and a busy timeout let several processes share it (two
//! inbox windows, a `sync`, a `webhook listen`). Every write is one transaction, committed with
//! `synchronous=FULL`: what a call reports written survives kill -9 and power loss, and a failed
//! write leaves nothing half done. Text is stored raw and sanitized where it is shown.
//!
//! It is the only crate that depends on rusqlite, and no rusqlite type crosses its public API.
//! It builds on `feedback-core`, `feedback-api` and `feedback-config` and never imports the
//! sync, the team backend, the webhook receiver, the inbox or the command line.

mod account;
mod catalog;
mod deliveries;
mod enrich;
mod files;
mod first_run;
mod integrity;
mod interned;
mod keys;
mod last_view;
mod links;
mod match_walk;
mod meta_keys;
mod mirror_outbox;
pub mod pivot;
pub mod probe;
mod read;
mod replies;
mod rows;
pub mod saved_views;
pub mod schema;
pub mod search;
mod searches;
mod shared;
pub mod similar;
pub mod sync_state;
mod team;
mod team_deliveries;
mod team_mirror;
mod team_rebuild;
mod team_templates;
mod triage;
mod tx;
mod unseen;
mod view;
mod view_spec;
mod walk_handoff;
mod woken;
mod write;
mod write_counts;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_files;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;
use thiserror::Error;

pub use catalog::{Counts, Info, NameCount};
pub use enrich::{Coverage, Enqueued};
pub use files::{default_path, store_file_name};
pub use first_run::SEEN_BEFORE;
pub use integrity::{check_integrity, check_pages};
pub use keys::{TIES_PER_MICROSECOND, at_or_after, before, micros_key, time_key};
pub use last_view::LAST_VIEW;
pub use links::LinkRecord;
pub use meta_keys::FieldNames;
pub use mirror_outbox::Publication;
pub use read::{Hide, StoredDetail, StoredItem, ViewQuery};
pub use replies::{NewReply, Queued, Reply, ReplyState};
pub use rows::{AppRow, ItemRow, RefRow, RowBatch, RowBytes, RowNeeds};
pub use saved_views::NamedView;
pub use searches::SEARCHES_KEPT;
pub use shared::Shared;
pub use team::{
    LostChange, OutboxEntry, ReplicaPosition, ReplicaStart, TeamBatch, TeamItemRecord,
    TeamNoteRecord, UnreadableChange,
};
pub use team_deliveries::DeliveriesToShare;
pub use team_mirror::Applied;
pub use team_rebuild::Rebuilt;
pub use team_templates::TeamTemplate;
pub use triage::{NOTE_MAX_BYTES, Triage, TriageChange, capped_note};
pub use tx::{Tx, TxError, TxResult};
pub use view::{ViewKeys, ViewReadError};
pub use view_spec::{ANY_STATUS, Chosen, ViewSpec, ViewStatus};
pub use walk_handoff::{Reach, WalkState};
pub use write::Sighting;
pub use write::Written;
pub use write::{forget_id, put_groups_in, put_in};
pub use write_counts::{ITEMS_REV, Revs, TRIAGE_REV};

/// The meta key naming the version that brought the store to its schema.
const SCHEMA_WRITTEN_BY: &str = "schema_written_by";

/// How long a statement waits for another process's write lock before giving up.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

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
        "store {path}: written by {} (schema {found}; this one, {}, knows up to {known}): {}, or use another store",
        by.as_deref().map_or_else(|| "a newer feedback-inbox".to_owned(), |v| format!("feedback-inbox {}", feedback_core::text::Clean::line(v))),
        feedback_core::release::VERSION,
        feedback_core::release::install(by.as_deref())
    )]
    TooNew {
        path: String,
        found: usize,
        known: usize,
        /// The version that brought it to that schema, when it said.
        by: Option<String>,
    },
    #[error("store {path}: cannot update its schema: {message}")]
    Migration { path: String, message: String },
    #[error(
        "store {path} holds another account's feedback (none of its projects is among this account's); use another --profile, or `feedback-inbox store forget`"
    )]
    AccountMismatch { path: String },
    /// The file's contents are not what this program wrote (a damaged page, text that is not
    /// UTF-8, a value of the wrong type): no retry mends it.
    #[error(
        "the store is damaged: {path} ({source}); keep a copy of the file (notes, stars and snoozes live only there), then `feedback-inbox store forget` and `feedback-inbox sync` build it again from the service"
    )]
    Damaged {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
}

impl StoreError {
    /// A SQLite error of the store at `path`: [`StoreError::Damaged`] when it says the file's
    /// contents are damaged, else [`StoreError::Sqlite`].
    #[must_use]
    pub(crate) fn sqlite(path: String, source: rusqlite::Error) -> Self {
        if is_damage(&source) {
            Self::Damaged { path, source }
        } else {
            Self::Sqlite { path, source }
        }
    }
}

/// Whether SQLite's answer means the file holds what no version of this program wrote.
fn is_damage(error: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode;
    match error {
        rusqlite::Error::SqliteFailure(e, _) => {
            matches!(e.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
        }
        rusqlite::Error::Utf8Error(..)
        | rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::InvalidColumnType(..) => true,
        _ => false,
    }
}

/// An open store: one connection. Open another (`open_again`) for another thread.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    /// Where it lives, for messages and `open_again` (a `file:` URI for an in-memory store).
    location: Location,
    /// The deliveries this connection records are noted for the team's mirror
    /// (`webhook listen --team`: `store::team_deliveries`).
    sharing_deliveries: bool,
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
            sharing_deliveries: false,
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
            sharing_deliveries: false,
        };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// A store in memory holding `items`, each as listed under `new`, seen `at` (tests).
    #[cfg(any(test, feature = "testing"))]
    pub fn listed_in_memory(
        items: &[feedback_api::Feedback],
        at: jiff::Timestamp,
    ) -> Result<Self, StoreError> {
        let mut store = Self::open_memory()?;
        let new = feedback_api::Status::New;
        let sightings: Vec<Sighting<'_>> =
            items.iter().map(|f| Sighting::listed(f, &new)).collect();
        store.put(&sightings, at)?;
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

    /// The connection, for the store's own statements.
    #[must_use]
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Sets this connection's page cache to `kib` KiB (SQLite takes a negative size as KiB).
    pub fn set_cache_kib(&self, kib: i64) -> Result<(), StoreError> {
        self.conn
            .pragma_update(None, "cache_size", -kib)
            .map_err(|e| self.error(e))
    }

    /// Gathers the query planner's statistics of the tables and indexes (`ANALYZE`): the
    /// benches compare the plans with and without them.
    pub fn analyze(&self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("ANALYZE")
            .map_err(|e| self.error(e))
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
    pub(crate) fn error(&self, source: rusqlite::Error) -> StoreError {
        StoreError::sqlite(self.describe(), source)
    }

    fn configure(&mut self) -> Result<(), StoreError> {
        let conn = &self.conn;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| self.error(e))?;
        // WAL: readers never block the writer nor each other; FULL: a commit is on disk before
        // it returns. The WAL is checkpointed into the database every 10,000 pages (40 MB), not
        // SQLite's 1,000: a sync's pages touch the same index pages again and again, and each
        // checkpoint writes every page once however often it changed since the last.
        self.use_wal()?;
        let conn = &self.conn;
        conn.execute_batch(
            "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -32000; \
             PRAGMA wal_autocheckpoint = 10000;",
        )
        .map_err(|e| self.error(e))?;
        conn.set_prepared_statement_cache_capacity(64);
        // `rarray(?)`: a list of keys bound as one value (similar items' apps, the outbox's
        // changes of some items).
        rusqlite::vtab::array::load_module(conn).map_err(|e| self.error(e))?;
        Ok(())
    }

    /// Turns WAL on (it stays on in the file). Switching needs the file to itself, and SQLite
    /// answers "busy" at once, without waiting, while another process is opening the same new
    /// store; so it is tried again for up to the busy timeout, unless the other one switched it.
    fn use_wal(&self) -> Result<(), StoreError> {
        let mode = |sql: &str| -> rusqlite::Result<String> {
            self.conn.query_row(sql, [], |row| row.get(0))
        };
        let started = std::time::Instant::now();
        loop {
            match mode("PRAGMA journal_mode = WAL") {
                Ok(_) => return Ok(()),
                Err(e) if started.elapsed() < BUSY_TIMEOUT && is_busy(&e) => {
                    if mode("PRAGMA journal_mode").is_ok_and(|m| m.eq_ignore_ascii_case("wal")) {
                        return Ok(());
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(e) => return Err(self.error(e)),
            }
        }
    }

    fn migrate(&mut self) -> Result<(), StoreError> {
        let found = self.user_version()?;
        if found > schema::latest() {
            // The meta table is in every schema; a store too new to read says nothing more.
            let by = self
                .conn
                .query_row(
                    "SELECT value FROM meta WHERE key = ?1",
                    [SCHEMA_WRITTEN_BY],
                    |r| r.get::<_, String>(0),
                )
                .ok();
            return Err(StoreError::TooNew {
                path: self.describe(),
                found,
                known: schema::latest(),
                by,
            });
        }
        if found == schema::latest() {
            return Ok(());
        }
        let path = self.describe();
        match schema::migrations().to_latest(&mut self.conn) {
            Ok(()) => {
                // An older version that meets this schema names the version it needs. Losing
                // this write loses only that word.
                let _ = self.conn.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)
                     ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [SCHEMA_WRITTEN_BY, feedback_core::release::VERSION],
                );
                Ok(())
            }
            // Two processes opening an older store at once both start the same migration; the
            // second waits for the first's write lock, then fails on what the first created. The
            // store is then up to date, which is all that was asked.
            Err(_) if self.user_version()? == schema::latest() => Ok(()),
            Err(e) => Err(StoreError::Migration {
                path,
                message: e.to_string(),
            }),
        }
    }

    fn user_version(&self) -> Result<usize, StoreError> {
        let found: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| self.error(e))?;
        Ok(usize::try_from(found).unwrap_or(usize::MAX))
    }
}

fn is_busy(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

fn sqlite_at(path: &Path, source: rusqlite::Error) -> StoreError {
    StoreError::sqlite(path.display().to_string(), source)
}
