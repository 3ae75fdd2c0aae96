//! Top issues: a view's items grouped into clusters of near-duplicates, largest first.
//!
//! Messages are compared by what they lead with ([`lead`]: the first sentence of three words
//! or more), since a report says what is wrong first and its details (steps, devices, what was
//! tried) recur across different problems. Words count as their English stems ("restarting"
//! is "restart"), the usual spellings of signing in as one word, and every number as one word
//! (`words`).
//!
//! The rule, checkable item by item ([`Rarity::near_duplicates`]): two messages are
//! near-duplicates when their leads' normalised texts ([`normalise`]: lowercase, anything but
//! letters and digits folded to one space) are equal, or when their leads' words, weighted by
//! rarity, are near: the weight they share over the weight of all their words (weighted Jaccard index) is
//! at least [`JACCARD`]; or the lighter message's weight is nearly all shared
//! ([`CONTAINMENT`]: the other says what it says, plus a greeting, a sign-off or a detail) and
//! the index is at least [`CONTAINED_JACCARD`] (the plus weighs at most about three times what
//! is shared). Each word weighs its inverse document frequency over the store's newest items
//! (`rarity`), not over the view: a view searched for a complaint's words has them in every
//! item. Common words weigh little and the words that say what is wrong weigh most, so "Hi,
//! app closes itself right after the splash screen. Any idea? Thanks!" is a near-duplicate of
//! "The app closes itself right after the splash screen", and two complaints sharing only
//! pleasantries are not. A message without a letter or digit (emoji, punctuation, nothing)
//! has no words: it is grouped with the messages of exactly the same raw text only.
//!
//! The bars were chosen on the demo's data (`tests_demo`), and the whole is measured against
//! the simulator's stories (`tests_stories`): on the demo and on a 100,000-item account, nine
//! in ten of each story's items (a topic's complaint whatever details follow it, a family of
//! near-duplicates in a few wordings with greetings, endings and sign-offs) share one cluster,
//! and no cluster holds two stories.
//!
//! Clusters are built around a leader (their label): identical texts are grouped first (so
//! they always share a cluster); then the groups, largest first, each join the near leader
//! they overlap most with, or lead a new cluster. Every member is then a near-duplicate of
//! its leader, which is what the cluster's label says; chaining (A like B like C, A unlike C)
//! cannot grow a cluster into unrelated text, as union-find would. The leaders to compare
//! with are found by prefix filtering on the rarest words (`cluster`), so the work stays near
//! linear. Hashes have fixed keys and weights are whole numbers: the same store gives the
//! same clusters.

mod cluster;
mod rarity;
#[cfg(test)]
mod tests_demo;
#[cfg(test)]
mod tests_reference;
#[cfg(test)]
mod tests_stories;
mod words;

pub use rarity::Rarity;

use std::collections::{BTreeMap, HashMap};

use jiff::Timestamp;
use rusqlite::types::Type;

use crate::pivot::{Window, key_time};
use crate::read::view_condition;
use crate::{Store, StoreError, ViewQuery};

/// The least weighted word overlap (weighted Jaccard index) of two near-duplicates.
pub const JACCARD: f64 = 0.5;
/// The share of the lighter message's word weight that the other must hold to be its
/// near-duplicate at the lower bar [`CONTAINED_JACCARD`].
pub(crate) const CONTAINMENT: f64 = 0.65;
/// The least weighted word overlap of a message and one holding nearly all of its words.
pub(crate) const CONTAINED_JACCARD: f64 = 0.25;
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

/// The fewest words a sentence needs to lead a message (see [`lead`]).
pub(crate) const LEAD_WORDS: usize = 3;

/// The sentence a message leads with: its first sentence of at least [`LEAD_WORDS`] words, a
/// greeting before it ("Hey!", "Hello team.") or opening it ("Hi, ") passed over; the whole
/// text when no sentence has that many. A sentence ends at `.`, `!`, `?`, `…` (a run of them) followed by a space or the
/// end, or at a line break: "3.10.0" and "\"Updating…\" for hours" do not end one.
///
/// Reports say what is wrong first and add details after, and the details (steps, devices,
/// what was tried, a sign-off) recur across different problems: compared by what they lead
/// with, one complaint stays together however its details vary, and two complaints stay apart
/// however alike their details.
#[must_use]
pub(super) fn lead(text: &str) -> &str {
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = match c {
            '\n' => Some(at),
            // A pictograph ends a sentence too ("… is great 👍 Worth every cent").
            '.' | '!' | '?' | '…' | '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' => {
                while let Some(&(_, '.' | '!' | '?' | '…')) = chars.peek() {
                    chars.next();
                }
                let after = chars.peek().map_or(text.len(), |&(i, _)| i);
                chars
                    .peek()
                    .is_none_or(|&(_, next)| next.is_whitespace())
                    .then_some(after)
            }
            _ => None,
        };
        if let Some(end) = end {
            let sentence = &text[start..end];
            if words_in(sentence) >= LEAD_WORDS {
                return past_greeting(sentence);
            }
            start = end;
        }
    }
    if words_in(&text[start..]) >= LEAD_WORDS {
        return past_greeting(&text[start..]);
    }
    text
}

/// `sentence` trimmed, past a short clause it opens with ("Hi, ", "Hello team, "): one of
/// fewer than [`LEAD_WORDS`] words ending at the first `,` or `:`, when what follows has
/// [`LEAD_WORDS`] words or more.
fn past_greeting(sentence: &str) -> &str {
    let sentence = sentence.trim();
    if let Some(at) = sentence.find([',', ':']) {
        let (clause, rest) = (&sentence[..at], &sentence[at + 1..]);
        if words_in(clause) < LEAD_WORDS && words_in(rest) >= LEAD_WORDS {
            return rest.trim();
        }
    }
    sentence
}

/// How many runs of letters and digits `text` holds (its words, as [`normalise`] keeps them).
fn words_in(text: &str) -> usize {
    let mut words = 0;
    let mut gap = true;
    for c in text.chars() {
        let word = c.is_alphanumeric();
        if word && gap {
            words += 1;
        }
        gap = !word;
    }
    words
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

/// The items of one normalised text (or of one raw text without words).
struct Group {
    /// The normalised text ("" for a raw text without words).
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
        let rarity = self.word_rarity_with(&mut |p| progress(55 + p / 20))?;
        let items = groups.groups.iter().map(|g| g.items.len()).sum();
        let mut found = cluster::cluster(&groups.groups, &rarity, progress);
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
    /// first (ties: newest first). Reading is the first 55% of the progress.
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
                progress(percent(read, expected, 55));
            }
        }
        let mut groups = grouping.groups;
        // Stable: equal sizes keep the order of their newest item.
        groups
            .groups
            .sort_by_key(|g| std::cmp::Reverse(g.items.len()));
        progress(55);
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
    /// Raw text without words to its group.
    raws: HashMap<String, usize>,
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
        normalise_into(lead(raw), &mut self.text);
        // No words: grouped by the raw text (one "" key for all would join every emoji).
        let (map, text) = if self.text.is_empty() {
            (&mut self.raws, raw)
        } else {
            (&mut self.texts, self.text.as_str())
        };
        let at = match map.get(text) {
            Some(&at) => at,
            None => {
                let groups = &mut self.groups.groups;
                groups.push(Group {
                    text: self.text.clone(),
                    raw: raw.to_owned(),
                    items: Vec::new(),
                });
                map.insert(text.to_owned(), groups.len() - 1);
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
