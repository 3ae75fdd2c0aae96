//! The project and app an item names, interned as small keys (`project_refs`, `app_refs`): few
//! distinct values, stored once, and remembered for the length of one transaction.

use std::collections::HashMap;

use rusqlite::{Transaction, params};

/// Interned project/app references, valid for one transaction.
#[derive(Default)]
pub(super) struct Refs {
    projects: HashMap<(String, String), i64>,
    apps: HashMap<(String, String, String), i64>,
}

pub(super) fn project_ref(
    tx: &Transaction<'_>,
    refs: &mut Refs,
    id: &str,
    name: &str,
) -> rusqlite::Result<i64> {
    let key = (id.to_owned(), name.to_owned());
    if let Some(k) = refs.projects.get(&key) {
        return Ok(*k);
    }
    tx.prepare_cached("INSERT OR IGNORE INTO project_refs (id, name) VALUES (?1, ?2)")?
        .execute(params![id, name])?;
    let k = tx
        .prepare_cached("SELECT k FROM project_refs WHERE id = ?1 AND name = ?2")?
        .query_row(params![id, name], |row| row.get(0))?;
    refs.projects.insert(key, k);
    Ok(k)
}

pub(super) fn app_ref(
    tx: &Transaction<'_>,
    refs: &mut Refs,
    id: &str,
    name: &str,
    platform: &str,
) -> rusqlite::Result<i64> {
    let key = (id.to_owned(), name.to_owned(), platform.to_owned());
    if let Some(k) = refs.apps.get(&key) {
        return Ok(*k);
    }
    tx.prepare_cached("INSERT OR IGNORE INTO app_refs (id, name, platform) VALUES (?1, ?2, ?3)")?
        .execute(params![id, name, platform])?;
    let k = tx
        .prepare_cached("SELECT k FROM app_refs WHERE id = ?1 AND name = ?2 AND platform = ?3")?
        .query_row(params![id, name, platform], |row| row.get(0))?;
    refs.apps.insert(key, k);
    Ok(k)
}
