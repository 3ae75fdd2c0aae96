//! Clustering groups of equal normalised text around leaders (the rule is in the parent
//! module's doc), made cheap enough for 100,000 items in well under a second.
//!
//! A group's words are kept as sorted distinct 64-bit hashes, so the Jaccard index is a merge of
//! two short integer lists instead of string-set lookups; each word is hashed once, and the
//! MinHash permutations are derived from that one hash arithmetically. Hashes are 64 bits: two
//! different words share one with a chance of about 2⁻⁶⁴ per pair (under 10⁻⁷ over every pair of
//! a million-word vocabulary), so in practice the counts, the overlaps and the clusters are those
//! of the words themselves.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::{Group, JACCARD, percent};

/// MinHash bands and rows per band: a pair at the threshold (0.6) shares a band with
/// probability 1 - (1 - 0.6²)^10 ≈ 0.99.
const BANDS: usize = 10;
const ROWS: usize = 2;
/// At most this many leaders of one bucket are compared (a bound on pathological input).
/// Buckets only grow, so a bucket keeps only its first `BUCKET_CAP` leaders.
const BUCKET_CAP: usize = 16;

/// Groups (largest first) joined into clusters: lists of group indexes, leader first, largest
/// cluster first (ties: the one whose leader came first). Progress goes from 60% to 99%.
pub(super) fn cluster(groups: &[Group], progress: &mut dyn FnMut(u8)) -> Vec<Vec<usize>> {
    let mut leaders = Leaders::default();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let mut words: Vec<u64> = Vec::new();
    let mut table = WordTable::default();
    for (g, group) in groups.iter().enumerate() {
        word_hashes(&group.text, &mut words);
        let keys = (!words.is_empty()).then(|| band_keys(&words));
        let best = keys.as_ref().and_then(|keys| {
            table.fill(&words);
            leaders.best(&words, &table, keys, g)
        });
        if let Some(leader) = best {
            members[leader].push(g);
            sizes[leader] += group.items.len();
        } else {
            leaders.add(&words, keys.as_ref());
            members.push(vec![g]);
            sizes.push(group.items.len());
        }
        if g.is_multiple_of(2048) {
            progress(60 + percent(g, groups.len(), 39));
        }
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    order
        .into_iter()
        .map(|i| std::mem::take(&mut members[i]))
        .collect()
}

/// The leaders so far: their word hashes (one flat list) and the MinHash buckets holding them.
#[derive(Default)]
struct Leaders {
    /// All leaders' sorted word hashes, one after the other.
    words: Vec<u64>,
    /// Where each leader's words are in `words`.
    spans: Vec<(usize, usize)>,
    /// Per band, the leaders (at most [`BUCKET_CAP`]) under each band key, in leader order.
    buckets: [HashMap<u64, Vec<usize>, BuildHasherDefault<KeyHasher>>; BANDS],
    /// The group that last compared each leader (plus one): a leader sharing several bands
    /// with a group is compared once.
    compared: Vec<usize>,
}

impl Leaders {
    /// The leader the words (of group `g`, also in `table`) overlap most with, at least
    /// [`JACCARD`]; equal overlap: the earlier leader. Only leaders sharing a band key are
    /// candidates.
    fn best(
        &mut self,
        words: &[u64],
        table: &WordTable,
        keys: &[u64; BANDS],
        g: usize,
    ) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (band, key) in keys.iter().enumerate() {
            let Some(bucket) = self.buckets[band].get(key) else {
                continue;
            };
            for &leader in bucket {
                if self.compared[leader] == g + 1 {
                    continue;
                }
                self.compared[leader] = g + 1;
                let (start, len) = self.spans[leader];
                let theirs = &self.words[start..start + len];
                // A leader overlapping less than the best so far cannot win (equal can: the
                // earlier leader wins a tie).
                let bar = best.map_or(JACCARD, |(o, _)| o);
                let Some(overlap) = table.overlap(words.len(), theirs, bar) else {
                    continue;
                };
                let better =
                    best.is_none_or(|(o, l)| overlap.total_cmp(&o).then(l.cmp(&leader)).is_gt());
                if overlap >= JACCARD && better {
                    best = Some((overlap, leader));
                }
            }
        }
        best.map(|(_, leader)| leader)
    }

    /// A new leader with these words, filed under its band keys (none: it has no words).
    fn add(&mut self, words: &[u64], keys: Option<&[u64; BANDS]>) {
        let leader = self.spans.len();
        self.spans.push((self.words.len(), words.len()));
        self.words.extend_from_slice(words);
        self.compared.push(0);
        for (band, key) in keys.into_iter().flatten().enumerate() {
            let bucket = self.buckets[band].entry(*key).or_default();
            if bucket.len() < BUCKET_CAP {
                bucket.push(leader);
            }
        }
    }
}

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

/// One group's words in an open-addressed hash table (at most half full), so that a leader's
/// words are counted among them with one probe each, and the count can stop early.
#[derive(Default)]
struct WordTable {
    /// The words, 0 for an empty slot (a word hashed to 0 is `zero`).
    slots: Vec<u64>,
    mask: u64,
    zero: bool,
}

impl WordTable {
    fn fill(&mut self, words: &[u64]) {
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

    /// The Jaccard index of the table's `len` words and `theirs` (sorted, distinct, not
    /// empty), or `None` when it is below `bar`: the count stops as soon as too many of
    /// `theirs` are missing for the overlap to reach it.
    fn overlap(&self, len: usize, theirs: &[u64], bar: f64) -> Option<f64> {
        let need = least_shared(len, theirs.len(), bar)?;
        let allowed = theirs.len() - need;
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
        Some(ratio(shared, len + theirs.len() - shared))
    }
}

/// The fewest shared words two sets of `a` and `b` words need for an overlap (computed as
/// [`jaccard`] computes it) of at least `bar`; `None`: not even all of the smaller set would do.
/// The overlap grows with the shared count and float division rounds monotonically, so every
/// count below this one gives an overlap below `bar`, exactly as computed.
fn least_shared(a: usize, b: usize, bar: f64) -> Option<usize> {
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

/// The Jaccard index of two sorted distinct lists (0 when either is empty): the definition the
/// table's count agrees with.
#[cfg(test)]
pub(super) fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    ratio(shared, a.len() + b.len() - shared)
}

#[allow(clippy::cast_precision_loss)] // word counts
fn ratio(part: usize, whole: usize) -> f64 {
    part as f64 / whole as f64
}

/// The MinHash band keys of a non-empty word set: `BANDS` bands of `ROWS` minimums each.
fn band_keys(hashes: &[u64]) -> [u64; BANDS] {
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

/// A word's hash, the same in every run (SipHash with fixed keys).
fn word_hash(word: &str) -> u64 {
    #[allow(deprecated)] // SipHasher: fixed keys, stable within a run and across runs
    let mut hasher = std::hash::SipHasher::new();
    word.hash(&mut hasher);
    hasher.finish()
}

/// A 64-bit finaliser (splitmix64): a different permutation per seed.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The buckets' hasher: band keys are already mixed 64-bit values, so they serve as their own
/// hash (SipHash over them again would only cost time).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[cfg(test)]
#[path = "tests_cluster.rs"]
mod tests;
