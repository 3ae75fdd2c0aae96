//! Similar items: a message's near-duplicates rank above unrelated items and above items that
//! share only common words; the item itself is never among them; scores come best first; the
//! count and the apps cover every item above the threshold, not only the first page.

use jiff::{SignedDuration, Timestamp};

use super::*;
use crate::tests::item;
use feedback_api::{AppRef, Feedback, Platform, Status};

pub(super) fn at(i: usize) -> Timestamp {
    let base: Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
    base + SignedDuration::from_mins(i64::try_from(i).unwrap())
}

/// An item with this message, from one of three apps.
pub(super) fn said(i: usize, message: &str) -> Feedback {
    let mut f = item(&format!("f{i}"), "2026-11-01T00:00:00Z", Status::New, &[]);
    f.received_at = at(i);
    f.message = message.to_owned();
    let app = ["Alpha", "Beta", "Gamma"][i % 3];
    f.app = Some(AppRef {
        id: format!("app-{app}"),
        name: app.to_owned(),
        platform: Platform::Ios,
    });
    f
}

pub(super) fn store_of(messages: &[String]) -> Store {
    let mut store = Store::open_memory().unwrap();
    let items: Vec<Feedback> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| said(i, m))
        .collect();
    store.put_items(&items, at(0)).unwrap();
    store
}

fn key_of(store: &Store, id: &str) -> i64 {
    store
        .conn()
        .query_row("SELECT k FROM items WHERE id = ?1", [id], |r| r.get(0))
        .unwrap()
}

const FILLER: [&str; 6] = [
    "The app is great but the sync is slow",
    "Please add a dark theme to the app",
    "Export to CSV does not include the dates",
    "The app asks for my password every day",
    "Notifications arrive late on the app",
    "I love the new design of the app",
];

fn corpus() -> Vec<String> {
    let mut messages = vec!["App closes itself right after the splash screen".to_owned()];
    // Near-duplicates: same words, other case, punctuation, a word more or less.
    for variant in [
        "app closes itself right after the splash screen!!",
        "The app closes itself right after the splash screen, every time",
        "APP CLOSES ITSELF RIGHT AFTER THE SPLASH SCREEN",
        "closes itself after the splash screen",
    ] {
        messages.push(variant.to_owned());
    }
    // Shares one distinctive word only.
    messages.push("The splash screen logo is blurry".to_owned());
    for i in 0..60 {
        messages.push(format!("{} ({i})", FILLER[i % FILLER.len()]));
    }
    messages
}

#[test]
fn near_duplicates_rank_above_unrelated_items_and_the_item_is_left_out() {
    let store = store_of(&corpus());
    let me = key_of(&store, "f0");
    let similar = store.similar(me, 50).unwrap().unwrap();
    let ids: Vec<String> = similar
        .matches
        .iter()
        .map(|m| {
            store
                .conn()
                .query_row("SELECT id FROM items WHERE k = ?1", [m.key], |r| r.get(0))
                .unwrap()
        })
        .collect();
    assert!(!similar.matches.iter().any(|m| m.key == me), "{ids:?}");
    // The four near-duplicates come first, and they are all there is above the threshold.
    let mut first: Vec<&str> = ids.iter().take(4).map(String::as_str).collect();
    first.sort_unstable();
    assert_eq!(first, ["f1", "f2", "f3", "f4"], "{ids:?}");
    assert_eq!(similar.total, 4, "{ids:?} {:?}", similar.matches);
    // Best first.
    assert!(
        similar.matches.windows(2).all(|w| w[0].score >= w[1].score),
        "{:?}",
        similar.matches
    );
    assert!(similar.matches.iter().all(|m| m.score <= 1.0 + 1e-9));
    // f1 says every distinctive word.
    assert!((similar.matches[0].score - 1.0).abs() < 1e-9);
    // Items f1..f4 come from apps Beta, Gamma, Alpha, Beta.
    assert_eq!(
        similar.apps,
        [
            (Some("Beta".to_owned()), 2),
            (Some("Alpha".to_owned()), 1),
            (Some("Gamma".to_owned()), 1)
        ]
    );
    assert!(
        similar.terms.contains(&"splash".to_owned()),
        "{:?}",
        similar.terms
    );
}

#[test]
fn the_count_covers_every_match_beyond_the_page_and_unknown_items_are_none() {
    let mut messages = corpus();
    for i in 0..40 {
        messages.push(format!(
            "App closes itself right after the splash screen #{i}"
        ));
    }
    let store = store_of(&messages);
    let me = key_of(&store, "f0");
    let similar = store.similar(me, 10).unwrap().unwrap();
    assert_eq!(similar.matches.len(), 10);
    assert_eq!(similar.total, 44);
    assert_eq!(similar.apps.iter().map(|(_, n)| n).sum::<usize>(), 44);
    // Equal scores: newest (lowest key) first.
    assert!(similar.matches.windows(2).all(|w| w[0].score > w[1].score
        || (w[0].score.total_cmp(&w[1].score).is_eq() && w[0].key < w[1].key)));
    assert_eq!(store.similar(i64::MAX, 10).unwrap(), None);
}

#[test]
fn an_item_whose_words_no_other_item_has_has_no_similar_items() {
    let store = store_of(&["zebra quokka".to_owned(), "the app".to_owned()]);
    let me = key_of(&store, "f0");
    let similar = store.similar(me, 10).unwrap().unwrap();
    assert_eq!((similar.total, similar.matches.len()), (0, 0));
    assert!(similar.terms.is_empty());
}
