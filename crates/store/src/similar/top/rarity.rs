//! How rare each word is in the store, as Top issues weighs it: the document frequency of each
//! word among the store's newest [`SAMPLE`] items (a word none of them has counts as the rarest).
//!
//! Weighing by the store rather than by the view: a view narrowed by a search ("closes itself")
//! holds its search words in every item, so weights taken over the view alone would give a
//! complaint's own words no weight and leave its greetings and sign-offs to decide. Weighing by
//! the store also makes the rule the same in every view: a family clusters alike in the whole
//! inbox and in any search for it. The newest items are a sample that costs a few tens of
//! milliseconds at any store size, and the weights are those of current vocabulary.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::words::{KeyHasher, word_hashes};
use super::{CONTAINED_JACCARD, CONTAINMENT, JACCARD, normalise_into, percent};
use crate::{Store, StoreError};

/// How many of the store's newest items the document frequencies are counted over.
pub(super) const SAMPLE: usize = 20_000;

/// Word weights: inverse document frequency over a sample of the store, in thousandths (whole
/// numbers, so that a sum of weights is the same in any order and the rule is exact).
#[derive(Debug, Clone, Default)]
pub struct Rarity {
    /// Word hash to the number of sampled items holding the word.
    counts: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    /// How many items were sampled.
    sampled: u32,
}

impl Rarity {
    /// Counts the words of these messages (each message's distinct words once).
    #[cfg(test)]
    pub(crate) fn of_messages<'a>(messages: impl IntoIterator<Item = &'a str>) -> Self {
        let mut rarity = Self::default();
        let (mut text, mut words) = (String::new(), Vec::new());
        for message in messages {
            rarity.count(message, &mut text, &mut words);
        }
        rarity
    }

    fn count(&mut self, message: &str, text: &mut String, words: &mut Vec<u64>) {
        normalise_into(message, text);
        word_hashes(text, words);
        for &word in words.iter() {
            *self.counts.entry(word).or_default() += 1;
        }
        self.sampled = self.sampled.saturating_add(1);
    }

    /// A word's weight (by its hash): `1000 · ln(1 + (n + 1) / (df + 1))` over `n` sampled
    /// items, `df` of them holding it. At least 693 (a word every item has), never zero, so a
    /// message of common words still has a weight.
    #[must_use]
    pub fn weight(&self, word: u64) -> u32 {
        let df = self.counts.get(&word).copied().unwrap_or(0);
        let idf = (1.0 + (f64::from(self.sampled) + 1.0) / (f64::from(df) + 1.0)).ln();
        // ln(1 + x) for x ≤ 2³² + 1 is below 23: the product fits a u32 with room to spare.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let weight = (idf * 1000.0).round() as u32;
        weight
    }

    /// A normalised text's distinct words with their weights, heaviest first (ties: by hash),
    /// into `out`; `hashes` is scratch space.
    pub(super) fn weighed(&self, normalised: &str, hashes: &mut Vec<u64>, out: &mut Vec<Word>) {
        word_hashes(normalised, hashes);
        out.clear();
        out.extend(hashes.iter().map(|&hash| Word {
            hash,
            weight: self.weight(hash),
        }));
        out.sort_unstable_by(|a, b| b.weight.cmp(&a.weight).then(a.hash.cmp(&b.hash)));
    }

    /// The weighted overlap of two messages (weighted Jaccard index of their words: the weight
    /// they share over the weight of all their words); 0 when either has no words.
    #[must_use]
    pub fn overlap(&self, a: &str, b: &str) -> f64 {
        let (a, b) = (self.weighed_message(a), self.weighed_message(b));
        overlap(shared_weight(&a, &b), total(&a), total(&b))
    }

    fn weighed_message(&self, message: &str) -> Vec<Word> {
        let (mut text, mut hashes, mut words) = (String::new(), Vec::new(), Vec::new());
        normalise_into(message, &mut text);
        self.weighed(&text, &mut hashes, &mut words);
        words
    }

    /// The rule, item by item: two messages are near-duplicates when the normalised texts of
    /// their leads ([`super::lead`]) are equal and not empty, or (both without a letter or
    /// digit) their raw texts are equal, or their leads' words are near ([`near`]).
    #[must_use]
    #[cfg(test)]
    pub(crate) fn near_duplicates(&self, a: &str, b: &str) -> bool {
        let (a, b) = (super::lead(a), super::lead(b));
        let (na, nb) = (super::normalise(a), super::normalise(b));
        if na.is_empty() || nb.is_empty() {
            return na.is_empty() && nb.is_empty() && a == b;
        }
        let (a, b) = (self.weighed_message(a), self.weighed_message(b));
        na == nb || near(shared_weight(&a, &b), total(&a), total(&b))
    }
}

/// The weight of the words `a` shares with `b`.
fn shared_weight(a: &[Word], b: &[Word]) -> u64 {
    a.iter()
        .filter(|w| b.iter().any(|x| x.hash == w.hash))
        .map(|w| u64::from(w.weight))
        .sum()
}

/// A word of a message: its hash and its weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Word {
    pub hash: u64,
    pub weight: u32,
}

/// The sum of the words' weights.
pub(super) fn total(words: &[Word]) -> u64 {
    words.iter().map(|w| u64::from(w.weight)).sum()
}

/// Whether two word sets of total weights `a` and `b`, sharing `shared`, are near: they
/// overlap (weighted Jaccard index) by at least [`JACCARD`]; or the lighter one's weight is
/// nearly all shared ([`CONTAINMENT`]: the other says what it says, and more) and they overlap
/// by at least [`CONTAINED_JACCARD`] (the more is at most about as much again).
#[allow(clippy::cast_precision_loss)] // sums of weights, far below 2^52
pub(super) fn near(shared: u64, a: u64, b: u64) -> bool {
    let found = overlap(shared, a, b);
    found >= JACCARD
        || (found >= CONTAINED_JACCARD && shared as f64 >= CONTAINMENT * a.min(b) as f64)
}

/// The weighted Jaccard index of two word sets of total weights `a` and `b` sharing `shared`:
/// whole numbers divided once, so both the clustering and [`Rarity::overlap`] get the same
/// float from the same words, whatever order they summed them in.
#[allow(clippy::cast_precision_loss)] // sums of weights, far below 2^52
pub(super) fn overlap(shared: u64, a: u64, b: u64) -> f64 {
    let union = a + b - shared;
    if union == 0 || a == 0 || b == 0 {
        return 0.0;
    }
    shared as f64 / union as f64
}

impl Store {
    /// The word weights Top issues uses: document frequencies over the store's newest
    /// [`SAMPLE`] items.
    #[cfg(test)]
    pub(crate) fn word_rarity(&self) -> Result<Rarity, StoreError> {
        self.word_rarity_with(&mut |_| {})
    }

    /// [`Self::word_rarity`], telling `progress` the share read, in percent.
    pub(super) fn word_rarity_with(
        &self,
        progress: &mut dyn FnMut(u8),
    ) -> Result<Rarity, StoreError> {
        let mut statement = self
            .conn()
            .prepare_cached("SELECT message FROM items ORDER BY k LIMIT ?1")
            .map_err(|e| self.error(e))?;
        let limit = i64::try_from(SAMPLE).unwrap_or(i64::MAX);
        let mut rows = statement.query([limit]).map_err(|e| self.error(e))?;
        let mut rarity = Rarity::default();
        let (mut text, mut words) = (String::new(), Vec::new());
        let mut read = 0usize;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            let message = row.get_ref(0).map_err(|e| self.error(e))?;
            // A message that is not text (never stored so) has no words to count.
            rarity.count(message.as_str().unwrap_or(""), &mut text, &mut words);
            read += 1;
            if read.is_multiple_of(4096) {
                progress(percent(read, SAMPLE, 100));
            }
        }
        Ok(rarity)
    }
}
