//! The apps a set of similar items come from, counted in one grouped query: the keys go in as
//! one bound array (`rarray`), which SQLite walks as lookups in the index of apps by key
//! (schema 9: small entries, so a few thousand pages hold them all, where the items' own rows
//! would take a page each), rather than as one query per item (thousands of round trips for a
//! common complaint).

use std::collections::BTreeMap;
use std::rc::Rc;

use rusqlite::types::Value;

use crate::{Store, StoreError};

impl Store {
    /// The apps (raw names) of these items, with counts, most first, then by name; `None`: no
    /// app (or one the store has no name for). Keys not stored are not counted.
    pub(super) fn apps_of(
        &self,
        keys: impl Iterator<Item = i64>,
    ) -> Result<Vec<(Option<String>, usize)>, StoreError> {
        let keys: Rc<Vec<Value>> = Rc::new(keys.map(Value::Integer).collect());
        let mut statement = self
            .conn()
            .prepare_cached(
                "SELECT app_refs.name, count(*) FROM rarray(?1) AS keys \
                 JOIN items INDEXED BY items_app_by_key ON items.k = keys.value \
                 LEFT JOIN app_refs ON app_refs.k = items.app GROUP BY items.app",
            )
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([keys], |row| {
                Ok((row.get::<_, Option<String>>(0)?, row.get::<_, i64>(1)?))
            })
            .map_err(|e| self.error(e))?;
        // Two app references may carry one name: counted together, as the list shows names.
        let mut by_name: BTreeMap<Option<String>, usize> = BTreeMap::new();
        for row in rows {
            let (name, count) = row.map_err(|e| self.error(e))?;
            *by_name.entry(name).or_default() += usize::try_from(count).unwrap_or(0);
        }
        let mut apps: Vec<(Option<String>, usize)> = by_name.into_iter().collect();
        apps.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(apps)
    }
}
