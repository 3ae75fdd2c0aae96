//! Top issues on the demo's data (the simulator's generator, 5,000 items, as `demo` serves
//! them): each of the story's near-duplicate families (a core sentence in a few wordings, with
//! greetings, endings and sign-offs) has nine in ten of its messages in one cluster, and no
//! cluster holds two families; the same in a view searched for a family's words.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::TopIssues;
use crate::pivot::{SERIES_DAYS, Window};
use crate::{Store, ViewQuery};

/// The story's families, openers, endings and sign-offs (`sim::story`, `sim::vocab`): the
/// messages they make are the ground truth (the test fails if the story no longer makes them).
const FAMILIES: [&[&str]; 3] = [
    &[
        "App closes itself right after the splash screen",
        "The app closes itself right after the splash screen",
        "app closes right after the splash screen",
        "App closes itself just after the splash screen",
        "The app closes by itself right after the splash screen",
    ],
    &[
        "Can't log in with Google since the update",
        "Cannot log in with Google since the update",
        "can't sign in with Google since the update",
        "Login with Google fails since the update",
    ],
    &[
        "Dark mode switches back to light after a restart",
        "Dark mode goes back to light mode after restarting",
        "dark mode switches back to light after restart",
        "Dark mode resets to light after a restart",
    ],
];
const OPENERS: [&str; 5] = ["", "Hi, ", "Hello team, ", "Since the update: ", "Hey! "];
const ENDINGS: [&str; 7] = [".", "!", "!!", "...", ". Please fix.", ". Any idea?", ""];
const SIGN_OFFS: [&str; 6] = [
    "Thanks.",
    "Thanks!",
    "Thanks in advance.",
    "Thanks for looking into it.",
    "Thanks for the great work so far.",
    "Any help is appreciated, thanks.",
];

/// Every message the story's families can make, to its family.
fn family_messages() -> HashMap<String, usize> {
    let mut all = HashMap::new();
    for (family, cores) in FAMILIES.iter().enumerate() {
        for core in *cores {
            for opener in OPENERS {
                let mut core = (*core).to_owned();
                if !opener.is_empty() {
                    core.replace_range(..1, &core[..1].to_lowercase());
                }
                for ending in ENDINGS {
                    let text = format!("{opener}{core}{ending}");
                    for sign_off in SIGN_OFFS {
                        all.insert(format!("{text} {sign_off}"), family);
                    }
                    all.insert(text, family);
                }
            }
        }
    }
    all
}

pub(super) fn anchor() -> Timestamp {
    "2026-11-22T12:00:00Z".parse().unwrap()
}

/// The demo's store: seed 1, 5,000 items.
fn demo() -> Store {
    let data = feedback_sim::data::generate(1, 5000, anchor());
    let mut store = Store::open_memory().unwrap();
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let items: Vec<_> = data.items().map(|d| d.feedback).collect();
    for page in items.chunks(500) {
        store.put_items(page, anchor()).unwrap();
    }
    store
}

fn top(store: &Store, view: &ViewQuery) -> TopIssues {
    let window = Window::ending(anchor(), &TimeZone::UTC, SERIES_DAYS);
    store
        .top_issues(view, &window, 100_000, usize::MAX, &mut |_| {})
        .unwrap()
}

/// The view of a search, as the inbox makes it.
pub(super) fn searched(store: &Store, search: &str) -> ViewQuery {
    let cx = crate::search::Context {
        now: anchor(),
        tz: TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let parsed = feedback_core::query::parse(search).unwrap();
    ViewQuery::default().search(crate::search::compile(store.conn(), &parsed, &cx).unwrap())
}

/// Per family, the clusters (indexes) holding its messages, with how many each holds.
fn families_in(store: &Store, top: &TopIssues) -> Vec<BTreeMap<usize, usize>> {
    let families = family_messages();
    let text_of: HashMap<i64, String> = store
        .conn()
        .prepare("SELECT k, message FROM items")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut found = vec![BTreeMap::new(); FAMILIES.len()];
    for (c, cluster) in top.clusters.iter().enumerate() {
        for key in &cluster.keys {
            if let Some(&family) = families.get(&text_of[key]) {
                *found[family].entry(c).or_insert(0) += 1;
            }
        }
    }
    found
}

fn report(top: &TopIssues) -> String {
    let mut out = format!("{} items, {} clusters\n", top.items, top.total_clusters);
    for c in top.clusters.iter().take(40) {
        writeln!(out, "{:4} {:?}", c.keys.len(), c.label).unwrap();
    }
    out
}

fn assert_families_apart(store: &Store, top: &TopIssues, least: usize) {
    let found = families_in(store, top);
    let mut owner: HashMap<usize, usize> = HashMap::new();
    for (family, clusters) in found.iter().enumerate() {
        let members: usize = clusters.values().sum();
        assert!(
            members >= least,
            "family {family}: {members}\n{}",
            report(top)
        );
        // Nearly all in one cluster: a message whose sign-off follows without a stop ("… splash
        // screen Thanks for the great work so far.") leads with the sign-off too, and may stand
        // apart.
        let largest = clusters.values().max().copied().unwrap_or(0);
        assert!(
            largest * 10 >= members * 9,
            "family {family} over {clusters:?}\n{}",
            report(top)
        );
        for &c in clusters.keys() {
            let other = owner.insert(c, family);
            assert!(
                other.is_none_or(|o| o == family),
                "cluster {c} holds families {other:?} and {family}\n{}",
                report(top)
            );
        }
    }
}

#[test]
fn each_story_family_is_mostly_one_cluster_and_families_stay_apart() {
    let store = demo();
    let all = top(&store, &ViewQuery::default());
    assert_families_apart(&store, &all, 50);
    let closes = top(&store, &searched(&store, "\"closes itself\""));
    let found = families_in(&store, &closes);
    // The largest cluster of the search is the family's, and holds most of it.
    let members: usize = found[0].values().sum();
    assert!(
        found[0].get(&0).is_some_and(|&n| n * 10 >= members * 9),
        "{:?}\n{}",
        found[0],
        report(&closes)
    );
}

#[test]
#[ignore = "a measurement: prints the demo's largest clusters"]
fn print_the_demos_top_issues() {
    let store = demo();
    let all = top(&store, &ViewQuery::default());
    eprintln!("== all: {}", report(&all));
    eprintln!("families: {:?}", families_in(&store, &all));
    let closes = top(&store, &searched(&store, "\"closes itself\""));
    eprintln!("== \"closes itself\": {}", report(&closes));
    eprintln!("families: {:?}", families_in(&store, &closes));
}
