//! End-to-end, acting on items (the built binary in tmux, against the simulator): `c` copies
//! the selected item's Markdown block through OSC 52 into tmux's paste buffer (`set-clipboard
//! on`; `TMUX` unset so the inbox does not use `load-buffer`), compared byte for byte with the
//! block made from the stored detail; two items marked with Space go through `|` to a command
//! from the config's `[[commands]]` (argv, no shell of ours), which receives them as JSON lines
//! and whose exit status the status bar shows; `P` masks the reporter's email in the detail.
//! Skipped (with a note) where tmux is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tmux;

use feedback_sim::{self as sim, DEMO_KEY, SimConfig};
use feedback_store::{Store, ViewQuery};
use feedback_tui::acting::copies::{Copied, markdown};
use tmux::{Tmux, binary};

fn buffer(tmux: &Tmux) -> String {
    String::from_utf8(tmux.run(&["show-buffer"]).stdout).unwrap()
}

#[test]
fn c_copies_the_markdown_block_through_osc52_and_pipe_sends_json_lines() {
    let Some(tmux) = Tmux::start("acting") else {
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
    let piped = dir.path().join("piped.jsonl");
    let config_file = dir.path().join("config.toml");
    std::fs::write(
        &config_file,
        format!(
            "[[commands]]\nname = \"save\"\nargv = [\"sh\", \"-c\", \"cat > '{}'; exit 3\"]\n",
            piped.display()
        ),
    )
    .unwrap();
    let command = format!(
        "env -u TMUX FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={DEMO_KEY} FEEDBACK_STORE={} {} --config {}",
        sim.base_url(),
        store.display(),
        binary().display(),
        config_file.display(),
    );
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("the first page", |s| {
        s.contains("as of") && s.contains("unseen")
    });

    // `i` first: the selected item's id, by the same road.
    tmux.keys(&["i"]);
    tmux.wait_for("the id sent", |s| s.contains("Sent the id as OSC 52"));
    let id = buffer(&tmux);
    assert!(
        !id.is_empty() && !id.contains(char::is_whitespace),
        "{id:?}"
    );
    tmux.run(&["delete-buffer"]);
    tmux.keys(&["c"]);
    tmux.wait_for("the Markdown block sent", |s| {
        s.contains("Sent the Markdown block as OSC 52")
    });
    let copied = buffer(&tmux);
    let stored = Store::open(&store).unwrap().detail(&id).unwrap().unwrap();
    assert!(stored.detail_at.is_some(), "fetched before the copy");
    let mut expected = Copied::untriaged(stored.to_detail());
    expected.triage = Store::open(&store).unwrap().triage(&id).unwrap();
    let expected = markdown(&expected, false);
    assert_eq!(copied, expected.as_str(), "byte for byte");
    assert!(copied.starts_with("> ") && copied.contains(&format!("- **Feedback:** {id} (")));

    // Two items marked, piped to the configured command.
    tmux.keys(&["Space"]);
    tmux.keys(&["Space"]);
    tmux.wait_for("two marks", |s| s.contains("2 marked"));
    tmux.keys(&["|"]);
    // The command's output stays readable until a key is pressed.
    tmux.wait_for("the wait for a key", |s| {
        s.contains("exit 3 — press a key to return")
    });
    assert!(!tmux.alternate_on(), "the inbox waits outside its screen");
    tmux.keys(&["x"]);
    tmux.wait_for("the command's exit status", |s| {
        s.contains("Piped 2 items to save: exit status 3")
    });
    let lines = std::fs::read_to_string(&piped).unwrap();
    let items: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), 2, "{lines}");
    assert_eq!(items[0]["id"], id.as_str(), "the view's order");
    assert!(items[1]["message"].is_string() && items[1]["metadata"].is_object());
    assert!(lines.ends_with('\n'));

    // Privacy: the detail shows no email; the marker is on.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the marks cleared", |s| !s.contains("2 marked"));
    tmux.keys(&["P"]);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the private detail", |s| {
        s.contains("PRIVATE") && s.contains("Metadata (custom)")
    });
    let db = Store::open(&store).unwrap();
    let keys = db.view_keys(&ViewQuery::default(), None).unwrap();
    let emails: Vec<String> = db
        .items(&keys)
        .unwrap()
        .into_iter()
        .filter_map(|i| i.feedback.reporter_email)
        .collect();
    assert!(!emails.is_empty());
    for email in &emails {
        assert!(!screen.contains(email.as_str()), "{email} shows:\n{screen}");
    }
    tmux.keys(&["q"]);
    tmux.keys(&["q"]);
    tmux.wait_for("the shell", |_| !tmux.alternate_on());
    runtime.block_on(sim.shutdown());
}
