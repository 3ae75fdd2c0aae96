//! The sync's walk state whole (`store::sync_state`'s tables, row by row), to hand from one
//! store to another: the team's syncer publishes it with the items it describes, and the member
//! that takes over from it lays it into its own store and walks on from there, never from zero.
//! Keys in the walk state are the list's `(received, id)`, the same in every store, so the state
//! means the same there.

use std::collections::BTreeMap;

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, params_from_iter};
use serde::{Deserialize, Serialize};

use super::{Store, StoreError};

/// The walk's tables and their columns, in the order a row lists them.
const TABLES: [(&str, &[&str]); 3] = [
    (
        "sync_status",
        &[
            "status",
            "head_received",
            "head_id",
            "synced_at",
            "complete",
            "reconcile_cursor",
            "reconcile_received",
            "reconcile_id",
            "reconcile_started",
            "reconciled_at",
        ],
    ),
    (
        "sync_gaps",
        &[
            "g",
            "status",
            "cursor",
            "cursor_received",
            "cursor_id",
            "last_received",
            "last_id",
            "until_received",
            "until_id",
        ],
    ),
    ("sync_recheck", &["id", "found"]),
];

/// A store's walk state: each table's rows, each row its columns' values (integers, text or
/// null) in the order of [`TABLES`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WalkState {
    tables: BTreeMap<String, Vec<Vec<serde_json::Value>>>,
}

impl WalkState {
    /// No walk has started: nothing is stored of any status.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.tables.values().all(Vec::is_empty)
    }
}

/// How far one status is mirrored, as a walk state says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reach {
    pub status: String,
    /// When the newest item mirrored from the top was received.
    pub newest: Option<jiff::Timestamp>,
    /// Mirrored to its end (no gap open).
    pub complete: bool,
    /// How far back the walk towards the deep end has come, while it goes on.
    pub deep: Option<jiff::Timestamp>,
}

impl WalkState {
    /// How far each status is mirrored, by status.
    #[must_use]
    pub fn reach(&self) -> Vec<Reach> {
        let micros = |v: Option<&serde_json::Value>| {
            v.and_then(serde_json::Value::as_i64)
                .and_then(|us| jiff::Timestamp::from_microsecond(us).ok())
        };
        let text = |v: Option<&serde_json::Value>| {
            v.and_then(serde_json::Value::as_str).map(str::to_owned)
        };
        let gaps = self.tables.get("sync_gaps").map_or(&[][..], Vec::as_slice);
        let mut reach: Vec<Reach> = self
            .tables
            .get("sync_status")
            .into_iter()
            .flatten()
            .filter_map(|row| {
                let status = text(row.first())?;
                let open = |gap: &&Vec<serde_json::Value>| {
                    text(gap.get(1)).as_deref() == Some(status.as_str())
                };
                Some(Reach {
                    newest: micros(row.get(1)),
                    complete: row.get(4).and_then(serde_json::Value::as_i64) == Some(1)
                        && !gaps.iter().any(|g| open(&g)),
                    // The deep end's gap: the one that ends nowhere.
                    deep: gaps
                        .iter()
                        .filter(|g| open(g) && g.get(7).is_none_or(serde_json::Value::is_null))
                        .find_map(|g| micros(g.get(5))),
                    status,
                })
            })
            .collect();
        reach.sort_by(|a, b| a.status.cmp(&b.status));
        reach
    }
}

/// The walk state as `conn` sees it (the caller's read transaction, when it needs it to agree
/// with other reads).
pub(super) fn walk_state_in(conn: &Connection) -> rusqlite::Result<WalkState> {
    let mut tables = BTreeMap::new();
    for (table, columns) in TABLES {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {} FROM {table} ORDER BY 1",
            columns.join(", ")
        ))?;
        let rows = stmt
            .query_map([], |row| {
                (0..columns.len())
                    .map(|i| {
                        Ok(match row.get_ref(i)? {
                            ValueRef::Integer(n) => serde_json::Value::from(n),
                            ValueRef::Text(t) => {
                                serde_json::Value::from(String::from_utf8_lossy(t).into_owned())
                            }
                            ValueRef::Real(f) => serde_json::Value::from(f),
                            ValueRef::Null | ValueRef::Blob(_) => serde_json::Value::Null,
                        })
                    })
                    .collect::<rusqlite::Result<Vec<_>>>()
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        tables.insert(table.to_owned(), rows);
    }
    Ok(WalkState { tables })
}

/// Why a walk state cannot be laid into a store.
#[derive(Debug, thiserror::Error)]
#[error("the walk state's {table} has a row of {found} values where {expected} are expected")]
pub(crate) struct WalkStateError {
    table: String,
    found: usize,
    expected: usize,
}

impl Store {
    /// This store's walk state.
    pub fn walk_state(&self) -> Result<WalkState, StoreError> {
        walk_state_in(&self.conn).map_err(|e| self.error(e))
    }

    /// Replaces this store's walk state with `walk`, in one commit: a state with a row of the
    /// wrong shape is refused whole, and this store's own stays.
    pub fn restore_walk_state(&mut self, walk: &WalkState) -> Result<(), StoreError> {
        self.lay_walk_state(walk, false).map(|_| ())
    }

    /// A follower's store takes the walk state of the mirror it follows (so it says how far
    /// each status is mirrored, and walks on from there should the team stop sharing), unless
    /// it publishes: its own walk state is then the one the team's mirror follows. Checked in
    /// the commit that lays it; whether it was laid.
    pub fn follow_walk_state(&mut self, walk: &WalkState) -> Result<bool, StoreError> {
        self.lay_walk_state(walk, true)
    }

    fn lay_walk_state(
        &mut self,
        walk: &WalkState,
        unless_publishing: bool,
    ) -> Result<bool, StoreError> {
        for (table, columns) in TABLES {
            for row in walk.tables.get(table).into_iter().flatten() {
                if row.len() != columns.len() {
                    let error = WalkStateError {
                        table: table.to_owned(),
                        found: row.len(),
                        expected: columns.len(),
                    };
                    return Err(
                        self.error(rusqlite::Error::ToSqlConversionFailure(Box::new(error)))
                    );
                }
            }
        }
        self.transact(|tx| {
            if unless_publishing && super::mirror_outbox::note_count(tx)?.is_some() {
                return Ok(false);
            }
            for (table, columns) in TABLES {
                tx.execute(&format!("DELETE FROM {table}"), [])?;
                let marks: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
                let mut insert = tx.prepare_cached(&format!(
                    "INSERT INTO {table} ({}) VALUES ({})",
                    columns.join(", "),
                    marks.join(", ")
                ))?;
                for row in walk.tables.get(table).into_iter().flatten() {
                    insert.execute(params_from_iter(row.iter().map(value)))?;
                }
            }
            Ok(true)
        })
    }
}

/// A JSON value of a walk state as SQLite takes it.
fn value(json: &serde_json::Value) -> Value {
    match json {
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(Value::Integer)
            .or_else(|| n.as_f64().map(Value::Real))
            .unwrap_or(Value::Null),
        serde_json::Value::String(s) => Value::Text(s.clone()),
        serde_json::Value::Bool(b) => Value::Integer(i64::from(*b)),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::sync_state::{self, Gap, Key};
    use feedback_api::Cursor;

    fn key(n: i64) -> Key {
        Key {
            received: 1_790_000_000_000_000 + n,
            id: format!("fb_{n}"),
        }
    }

    #[test]
    fn a_walk_state_laid_into_another_store_reads_the_same_there() {
        let mut from = Store::open_memory().unwrap();
        from.write(|tx| {
            sync_state::set_head(tx, "new", &key(9), 100)?;
            sync_state::set_complete(tx, "archived")?;
            sync_state::insert_gap(
                tx,
                "new",
                &Gap {
                    g: 0,
                    cursor: Some(Cursor("c_7".into())),
                    cursor_key: Some(key(7)),
                    last: key(7),
                    until: None,
                },
            )?;
            Ok(())
        })
        .unwrap();
        let walk = from.walk_state().unwrap();
        assert!(!walk.is_empty());
        let reach = walk.reach();
        assert_eq!(reach.len(), 2, "{reach:?}");
        assert_eq!(reach[0].status, "archived");
        assert!(reach[0].complete);
        assert_eq!(reach[1].status, "new");
        assert!(!reach[1].complete);
        assert_eq!(reach[1].newest, key(9).timestamp());
        assert_eq!(reach[1].deep, key(7).timestamp());
        // Through JSON, as the team's database keeps it.
        let walk: WalkState = serde_json::from_str(&serde_json::to_string(&walk).unwrap()).unwrap();
        let mut to = Store::open_memory().unwrap();
        to.write(|tx| sync_state::set_head(tx, "new", &key(1), 5))
            .unwrap();
        to.restore_walk_state(&walk).unwrap();
        assert_eq!(to.walk_state().unwrap(), from.walk_state().unwrap());
        let gaps = sync_state::gaps(to.conn(), "new").unwrap();
        assert_eq!(gaps.len(), 1);
        assert_eq!(gaps[0].cursor, Some(Cursor("c_7".into())));
        assert_eq!(gaps[0].last, key(7));
        // A damaged state is refused, and the store's own stays.
        let mut bad = walk.clone();
        bad.tables.get_mut("sync_gaps").unwrap()[0].pop();
        assert!(to.restore_walk_state(&bad).is_err());
        assert_eq!(to.walk_state().unwrap(), walk);
        // An empty state empties the walk (a team whose mirror has not started).
        to.restore_walk_state(&WalkState::default()).unwrap();
        assert!(to.walk_state().unwrap().is_empty());
    }

    #[test]
    fn a_follower_takes_the_mirrors_walk_state_but_a_publishing_store_keeps_its_own() {
        let mut from = Store::open_memory().unwrap();
        from.write(|tx| sync_state::set_head(tx, "new", &key(9), 100))
            .unwrap();
        let walk = from.walk_state().unwrap();
        let mut to = Store::open_memory().unwrap();
        assert!(to.follow_walk_state(&walk).unwrap());
        assert_eq!(to.walk_state().unwrap(), walk);
        to.write(|tx| sync_state::set_head(tx, "new", &key(12), 120))
            .unwrap();
        let own = to.walk_state().unwrap();
        to.start_mirror_publishing(1).unwrap();
        assert!(!to.follow_walk_state(&walk).unwrap());
        assert_eq!(
            to.walk_state().unwrap(),
            own,
            "the syncer's walk state was replaced"
        );
    }
}
