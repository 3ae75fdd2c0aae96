//! End-to-end, triage is durable and shared: the inbox (release binary, in tmux) stars an item;
//! the moment the glyph is on screen it is killed with SIGKILL; the store holds the star, and
//! the inbox started again shows it. A second inbox on the same store stars another item, and
//! the first shows it after its refresh (`r`). A star and a done item are as left after a
//! quit and restart (the done one only in the Done view). Skipped (with a note) where tmux is
//! not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tmux;

use std::process::Command;
use std::time::{Duration, Instant};

use feedback_core::query::parse;
use feedback_sim::{self as sim, DEMO_KEY, SimConfig};
use feedback_store::search::Context;
use feedback_store::{Store, ViewQuery};
use tmux::{Tmux, binary, timeout};

/// Stored items matching `query`, counted by the store itself.
fn stored_matches(path: &std::path::Path, query: &str) -> usize {
    let store = Store::open(path).unwrap();
    let cx = Context {
        now: jiff::Timestamp::now(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let sql = store.compile(&parse(query).unwrap(), &cx).unwrap();
    store
        .view_keys(&ViewQuery::default().search(sql), None)
        .unwrap()
        .len()
}

fn stars(screen: &str) -> usize {
    screen.matches('★').count()
}

/// Waits for the pid the wrapper script wrote.
fn read_pid(path: &std::path::Path) -> String {
    let deadline = Instant::now() + timeout();
    loop {
        let pid = std::fs::read_to_string(path).unwrap_or_default();
        if pid.trim().parse::<u32>().is_ok() {
            return pid.trim().to_owned();
        }
        assert!(Instant::now() < deadline, "the inbox did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_star_survives_kill_9_and_shows_in_another_window_after_refresh() {
    let (Some(one), Some(two)) = (Tmux::start("triage-one"), Tmux::start("triage-two")) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = SimConfig {
        items: 60,
        rate_per_minute: 100_000,
        ..SimConfig::default()
    };
    let sim = runtime.block_on(sim::start(config)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("account.sqlite3");
    let pid_file = dir.path().join("pid");
    let env = format!(
        "FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={DEMO_KEY} FEEDBACK_STORE={}",
        sim.base_url(),
        store.display(),
    );
    let wrapped = format!(
        "{env} sh -c 'echo $$ > {}; exec {}'",
        pid_file.display(),
        binary().display()
    );
    let plain = format!("{env} {}", binary().display());

    one.keys(&[&wrapped, "Enter"]);
    one.wait_for("the first page", |s| {
        s.contains("as of") && s.contains("unseen")
    });
    let pid = read_pid(&pid_file);
    one.keys(&["*"]);
    one.wait_for("the star's glyph", |s| stars(s) == 1);
    // The moment the glyph is shown: no chance to clean up.
    let killed = Command::new("kill").args(["-9", &pid]).status().unwrap();
    assert!(killed.success());
    assert_eq!(
        stored_matches(&store, "is:starred"),
        1,
        "committed before shown"
    );

    // The terminal was left raw on the alternate screen: give it back, start again.
    one.keys(&["stty sane; printf '\\033[?1049l'; clear", "Enter"]);
    one.wait_for("the shell", |_| !one.alternate_on());
    one.keys(&[&plain, "Enter"]);
    one.wait_for("the star after the restart", |s| {
        s.contains("as of") && stars(s) == 1
    });

    // A second window on the same store stars the next item.
    two.keys(&[&plain, "Enter"]);
    two.wait_for("the second window, with the star", |s| {
        s.contains("as of") && stars(s) == 1
    });
    two.keys(&["j"]);
    two.keys(&["*"]);
    two.wait_for("the second star", |s| stars(s) == 2);
    assert_eq!(stored_matches(&store, "is:starred"), 2);
    // The first sees it at its next refresh.
    one.keys(&["r"]);
    one.wait_for("both stars after the refresh", |s| stars(s) == 2);
    for tmux in [&one, &two] {
        tmux.keys(&["q"]);
        tmux.wait_for("the shell", |_| !tmux.alternate_on());
    }
    runtime.block_on(sim.shutdown());
}

#[test]
fn n_hands_the_terminal_to_the_editor_and_takes_it_back() {
    let Some(tmux) = Tmux::start("triage-editor") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = SimConfig {
        items: 30,
        rate_per_minute: 100_000,
        ..SimConfig::default()
    };
    let sim = runtime.block_on(sim::start(config)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("account.sqlite3");
    // An "editor" that reads a line typed at the terminal: every key must reach it, none the
    // inbox.
    let script = dir.path().join("ed.sh");
    std::fs::write(
        &script,
        "printf 'EDITOR-UP\\n'; IFS= read -r line; printf '%s' \"$line\" > \"$1\"\n",
    )
    .unwrap();
    let command = format!(
        "EDITOR='sh {}' FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={DEMO_KEY} FEEDBACK_STORE={} {}",
        script.display(),
        sim.base_url(),
        store.display(),
        binary().display()
    );
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("the first page", |s| {
        s.contains("as of") && s.contains("unseen")
    });
    tmux.keys(&["N"]);
    tmux.wait_for("the editor", |s| s.contains("EDITOR-UP"));
    assert!(!tmux.alternate_on(), "the inbox left the alternate screen");
    tmux.keys(&["-l", "q*dzu call back"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("the inbox again, with the note", |s| {
        s.contains("Projects") && s.contains('✎')
    });
    assert!(tmux.alternate_on());
    assert_eq!(stored_matches(&store, "has:note"), 1);
    assert_eq!(
        stored_matches(&store, "is:starred OR is:done"),
        0,
        "no key reached the inbox"
    );
    let db = Store::open(&store).unwrap();
    let keys = db.view_keys(&ViewQuery::default(), None).unwrap();
    let ids: Vec<String> = db
        .items(&keys)
        .unwrap()
        .into_iter()
        .map(|i| i.feedback.id.as_str().to_owned())
        .collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let noted: Vec<String> = db
        .triage_of(&ids)
        .unwrap()
        .into_values()
        .filter_map(|t| t.note)
        .collect();
    assert_eq!(noted, ["q*dzu call back"]);
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());
    runtime.block_on(sim.shutdown());
}

/// The stored messages of the items matching `query`.
fn stored_messages(path: &std::path::Path, query: &str) -> Vec<String> {
    let store = Store::open(path).unwrap();
    let cx = Context {
        now: jiff::Timestamp::now(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let sql = store.compile(&parse(query).unwrap(), &cx).unwrap();
    let keys = store
        .view_keys(&ViewQuery::default().search(sql), None)
        .unwrap();
    let items = store.items(&keys).unwrap();
    items.into_iter().map(|i| i.feedback.message).collect()
}

/// The start of a message as the list shows it (first line, a few words).
fn shown_start(message: &str) -> String {
    let line = message.lines().next().unwrap_or_default();
    line.chars()
        .take(18)
        .collect::<String>()
        .trim_end()
        .to_owned()
}

#[test]
fn a_star_and_a_done_item_are_as_left_after_a_restart() {
    let Some(tmux) = Tmux::start("triage-restart") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let config = SimConfig {
        items: 40,
        rate_per_minute: 100_000,
        ..SimConfig::default()
    };
    let sim = runtime.block_on(sim::start(config)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("account.sqlite3");
    let command = format!(
        "FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={DEMO_KEY} FEEDBACK_STORE={} {}",
        sim.base_url(),
        store.display(),
        binary().display()
    );
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("the first page", |s| {
        s.contains("as of") && s.contains("unseen")
    });
    // `*` stars the first row (the cursor stays on it); `j` moves to the second and `d` marks
    // it done.
    tmux.keys(&["*"]);
    tmux.wait_for("the star", |s| stars(s) == 1);
    tmux.keys(&["j", "d"]);
    let deadline = Instant::now() + timeout();
    while stored_matches(&store, "is:done") != 1 {
        assert!(Instant::now() < deadline, "the done item was not stored");
        std::thread::sleep(Duration::from_millis(20));
    }
    let done = stored_messages(&store, "is:done").remove(0);
    let done_start = shown_start(&done);
    assert!(!done_start.is_empty());
    // Whether another item's message starts the same way (then the Inbox may show that text).
    let twin = stored_messages(&store, "-is:done")
        .iter()
        .any(|m| shown_start(m) == done_start);
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());

    tmux.keys(&["clear", "Enter"]);
    tmux.keys(&[&command, "Enter"]);
    let inbox = tmux.wait_for("the Inbox with the star after the restart", |s| {
        s.contains("as of") && stars(s) == 1
    });
    assert!(!inbox.contains('✓'), "no done row in the Inbox:\n{inbox}");
    if !twin {
        assert!(!inbox.contains(&done_start), "{done_start:?} in:\n{inbox}");
    }
    tmux.keys(&["4"]);
    tmux.wait_for("the done item in the Done view", |s| {
        s.contains('✓') && s.contains(&done_start) && stars(s) == 0
    });
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());
    runtime.block_on(sim.shutdown());
}
