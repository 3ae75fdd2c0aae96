//! How a bulk walk reads a view that a full-text match drives. The match's index yields the
//! matching keys newest first and each is then looked up in `items`: one seek a match. When the
//! match holds a large share of the store, one pass over the items in key order, merged with the
//! match's keys read first, reads the same rows for less: a seek costs about four rows of a
//! sequential pass (at 1,000,000 items, 824,458 lookups took 1.1 s, the whole pass 0.33 s), so
//! past a quarter of the store the pass wins. A walk that stops after a few rows looks up.

use super::{Store, StoreError, ViewQuery};

/// Below this many matches (or rows asked for) a walk looks them up: the pass would read the
/// whole store for a handful of rows.
const MERGE_AT_LEAST: usize = 20_000;

/// How a walk reads a view's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Walk {
    /// The view's own statement: its match (if any) drives it, a lookup per row.
    Lookup,
    /// One pass over the view's other conditions in key order, keeping the rows whose keys are
    /// these (the match's, ascending: newest first).
    Merge(Vec<i64>),
}

/// Which walk a caller asks for: the cheaper one, or one of them (tests compare the two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Choice {
    Cheaper,
    #[cfg(test)]
    Lookup,
    #[cfg(test)]
    Merge,
}

/// Whether a pass merged with `matches` keys is cheaper than looking them up, in a store of
/// `items` items, for a walk of at most `limit` rows.
fn merge_pays(matches: usize, items: u64, limit: Option<usize>) -> bool {
    let matches = matches as u64;
    matches >= MERGE_AT_LEAST as u64
        && limit.is_none_or(|l| l >= MERGE_AT_LEAST)
        && matches.saturating_mul(4) >= items
}

impl Store {
    /// How to walk `query` (at most `limit` rows): a pass merged with the match's keys when the
    /// view has a match and that is cheaper (or `choice` asks for it), else a lookup walk.
    /// Called inside the walk's read transaction, so the keys are the walk's.
    pub(super) fn match_walk(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        choice: Choice,
    ) -> Result<Walk, StoreError> {
        let Some(fts) = &query.fts else {
            return Ok(Walk::Lookup);
        };
        let merge = match choice {
            Choice::Cheaper => {
                if limit.is_some_and(|l| l < MERGE_AT_LEAST) {
                    return Ok(Walk::Lookup);
                }
                let keys = self.match_keys(fts)?;
                if keys.len() < MERGE_AT_LEAST {
                    return Ok(Walk::Lookup);
                }
                let items = self.item_count()?;
                merge_pays(keys.len(), items, limit).then_some(keys)
            }
            #[cfg(test)]
            Choice::Lookup => None,
            #[cfg(test)]
            Choice::Merge => Some(self.match_keys(fts)?),
        };
        Ok(merge.map_or(Walk::Lookup, Walk::Merge))
    }

    /// The keys of the items the full-text expression `fts` matches, ascending.
    fn match_keys(&self, fts: &str) -> Result<Vec<i64>, StoreError> {
        let read = || -> rusqlite::Result<Vec<i64>> {
            self.conn()
                .prepare_cached(
                    "SELECT rowid FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid",
                )?
                .query_map([fts], |row| row.get(0))?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// How many items are stored, as the store's kept counts say (a few rows, where counting
    /// the items reads an index of them all).
    fn item_count(&self) -> Result<u64, StoreError> {
        self.conn()
            .prepare_cached("SELECT coalesce(sum(n), 0) FROM pivot_counts WHERE dim = 0")
            .and_then(|mut s| s.query_row([], |row| row.get::<_, i64>(0)))
            .map(i64::unsigned_abs)
            .map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    use super::merge_pays;

    #[test]
    fn a_pass_pays_past_a_quarter_of_the_store_for_a_walk_that_reads_on() {
        assert!(merge_pays(824_458, 1_000_000, None));
        assert!(merge_pays(250_000, 1_000_000, None));
        assert!(!merge_pays(249_999, 1_000_000, None));
        // A few matches: looked up, even when they are the whole store.
        assert!(!merge_pays(19_999, 19_999, None));
        // A walk that stops after a screen looks up.
        assert!(!merge_pays(824_458, 1_000_000, Some(100)));
        assert!(merge_pays(824_458, 1_000_000, Some(500_000)));
    }
}
