//! Scoring the items that share an item's distinctive words: prefix filtering, as similarity
//! joins do it.
//!
//! A score is the sum, in term order (rarest first), of the shares (`weight / total weight`) of
//! the terms an item holds. An item holding none of the rarest terms `0..p` scores at most the
//! shares of `p..` together; once those stay under [`CUT`], every item that can reach it holds
//! one of the first `p` terms. So candidates come from those posting lists only, the common
//! terms after them are looked up for the candidates alone (a binary search in the sorted
//! list), and a candidate that can no longer reach the cut is dropped on the way. Scores are
//! summed in the same order as a plain walk of every posting list would sum them, so they are
//! the same numbers to the last bit, and the count above the cut is exact.

use super::terms::Term;
use super::{Match, THRESHOLD};

/// The score an item needs to count as similar: a hair under [`THRESHOLD`], so that float sums
/// of exact halves count.
pub(super) const CUT: f64 = THRESHOLD - 1e-9;
/// Room for float rounding when bounding what a score can still reach: bounds keep a hair more
/// candidates than they need to, never fewer.
const SLACK: f64 = 1e-7;

/// Candidates sorted by key, each with its score so far.
type Candidates = Vec<(i64, f64)>;

/// Every item but `me` whose score over `terms` reaches [`CUT`], in key order.
pub(super) fn scored(me: i64, terms: &[Term]) -> Vec<Match> {
    let total: f64 = terms.iter().map(|t| t.weight).sum();
    let shares: Vec<f64> = terms.iter().map(|t| t.weight / total).collect();
    let rest = rest_of(&shares);
    let prefix = rest
        .iter()
        .position(|r| r + SLACK < CUT)
        .unwrap_or(terms.len());
    let mut candidates = Candidates::new();
    for (term, share) in terms.iter().zip(&shares).take(prefix) {
        candidates = merge(&term.keys, *share, candidates);
    }
    prune(&mut candidates, rest[prefix]);
    for at in prefix..terms.len() {
        if candidates.is_empty() {
            break;
        }
        mark(&terms[at].keys, shares[at], &mut candidates);
        prune(&mut candidates, rest[at + 1]);
    }
    candidates
        .into_iter()
        .filter(|&(key, score)| key != me && score >= CUT)
        .map(|(key, score)| Match { key, score })
        .collect()
}

/// Adds the items of a posting list to the candidates, and `share` to the score of each.
fn merge(keys: &[i64], share: f64, candidates: Candidates) -> Candidates {
    let mut merged = Candidates::with_capacity(candidates.len() + keys.len());
    let mut old = candidates.into_iter().peekable();
    for &key in keys {
        while let Some(&earlier) = old.peek().filter(|(k, _)| *k < key) {
            merged.push(earlier);
            old.next();
        }
        // `0.0 + share` for a new one: the sum a plain walk would start with.
        let score = old.next_if(|(k, _)| *k == key).map_or(0.0, |(_, s)| s);
        merged.push((key, score + share));
    }
    merged.extend(old);
    merged
}

/// Adds `share` to the score of each candidate in the posting list (both sorted: each search
/// starts where the last one ended).
fn mark(keys: &[i64], share: f64, candidates: &mut Candidates) {
    let mut at = 0;
    for (key, score) in candidates.iter_mut() {
        at += keys[at..].partition_point(|k| k < key);
        if keys.get(at) == Some(key) {
            *score += share;
        }
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
