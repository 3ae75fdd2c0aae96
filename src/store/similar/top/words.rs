//! A group's words as the clustering sees them: sorted distinct 64-bit hashes, their MinHash
//! band keys, a 256-bit signature, and a small hash table that counts another word list's
//! words among them.
//!
//! Each word is hashed once; the MinHash permutations are derived from that one hash
//! arithmetically. Hashes are 64 bits: two different words share one with a chance of about
//! 2⁻⁶⁴ per pair (under 10⁻⁷ over every pair of a million-word vocabulary), so in practice
//! the counts, the overlaps and the clusters are those of the words themselves.

use std::hash::{Hash, Hasher};

use super::JACCARD;

/// MinHash bands and rows per band: a pair at the threshold (0.6) shares a band with
/// probability 1 - (1 - 0.6²)^10 ≈ 0.99.
pub(super) const BANDS: usize = 10;
const ROWS: usize = 2;

/// The distinct words of a normalised text as sorted hashes, into `out`.
pub(super) fn word_hashes(normalised: &str, out: &mut Vec<u64>) {
    out.clear();
    out.extend(
        normalised
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(word_hash),
    );
    out.sort_unstable();
    out.dedup();
}

/// A word's hash, the same in every run (SipHash with fixed keys).
fn word_hash(word: &str) -> u64 {
    #[allow(deprecated)] // SipHasher: fixed keys, stable within a run and across runs
    let mut hasher = std::hash::SipHasher::new();
    word.hash(&mut hasher);
    hasher.finish()
}

/// The MinHash band keys of a non-empty word set: `BANDS` bands of `ROWS` minimums each.
pub(super) fn band_keys(hashes: &[u64]) -> [u64; BANDS] {
    let mut keys = [0u64; BANDS];
    for (band, slot) in keys.iter_mut().enumerate() {
        let mut key = 0u64;
        for row in 0..ROWS {
            let seed = ((band * ROWS + row) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let min = hashes.iter().map(|&h| mix(h ^ seed)).min().unwrap_or(0);
            key = mix(key ^ min);
        }
        *slot = key;
    }
    keys
}

/// A 64-bit finaliser (splitmix64): a different permutation per seed.
pub(super) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A word set's 256-bit signature: one bit set per word (chosen by the hash's top byte). A
/// word of theirs whose bit is not in our signature is certainly not ours, so the bits they
/// have and we lack count words we lack, at the least: nearly every leader too unlike a group
/// to matter is turned away by this count alone, without looking at its words.
pub(super) type Signature = [u64; 4];

pub(super) fn signature(words: &[u64]) -> Signature {
    let mut bits = [0u64; 4];
    for &word in words {
        let bit = word >> 56;
        bits[usize::from(bit >= 128) * 2 + usize::from(bit & 64 != 0)] |= 1 << (bit & 63);
    }
    bits
}

/// Word counts below this have their [`least_shared`] at [`JACCARD`] remembered.
const REMEMBERED: usize = 128;

/// One group's words in an open-addressed hash table (at most half full), so that a leader's
/// words are counted among them with one probe each, and the count can stop early; with what
/// a group needs of a leader, by both lengths.
#[derive(Default)]
pub(super) struct WordTable {
    /// The words, 0 for an empty slot (a word hashed to 0 is `zero`).
    slots: Vec<u64>,
    mask: u64,
    zero: bool,
    /// How many words.
    len: usize,
    signature: Signature,
    /// [`least_shared`] at [`JACCARD`] by both lengths (below [`REMEMBERED`]), kept from group
    /// to group: 0 not known yet, 1 none, else 2 more than the count.
    needs: Vec<u8>,
}

impl WordTable {
    pub(super) fn fill(&mut self, words: &[u64]) {
        self.signature = signature(words);
        self.len = words.len();
        let size = (words.len() * 2).next_power_of_two().max(8);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.mask = (size - 1) as u64;
        self.zero = false;
        for &word in words {
            if word == 0 {
                self.zero = true;
                continue;
            }
            let mut at = self.slot(word);
            while self.slots[at] != 0 {
                at = self.slot(at as u64 + 1);
            }
            self.slots[at] = word;
        }
    }

    fn contains(&self, word: u64) -> bool {
        if word == 0 {
            return self.zero;
        }
        let mut at = self.slot(word);
        loop {
            match self.slots[at] {
                found if found == word => return true,
                0 => return false,
                _ => at = self.slot(at as u64 + 1),
            }
        }
    }

    #[allow(clippy::cast_possible_truncation)] // masked to the table's size
    fn slot(&self, n: u64) -> usize {
        (n & self.mask) as usize
    }

    /// How many of the words of a leader of `len` words may be missing from ours for the
    /// overlap to reach [`JACCARD`]; `None`: it cannot reach it whatever they are. Remembered
    /// for short texts (a group meets many leaders, of few lengths).
    pub(super) fn allowed_missing(&mut self, len: usize) -> Option<usize> {
        let ours = self.len;
        if ours >= REMEMBERED || len >= REMEMBERED {
            return least_shared(ours, len, JACCARD).map(|need| len - need);
        }
        if self.needs.is_empty() {
            self.needs = vec![0; REMEMBERED * REMEMBERED];
        }
        let slot = &mut self.needs[ours * REMEMBERED + len];
        if *slot == 0 {
            *slot = least_shared(ours, len, JACCARD)
                .and_then(|need| u8::try_from(need + 2).ok())
                .unwrap_or(1);
        }
        (*slot >= 2).then(|| len - usize::from(*slot - 2))
    }

    /// [`allowed_missing`](Self::allowed_missing) for a `bar` above [`JACCARD`] (never more).
    pub(super) fn allowed_missing_at(&self, len: usize, bar: f64) -> Option<usize> {
        least_shared(self.len, len, bar).map(|need| len - need)
    }

    /// At least how many words of theirs (with this signature) are missing from ours.
    pub(super) fn surely_missing(&self, signature: &Signature) -> usize {
        signature
            .iter()
            .zip(&self.signature)
            .map(|(theirs, ours)| (theirs & !ours).count_ones() as usize)
            .sum()
    }

    /// The Jaccard index of our words and `theirs` (sorted, distinct), or `None` when more
    /// than `allowed` of theirs are missing from ours (the count stops there).
    pub(super) fn overlap(&self, theirs: &[u64], allowed: usize) -> Option<f64> {
        let (mut shared, mut missing) = (0, 0);
        for &word in theirs {
            if self.contains(word) {
                shared += 1;
            } else {
                missing += 1;
                if missing > allowed {
                    return None;
                }
            }
        }
        Some(ratio(shared, self.len + theirs.len() - shared))
    }
}

/// The fewest shared words two sets of `a` and `b` words need for an overlap (computed as
/// [`ratio`]`(shared, a + b - shared)`) of at least `bar`; `None`: not even all of the smaller
/// set would do. The overlap grows with the shared count and float division rounds
/// monotonically, so every count below this one gives an overlap below `bar`, exactly as
/// computed: leaving out the leaders that cannot reach it changes no answer.
pub(super) fn least_shared(a: usize, b: usize, bar: f64) -> Option<usize> {
    let (most, all) = (a.min(b), a + b);
    let reaches = |shared: usize| ratio(shared, all - shared) >= bar;
    if !reaches(most) {
        return None;
    }
    // shared / (all - shared) >= bar  <=>  shared >= bar * all / (1 + bar): a first guess,
    // then corrected to the exact float answer.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )] // a word count, 0 ≤ guess ≤ all
    let mut shared = ((bar * all as f64) / (1.0 + bar)).floor().max(0.0) as usize;
    shared = shared.min(most);
    while shared > 0 && reaches(shared - 1) {
        shared -= 1;
    }
    while !reaches(shared) {
        shared += 1;
    }
    Some(shared)
}

/// A word count's share of another, as the overlap is computed.
#[allow(clippy::cast_precision_loss)] // word counts
pub(super) fn ratio(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

#[cfg(test)]
#[path = "tests_words.rs"]
mod tests;
