//! A read-only look at whether a store file is sound, for `doctor` (and, its pages only, for
//! `sync`): SQLite's `quick_check`
//! (pages, indexes, constraints), then every text value of every table read as the UTF-8 it was
//! written as, since `quick_check` does not look inside values and a sync stops at the first
//! one that is not. Nothing is written: the connection is query-only.

use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use super::StoreError;

/// How many of `quick_check`'s lines a report keeps.
const SHOWN: usize = 3;

/// The problems found in the store at `path`, empty when it is sound. An error when the file
/// cannot even be opened or its tables listed (which is damage too, reported by the caller).
pub fn check_integrity(path: &Path) -> Result<Vec<String>, StoreError> {
    let at = |e| StoreError::sqlite(path.display().to_string(), e);
    let conn = open_query_only(path)?;
    let mut problems = quick_check(&conn).map_err(at)?;
    if problems.is_empty() {
        problems.extend(text_problems(&conn).map_err(at)?);
    }
    Ok(problems)
}

/// `quick_check`'s findings alone (pages, indexes, constraints), empty when it finds none: the
/// look a sync takes before it writes into a store, since SQLite reads past much damage
/// without a word and a sync would bury it under new rows.
pub fn check_pages(path: &Path) -> Result<Vec<String>, StoreError> {
    let conn = open_query_only(path)?;
    quick_check(&conn).map_err(|e| StoreError::sqlite(path.display().to_string(), e))
}

fn open_query_only(path: &Path) -> Result<Connection, StoreError> {
    let at = |e| StoreError::sqlite(path.display().to_string(), e);
    // Read-write without create: a WAL database cannot be opened read-only when its `-shm`
    // file is gone; `query_only` keeps the connection from writing anything.
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(at)?;
    conn.execute_batch("PRAGMA query_only = ON").map_err(at)?;
    conn.busy_timeout(super::BUSY_TIMEOUT).map_err(at)?;
    Ok(conn)
}

fn quick_check(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let lines: Vec<String> = conn
        .prepare("PRAGMA quick_check")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if lines.len() == 1 && lines[0] == "ok" {
        return Ok(Vec::new());
    }
    let more = lines.len().saturating_sub(SHOWN);
    let mut shown: Vec<String> = lines
        .into_iter()
        .take(SHOWN)
        .map(|l| format!("quick_check: {l}"))
        .collect();
    if more > 0 {
        shown.push(format!("and {more} more quick_check findings"));
    }
    Ok(shown)
}

/// Each table whose text values are not all UTF-8, with how many are not.
fn text_problems(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
        )?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut problems = Vec::new();
    for table in tables {
        let quoted = table.replace('"', "\"\"");
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{quoted}\""))?;
        let columns = stmt.column_count();
        let mut rows = stmt.query([])?;
        let mut bad = 0u64;
        while let Some(row) = rows.next()? {
            for i in 0..columns {
                if let ValueRef::Text(bytes) = row.get_ref(i)?
                    && std::str::from_utf8(bytes).is_err()
                {
                    bad += 1;
                }
            }
        }
        if bad > 0 {
            problems.push(format!("table {table}: {bad} text values are not UTF-8"));
        }
    }
    Ok(problems)
}
