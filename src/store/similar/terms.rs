//! The distinctive words of a message, their weights and their posting lists.
//!
//! The choice needs each word's document count, and the index has no cheap one: FTS5 (and its
//! `fts5vocab` tables) counts a word's documents by walking its whole posting list, so counting
//! every word of a message walks "the" and "thanks" too, most of a million entries each. But
//! only the kept words need an exact count. So the posting lists are counted in rounds, each word
//! up to a cap (resuming after the last key counted): the words that ended under the cap are
//! exact and rarer than all the others; when they settle the choice (the term limit or the
//! budget is reached, or the budget left is under the cap, so no unfinished word can fit), the
//! rest is never read. The cap grows by half (at most to the budget left) until then; then the
//! kept words' lists are read for scoring.

use std::collections::BTreeSet;

use super::{MAX_TERMS, POSTING_BUDGET};
use crate::store::search::index_words;
use crate::store::{Store, StoreError};

/// FTS5 indexes at most this many bytes of a token (`FTS5_MAX_TOKEN_SIZE`): a longer word is
/// never in the vocabulary as written.
const MAX_TOKEN_BYTES: usize = 32_768;
/// The first round's cap: rare words are read whole in one query.
const FIRST_CAP: u64 = 4_096;

/// One distinctive word: how the index spells it, its weight (inverse document frequency) and
/// the keys of the items that hold it, ascending.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Term {
    pub word: String,
    pub weight: f64,
    pub keys: Vec<i64>,
}

/// A word's posting list as far as it was counted.
struct Posting {
    word: String,
    /// Keys counted so far, and the last of them.
    docs: u64,
    last: Option<i64>,
    /// The whole list is counted (`docs` is the word's document count).
    complete: bool,
}

impl Store {
    /// The message's most distinctive words with their weights and posting lists: words other
    /// items have too, rarest first (equal counts in word order), at most [`MAX_TERMS`], as
    /// long as their posting lists together stay within [`POSTING_BUDGET`].
    pub(super) fn distinctive_terms(&self, message: &str) -> Result<Vec<Term>, StoreError> {
        self.distinctive_terms_with(message, FIRST_CAP, POSTING_BUDGET)
    }

    /// [`Self::distinctive_terms`] with the first cap and the budget given (tests make both
    /// small, so that small stores take several rounds and meet the budget).
    pub(super) fn distinctive_terms_with(
        &self,
        message: &str,
        first_cap: u64,
        budget: u64,
    ) -> Result<Vec<Term>, StoreError> {
        let words: BTreeSet<String> = index_words(message)
            .into_iter()
            .filter(|w| w.len() <= MAX_TOKEN_BYTES)
            .collect();
        let mut postings: Vec<Posting> = words
            .into_iter()
            .map(|word| Posting {
                word,
                docs: 0,
                last: None,
                complete: false,
            })
            .collect();
        let mut cap = first_cap.max(1);
        let kept = loop {
            for posting in postings.iter_mut().filter(|p| !p.complete) {
                self.count_posting(posting, cap)?;
            }
            match choose(&postings, cap, budget) {
                Ok(kept) => break kept,
                Err(next) => cap = next,
            }
        };
        let stored = self.stored_count()?.max(1);
        let mut terms = Vec::with_capacity(kept.len());
        for at in kept {
            let posting = &postings[at];
            #[allow(clippy::cast_precision_loss)] // counts far below 2^52
            let weight = (1.0 + stored as f64 / posting.docs as f64).ln();
            terms.push(Term {
                word: posting.word.clone(),
                weight,
                keys: self.posting_keys(&posting.word)?,
            });
        }
        Ok(terms)
    }

    /// Counts the word's posting list on, up to `cap` keys in all (in SQLite: a row per key
    /// handed to Rust would cost twice as much).
    fn count_posting(&self, posting: &mut Posting, cap: u64) -> Result<(), StoreError> {
        let wanted = cap.saturating_sub(posting.docs);
        let from = match posting.last {
            None => i64::MIN,
            Some(i64::MAX) => {
                posting.complete = true;
                return Ok(());
            }
            Some(last) => last + 1,
        };
        let mut statement = self
            .conn()
            .prepare_cached(
                "SELECT count(*), max(rowid) FROM (SELECT rowid FROM items_fts \
                 WHERE items_fts MATCH ?1 AND rowid >= ?2 ORDER BY rowid LIMIT ?3)",
            )
            .map_err(|e| self.error(e))?;
        let limit = i64::try_from(wanted).unwrap_or(i64::MAX);
        let (read, last): (i64, Option<i64>) = statement
            .query_row(
                rusqlite::params![phrase(&posting.word), from, limit],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(|e| self.error(e))?;
        let read = read.unsigned_abs();
        posting.docs += read;
        posting.last = last.or(posting.last);
        posting.complete = read < wanted;
        Ok(())
    }

    /// The keys of the items whose message holds the word, ascending.
    fn posting_keys(&self, word: &str) -> Result<Vec<i64>, StoreError> {
        let mut statement = self
            .conn()
            .prepare_cached("SELECT rowid FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid")
            .map_err(|e| self.error(e))?;
        let mut rows = statement.query([phrase(word)]).map_err(|e| self.error(e))?;
        let mut keys = Vec::new();
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            keys.push(row.get(0).map_err(|e| self.error(e))?);
        }
        Ok(keys)
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

/// The kept words (indexes, rarest first) when the lists read so far settle the choice; else
/// the next round's cap. Every unfinished list holds at least `cap` keys and every finished
/// one fewer, so the finished words come first in the order of the choice.
fn choose(postings: &[Posting], cap: u64, mut budget: u64) -> Result<Vec<usize>, u64> {
    let docs = |at: usize| postings[at].docs;
    let mut exact: Vec<usize> = (0..postings.len())
        .filter(|&at| postings[at].complete && docs(at) >= 2)
        .collect();
    exact.sort_by(|&a, &b| {
        docs(a)
            .cmp(&docs(b))
            .then_with(|| postings[a].word.cmp(&postings[b].word))
    });
    let mut kept = Vec::new();
    for at in exact {
        if kept.len() == MAX_TERMS {
            return Ok(kept);
        }
        let Some(left) = budget.checked_sub(docs(at)) else {
            return Ok(kept);
        };
        budget = left;
        kept.push(at);
    }
    // No unfinished word can be next: too many kept, none left, or none would fit the budget.
    if kept.len() == MAX_TERMS || postings.iter().all(|p| p.complete) || cap > budget {
        return Ok(kept);
    }
    Err((cap.saturating_mul(3) / 2).max(cap + 1).min(budget + 1))
}

/// The word as an FTS5 phrase (quotes doubled): matched as written, never as syntax.
fn phrase(word: &str) -> String {
    format!("\"{}\"", word.replace('"', "\"\""))
}
