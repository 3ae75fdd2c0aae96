//! One store never mixes two accounts. The account has no id in the API, so its projects stand
//! for it: the store remembers every project id it has seen (on the project list, or on the
//! items stored before any list), and a list of projects sharing none of them is another
//! account. An empty list proves nothing (an account with no projects has no feedback to mix)
//! and changes nothing stored.

use std::collections::BTreeSet;

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};
use feedback_api::Project;

const PROJECT_IDS: &str = "account_project_ids";

impl Store {
    /// Checks that `projects` (the account's list, just fetched) belong to the account this
    /// store mirrors, and stores them. A first list makes the store that account's; later lists
    /// may add and drop projects, but must share one with what the store has seen.
    pub fn check_account(&mut self, projects: &[Project]) -> Result<(), StoreError> {
        let path = self.describe();
        let fresh: BTreeSet<String> = projects.iter().map(|p| p.id.clone()).collect();
        let mismatch = self.transact(|tx| {
            let mut known = project_ids(tx)?;
            if known.is_empty() {
                // Items that came before any project list (a webhook, `--listen`) name theirs.
                known = item_project_ids(tx)?;
            }
            if !known.is_empty() && !fresh.is_empty() && known.is_disjoint(&fresh) {
                return Ok(true);
            }
            if fresh.is_empty() {
                // An empty answer cannot confirm the account: keep what the store knows.
                return Ok(false);
            }
            let all: BTreeSet<String> = known.union(&fresh).cloned().collect();
            super::write::replace_projects(tx, projects)?;
            save_project_ids(tx, &all)?;
            Ok(false)
        })?;
        if mismatch {
            Err(StoreError::AccountMismatch { path })
        } else {
            Ok(())
        }
    }

    /// Adds project ids to those the account check confirms: the projects of items fetched
    /// with a key whose account has just passed the check (see `sync::catalog`).
    pub fn confirm_project_ids(&mut self, ids: &BTreeSet<String>) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut all = project_ids(tx)?;
            if ids.is_subset(&all) {
                return Ok(());
            }
            all.extend(ids.iter().cloned());
            save_project_ids(tx, &all)
        })
    }

    /// Every project id this store has seen on the account's project list.
    pub fn known_project_ids(&self) -> Result<BTreeSet<String>, StoreError> {
        project_ids(&self.conn).map_err(|e| self.error(e))
    }
}

/// The projects the stored items belong to.
fn item_project_ids(conn: &rusqlite::Connection) -> rusqlite::Result<BTreeSet<String>> {
    conn.prepare("SELECT DISTINCT id FROM project_refs")?
        .query_map([], |row| row.get(0))?
        .collect()
}

fn save_project_ids(conn: &rusqlite::Connection, ids: &BTreeSet<String>) -> rusqlite::Result<()> {
    let json = serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned());
    conn.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
        params![PROJECT_IDS, json],
    )
    .map(drop)
}

fn project_ids(conn: &rusqlite::Connection) -> rusqlite::Result<BTreeSet<String>> {
    let value: Option<String> = conn
        .query_row(
            "SELECT value FROM meta WHERE key = ?1",
            [PROJECT_IDS],
            |row| row.get(0),
        )
        .optional()?;
    Ok(value
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default())
}
