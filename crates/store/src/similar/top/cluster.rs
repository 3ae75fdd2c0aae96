//! Clustering groups of equal normalised text around leaders (the rule is in the parent
//! module's doc), cheap enough for 100,000 items in well under a second.
//!
//! Candidates come from prefix filtering (as in all-pairs similarity joins): words are ordered
//! heaviest first (ties by hash), one order for every text. Near-duplicates share at least
//! [`LIGHT_SHARE`] of the lighter one's weight and [`HEAVY_SHARE`] of the heavier one's, so the
//! first word they share lies, in each, before the point where its words left weigh less than
//! its share: its prefix for that role. Each leader is filed under the words of both its
//! prefixes (the lighter one's is short); a group looks under its heavy-role prefix's words
//! for lighter leaders, and under its light-role prefix's words for heavier ones. The prefixes
//! are the rare words, whose lists are short. A leader whose total weight is too far from the
//! group's cannot reach the bar and is turned away first; the others have their words looked
//! up in the group's [`WordTable`], stopping once too much is missing. Only leaders that could
//! not win are left out, so the answer is the one comparing them all would give, unless a
//! word's list is full ([`LIST_CAP`], a bound on pathological input: many leaders whose
//! rarest words are common ones).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::rarity::{Rarity, Word, near, overlap, total};
use super::words::{KeyHasher, WordTable};
use super::{CONTAINED_JACCARD, CONTAINMENT, Group, JACCARD, percent};

/// The least share of the lighter near-duplicate's weight that the two share: a Jaccard index
/// of at least [`JACCARD`] needs that share of either, a contained one [`CONTAINMENT`].
pub(super) const LIGHT_SHARE: f64 = if JACCARD < CONTAINMENT {
    JACCARD
} else {
    CONTAINMENT
};
/// The least share of the heavier near-duplicate's weight that the two share (the index is at
/// least [`CONTAINED_JACCARD`], below [`JACCARD`]).
pub(super) const HEAVY_SHARE: f64 = CONTAINED_JACCARD;

/// At most this many leaders are filed under one word. Lists only grow, so a word keeps its
/// first `LIST_CAP` leaders (the largest clusters' leaders: groups come largest first).
const LIST_CAP: usize = 64;
/// Bounds are widened by this share so that float rounding can never turn away a leader the
/// exact division would accept.
const SLACK: f64 = 1e-9;

/// Groups (largest first) joined into clusters: lists of group indexes, leader first, largest
/// cluster first (ties: the one whose leader came first). Progress goes from 60% to 99%.
pub(super) fn cluster(
    groups: &[Group],
    rarity: &Rarity,
    progress: &mut dyn FnMut(u8),
) -> Vec<Vec<usize>> {
    let mut leaders = Leaders::default();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let (mut hashes, mut words) = (Vec::new(), Vec::new());
    let mut table = WordTable::default();
    for (g, group) in groups.iter().enumerate() {
        rarity.weighed(&group.text, &mut hashes, &mut words);
        let weight = total(&words);
        let best = (!words.is_empty()).then(|| {
            table.fill(&words);
            leaders.best(&table, &words, weight, g)
        });
        if let Some(leader) = best.flatten() {
            members[leader].push(g);
            sizes[leader] += group.items.len();
        } else {
            leaders.add(&words, weight);
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

/// How many of the words (heaviest first, weighing `weight` in all) form the prefix for a
/// role: the words after it weigh less than `share` of the whole, so any text sharing at least
/// that share of this one's weight shares one of the prefix's words.
#[allow(clippy::cast_precision_loss)] // sums of weights, far below 2^52
pub(super) fn prefix(words: &[Word], weight: u64, share: f64) -> usize {
    let bound = share * weight as f64 * (1.0 - SLACK);
    let mut rest = weight;
    for (at, word) in words.iter().enumerate() {
        if (rest as f64) < bound {
            return at;
        }
        rest -= u64::from(word.weight);
    }
    words.len()
}

/// The leaders so far, and the lists of them filed under their prefixes' words.
#[derive(Default)]
struct Leaders {
    /// Where each leader's words are in `words`, and their total weight.
    spans: Vec<(usize, usize, u64)>,
    /// All leaders' words, one after the other.
    words: Vec<Word>,
    /// The group that last looked at each leader (plus one): a leader sharing several prefix
    /// words with a group is compared once.
    counted: Vec<usize>,
    /// Under the words of their light-role and heavy-role prefixes.
    light: Lists,
    heavy: Lists,
}

type Lists = HashMap<u64, Vec<u32>, BuildHasherDefault<KeyHasher>>;

impl Leaders {
    /// Of the leaders the group's words (in `table`; `words`, weighing `weight`; group `g`) are
    /// near ([`near`]), the one they overlap most with; equal overlap: the earlier leader.
    fn best(&mut self, table: &WordTable, words: &[Word], weight: u64, g: usize) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        // Lighter leaders (or as heavy) through their light-role prefixes, then heavier ones.
        let lighter = &words[..prefix(words, weight, HEAVY_SHARE)];
        let heavier = &words[..prefix(words, weight, LIGHT_SHARE)];
        for (prefix, light) in [(lighter, true), (heavier, false)] {
            for word in prefix {
                let lists = if light { &self.light } else { &self.heavy };
                let Some(list) = lists.get(&word.hash) else {
                    continue;
                };
                for &leader in list {
                    let leader = leader as usize;
                    if self.counted[leader] == g + 1 || (self.spans[leader].2 <= weight) != light {
                        continue;
                    }
                    self.counted[leader] = g + 1;
                    self.compare(table, weight, leader, &mut best);
                }
            }
        }
        best.map(|(_, leader)| leader)
    }

    /// The group (its words in `table`, weighing `weight`) against one leader: `best` becomes
    /// that leader if they are near and it overlaps more (equal: it came first).
    fn compare(
        &self,
        table: &WordTable,
        weight: u64,
        leader: usize,
        best: &mut Option<(f64, usize)>,
    ) {
        let (start, len, theirs) = self.spans[leader];
        let bar = best.map_or(CONTAINED_JACCARD, |(o, _)| o);
        let Some(allowed) = allowed_missing(weight, theirs, bar) else {
            return;
        };
        let Some(shared) = table.shared(&self.words[start..start + len], allowed) else {
            return;
        };
        let found = overlap(shared, weight, theirs);
        let better = best.is_none_or(|(o, l)| found.total_cmp(&o).then(l.cmp(&leader)).is_gt());
        if better && near(shared, weight, theirs) {
            *best = Some((found, leader));
        }
    }

    /// A new leader with these words (heaviest first), filed under its prefixes' words (none:
    /// it has no words, and leads a cluster of its own).
    fn add(&mut self, words: &[Word], weight: u64) {
        let leader = u32::try_from(self.spans.len()).unwrap_or(u32::MAX);
        self.spans.push((self.words.len(), words.len(), weight));
        self.words.extend_from_slice(words);
        self.counted.push(0);
        for (lists, share) in [
            (&mut self.light, LIGHT_SHARE),
            (&mut self.heavy, HEAVY_SHARE),
        ] {
            for word in &words[..prefix(words, weight, share)] {
                let list = lists.entry(word.hash).or_default();
                if list.len() < LIST_CAP {
                    list.push(leader);
                }
            }
        }
    }
}

/// How much of a leader's weight (`theirs`) may be missing from a group's (`ours`) for the
/// overlap to reach `bar`; `None`: the weights are too far apart for it whatever the words.
/// Overlap `s / (ours + theirs - s) ≥ bar` needs `s ≥ bar · (ours + theirs) / (1 + bar)`, and
/// `s` is at most the smaller weight.
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)] // sums of weights, far below 2^52; the bound is between 0 and their sum
pub(super) fn allowed_missing(ours: u64, theirs: u64, bar: f64) -> Option<u64> {
    let need = bar * (ours + theirs) as f64 / (1.0 + bar) * (1.0 - SLACK);
    if (ours.min(theirs) as f64) < need {
        return None;
    }
    Some(theirs - (need.floor().max(0.0) as u64).min(theirs))
}
