//! Top issues: a view's items grouped into clusters of near-duplicates, largest first.
//!
//! The rule, checkable item by item: two messages are near-duplicates when their normalised
//! texts ([`normalise`]: lowercase, anything but letters and digits folded to one space) are
//! equal, or when their sets of normalised words overlap by at least [`JACCARD`] (Jaccard
//! index). Clusters are built around a leader (their label): identical normalised texts are
//! grouped first (so they always share a cluster); then the groups, largest first, each join
//! the leader they overlap most with (at least [`JACCARD`]) or lead a new cluster. Every member
//! is then a near-duplicate of its leader, which is what the cluster's label says; chaining
//! (A like B like C, A unlike C) cannot grow a cluster into unrelated text, as union-find would.
//! Finding the leaders to compare with is MinHash with banding (locality-sensitive hashing):
//! only leaders sharing a band with the group are compared, so the work stays near linear.
//! Hashes have fixed seeds: the same items give the same clusters.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

use jiff::Timestamp;

use crate::store::pivot::{Window, key_time};
use crate::store::read::view_condition;
use crate::store::{Store, StoreError, ViewQuery};

/// The least word overlap (Jaccard index) of two near-duplicates.
pub const JACCARD: f64 = 0.6;
/// MinHash bands and rows per band: a pair at the threshold (0.6) shares a band with
/// probability 1 - (1 - 0.6²)^10 ≈ 0.99.
const BANDS: usize = 10;
const ROWS: usize = 2;
/// At most this many leaders of one bucket are compared (a bound on pathological input).
const BUCKET_CAP: usize = 16;

/// One cluster of near-duplicates.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// The leader's message, raw (sanitized where shown).
    pub label: String,
    /// The items, newest first.
    pub keys: Vec<i64>,
    /// The apps (raw names; `None`: no app) with counts, most first.
    pub apps: Vec<(Option<String>, usize)>,
    pub first_seen: Option<Timestamp>,
    pub last_seen: Option<Timestamp>,
    /// Items per local day of the window, oldest first.
    pub series: Vec<u32>,
}

/// The clusters of a view.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TopIssues {
    /// Largest first (ties: most recently seen first), at most the limit asked.
    pub clusters: Vec<Cluster>,
    /// How many clusters there are in all.
    pub total_clusters: usize,
    /// How many items were grouped (the view's newest, up to the limit asked).
    pub items: usize,
}

/// Lowercase, every run of characters other than letters and digits one space, trimmed.
#[must_use]
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if gap && !out.is_empty() {
                out.push(' ');
            }
            gap = false;
            out.extend(c.to_lowercase());
        } else {
            gap = true;
        }
    }
    out
}

/// The distinct words of a normalised text.
#[must_use]
pub fn word_set(normalised: &str) -> HashSet<&str> {
    normalised.split(' ').filter(|w| !w.is_empty()).collect()
}

/// The rule: equal normalised texts, or word sets overlapping by at least [`JACCARD`].
#[must_use]
pub fn near_duplicates(a: &str, b: &str) -> bool {
    let (a, b) = (normalise(a), normalise(b));
    a == b || jaccard(&word_set(&a), &word_set(&b)) >= JACCARD
}

#[allow(clippy::cast_precision_loss)] // word counts
fn jaccard(a: &HashSet<&str>, b: &HashSet<&str>) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let shared = a.intersection(b).count();
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// The items of one normalised text.
struct Group {
    text: String,
    raw: String,
    /// (key, app name), in the view's order (newest first).
    items: Vec<(i64, Option<String>)>,
}

impl Store {
    /// The view's newest `limit` items grouped into clusters of near-duplicates; the largest
    /// `clusters` of them returned. `progress` hears the share done, in percent, ending at 100.
    pub fn top_issues(
        &self,
        view: &ViewQuery,
        window: &Window,
        limit: usize,
        clusters: usize,
        progress: &mut dyn FnMut(u8),
    ) -> Result<TopIssues, StoreError> {
        progress(0);
        let groups = self.groups_of(view, limit, progress)?;
        let items = groups.iter().map(|g| g.items.len()).sum();
        let mut found = cluster(&groups, progress);
        let total_clusters = found.len();
        found.truncate(clusters);
        let clusters = found
            .into_iter()
            .map(|members| summary(&groups, &members, window))
            .collect();
        progress(100);
        Ok(TopIssues {
            clusters,
            total_clusters,
            items,
        })
    }

    /// Reads the view's items (newest first) into groups of equal normalised text, largest
    /// first (ties: newest first). Reading is the first 60% of the progress.
    fn groups_of(
        &self,
        view: &ViewQuery,
        limit: usize,
        progress: &mut dyn FnMut(u8),
    ) -> Result<Vec<Group>, StoreError> {
        let expected = usize::try_from(self.view_count(view)?)
            .unwrap_or(usize::MAX)
            .min(limit)
            .max(1);
        let (from, condition, mut params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        params.push(rusqlite::types::Value::Integer(
            i64::try_from(limit).unwrap_or(i64::MAX),
        ));
        let sql = format!(
            "SELECT items.k, items.message, app_refs.name {from} \
             LEFT JOIN app_refs ON app_refs.k = items.app WHERE {condition} \
             ORDER BY items.k LIMIT ?{}",
            params.len()
        );
        let mut statement = self.conn().prepare(&sql).map_err(|e| self.error(e))?;
        let mut rows = statement
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| self.error(e))?;
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut groups: Vec<Group> = Vec::new();
        let mut read = 0usize;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            let get = |e| self.error(e);
            let key: i64 = row.get(0).map_err(get)?;
            let raw: String = row.get(1).map_err(get)?;
            let app: Option<String> = row.get(2).map_err(get)?;
            let text = normalise(&raw);
            let at = *index.entry(text.clone()).or_insert_with(|| {
                groups.push(Group {
                    text,
                    raw,
                    items: Vec::new(),
                });
                groups.len() - 1
            });
            groups[at].items.push((key, app));
            read += 1;
            if read.is_multiple_of(4096) {
                progress(percent(read, expected, 60));
            }
        }
        // Stable: equal sizes keep the order of their newest item.
        groups.sort_by_key(|g| std::cmp::Reverse(g.items.len()));
        progress(60);
        Ok(groups)
    }
}

/// `done` of `all` as a share of `span` percent.
fn percent(done: usize, all: usize, span: usize) -> u8 {
    u8::try_from((done.min(all) * span) / all.max(1)).unwrap_or(100)
}

/// Groups (largest first) joined into clusters: lists of group indexes, leader first, largest
/// cluster first (ties: the one whose leader came first). Progress goes from 60% to 99%.
fn cluster(groups: &[Group], progress: &mut dyn FnMut(u8)) -> Vec<Vec<usize>> {
    let mut leaders: Vec<(usize, HashSet<&str>)> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    let mut buckets: HashMap<(usize, u64), Vec<usize>> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        let words = word_set(&group.text);
        let bands = if words.is_empty() {
            Vec::new()
        } else {
            bands(&words)
        };
        let mut best: Option<(f64, usize)> = None;
        // A leader sharing several bands is compared once.
        let mut compared: HashSet<usize> = HashSet::new();
        for band in &bands {
            for &leader in buckets.get(band).into_iter().flatten().take(BUCKET_CAP) {
                if !compared.insert(leader) {
                    continue;
                }
                let overlap = jaccard(&words, &leaders[leader].1);
                // Most overlap; equal overlap: the earlier leader.
                let better =
                    best.is_none_or(|(o, l)| overlap.total_cmp(&o).then(l.cmp(&leader)).is_gt());
                if overlap >= JACCARD && better {
                    best = Some((overlap, leader));
                }
            }
        }
        if let Some((_, leader)) = best {
            members[leader].push(g);
            sizes[leader] += group.items.len();
        } else {
            let leader = leaders.len();
            for band in bands {
                buckets.entry(band).or_default().push(leader);
            }
            leaders.push((g, words));
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

/// The MinHash band keys of a word set: `BANDS` bands of `ROWS` minimums each.
fn bands(words: &HashSet<&str>) -> Vec<(usize, u64)> {
    let hashes: Vec<u64> = words.iter().map(|w| word_hash(w)).collect();
    (0..BANDS)
        .map(|band| {
            let mut key = 0u64;
            for row in 0..ROWS {
                let seed = (band * ROWS + row) as u64;
                let min = hashes
                    .iter()
                    .map(|&h| mix(h ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
                    .min()
                    .unwrap_or(0);
                key = mix(key ^ min);
            }
            (band, key)
        })
        .collect()
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

/// A cluster's summary from its groups (leader first).
fn summary(groups: &[Group], members: &[usize], window: &Window) -> Cluster {
    let mut keys: Vec<i64> = Vec::new();
    let mut apps: BTreeMap<Option<String>, usize> = BTreeMap::new();
    let mut series = vec![0u32; window.days()];
    for &g in members {
        for (key, app) in &groups[g].items {
            keys.push(*key);
            *apps.entry(app.clone()).or_default() += 1;
            if let Some(slot) = window.slot(*key) {
                series[slot] += 1;
            }
        }
    }
    keys.sort_unstable();
    let mut apps: Vec<(Option<String>, usize)> = apps.into_iter().collect();
    apps.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Cluster {
        label: groups[members[0]].raw.clone(),
        last_seen: keys.first().and_then(|&k| key_time(k)),
        first_seen: keys.last().and_then(|&k| key_time(k)),
        keys,
        apps,
        series,
    }
}
