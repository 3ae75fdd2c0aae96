//! The fast path (the sample's counts, limited reads, prefix filtering, the document-size
//! table's count, one grouped app query) answers exactly what the plain definition answers:
//! every word's posting list read whole, the rule applied to its counts, a `count(*)` of the
//! items, one app lookup per match. Checked over
//! generated stores with edited and dropped items and with messages in mixed case and accents.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;

use super::tests::{at, said};
use super::*;
use feedback_api::Feedback;

/// The distinctive words and their weights, the plain way: every word's whole posting list
/// read, its count in the sample (the newest `sample_items` items) taken from the list, and
/// the rule applied to those numbers.
fn plain_terms(store: &Store, message: &str, sample_items: u64, budget: u64) -> Vec<(String, f64)> {
    let sample_items = usize::try_from(sample_items).unwrap();
    let conn = store.conn();
    let newest: Vec<i64> = conn
        .prepare("SELECT k FROM items ORDER BY k DESC")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let stored = newest.len() as u64;
    let sampled = newest.len() > sample_items && sample_items > 0;
    let from = if sampled {
        newest[sample_items - 1]
    } else {
        i64::MIN
    };
    let mut ranked: Vec<(u64, u64, String, Vec<i64>)> = terms::words_of(message)
        .into_iter()
        .map(|word| {
            let keys = plain_posting(store, &word);
            let in_sample = keys.iter().filter(|&&k| k >= from).count() as u64;
            let rare = if in_sample == 0 && sampled {
                (keys.len() as u64).min(4_096)
            } else {
                0
            };
            (in_sample, rare, word, keys)
        })
        .collect();
    ranked.sort_by(|a, b| (a.0, a.1, &a.2).cmp(&(b.0, b.1, &b.2)));
    let in_sample_of = if sampled { sample_items as u64 } else { stored };
    let (mut left, mut allowance) = (budget, budget * 2);
    let mut terms = Vec::new();
    for (in_sample, _, word, keys) in ranked {
        let estimate = u128::from(in_sample) * u128::from(stored) / u128::from(in_sample_of.max(1));
        let slack = if sampled { 2 } else { 1 };
        if terms.len() == MAX_TERMS || estimate > u128::from(left) * slack {
            break;
        }
        let limit = (left + 1).min(allowance);
        let docs = keys.len() as u64;
        allowance -= docs.min(limit);
        if docs < limit && docs >= 2 {
            left -= docs;
            terms.push((word, terms::weight(stored, docs)));
        }
    }
    terms
}

/// Every key whose message holds the word, ascending, read without a limit.
fn plain_posting(store: &Store, word: &str) -> Vec<i64> {
    store
        .conn()
        .prepare("SELECT rowid FROM items_fts WHERE items_fts MATCH ?1 ORDER BY rowid")
        .unwrap()
        .query_map([crate::search::exact_word(word)], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The definition, computed the plain way.
fn plain(store: &Store, key: i64, limit: usize) -> Option<Similar> {
    let conn = store.conn();
    let message: String = conn
        .query_row("SELECT message FROM items WHERE k = ?1", [key], |r| {
            r.get(0)
        })
        .optional()
        .unwrap()?;
    let terms = plain_terms(store, &message, terms::SAMPLE_ITEMS, POSTING_BUDGET);
    let total: f64 = terms.iter().map(|(_, w)| w).sum();
    let mut scores: HashMap<i64, f64> = HashMap::new();
    for (word, weight) in &terms {
        for k in plain_posting(store, word) {
            *scores.entry(k).or_default() += weight / total;
        }
    }
    scores.remove(&key);
    let mut above: Vec<Match> = scores
        .into_iter()
        .filter(|(_, score)| *score >= THRESHOLD - 1e-9)
        .map(|(key, score)| Match { key, score })
        .collect();
    above.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.key.cmp(&b.key)));
    let mut apps: BTreeMap<Option<String>, usize> = BTreeMap::new();
    for m in &above {
        let name: Option<String> = conn
            .query_row(
                "SELECT app_refs.name FROM items LEFT JOIN app_refs ON app_refs.k = items.app \
                 WHERE items.k = ?1",
                [m.key],
                |r| r.get(0),
            )
            .unwrap();
        *apps.entry(name).or_default() += 1;
    }
    let mut apps: Vec<(Option<String>, usize)> = apps.into_iter().collect();
    apps.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let total = above.len();
    above.truncate(limit);
    Some(Similar {
        matches: above,
        total,
        apps,
        terms: terms.into_iter().map(|(t, _)| t).collect(),
    })
}

/// Words in mixed case and accents, so that near-duplicates differ as people type them.
const WORDS: &[&str] = &[
    "Café",
    "CAFE",
    "cafe\u{301}",
    "naïve",
    "NAIVE",
    "Straße",
    "crash",
    "Crashes",
    "écran",
    "ECRAN",
    "login",
    "LOGIN",
    "the",
    "app",
    "splash",
    "Ünïcödé",
    "ǅemal",
    "ΣΊΣΥΦΟΣ",
    "a",
    "över",
    "\"quoted\"",
    "o'neil",
    "x-ray",
    "42",
    "٣",
];

fn generated(seed: u64, count: usize, extra: &[Vec<usize>], edits: usize) -> Store {
    let anchor: jiff::Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
    let mut items: Vec<Feedback> = feedback_sim::data::generate(seed, count, anchor)
        .items()
        .map(|d| d.feedback)
        .collect();
    for (i, words) in extra.iter().enumerate() {
        let message: Vec<&str> = words.iter().map(|&w| WORDS[w % WORDS.len()]).collect();
        items.push(said(
            100_000 + i,
            &message.join(if i % 2 == 0 { " " } else { ", " }),
        ));
    }
    let mut store = Store::open_memory().unwrap();
    store.put_items(&items, at(0)).unwrap();
    // Some messages edited (re-indexed), some items dropped (deleted from the index).
    let mut edited: Vec<Feedback> = items.iter().step_by(7).take(edits).cloned().collect();
    for item in &mut edited {
        item.message = format!("{} splash crash", item.message.to_uppercase());
    }
    store.put_items(&edited, at(1)).unwrap();
    let mut received: Vec<jiff::Timestamp> = items.iter().map(|f| f.received_at).collect();
    received.sort_unstable();
    store
        .drop_older_than(received[received.len() / 20])
        .unwrap();
    store
}

fn keys(store: &Store, every: usize) -> Vec<i64> {
    let mut statement = store
        .conn()
        .prepare("SELECT k FROM items ORDER BY k")
        .unwrap();
    let keys: Vec<i64> = statement
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    keys.into_iter().step_by(every).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn the_fast_path_answers_what_the_definition_says(
        seed in any::<u64>(),
        count in 200usize..900,
        extra in prop::collection::vec(prop::collection::vec(0usize..64, 2..9), 0..120),
        edits in 0usize..40,
    ) {
        let store = generated(seed, count, &extra, edits);
        let counted: i64 = store
            .conn()
            .query_row("SELECT count(*) FROM items", [], |r| r.get(0))
            .unwrap();
        prop_assert_eq!(store.stored_count().unwrap(), counted.unsigned_abs());
        for key in keys(&store, 9) {
            let want = plain(&store, key, 20);
            prop_assert_eq!(&store.similar(key, 20).unwrap(), &want, "item {}", key);
            // Many rounds and a budget that binds, as a million items have them.
            let message: String = store
                .conn()
                .query_row("SELECT message FROM items WHERE k = ?1", [key], |r| r.get(0))
                .unwrap();
            // Sampled stores, and budgets that bind, as a million items have them.
            for (sample_items, budget) in [(1, 40), (50, 150), (120, 600), (terms::SAMPLE_ITEMS, 90)] {
                let got = store.distinctive_terms_with(&message, sample_items, budget).unwrap();
                let words: Vec<(String, f64)> =
                    got.iter().map(|t| (t.word.clone(), t.weight)).collect();
                let want = plain_terms(&store, &message, sample_items, budget);
                prop_assert_eq!(&words, &want, "item {}", key);
                for term in &got {
                    prop_assert_eq!(&term.keys, &plain_posting(&store, &term.word));
                }
            }
        }
    }
}

#[test]
fn the_count_is_the_index_row_count_through_writes_and_deletes() {
    let store = Store::open_memory().unwrap();
    assert_eq!(store.stored_count().unwrap(), 0);
    let mut store = generated(3, 400, &[vec![1, 2, 3]], 30);
    let counted = |store: &Store| -> u64 {
        let n: i64 = store
            .conn()
            .query_row("SELECT count(*) FROM items", [], |r| r.get(0))
            .unwrap();
        n.unsigned_abs()
    };
    assert_eq!(store.stored_count().unwrap(), counted(&store));
    store.drop_older_than(at(10_000_000)).unwrap();
    assert_eq!((store.stored_count().unwrap(), counted(&store)), (0, 0));
}
