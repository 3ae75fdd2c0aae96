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

mod cluster;
#[cfg(test)]
mod tests_reference;
mod words;

use std::collections::{BTreeMap, HashMap, HashSet};

use jiff::Timestamp;
use rusqlite::types::Type;

use crate::store::pivot::{Window, key_time};
use crate::store::read::view_condition;
use crate::store::{Store, StoreError, ViewQuery};

/// The least word overlap (Jaccard index) of two near-duplicates.
pub const JACCARD: f64 = 0.6;
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
    normalise_into(text, &mut out);
    out
}

/// [`normalise`] into a buffer the caller reuses (one allocation for a whole view's items).
fn normalise_into(text: &str, out: &mut String) {
    out.clear();
    let mut gap = false;
    for c in text.chars() {
        // ASCII first: the same answers as the Unicode calls, without their table lookups.
        let (word, ascii) = if c.is_ascii() {
            (c.is_ascii_alphanumeric(), true)
        } else {
            (c.is_alphanumeric(), false)
        };
        if !word {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        if ascii {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
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
    /// (key, index in [`Groups::apps`]), in the view's order (newest first).
    items: Vec<(i64, usize)>,
}

/// A view's items in groups of equal normalised text, largest first (ties: newest first).
#[derive(Default)]
struct Groups {
    groups: Vec<Group>,
    /// The apps' raw names (`None`: no app), each once: items point here rather than each
    /// holding a copy of the name.
    apps: Vec<Option<String>>,
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
        let items = groups.groups.iter().map(|g| g.items.len()).sum();
        let mut found = cluster::cluster(&groups.groups, progress);
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
    ) -> Result<Groups, StoreError> {
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
            "SELECT items.k, items.message, items.app, app_refs.name {from} \
             LEFT JOIN app_refs ON app_refs.k = items.app WHERE {condition} \
             ORDER BY items.k LIMIT ?{}",
            params.len()
        );
        let mut statement = self.conn().prepare(&sql).map_err(|e| self.error(e))?;
        let mut rows = statement
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| self.error(e))?;
        let mut grouping = Grouping::default();
        let mut read = 0usize;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            grouping.add(row).map_err(|e| self.error(e))?;
            read += 1;
            if read.is_multiple_of(4096) {
                progress(percent(read, expected, 60));
            }
        }
        let mut groups = grouping.groups;
        // Stable: equal sizes keep the order of their newest item.
        groups
            .groups
            .sort_by_key(|g| std::cmp::Reverse(g.items.len()));
        progress(60);
        Ok(groups)
    }
}

/// Groups being read: each row's text is normalised into one reused buffer, and a new text
/// (or app) is copied only the first time it is seen.
#[derive(Default)]
struct Grouping {
    groups: Groups,
    /// Normalised text to its group.
    texts: HashMap<String, usize>,
    /// App reference (`None`: no app) to its index in `groups.apps`.
    apps: HashMap<Option<i64>, usize>,
    text: String,
}

impl Grouping {
    /// One row: key, message, app reference, app name.
    fn add(&mut self, row: &rusqlite::Row<'_>) -> rusqlite::Result<()> {
        let key: i64 = row.get(0)?;
        let raw = row
            .get_ref(1)?
            .as_str()
            .map_err(|e| rusqlite::Error::FromSqlConversionFailure(1, Type::Text, Box::new(e)))?;
        let app_ref: Option<i64> = row.get(2)?;
        let app = match self.apps.get(&app_ref) {
            Some(&app) => app,
            None => {
                self.groups.apps.push(row.get(3)?);
                let app = self.groups.apps.len() - 1;
                self.apps.insert(app_ref, app);
                app
            }
        };
        normalise_into(raw, &mut self.text);
        let at = match self.texts.get(self.text.as_str()) {
            Some(&at) => at,
            None => {
                let groups = &mut self.groups.groups;
                groups.push(Group {
                    text: self.text.clone(),
                    raw: raw.to_owned(),
                    items: Vec::new(),
                });
                self.texts.insert(self.text.clone(), groups.len() - 1);
                groups.len() - 1
            }
        };
        self.groups.groups[at].items.push((key, app));
        Ok(())
    }
}

/// `done` of `all` as a share of `span` percent.
fn percent(done: usize, all: usize, span: usize) -> u8 {
    u8::try_from((done.min(all) * span) / all.max(1)).unwrap_or(100)
}

/// A cluster's summary from its groups (leader first).
fn summary(groups: &Groups, members: &[usize], window: &Window) -> Cluster {
    let mut keys: Vec<i64> = Vec::new();
    let mut per_app = vec![0usize; groups.apps.len()];
    let mut series = vec![0u32; window.days()];
    for &g in members {
        for &(key, app) in &groups.groups[g].items {
            keys.push(key);
            per_app[app] += 1;
            if let Some(slot) = window.slot(key) {
                series[slot] += 1;
            }
        }
    }
    keys.sort_unstable();
    // By name: two app references may carry the same name.
    let mut apps: BTreeMap<Option<String>, usize> = BTreeMap::new();
    for (app, count) in per_app.into_iter().enumerate().filter(|(_, n)| *n > 0) {
        *apps.entry(groups.apps[app].clone()).or_default() += count;
    }
    let mut apps: Vec<(Option<String>, usize)> = apps.into_iter().collect();
    apps.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Cluster {
        label: groups.groups[members[0]].raw.clone(),
        last_seen: keys.first().and_then(|&k| key_time(k)),
        first_seen: keys.last().and_then(|&k| key_time(k)),
        keys,
        apps,
        series,
    }
}
