//! Scoring the items that share an item's distinctive words, without reading every word's
//! posting list: prefix filtering, as similarity joins do it.
//!
//! A score is the sum, in term order (rarest first), of the shares (`weight / total weight`) of
//! the terms an item holds. An item holding none of the rarest terms `0..p` scores at most the
//! shares of `p..` together; once those stay under [`CUT`], every item that can reach it holds
//! one of the first `p` terms. So candidates come from those (short) posting lists only, and
//! the common terms after them are checked for the candidates alone: by walking the term's
//! posting list against the sorted candidates (only between the first and last candidate), or,
//! when fewer candidates are left than the posting list is long, by tokenising the candidates'
//! messages exactly as the index did. A candidate that can no longer reach the cut is dropped
//! on the way. Scores are summed in the same order as a plain walk of every posting list would
//! sum them, so they are the same numbers to the last bit, and the count above the cut is exact.

use rusqlite::OptionalExtension;

use super::terms::Term;
use super::{Match, THRESHOLD};
use crate::store::search::index_words;
use crate::store::{Store, StoreError};

/// The score an item needs to count as similar: a hair under [`THRESHOLD`], so that float sums
/// of exact halves count.
pub(super) const CUT: f64 = THRESHOLD - 1e-9;
/// Room for float rounding when bounding what a score can still reach: bounds keep a hair more
/// candidates than they need to, never fewer.
const SLACK: f64 = 1e-7;
/// FTS5 indexes at most this many bytes of a token (`FTS5_MAX_TOKEN_SIZE`).
const MAX_TOKEN_BYTES: usize = 32_768;
/// Rough costs (nanoseconds, release build) of reading one posting from the index and of
/// reading and tokenising one candidate's message: which way checks a term is cheaper.
const POSTING_NS: u64 = 100;
const TOKENISE_NS: u64 = 3_000;

/// Candidates sorted by key, each with its score so far.
type Candidates = Vec<(i64, f64)>;

impl Store {
    /// Every item but `me` whose score over `terms` reaches [`CUT`], in key order.
    pub(super) fn scored(&self, me: i64, terms: &[Term]) -> Result<Vec<Match>, StoreError> {
        self.scored_costed(me, terms, TOKENISE_NS)
    }

    /// [`Self::scored`] with the cost of tokenising a message given (tests force each way).
    pub(super) fn scored_costed(
        &self,
        me: i64,
        terms: &[Term],
        tokenise_ns: u64,
    ) -> Result<Vec<Match>, StoreError> {
        let total: f64 = terms.iter().map(|t| t.weight).sum();
        let shares: Vec<f64> = terms.iter().map(|t| t.weight / total).collect();
        let rest = rest_of(&shares);
        let prefix = rest
            .iter()
            .position(|r| r + SLACK < CUT)
            .unwrap_or(terms.len());
        let mut candidates = Candidates::new();
        for (term, share) in terms.iter().zip(&shares).take(prefix) {
            candidates = self.merge_posting(&term.word, *share, candidates)?;
        }
        prune(&mut candidates, rest[prefix]);
        let mut can_tokenise = true;
        for at in prefix..terms.len() {
            if candidates.is_empty() {
                break;
            }
            let tokenising = (candidates.len() as u64).saturating_mul(tokenise_ns);
            if can_tokenise && tokenising <= terms[at].docs.saturating_mul(POSTING_NS) {
                if self.tokenise(&terms[at..], &shares[at..], &mut candidates)? {
                    break;
                }
                can_tokenise = false;
            }
            self.mark_posting(&terms[at].word, shares[at], &mut candidates)?;
            prune(&mut candidates, rest[at + 1]);
        }
        Ok(candidates
            .into_iter()
            .filter(|&(key, score)| key != me && score >= CUT)
            .map(|(key, score)| Match { key, score })
            .collect())
    }

    /// Adds the items holding `word` to the candidates, and `share` to the score of each.
    fn merge_posting(
        &self,
        word: &str,
        share: f64,
        candidates: Candidates,
    ) -> Result<Candidates, StoreError> {
        let mut merged = Candidates::with_capacity(candidates.len());
        let mut old = candidates.into_iter().peekable();
        self.each_posting(word, (i64::MIN, i64::MAX), |key| {
            while let Some(&earlier) = old.peek().filter(|(k, _)| *k < key) {
                merged.push(earlier);
                old.next();
            }
            // `0.0 + share` for a new one: the sum a plain walk would start with.
            let score = old.next_if(|(k, _)| *k == key).map_or(0.0, |(_, s)| s);
            merged.push((key, score + share));
        })?;
        merged.extend(old);
        Ok(merged)
    }

    /// Adds `share` to the score of each candidate holding `word`.
    fn mark_posting(
        &self,
        word: &str,
        share: f64,
        candidates: &mut Candidates,
    ) -> Result<(), StoreError> {
        let (Some(first), Some(last)) = (candidates.first(), candidates.last()) else {
            return Ok(());
        };
        let mut at = 0;
        self.each_posting(word, (first.0, last.0), |key| {
            while candidates.get(at).is_some_and(|(k, _)| *k < key) {
                at += 1;
            }
            if let Some((_, score)) = candidates.get_mut(at).filter(|(k, _)| *k == key) {
                *score += share;
                at += 1;
            }
        })
    }

    /// Checks the terms against each candidate's own message, tokenised as the index does,
    /// adding the shares of those it holds in term order. `false` (and nothing changed) when a
    /// candidate's message is not stored, which only an index out of step with its table has.
    fn tokenise(
        &self,
        terms: &[Term],
        shares: &[f64],
        candidates: &mut Candidates,
    ) -> Result<bool, StoreError> {
        let mut statement = self
            .conn()
            .prepare_cached("SELECT message FROM items WHERE k = ?1")
            .map_err(|e| self.error(e))?;
        let mut scores = Vec::with_capacity(candidates.len());
        for &(key, mut score) in candidates.iter() {
            let message: Option<String> = statement
                .query_row([key], |row| row.get(0))
                .optional()
                .map_err(|e| self.error(e))?;
            let Some(message) = message else {
                return Ok(false);
            };
            let words = index_words(&message);
            for (term, share) in terms.iter().zip(shares) {
                if words.iter().any(|w| indexed(w) == term.word.as_bytes()) {
                    score += share;
                }
            }
            scores.push(score);
        }
        for ((_, score), new) in candidates.iter_mut().zip(scores) {
            *score = new;
        }
        Ok(true)
    }

    /// Calls `each` with the key of every item between `from` and `to` (inclusive) whose
    /// message holds the (folded) word, in key order.
    fn each_posting(
        &self,
        word: &str,
        (from, to): (i64, i64),
        mut each: impl FnMut(i64),
    ) -> Result<(), StoreError> {
        let phrase = format!("\"{}\"", word.replace('"', "\"\""));
        let mut statement = self
            .conn()
            .prepare_cached(
                "SELECT rowid FROM items_fts WHERE items_fts MATCH ?1 \
                 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid",
            )
            .map_err(|e| self.error(e))?;
        let mut rows = statement
            .query(rusqlite::params![phrase, from, to])
            .map_err(|e| self.error(e))?;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            each(row.get(0).map_err(|e| self.error(e))?);
        }
        Ok(())
    }
}

/// `rest[i]`: the shares of terms `i..` together, the most they can add to a score.
fn rest_of(shares: &[f64]) -> Vec<f64> {
    let mut rest = vec![0.0; shares.len() + 1];
    for at in (0..shares.len()).rev() {
        rest[at] = rest[at + 1] + shares[at];
    }
    rest
}

/// Drops the candidates that cannot reach the cut with every share still to come (`rest`).
fn prune(candidates: &mut Candidates, rest: f64) {
    candidates.retain(|&(_, score)| score + rest + SLACK >= CUT);
}

/// The bytes of a token the index keeps.
fn indexed(word: &str) -> &[u8] {
    let bytes = word.as_bytes();
    &bytes[..bytes.len().min(MAX_TOKEN_BYTES)]
}
