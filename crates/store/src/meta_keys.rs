//! Which metadata keys and delivery channels the stored items carry: the names a pane or an
//! export offers as columns before any row is read.

use std::collections::BTreeSet;

use super::{Store, StoreError};

/// The metadata keys (built-in and custom apart) and delivery channels of some items.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldNames {
    pub built_in: BTreeSet<String>,
    pub custom: BTreeSet<String>,
    pub channels: BTreeSet<String>,
}

impl Store {
    /// The custom metadata keys stored, by name, at most `limit` of them.
    pub fn custom_meta_keys(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT DISTINCT key FROM item_meta WHERE custom = 1 ORDER BY key LIMIT ?1",
            )
            .map_err(|e| self.error(e))?;
        let rows = stmt
            .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                r.get::<_, String>(0)
            })
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.error(e))
    }

    /// The values stored under these metadata keys (any case when `any_case`, built-in or
    /// custom), the most items' first, at most `limit`: what the prompt completes `version:`,
    /// `os:`, `locale:` and `meta.KEY:` with. Read from the pivots' counts, not the items.
    pub fn meta_values(
        &self,
        keys: &[&str],
        any_case: bool,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let matches = if any_case {
            "lower(key) IN (SELECT lower(value) FROM json_each(?1))"
        } else {
            "key IN (SELECT value FROM json_each(?1))"
        };
        let sql = format!(
            "SELECT value FROM pivot_counts WHERE dim IN (4, 5) AND {matches} AND value <> '' \
             GROUP BY value ORDER BY sum(n) DESC, value LIMIT ?2"
        );
        // A list of strings always serializes.
        let keys = serde_json::to_string(keys).unwrap_or_else(|_| "[]".to_owned());
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.error(e))?;
        stmt.query_map(
            rusqlite::params![keys, i64::try_from(limit).unwrap_or(i64::MAX)],
            |r| r.get::<_, String>(0),
        )
        .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
        .map_err(|e| self.error(e))
    }

    /// The metadata keys and delivery channels of the items with these keys, read in batches
    /// of 500 keys.
    pub fn field_names(&self, keys: &[i64]) -> Result<FieldNames, StoreError> {
        const META: &str = "SELECT DISTINCT custom, key FROM item_meta \
            WHERE k IN (SELECT value FROM json_each(?1))";
        const CHANNELS: &str = "SELECT DISTINCT json_extract(d.value, '$.channel') \
            FROM items, json_each(items.delivery) AS d \
            WHERE items.delivery IS NOT NULL AND items.k IN (SELECT value FROM json_each(?1))";
        let mut found = FieldNames::default();
        let conn = &self.conn;
        for batch in keys.chunks(500) {
            // A list of integers always serializes.
            let list = serde_json::to_string(batch).unwrap_or_else(|_| "[]".to_owned());
            let mut meta = conn.prepare_cached(META).map_err(|e| self.error(e))?;
            let rows = meta
                .query_map([&list], |row| {
                    Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
                })
                .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
                .map_err(|e| self.error(e))?;
            for (custom, key) in rows {
                if custom == 0 {
                    found.built_in.insert(key);
                } else {
                    found.custom.insert(key);
                }
            }
            let mut channels = conn.prepare_cached(CHANNELS).map_err(|e| self.error(e))?;
            let rows = channels
                .query_map([&list], |row| row.get::<_, Option<String>>(0))
                .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
                .map_err(|e| self.error(e))?;
            found.channels.extend(rows.into_iter().flatten());
        }
        Ok(found)
    }
}
