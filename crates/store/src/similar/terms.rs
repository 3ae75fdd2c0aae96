//! The distinctive words of a message, their weights and their posting lists.
//!
//! The choice needs to know which words are rare, and the index has no cheap document count:
//! FTS5 (and its `fts5vocab` tables) counts a word's documents by walking its whole posting
//! list, most of a million entries for "the". Ranking the words exactly costs as much: to know
//! that "export" (46,000 items) is rarer than "please" (49,000), both lists must be walked that
//! far, and so must every other word's. So the words are ranked on a sample, the newest
//! [`SAMPLE_ITEMS`] items (every item in a smaller store): a word's count there, and for a
//! word the sample lacks, its count over the store up to [`RARE_CAP`] (such words are rare, so
//! that is cheap, and it ranks them among themselves). Then the words are taken rarest first:
//! each one's posting list is read whole (its exact count gives its weight), as long as the
//! lists together stay within the budget. A word whose list does not fit is passed over; once
//! the sample says the next word is far too common to fit, the choice ends. Reading is bounded
//! too: the lists read, kept or passed over, stay within [`READ_ALLOWANCE`] budgets.

use std::collections::BTreeSet;

use rusqlite::OptionalExtension;

use super::{MAX_TERMS, POSTING_BUDGET};
use crate::search::exact_word;
use crate::{Store, StoreError};
use feedback_core::query::index_words;

/// FTS5 indexes at most this many bytes of a token (`FTS5_MAX_TOKEN_SIZE`): a longer word is
/// never in the vocabulary as written.
const MAX_TOKEN_BYTES: usize = 32_768;
/// The words are ranked on the newest this many items.
pub(super) const SAMPLE_ITEMS: u64 = 16_384;
/// A word the sample lacks is counted over the store up to this many items.
const RARE_CAP: u64 = 4_096;
/// The posting lists read in all (kept or passed over) stay within this many budgets.
const READ_ALLOWANCE: u64 = 2;
/// While sampling, a word is still tried while its estimated count is at most this many times
/// the budget left (room for the sample's error); past it, the choice ends.
const ESTIMATE_SLACK: u64 = 2;

/// One distinctive word: how the index spells it, its weight (inverse document frequency) and
/// the keys of the items that hold it, ascending.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Term {
    pub word: String,
    pub weight: f64,
    pub keys: Vec<i64>,
}

/// A word of the message with its rank: its count in the sample, then (when that is 0) its
/// count over the store up to [`RARE_CAP`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    in_sample: u64,
    rare: u64,
    word: String,
}

/// The sample the words are ranked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sample {
    /// The oldest key in the sample; `None`: the sample is the whole store.
    from: Option<i64>,
    /// Items in the store and in the sample.
    stored: u64,
    sampled: u64,
}

impl Sample {
    /// The word's estimated count over the store, from its count in the sample.
    fn estimate(&self, in_sample: u64) -> u64 {
        let estimate =
            u128::from(in_sample) * u128::from(self.stored) / u128::from(self.sampled.max(1));
        u64::try_from(estimate).unwrap_or(u64::MAX)
    }

    /// True when a word counted `in_sample` in the sample is too common to fit in `left`.
    fn too_common(&self, in_sample: u64, left: u64) -> bool {
        let slack = if self.from.is_some() {
            ESTIMATE_SLACK
        } else {
            1
        };
        self.estimate(in_sample) > left.saturating_mul(slack)
    }
}

impl Store {
    /// The message's most distinctive words with their weights and posting lists: words other
    /// items have too, rarest first, at most [`MAX_TERMS`], as long as their posting lists
    /// together stay within [`POSTING_BUDGET`].
    pub(super) fn distinctive_terms(&self, message: &str) -> Result<Vec<Term>, StoreError> {
        self.distinctive_terms_with(message, SAMPLE_ITEMS, POSTING_BUDGET)
    }

    /// [`Self::distinctive_terms`] with the sample's size and the budget given (tests make both
    /// small, so that small stores are sampled and meet the budget).
    pub(super) fn distinctive_terms_with(
        &self,
        message: &str,
        sample_items: u64,
        budget: u64,
    ) -> Result<Vec<Term>, StoreError> {
        let sample = self.sample(sample_items)?;
        let mut ranked = Vec::new();
        for word in words_of(message) {
            let in_sample = self.count_from(&word, sample.from, u64::MAX)?;
            let rare = if in_sample == 0 && sample.from.is_some() {
                self.count_from(&word, None, RARE_CAP)?
            } else {
                0
            };
            ranked.push(Ranked {
                in_sample,
                rare,
                word,
            });
        }
        ranked.sort();
        let mut left = budget;
        let mut allowance = budget.saturating_mul(READ_ALLOWANCE);
        let mut terms = Vec::new();
        for Ranked {
            in_sample, word, ..
        } in ranked
        {
            if terms.len() == MAX_TERMS || sample.too_common(in_sample, left) {
                break;
            }
            // One more than fits: a list that reaches it does not fit.
            let limit = left.saturating_add(1).min(allowance);
            if limit == 0 {
                break;
            }
            let keys = self.posting_keys(&word, limit)?;
            let docs = keys.len() as u64;
            allowance -= docs;
            if docs < limit && docs >= 2 {
                left -= docs;
                terms.push(Term {
                    weight: weight(sample.stored, docs),
                    word,
                    keys,
                });
            }
        }
        Ok(terms)
    }

    /// The sample: the newest `items` items, or the whole store when it holds no more.
    fn sample(&self, items: u64) -> Result<Sample, StoreError> {
        let stored = self.stored_count()?;
        if stored <= items || items == 0 {
            return Ok(Sample {
                from: None,
                stored,
                sampled: stored,
            });
        }
        let from: Option<i64> = self
            .conn()
            .prepare_cached("SELECT id FROM items_fts_docsize ORDER BY id DESC LIMIT 1 OFFSET ?1")
            .and_then(|mut s| {
                s.query_row([i64::try_from(items - 1).unwrap_or(i64::MAX)], |row| {
                    row.get(0)
                })
                .optional()
            })
            .map_err(|e| self.error(e))?;
        // Fewer rows than the count says (it cannot be, but the choice must not fail): all.
        Ok(match from {
            Some(from) => Sample {
                from: Some(from),
                stored,
                sampled: items,
            },
            None => Sample {
                from: None,
                stored,
                sampled: stored,
            },
        })
    }

    /// How many items from key `from` on (all: `None`) hold the word, counted up to `cap`
    /// (`u64::MAX`: all of them, by a plain count, a quarter cheaper than one with a limit).
    fn count_from(&self, word: &str, from: Option<i64>, cap: u64) -> Result<u64, StoreError> {
        let from = from.unwrap_or(i64::MIN);
        let count: i64 = if cap == u64::MAX {
            self.conn()
                .prepare_cached(
                    "SELECT count(*) FROM items_fts WHERE items_fts MATCH ?1 AND rowid >= ?2",
                )
                .and_then(|mut s| {
                    s.query_row(rusqlite::params![exact_word(word), from], |row| row.get(0))
                })
        } else {
            let cap = i64::try_from(cap).unwrap_or(i64::MAX);
            self.conn()
                .prepare_cached(
                    "SELECT count(*) FROM (SELECT rowid FROM items_fts \
                     WHERE items_fts MATCH ?1 AND rowid >= ?2 LIMIT ?3)",
                )
                .and_then(|mut s| {
                    s.query_row(rusqlite::params![exact_word(word), from, cap], |row| {
                        row.get(0)
                    })
                })
        }
        .map_err(|e| self.error(e))?;
        Ok(count.unsigned_abs())
    }

    /// The keys of the items whose message holds the word, ascending, at most `limit`.
    fn posting_keys(&self, word: &str, limit: u64) -> Result<Vec<i64>, StoreError> {
        let mut statement = self
            .conn()
            .prepare_cached(
                "SELECT rowid FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid LIMIT ?2",
            )
            .map_err(|e| self.error(e))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut rows = statement
            .query(rusqlite::params![exact_word(word), limit])
            .map_err(|e| self.error(e))?;
        let mut keys = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            keys.push(row.get(0).map_err(|e| self.error(e))?);
        }
        Ok(keys)
    }

    /// How many items are stored: the kept counts of every item (`pivot_counts`, dimension 0),
    /// a few hundred rows; counting the full-text index's rows of document sizes took 7 to 11
    /// ms at 1,000,000 items (and FTS5's own row count, in its averages record, is not lowered
    /// when a contentless row is deleted).
    pub(super) fn stored_count(&self) -> Result<u64, StoreError> {
        let count: i64 = self
            .conn()
            .prepare_cached("SELECT coalesce(sum(n), 0) FROM pivot_counts WHERE dim = 0")
            .and_then(|mut s| s.query_row([], |row| row.get(0)))
            .map_err(|e| self.error(e))?;
        Ok(count.unsigned_abs())
    }
}

/// The message's words as the index spells them, each once, in order.
pub(super) fn words_of(message: &str) -> BTreeSet<String> {
    index_words(message)
        .into_iter()
        .filter(|w| w.len() <= MAX_TOKEN_BYTES)
        .collect()
}

/// A word's weight: its inverse document frequency.
#[allow(clippy::cast_precision_loss)] // counts far below 2^52
pub(super) fn weight(stored: u64, docs: u64) -> f64 {
    (1.0 + stored.max(1) as f64 / docs as f64).ln()
}
