//! The fast Top issues against a plain one written from the rule alone (string word sets,
//! weights counted here from the store's newest items, every group compared with every leader,
//! no candidate filtering, no hashing): on stores of generated feedback (the simulator's topics
//! and near-duplicate families) and of generated near-duplicates, both give the same
//! `TopIssues`: same leaders, members, order, apps, days. And the ASCII fast path of
//! [`normalise`] answers as the Unicode one on any text. Only the rule's parameters (the bars,
//! the sample's size) come from the code under test.

use std::collections::{BTreeMap, HashMap, HashSet};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use proptest::prelude::*;

use super::rarity::SAMPLE;
use super::{CONTAINED_JACCARD, CONTAINMENT, Cluster, JACCARD, LEAD_WORDS, TopIssues, normalise};
use crate::pivot::{SERIES_DAYS, Window, key_time};
use crate::read::view_condition;
use crate::{Store, ViewQuery};

fn old_normalise(text: &str) -> String {
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

struct Group {
    text: String,
    raw: String,
    items: Vec<(i64, Option<String>)>,
}

fn reference(
    store: &Store,
    view: &ViewQuery,
    window: &Window,
    limit: usize,
    clusters: usize,
) -> TopIssues {
    let groups = groups_of(store, view, limit);
    let rarity = PlainRarity::of(store);
    let items = groups.iter().map(|g| g.items.len()).sum();
    let mut found = cluster(&groups, &rarity);
    let total_clusters = found.len();
    found.truncate(clusters);
    let clusters = found
        .into_iter()
        .map(|members| summary(&groups, &members, window))
        .collect();
    TopIssues {
        clusters,
        total_clusters,
        items,
    }
}

fn groups_of(store: &Store, view: &ViewQuery, limit: usize) -> Vec<Group> {
    let (from, condition, mut params) = view_condition(store.conn(), view).unwrap();
    params.push(rusqlite::types::Value::Integer(
        i64::try_from(limit).unwrap_or(i64::MAX),
    ));
    let sql = format!(
        "SELECT items.k, items.message, app_refs.name {from} \
         LEFT JOIN app_refs ON app_refs.k = items.app WHERE {condition} \
         ORDER BY items.k LIMIT ?{}",
        params.len()
    );
    let mut statement = store.conn().prepare(&sql).unwrap();
    let mut rows = statement.query(rusqlite::params_from_iter(params)).unwrap();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut groups: Vec<Group> = Vec::new();
    while let Some(row) = rows.next().unwrap() {
        let key: i64 = row.get(0).unwrap();
        let raw: String = row.get(1).unwrap();
        let app: Option<String> = row.get(2).unwrap();
        let text = old_normalise(plain_lead(&raw));
        let same = if text.is_empty() {
            format!("raw {raw}")
        } else {
            text.clone()
        };
        let at = *index.entry(same).or_insert_with(|| {
            groups.push(Group {
                text,
                raw,
                items: Vec::new(),
            });
            groups.len() - 1
        });
        groups[at].items.push((key, app));
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.items.len()));
    groups
}

/// Word weights by the rule: over the store's newest [`SAMPLE`] items (`n` of them), a word
/// held by `df` of them weighs `round(1000 · ln(1 + (n + 1) / (df + 1)))`.
struct PlainRarity {
    df: HashMap<String, u32>,
    n: u32,
}

impl PlainRarity {
    fn of(store: &Store) -> Self {
        let mut statement = store
            .conn()
            .prepare("SELECT message FROM items ORDER BY k LIMIT ?1")
            .unwrap();
        let messages: Vec<String> = statement
            .query_map([i64::try_from(SAMPLE).unwrap()], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut df: HashMap<String, u32> = HashMap::new();
        for message in &messages {
            for word in words(&old_normalise(message)) {
                *df.entry(word).or_default() += 1;
            }
        }
        Self {
            df,
            n: u32::try_from(messages.len()).unwrap(),
        }
    }

    fn weight(&self, word: &str) -> u64 {
        let df = self.df.get(word).copied().unwrap_or(0);
        let idf = (1.0 + (f64::from(self.n) + 1.0) / (f64::from(df) + 1.0)).ln();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let weight = (idf * 1000.0).round() as u64;
        weight
    }
}

/// Whether `c` may end a sentence: `.`, `!`, `?`, `…` or a pictograph.
fn ends(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}')
}

/// The message's lead by the rule: sentences end after a run of ending characters followed
/// by whitespace or the end, or at a line break; the first sentence of at least `LEAD_WORDS`
/// words (runs of letters and digits), trimmed and past an opening clause of fewer words
/// (up to its first comma or colon) when the rest has that many, else the whole text.
fn plain_lead(text: &str) -> &str {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c == '\n' {
            sentences.push(&text[start..at]);
            start = at;
        } else if ends(c) {
            let mut last = i;
            while chars.get(last + 1).is_some_and(|&(_, c)| ends(c)) {
                last += 1;
            }
            if chars.get(last + 1).is_none_or(|&(_, c)| c.is_whitespace()) {
                let after = chars.get(last + 1).map_or(text.len(), |&(at, _)| at);
                sentences.push(&text[start..after]);
                start = after;
            }
            i = last;
        }
        i += 1;
    }
    sentences.push(&text[start..]);
    let count = |s: &str| {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .count()
    };
    let Some(sentence) = sentences.into_iter().find(|s| count(s) >= LEAD_WORDS) else {
        return text;
    };
    let sentence = sentence.trim();
    // A short opening clause (up to the first comma or colon) is a greeting.
    match sentence.split_once([',', ':']) {
        Some((clause, rest)) if count(clause) < LEAD_WORDS && count(rest) >= LEAD_WORDS => {
            rest.trim()
        }
        _ => sentence,
    }
}

/// The distinct words of a normalised text by the rule: "log in", "sign in", "log on", "sign
/// on", "login", "signin", "logon" and "signon" are the word "login", "cannot" is "can" and
/// "t", every number (ASCII digits only) is one word, and every other word counts as its
/// English stem (Snowball).
fn words(normalised: &str) -> HashSet<String> {
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let tokens: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out = HashSet::new();
    let mut i = 0;
    while i < tokens.len() {
        let pair = ["log", "sign"].contains(&tokens[i])
            && tokens.get(i + 1).is_some_and(|n| ["in", "on"].contains(n));
        let spelled: Vec<&str> = if pair {
            i += 1;
            vec!["login"]
        } else if ["login", "signin", "logon", "signon"].contains(&tokens[i]) {
            vec!["login"]
        } else if tokens[i] == "cannot" {
            vec!["can", "t"]
        } else if tokens[i].bytes().all(|b| b.is_ascii_digit()) {
            vec!["0"]
        } else {
            vec![tokens[i]]
        };
        out.extend(spelled.into_iter().map(|w| stemmer.stem(w).into_owned()));
        i += 1;
    }
    out
}

/// Two word sets of weights `a` and `b` sharing `shared` are near when their weighted Jaccard
/// index reaches [`JACCARD`], or reaches [`CONTAINED_JACCARD`] with the lighter one's weight
/// [`CONTAINMENT`] shared; the index is 0 when either is empty.
#[allow(clippy::cast_precision_loss)]
fn plain_near(shared: u64, a: u64, b: u64) -> (bool, f64) {
    let union = a + b - shared;
    let index = if union == 0 || a == 0 || b == 0 {
        0.0
    } else {
        shared as f64 / union as f64
    };
    let near = index >= JACCARD
        || (index >= CONTAINED_JACCARD && shared as f64 >= CONTAINMENT * a.min(b) as f64);
    (near, index)
}

/// Every group against every leader so far, biggest group first: a group joins the leader it
/// overlaps most among those it is near (the first on a tie), else leads a cluster of its own.
fn cluster(groups: &[Group], rarity: &PlainRarity) -> Vec<Vec<usize>> {
    let mut leaders: Vec<(HashSet<String>, u64)> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut sizes: Vec<usize> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let mine = words(&group.text);
        let weight: u64 = mine.iter().map(|w| rarity.weight(w)).sum();
        let mut best: Option<(f64, usize)> = None;
        if !mine.is_empty() {
            for (leader, (theirs, their_weight)) in leaders.iter().enumerate() {
                let shared = mine
                    .iter()
                    .filter(|w| theirs.contains(*w))
                    .map(|w| rarity.weight(w))
                    .sum();
                let (near, found) = plain_near(shared, weight, *their_weight);
                if near && best.is_none_or(|(o, _)| found > o) {
                    best = Some((found, leader));
                }
            }
        }
        if let Some((_, leader)) = best {
            members[leader].push(g);
            sizes[leader] += group.items.len();
        } else {
            leaders.push((mine, weight));
            members.push(vec![g]);
            sizes.push(group.items.len());
        }
    }
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    order
        .into_iter()
        .map(|i| std::mem::take(&mut members[i]))
        .collect()
}

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

fn anchor() -> Timestamp {
    "2026-11-01T12:00:00Z".parse().unwrap()
}

/// A store of `count` items from the simulator's generator (its projects and apps too).
fn generated(seed: u64, count: usize) -> Store {
    let data = feedback_sim::data::generate(seed, count, anchor());
    let mut store = Store::open_memory().unwrap();
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().map(|d| d.feedback).collect();
    for page in items.chunks(500) {
        store.put_items(page, anchor()).unwrap();
    }
    store
}

fn assert_same(store: &Store, view: &ViewQuery, limit: usize, clusters: usize) -> TopIssues {
    let window = Window::ending(anchor(), &TimeZone::UTC, SERIES_DAYS);
    let fast = store
        .top_issues(view, &window, limit, clusters, &mut |_| {})
        .unwrap();
    let plain = reference(store, view, &window, limit, clusters);
    assert_eq!(fast, plain, "limit {limit}, clusters {clusters}");
    fast
}

#[test]
fn the_fast_path_gives_the_same_top_issues_as_the_plain_one_on_generated_feedback() {
    for (seed, count) in [(11, 3000), (3, 2000)] {
        let store = generated(seed, count);
        let all = assert_same(&store, &ViewQuery::default(), 100_000, usize::MAX);
        assert_eq!(all.items, count);
        // Enough to mean something: families clustered, and many clusters of other text.
        assert!(all.clusters[0].keys.len() > 20, "{:?}", all.clusters[0]);
        assert!(all.total_clusters > 50, "{}", all.total_clusters);
        assert!(all.clusters.iter().any(|c| c.apps.len() > 1));
        assert_same(&store, &ViewQuery::default(), 1000, 20);
        let view = ViewQuery {
            status: Some("new".to_owned()),
            ..ViewQuery::default()
        };
        assert_same(&store, &view, 100_000, 50);
    }
}

#[test]
fn the_fast_path_gives_the_same_top_issues_as_the_plain_one_on_near_duplicates() {
    // Short texts from a small vocabulary: many overlaps near the bar, long lists, ties.
    const WORDS: [&str; 10] = [
        "app", "crash", "login", "Google", "dark", "mode", "sync", "slow", "photo", "upload",
    ];
    let messages = prop::collection::vec(prop::collection::vec(0usize..10, 0..7), 1..400);
    let mut runner = proptest::test_runner::TestRunner::new(proptest::test_runner::Config {
        cases: 24,
        ..proptest::test_runner::Config::default()
    });
    runner
        .run(&messages, |messages| {
            let texts: Vec<String> = messages
                .iter()
                .map(|m| m.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(", "))
                .collect();
            let store = super::super::tests::store_of(&texts);
            assert_same(&store, &ViewQuery::default(), 100_000, usize::MAX);
            Ok(())
        })
        .unwrap();
}

proptest! {
    #[test]
    fn normalising_answers_as_the_plain_unicode_loop(text in "\\PC{0,40}|[a-zA-Z0-9 ,.!'ÉéßİΣ]{0,40}") {
        prop_assert_eq!(normalise(&text), old_normalise(&text));
    }
}
