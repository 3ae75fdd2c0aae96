//! Similar feedback: for one stored item, the stored items that say the same thing in (mostly)
//! the same words; and Top issues (`top`): a view's items grouped into clusters of
//! near-duplicates.
//!
//! Similarity is weighted word overlap. The item's words are looked up in the full-text index's
//! vocabulary (an `fts5vocab` table over `items_fts`, created per connection in `temp`: it has
//! no storage of its own, so no migration), each weighted by its inverse document frequency; the
//! most distinctive ones (highest weight) are kept, as long as their posting lists together stay
//! within a budget, which bounds the time at any store size. Each kept word's posting list is
//! read from the index and a candidate's score is the share of the kept words' weight it holds
//! (1.0: it has every distinctive word). Words only the item itself has are left out: a name or
//! an order number must not make its near-duplicates look less alike. Scores are exact over the
//! kept words, so the count of items above [`THRESHOLD`] is a real count, not an estimate from
//! the first page of a ranking.

mod top;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_top;

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::OptionalExtension;

pub use top::{Cluster, JACCARD, TopIssues, near_duplicates, normalise, word_set};

use super::search::index_words;
use super::{Store, StoreError};

/// The share of the distinctive words' weight an item must hold to count as similar.
pub const THRESHOLD: f64 = 0.5;
/// At most this many distinctive words are looked up.
pub const MAX_TERMS: usize = 12;
/// The kept words' posting lists hold at most this many entries together (time bound).
pub const POSTING_BUDGET: u64 = 400_000;

/// One similar item: its key and its score (0 to 1, 1 the most alike).
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub key: i64,
    pub score: f64,
}

/// The items similar to one item.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Similar {
    /// The best `limit` matches, best first (ties: newest first); never the item itself.
    pub matches: Vec<Match>,
    /// How many items score at least [`THRESHOLD`] (the item itself not counted).
    pub total: usize,
    /// The apps those items come from, raw names, with their counts, most first (`None`: no
    /// app).
    pub apps: Vec<(Option<String>, usize)>,
    /// The distinctive words the similarity was measured on, most distinctive first.
    pub terms: Vec<String>,
}

impl Store {
    /// The items most similar to the item with key `key`, best first, at most `limit` of them
    /// (all of them counted in `total`); `None` when no such item is stored.
    pub fn similar(&self, key: i64, limit: usize) -> Result<Option<Similar>, StoreError> {
        let message: Option<String> = self
            .conn()
            .prepare_cached("SELECT message FROM items WHERE k = ?1")
            .and_then(|mut s| s.query_row([key], |row| row.get(0)).optional())
            .map_err(|e| self.error(e))?;
        let Some(message) = message else {
            return Ok(None);
        };
        let terms = self.distinctive_terms(&message)?;
        let mut scores: HashMap<i64, f64> = HashMap::new();
        let total_weight: f64 = terms.iter().map(|(_, w)| w).sum();
        for (term, weight) in &terms {
            self.each_posting(term, |k| {
                *scores.entry(k).or_default() += weight / total_weight;
            })?;
        }
        scores.remove(&key);
        let mut above: Vec<Match> = scores
            .into_iter()
            // A hair under, so that float sums of exact halves count.
            .filter(|(_, score)| *score >= THRESHOLD - 1e-9)
            .map(|(key, score)| Match { key, score })
            .collect();
        above.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)));
        let apps = self.apps_of(above.iter().map(|m| m.key))?;
        let total = above.len();
        above.truncate(limit);
        Ok(Some(Similar {
            matches: above,
            total,
            apps,
            terms: terms.into_iter().map(|(t, _)| t).collect(),
        }))
    }

    /// The message's most distinctive words with their weights: words other items have too,
    /// rarest first, within [`MAX_TERMS`] and [`POSTING_BUDGET`].
    fn distinctive_terms(&self, message: &str) -> Result<Vec<(String, f64)>, StoreError> {
        self.conn()
            .execute_batch(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.items_vocab \
                 USING fts5vocab(main, 'items_fts', 'row');",
            )
            .map_err(|e| self.error(e))?;
        let words: HashSet<String> = index_words(message).into_iter().collect();
        let mut found: Vec<(String, u64)> = Vec::new();
        {
            let mut statement = self
                .conn()
                .prepare_cached("SELECT doc FROM temp.items_vocab WHERE term = ?1")
                .map_err(|e| self.error(e))?;
            for word in words {
                let docs: Option<i64> = statement
                    .query_row([&word], |row| row.get(0))
                    .optional()
                    .map_err(|e| self.error(e))?;
                if let Some(docs) = docs.filter(|&d| d >= 2) {
                    found.push((word, docs.unsigned_abs()));
                }
            }
        }
        // Rarest first; equal counts in word order, so the choice does not depend on hashing.
        found.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let stored = self.stored_count()?.max(1);
        let mut budget = POSTING_BUDGET;
        let mut terms = Vec::new();
        for (word, docs) in found.into_iter().take(MAX_TERMS) {
            let Some(left) = budget.checked_sub(docs) else {
                break;
            };
            budget = left;
            #[allow(clippy::cast_precision_loss)] // counts far below 2^52
            let weight = (1.0 + stored as f64 / docs as f64).ln();
            terms.push((word, weight));
        }
        Ok(terms)
    }

    /// How many items the full-text index holds (`max(rowid)` is not a count: keys are times).
    fn stored_count(&self) -> Result<u64, StoreError> {
        let count: i64 = self
            .conn()
            .query_row("SELECT count(*) FROM items", [], |row| row.get(0))
            .map_err(|e| self.error(e))?;
        Ok(count.unsigned_abs())
    }

    /// Calls `each` with the key of every item whose message holds the (folded) word.
    fn each_posting(&self, word: &str, mut each: impl FnMut(i64)) -> Result<(), StoreError> {
        let phrase = format!("\"{}\"", word.replace('"', "\"\""));
        let mut statement = self
            .conn()
            .prepare_cached("SELECT rowid FROM items_fts WHERE items_fts MATCH ?1")
            .map_err(|e| self.error(e))?;
        let mut rows = statement.query([phrase]).map_err(|e| self.error(e))?;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            each(row.get(0).map_err(|e| self.error(e))?);
        }
        Ok(())
    }

    /// The apps (raw names) of these items, with counts, most first, then by name.
    fn apps_of(
        &self,
        keys: impl Iterator<Item = i64>,
    ) -> Result<Vec<(Option<String>, usize)>, StoreError> {
        let mut by_ref: HashMap<Option<i64>, usize> = HashMap::new();
        {
            let mut statement = self
                .conn()
                .prepare_cached("SELECT app FROM items WHERE k = ?1")
                .map_err(|e| self.error(e))?;
            for key in keys {
                let app: Option<Option<i64>> = statement
                    .query_row([key], |row| row.get(0))
                    .optional()
                    .map_err(|e| self.error(e))?;
                if let Some(app) = app {
                    *by_ref.entry(app).or_default() += 1;
                }
            }
        }
        let mut by_name: BTreeMap<Option<String>, usize> = BTreeMap::new();
        let mut name = self
            .conn()
            .prepare_cached("SELECT name FROM app_refs WHERE k = ?1")
            .map_err(|e| self.error(e))?;
        for (app, count) in by_ref {
            let label = match app {
                Some(k) => name
                    .query_row([k], |row| row.get(0))
                    .optional()
                    .map_err(|e| self.error(e))?,
                None => None,
            };
            *by_name.entry(label).or_default() += count;
        }
        let mut apps: Vec<(Option<String>, usize)> = by_name.into_iter().collect();
        apps.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(apps)
    }
}
