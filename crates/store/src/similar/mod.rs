//! Similar feedback: for one stored item, the stored items that say the same thing in (mostly)
//! the same words; and Top issues (`top`): a view's items grouped into clusters of
//! near-duplicates.
//!
//! Similarity is weighted word overlap. The item's words are ranked by how common they are
//! (`terms`: counted on a sample, the newest items, since the index has no cheap count of a
//! word's items), and taken rarest first, each weighted by its inverse document frequency (its
//! exact count: its posting list is read whole), as long as the lists together stay within a
//! budget, which bounds the time at any store size. A candidate's score is the share of the kept
//! words' weight it holds (1.0: it has every distinctive word). Words only the item itself has
//! are left out: a name or an order number must not make its near-duplicates look less alike.
//! Scores are exact over the kept words, so the count of items above [`THRESHOLD`] is a real
//! count, not an estimate from the first page of a ranking. `score` scores the candidates of
//! the rarest words only (prefix filtering), and `apps` counts their apps in one query.

mod apps;
mod score;
mod terms;
mod top;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_top;

use rusqlite::OptionalExtension;

pub use top::{Cluster, JACCARD, Rarity, TopIssues, normalise};

use super::{Store, StoreError};

/// The share of the distinctive words' weight an item must hold to count as similar.
pub(crate) const THRESHOLD: f64 = 0.5;
/// At most this many distinctive words are looked up.
pub const MAX_TERMS: usize = 12;
/// The kept words' posting lists hold at most this many entries together (time bound).
pub(crate) const POSTING_BUDGET: u64 = 150_000;

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
        let mut above = score::scored(key, &terms);
        above.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)));
        let apps = self.apps_of(above.iter().map(|m| m.key))?;
        let total = above.len();
        above.truncate(limit);
        Ok(Some(Similar {
            matches: above,
            total,
            apps,
            terms: terms.into_iter().map(|t| t.word).collect(),
        }))
    }
}
