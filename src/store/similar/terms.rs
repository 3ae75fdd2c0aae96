//! The distinctive words of a message and their weights, read from the full-text index's
//! vocabulary: an `fts5vocab` table over `items_fts`, created in `temp` the first time a
//! connection asks (it has no storage of its own, so no migration), and the index's row count.

use std::collections::HashSet;

use rusqlite::{CachedStatement, OptionalExtension};

use super::{MAX_TERMS, POSTING_BUDGET};
use crate::store::search::index_words;
use crate::store::{Store, StoreError};

/// One distinctive word: how the index spells it, its weight (inverse document frequency) and
/// how many items hold it (the length of its posting list).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Term {
    pub word: String,
    pub weight: f64,
    pub docs: u64,
}

/// The lookup of a word's document count.
const VOCAB_DOCS: &str = "SELECT doc FROM temp.items_vocab WHERE term = ?1";

impl Store {
    /// The message's most distinctive words with their weights: words other items have too,
    /// rarest first, within [`MAX_TERMS`] and [`POSTING_BUDGET`].
    pub(super) fn distinctive_terms(&self, message: &str) -> Result<Vec<Term>, StoreError> {
        let words: HashSet<String> = index_words(message).into_iter().collect();
        let mut found: Vec<(String, u64)> = Vec::new();
        {
            let mut statement = self.vocab_statement()?;
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
            terms.push(Term { word, weight, docs });
        }
        Ok(terms)
    }

    /// The vocabulary lookup, creating the vocabulary table on the connection's first use (a
    /// prepared statement in the cache means the table is there: `temp` is the connection's own).
    fn vocab_statement(&self) -> Result<CachedStatement<'_>, StoreError> {
        if let Ok(statement) = self.conn().prepare_cached(VOCAB_DOCS) {
            return Ok(statement);
        }
        self.conn()
            .execute_batch(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.items_vocab \
                 USING fts5vocab(main, 'items_fts', 'row');",
            )
            .map_err(|e| self.error(e))?;
        self.conn()
            .prepare_cached(VOCAB_DOCS)
            .map_err(|e| self.error(e))
    }

    /// How many items the full-text index holds (`max(rowid)` is not a count: keys are times):
    /// its rows of document sizes, the smallest table with one row per item (FTS5's own row
    /// count, in its averages record, is not lowered when a contentless row is deleted).
    pub(super) fn stored_count(&self) -> Result<u64, StoreError> {
        let count: i64 = self
            .conn()
            .prepare_cached("SELECT count(*) FROM items_fts_docsize")
            .and_then(|mut s| s.query_row([], |row| row.get(0)))
            .map_err(|e| self.error(e))?;
        Ok(count.unsigned_abs())
    }
}
