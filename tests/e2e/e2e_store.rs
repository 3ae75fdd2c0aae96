//! End-to-end, the store over a restart: the inbox (release binary, in tmux) mirrors a
//! simulator into its store and quits; the simulator stops; the inbox starts again and shows
//! the stored rows on its first screen, says it is offline, and still searches and filters.
//! Skipped (with a note) where tmux is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tmux;

use feedback_core::query::parse;
use feedback_sim::{self as sim, DEMO_KEY, SimConfig};
use feedback_store::search::Context;
use feedback_store::{Store, ViewQuery};
use tmux::{Tmux, binary};

/// The count in the list's title (`Feedback · new · 1,234 items`, or `… 12 matches` while
/// searching).
fn title_count(screen: &str, after: &str) -> Option<usize> {
    screen
        .split(after)
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.replace(',', "").parse().ok())
}

/// Stored `new` items matching `query`, counted by the store itself.
fn stored_matches(path: &std::path::Path, query: &str) -> usize {
    let store = Store::open(path).unwrap();
    let cx = Context {
        now: jiff::Timestamp::now(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let sql = store.compile(&parse(query).unwrap(), &cx).unwrap();
    let view = ViewQuery::listed(Some("new")).search(sql);
    store.view_keys(&view, None).unwrap().len()
}

#[test]
fn after_a_mirror_the_inbox_restarts_offline_with_its_rows_and_search() {
    let Some(tmux) = Tmux::start("store") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = SimConfig {
        items: 400,
        rate_per_minute: 100_000,
        ..SimConfig::default()
    };
    let sim = runtime.block_on(sim::start(config)).unwrap();
    let count = |status: &str| {
        sim.state()
            .read()
            .items()
            .filter(|d| d.feedback.status.as_str() == status)
            .count()
    };
    let (new_items, archived_items) = (count("new"), count("archived"));
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("account.sqlite3");
    let command = format!(
        "FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={DEMO_KEY} FEEDBACK_STORE={} {}",
        sim.base_url(),
        store.display(),
        binary().display()
    );

    // First run: the head sync and the background mirror every item of both statuses.
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("every new item stored and shown", |s| {
        title_count(s, "Feedback · new · ") == Some(new_items) && s.contains("as of")
    });
    tmux.keys(&["s"]);
    tmux.wait_for("every archived item stored and shown", |s| {
        title_count(s, "Feedback · archived · ") == Some(archived_items)
    });
    tmux.keys(&["s"]);
    tmux.wait_for("back to new", |s| {
        title_count(s, "Feedback · new · ") == Some(new_items)
    });
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());
    runtime.block_on(sim.shutdown());

    // Second run, the service gone: the stored rows at once, and "offline".
    tmux.keys(&[&command, "Enter"]);
    let screen = tmux.wait_for("the stored rows, offline", |s| {
        title_count(s, "Feedback · new · ") == Some(new_items) && s.contains("offline")
    });
    assert!(screen.contains("Projects"), "{screen}");

    // Search over the store, as the store itself counts it.
    let word = "thanks";
    let expected = stored_matches(&store, word);
    assert!(expected > 0 && expected < new_items, "{expected}");
    tmux.keys(&["/"]);
    tmux.keys(&["-l", word]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the search's matches", |s| {
        s.contains(&format!("{expected} match"))
    });
    assert!(screen.to_lowercase().contains(word), "{screen}");

    // Status switch, offline: the archived items are there too.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the search cleared", |s| {
        title_count(s, "Feedback · new · ") == Some(new_items)
    });
    tmux.keys(&["s"]);
    tmux.wait_for("the archived view", |s| {
        title_count(s, "Feedback · archived · ") == Some(archived_items)
    });
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());
}
