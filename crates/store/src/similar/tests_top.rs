//! Top issues checked against the rule: on generated items (families of near-duplicates in
//! random case, punctuation and spacing, with words dropped or added, among unrelated text and
//! messages without words), every cluster's members are near-duplicates of its label under the
//! store's word weights, identical normalised texts (raw texts, without words) always share a
//! cluster, every item is in exactly one cluster, clusters come largest first, and progress
//! climbs to 100%.

use std::collections::{HashMap, HashSet};

use jiff::tz::TimeZone;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use super::tests::{at, store_of};
use super::*;
use crate::ViewQuery;
use crate::pivot::{SERIES_DAYS, Window};

const FAMILIES: [&str; 4] = [
    "App closes itself right after the splash screen",
    "Can't log in with Google since the update",
    "Dark mode switches back to light after a restart",
    "Export to CSV drops the dates column",
];
const WORDS: [&str; 12] = [
    "please", "really", "again", "today", "now", "sync", "slow", "photo", "upload", "map",
    "battery", "crash",
];

/// Messages without a letter or digit.
const WORDLESS: [&str; 4] = ["", "👍", "!!", "👍👍"];

/// A message: a family's text with noise, unrelated words (`family` 4), or none (5).
fn message(family: usize, noise: &[usize]) -> String {
    if family > FAMILIES.len() {
        return WORDLESS[noise.first().copied().unwrap_or(0) % WORDLESS.len()].to_owned();
    }
    if family == FAMILIES.len() {
        return noise
            .iter()
            .map(|&n| WORDS[n % WORDS.len()])
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mut text = FAMILIES[family].to_owned();
    for &n in noise {
        match n % 6 {
            0 => text = text.to_uppercase(),
            1 => text.push_str("!!"),
            2 => text = text.replace(' ', "  "),
            3 => {
                text.push(' ');
                text.push_str(WORDS[n % WORDS.len()]);
            }
            4 => text = text.split(' ').skip(1).collect::<Vec<_>>().join(" "),
            _ => text = format!("... {text}"),
        }
    }
    text
}

fn window() -> Window {
    Window::ending(at(0), &TimeZone::UTC, SERIES_DAYS)
}

fn check(messages: &[String]) -> Result<(), TestCaseError> {
    let store = store_of(messages);
    let mut seen = Vec::new();
    let top = store
        .top_issues(
            &ViewQuery::default(),
            &window(),
            100_000,
            usize::MAX,
            &mut |p| {
                seen.push(p);
            },
        )
        .unwrap();
    prop_assert_eq!(seen.last(), Some(&100));
    prop_assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{:?}", seen);
    prop_assert_eq!(top.items, messages.len());
    prop_assert_eq!(top.total_clusters, top.clusters.len());
    let text_of: HashMap<i64, String> = store
        .conn()
        .prepare("SELECT k, message FROM items")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let rarity = store.word_rarity().unwrap();
    let mut cluster_of: HashMap<i64, usize> = HashMap::new();
    for (c, cluster) in top.clusters.iter().enumerate() {
        prop_assert!(cluster.keys.windows(2).all(|w| w[0] < w[1]));
        for key in &cluster.keys {
            prop_assert!(
                rarity.near_duplicates(&cluster.label, &text_of[key]),
                "{:?} in the cluster of {:?}",
                text_of[key],
                cluster.label
            );
            prop_assert!(cluster_of.insert(*key, c).is_none());
        }
        let in_apps: usize = cluster.apps.iter().map(|(_, n)| n).sum();
        prop_assert_eq!(in_apps, cluster.keys.len());
        prop_assert!(cluster.first_seen <= cluster.last_seen);
    }
    prop_assert_eq!(cluster_of.len(), messages.len());
    prop_assert!(
        top.clusters
            .windows(2)
            .all(|w| w[0].keys.len() >= w[1].keys.len())
    );
    let mut by_text: HashMap<String, HashSet<usize>> = HashMap::new();
    for (key, text) in &text_of {
        let normalised = normalise(text);
        let same = if normalised.is_empty() {
            format!("raw {text}")
        } else {
            normalised
        };
        by_text.entry(same).or_default().insert(cluster_of[key]);
    }
    for (text, clusters) in by_text {
        prop_assert_eq!(clusters.len(), 1, "{:?} split over clusters", text);
    }
    Ok(())
}

#[test]
fn clusters_hold_near_duplicates_of_their_label_and_keep_equal_texts_together() {
    let item = (0usize..7, prop::collection::vec(0usize..60, 0..4));
    let mut runner = TestRunner::new(Config {
        cases: 24,
        ..Config::default()
    });
    runner
        .run(&prop::collection::vec(item, 1..150), |items| {
            let messages: Vec<String> = items.iter().map(|(f, n)| message(*f, n)).collect();
            check(&messages)
        })
        .unwrap();
}

#[test]
fn a_family_is_one_cluster_with_its_count_apps_days_and_label() {
    let mut messages = Vec::new();
    for i in 0..30 {
        messages.push(message(0, &[i % 3]));
    }
    for i in 0..5 {
        messages.push(message(1, &[i]));
    }
    messages.push("battery".to_owned());
    let store = store_of(&messages);
    let top = store
        .top_issues(&ViewQuery::default(), &window(), 100_000, 2, &mut |_| {})
        .unwrap();
    assert_eq!(top.total_clusters, 3);
    assert_eq!(top.clusters.len(), 2);
    let first = &top.clusters[0];
    assert_eq!(first.keys.len(), 30);
    assert_eq!(normalise(&first.label), normalise(FAMILIES[0]));
    assert_eq!(first.apps.len(), 3);
    assert_eq!(first.series.len(), SERIES_DAYS);
    // All were received on the window's last day (the items are minutes apart).
    assert_eq!(first.series[SERIES_DAYS - 1], 30);
    assert_eq!(first.last_seen, Some(at(29)));
    assert_eq!(first.first_seen, Some(at(0)));
    assert_eq!(top.clusters[1].keys.len(), 5);
}

#[test]
fn normalising_folds_case_punctuation_and_spacing() {
    assert_eq!(
        normalise("  Can't  LOG in!!\n(Google) "),
        "can t log in google"
    );
}

#[test]
fn rare_words_decide_and_pleasantries_weigh_little() {
    // Pleasantries most messages have; complaints that share only those.
    let mut messages: Vec<String> = (0..40)
        .map(|i| format!("Hi, {} please fix. Thanks!", WORDS[i % WORDS.len()]))
        .collect();
    messages.push("App closes itself right after the splash screen".to_owned());
    let rarity = Rarity::of_messages(messages.iter().map(String::as_str));
    let core = "The app closes itself right after the splash screen";
    let noisy = "Hi, app closes itself right after the splash screen. Please fix. Thanks!";
    assert!(rarity.near_duplicates(core, noisy));
    // Unweighted, the pleasantries would be 4 words of 12: the overlap is well above that.
    assert!(
        rarity.overlap(core, noisy) > 0.6,
        "{}",
        rarity.overlap(core, noisy)
    );
    assert!(!rarity.near_duplicates(
        "Hi, dark mode switches back. Please fix. Thanks!",
        "Hi, export drops the dates. Please fix. Thanks!"
    ));
    assert!(rarity.near_duplicates("Dark mode switches back", "dark mode switches back now"));
    assert!(!rarity.near_duplicates("Dark mode", "Light theme"));
    // Without words: only the same raw text.
    assert!(!rarity.near_duplicates("!!", "light"));
    assert!(!rarity.near_duplicates("👍", "!!"));
    assert!(rarity.near_duplicates("👍", "👍"));
    assert!(!rarity.near_duplicates("", "👍"));
}

#[test]
fn messages_without_words_are_grouped_by_their_raw_text_only() {
    let messages: Vec<String> = ["👍", "👍", "!!", "", "", "🙂", "dark mode", "👍"]
        .iter()
        .map(|m| (*m).to_owned())
        .collect();
    let store = store_of(&messages);
    let top = store
        .top_issues(&ViewQuery::default(), &window(), 100, 100, &mut |_| {})
        .unwrap();
    let sizes: Vec<(usize, &str)> = top
        .clusters
        .iter()
        .map(|c| (c.keys.len(), c.label.as_str()))
        .collect();
    // Equal sizes: the newest first.
    assert_eq!(
        sizes,
        [(3, "👍"), (2, ""), (1, "dark mode"), (1, "🙂"), (1, "!!")]
    );
}

#[test]
fn only_the_views_items_are_grouped_and_the_limit_keeps_the_newest() {
    let mut messages = Vec::new();
    for i in 0..20 {
        messages.push(message(i % 2, &[i]));
    }
    let store = store_of(&messages);
    let cx = crate::search::Context {
        now: at(100),
        tz: TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let parsed = feedback_core::query::parse("google").unwrap();
    let view =
        ViewQuery::default().search(crate::search::compile(store.conn(), &parsed, &cx).unwrap());
    let top = store
        .top_issues(&view, &window(), 100_000, 10, &mut |_| {})
        .unwrap();
    assert_eq!(top.items, 10);
    assert!(
        top.clusters
            .iter()
            .all(|c| normalise(&c.label).contains("google")),
        "{top:?}"
    );
    let newest = store
        .top_issues(&ViewQuery::default(), &window(), 4, 10, &mut |_| {})
        .unwrap();
    assert_eq!(newest.items, 4);
    let keys: Vec<i64> = newest
        .clusters
        .iter()
        .flat_map(|c| c.keys.clone())
        .collect();
    let all = store.view_keys(&ViewQuery::default(), Some(4)).unwrap();
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, all);
}
