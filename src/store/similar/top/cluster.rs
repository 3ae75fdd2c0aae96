//! Clustering groups of equal normalised text around leaders (the rule is in the parent
//! module's doc), cheap enough for 100,000 items in well under a second.
//!
//! Each group looks at the leaders filed under its MinHash band keys (the first
//! [`BUCKET_CAP`] of each bucket), as the rule says. Each bucket entry carries what turns most
//! of them away without touching the leader: its length (too short or too long to overlap
//! enough) and its word signature (too many words the group lacks). The few left have their
//! words counted in the group's [`WordTable`], stopping as soon as too many are missing.
//! Only leaders that could not win are left out, so the answer is the one comparing them all
//! would give.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::words::{BANDS, Signature, WordTable, band_keys, mix, signature, word_hashes};
use super::{Group, JACCARD, percent};

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
            leaders.best(&mut table, keys, g)
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

/// The leaders so far, and the MinHash buckets holding them.
#[derive(Default)]
struct Leaders {
    /// Where each leader's words are in `words`.
    spans: Vec<(usize, usize)>,
    /// All leaders' sorted word hashes, one after the other.
    words: Vec<u64>,
    /// The group that last counted each leader's words (plus one): a leader sharing several
    /// bands with a group is counted once.
    counted: Vec<usize>,
    /// Per band, the leaders under each band key, in leader order.
    buckets: [HashMap<u64, Vec<Entry>, BuildHasherDefault<KeyHasher>>; BANDS],
}

/// A leader in a bucket, with what a group needs to turn it away without looking further.
struct Entry {
    signature: Signature,
    len: usize,
    leader: usize,
}

impl Leaders {
    /// The leader the group's words (in `table`; group `g`) overlap most with, at least
    /// [`JACCARD`]; equal overlap: the earlier leader. Only leaders sharing a band key are
    /// candidates.
    fn best(&mut self, table: &mut WordTable, keys: &[u64; BANDS], g: usize) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (band, key) in keys.iter().enumerate() {
            let Some(bucket) = self.buckets[band].get(key) else {
                continue;
            };
            for entry in bucket {
                // Turned away when it cannot reach the bar; it would be in any other band.
                let Some(allowed) = table.allowed_missing(entry.len) else {
                    continue;
                };
                if table.surely_missing(&entry.signature) > allowed
                    || self.counted[entry.leader] == g + 1
                {
                    continue;
                }
                self.counted[entry.leader] = g + 1;
                // A leader overlapping less than the best so far cannot win (equal can: the
                // earlier leader wins a tie); a higher bar allows fewer missing words.
                let allowed = match best {
                    Some((o, _)) => match table.allowed_missing_at(entry.len, o) {
                        Some(allowed) => allowed,
                        None => continue,
                    },
                    None => allowed,
                };
                let (start, len) = self.spans[entry.leader];
                let Some(overlap) = table.overlap(&self.words[start..start + len], allowed) else {
                    continue;
                };
                let leader = entry.leader;
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
        self.counted.push(0);
        let signature = signature(words);
        for (band, key) in keys.into_iter().flatten().enumerate() {
            let bucket = self.buckets[band].entry(*key).or_default();
            if bucket.len() < BUCKET_CAP {
                bucket.push(Entry {
                    signature,
                    len: words.len(),
                    leader,
                });
            }
        }
    }
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
