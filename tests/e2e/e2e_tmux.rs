//! End-to-end: the built binary (release when built and current, else the test profile's) runs
//! `feedback-inbox demo` inside tmux with no display; keys are sent with `send-keys` and the
//! screen is read with `capture-pane` until the expected text appears or a deadline passes.
//! Skipped (with a note) where tmux is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tmux;

use std::process::Command;

use tmux::{Tmux, binary};

fn launch(tmux: &Tmux) {
    let command = format!("{} demo --items 3000", binary().display());
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("the head synced", |s| {
        stored_count(s) > 0 && s.contains("as of") && s.contains("Projects")
    });
}

/// The count of the list's title (`Feedback · new · 1,234 items`): the rows of the view.
fn stored_count(screen: &str) -> usize {
    screen
        .split("Feedback · new · ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or(0)
}

/// The status bar's count of webhook arrivals (`live: 12 arrived`).
fn arrived(screen: &str) -> Option<usize> {
    screen
        .split("live: ")
        .nth(1)?
        .split(" arrived")
        .next()?
        .replace(',', "")
        .parse()
        .ok()
}

/// The count of rows marked new in the list's title (`… 352 items · 12 new ↑`); 0 without.
fn new_rows(screen: &str) -> usize {
    screen
        .split(" items · ")
        .nth(1)
        .and_then(|rest| rest.split(" new").next())
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or(0)
}

#[test]
fn first_screen_paging_detail_and_osc52_copy() {
    let Some(tmux) = Tmux::start("flow") else {
        return;
    };
    launch(&tmux);
    let screen = tmux.screen();
    assert!(
        screen.contains("Nimbus Notes") && screen.contains("MESSAGE"),
        "{screen}"
    );

    let first = stored_count(&tmux.screen());
    tmux.keys(&["G"]);
    let screen = tmux.wait_for("more pages stored", |s| {
        stored_count(s) > first || s.contains("end of list")
    });
    assert!(screen.contains("as of"), "{screen}");

    tmux.keys(&["g"]);
    let mut link = None;
    for _ in 0..12 {
        tmux.keys(&["Enter"]);
        // The fetched detail (the stored list fields come first, without delivery links).
        let screen = tmux.wait_for("the fetched detail", |s| {
            s.contains("details as of") && s.contains("Delivery")
        });
        link = screen
            .split_whitespace()
            .find(|w| w.starts_with("https://issues.example.com/"))
            .map(str::to_owned);
        if link.is_some() {
            break;
        }
        tmux.keys(&["Escape"]);
        tmux.wait_for("the list again", |s| !s.contains("details as of"));
        tmux.keys(&["j"]);
    }
    let link = link.expect("an item with an issue-tracker link among the first 12");
    tmux.keys(&["y"]);
    tmux.wait_for("the copy confirmation", |s| {
        s.contains("Copied the issue-tracker link to tmux's paste buffer")
    });
    let buffer = String::from_utf8(tmux.run(&["show-buffer"]).stdout).unwrap();
    assert_eq!(buffer, link);
    tmux.run(&["delete-buffer"]);
    tmux.keys(&["o"]);
    // The message may be cut to the bar's room (how much depends on the budget's and the
    // unseen count's widths); its start says why and what was done.
    tmux.wait_for("the reason nothing opened", |s| {
        s.contains("Not opened (no display); copied the")
    });
    let buffer = String::from_utf8(tmux.run(&["show-buffer"]).stdout).unwrap();
    assert_eq!(buffer, link, "the link was copied instead");
}

#[test]
fn q_leaves_the_alternate_screen_and_the_shell_is_usable() {
    let Some(tmux) = Tmux::start("quit") else {
        return;
    };
    launch(&tmux);
    assert!(tmux.alternate_on());
    tmux.keys(&["q"]);
    tmux.wait_for("the shell prompt", |s| !s.contains("Projects"));
    assert!(!tmux.alternate_on());
    tmux.keys(&["echo done-$((40+2))", "Enter"]);
    tmux.wait_for("the shell to answer", |s| {
        s.contains("done-42\n") || s.lines().any(|l| l == "done-42")
    });
}

#[test]
fn help_overlay_and_resize_redraw() {
    let Some(tmux) = Tmux::start("help") else {
        return;
    };
    launch(&tmux);
    tmux.keys(&["?"]);
    tmux.wait_for("the help overlay", |s| {
        s.contains("copy issue-tracker link") && s.contains("toggle_mouse")
    });
    tmux.keys(&["?"]);
    tmux.wait_for("help to close", |s| !s.contains("toggle_mouse"));
    tmux.run(&["resize-window", "-t", "main", "-x", "30", "-y", "10"]);
    tmux.wait_for("the too-small message", |s| {
        s.contains("terminal too small")
    });
    tmux.run(&["resize-window", "-t", "main", "-x", "100", "-y", "30"]);
    tmux.wait_for("the inbox again", |s| {
        // "terminal too small", not "too small" alone: a message may say that.
        s.contains("as of") && !s.contains("terminal too small")
    });
    tmux.keys(&["q"]);
}

#[test]
fn at_80x24_a_long_hint_is_cut_in_the_bar_and_whole_in_the_message_log() {
    let Some(tmux) = Tmux::start("messages") else {
        return;
    };
    launch(&tmux);
    tmux.run(&["resize-window", "-t", "main", "-x", "80", "-y", "24"]);
    tmux.wait_for("80 columns", |s| s.lines().all(|l| l.chars().count() <= 80));
    // The demo configures no command to pipe to: `|` says how to add one.
    tmux.keys(&["|"]);
    let screen = tmux.wait_for("the hint, cut", |s| s.contains("No command to pipe"));
    assert!(
        !screen.contains("argv to config.toml"),
        "cut at 80 columns:\n{screen}"
    );
    tmux.keys(&["M"]);
    let screen = tmux.wait_for("the message log", |s| s.contains(" Messages ("));
    let words: Vec<&str> = screen
        .split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect();
    let hint = "No command to pipe to: add [[commands]] with a name and an argv to config.toml";
    let hint: Vec<&str> = hint.split_whitespace().collect();
    assert!(
        words.windows(hint.len()).any(|w| w == hint.as_slice()),
        "the hint whole in the log:\n{screen}"
    );
    tmux.keys(&["Escape"]);
    tmux.wait_for("the log to close", |s| !s.contains(" Messages ("));
    tmux.keys(&["q"]);
}

/// The simulator as a separate process, submitting every 300 ms and delivering to `hook`
/// (retries scaled to a hundredth, in case it is faster than the inbox's receiver).
struct Sim {
    child: std::process::Child,
    base_url: String,
    /// Kept open: the simulator must be able to write its second line and its notes.
    _stdout: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    _home: tempfile::TempDir,
}

impl Sim {
    fn start(hook: &str) -> Self {
        use std::io::{BufRead, BufReader};
        let home = tempfile::tempdir().unwrap();
        let mut child = Command::new(binary())
            .args(["sim", "--addr", "127.0.0.1:0", "--items", "500"])
            .args(["--submit-every", "0.3", "--webhook-url", hook])
            .args(["--webhook-secret-env", "HOOK_SECRET"])
            .args(["--webhook-time-scale", "0.01"])
            .env("HOOK_SECRET", "e2e-secret")
            .env("XDG_STATE_HOME", home.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = lines.next().unwrap().unwrap();
        let base_url = first.strip_prefix("FEEDBACK_BASE_URL=").unwrap().to_owned();
        Self {
            child,
            base_url,
            _stdout: lines,
            _home: home,
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_inbox_listening_for_webhooks_shows_arrivals_live() {
    let Some(tmux) = Tmux::start("live") else {
        return;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let sim = Sim::start(&format!("http://127.0.0.1:{port}/"));
    let command = format!(
        "FEEDBACK_BASE_URL={} FEEDBACK_API_KEY={} HOOK_SECRET=e2e-secret {} --listen 127.0.0.1:{port} --secret-env HOOK_SECRET",
        sim.base_url,
        feedback_sim::DEMO_KEY,
        binary().display()
    );
    tmux.keys(&[&command, "Enter"]);
    let screen = tmux.wait_for("two arrivals", |s| {
        s.contains("as of") && arrived(s).is_some_and(|n| n >= 2)
    });
    // The list is at its top: the arrivals show on screen, marked new, and the title counts
    // them in the same frame as the status bar (a refresh may have put more rows on top).
    let arrivals = arrived(&screen).unwrap();
    let new_rows = new_rows(&screen);
    let marked = screen.lines().filter(|l| l.contains("│•")).count();
    assert!(
        new_rows >= arrivals && marked >= arrivals.min(20),
        "{arrivals} arrived, {new_rows} new, {marked} marked:\n{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the shell prompt", |s| !s.contains("Projects"));
}
