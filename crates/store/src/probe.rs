//! Looking into a database file without opening it as a store (which would create, migrate or
//! switch it to WAL): its schema version, and whether it holds a store's tables at all.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

/// How a probe opens the file; neither creates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    ReadOnly,
    /// Read-write without create: a WAL database cannot be opened read-only when its `-shm`
    /// file is gone. A probe writes nothing either way.
    ReadWrite,
}

impl Probe {
    fn flags(self) -> OpenFlags {
        let access = match self {
            Self::ReadOnly => OpenFlags::SQLITE_OPEN_READ_ONLY,
            Self::ReadWrite => OpenFlags::SQLITE_OPEN_READ_WRITE,
        };
        access | OpenFlags::SQLITE_OPEN_NO_MUTEX
    }
}

/// Why a probe could not read a file: SQLite's own words (a file that is not a database, one
/// the user may not read).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ProbeError(String);

/// The schema version of the database file at `path` (SQLite's `user_version`, 0 for an empty
/// file).
pub fn schema_version(path: &Path, probe: Probe) -> Result<i64, ProbeError> {
    Connection::open_with_flags(path, probe.flags())
        .and_then(|conn| conn.pragma_query_value(None, "user_version", |r| r.get::<_, i64>(0)))
        .map_err(|e| ProbeError(e.to_string()))
}

/// `Some(true)` when the database at `path` has the `items` and `meta` tables; `None` when it
/// cannot be read.
#[must_use]
pub fn has_store_tables(path: &Path) -> Option<bool> {
    let conn = Connection::open_with_flags(path, Probe::ReadWrite.flags()).ok()?;
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('items', 'meta')",
        [],
        |row| row.get::<_, i64>(0),
    )
    .ok()
    .map(|n| n == 2)
}
