//! End-to-end: the built binary (release when built and current, else the test profile's) runs
//! `feedback-inbox demo` inside tmux with no display; keys are sent with `send-keys` and the
//! screen is read with `capture-pane` until the expected text appears or a deadline passes.
//! Skipped (with a note) where tmux is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A private tmux server with one 120x35 session running a shell.
struct Tmux {
    socket: String,
    _home: tempfile::TempDir,
}

impl Tmux {
    fn start(name: &str) -> Option<Self> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux not installed; skipping");
            return None;
        }
        let home = tempfile::tempdir().unwrap();
        let socket = format!("fi-e2e-{name}-{}", std::process::id());
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "main",
                "-x",
                "120",
                "-y",
                "35",
            ])
            .args(["bash", "--norc", "--noprofile"])
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("SSH_CONNECTION")
            .env_remove("SSH_TTY")
            .env_remove("SSH_CLIENT")
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("TERM", "xterm-256color")
            .env("PS1", "$ ")
            .status()
            .unwrap();
        assert!(status.success());
        let tmux = Self {
            socket,
            _home: home,
        };
        tmux.run(&["set-option", "-g", "set-clipboard", "on"]);
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// True while the pane shows the alternate screen (a full-screen program is up).
    fn alternate_on(&self) -> bool {
        let out = self
            .run(&["display", "-p", "-t", "main", "#{alternate_on}"])
            .stdout;
        String::from_utf8_lossy(&out).trim() == "1"
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// Polls the screen until `ready` holds; panics with the last screen at the deadline.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Generous on CI, where the machine is shared.
fn timeout() -> Duration {
    Duration::from_secs(if std::env::var_os("CI").is_some() {
        30
    } else {
        10
    })
}

/// `FEEDBACK_E2E_BINARY` when set (CI points it at the release build); otherwise the release
/// binary when it is built and at least as new as the test profile's (so a stale release build
/// left from earlier work is never tested by mistake).
fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("FEEDBACK_E2E_BINARY") {
        return PathBuf::from(path);
    }
    let release = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/feedback-inbox");
    let test_build = PathBuf::from(env!("CARGO_BIN_EXE_feedback-inbox"));
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (modified(&release), modified(&test_build)) {
        (Some(r), Some(t)) if r >= t => release,
        (Some(_), None) => release,
        _ => test_build,
    }
}

fn launch(tmux: &Tmux) {
    let command = format!("{} demo --items 3000", binary().display());
    tmux.keys(&[&command, "Enter"]);
    tmux.wait_for("the first page", |s| {
        s.contains("100 loaded") && s.contains("Projects")
    });
}

fn loaded_count(screen: &str) -> usize {
    let line = screen.lines().last().unwrap_or_default();
    line.split_whitespace()
        .zip(line.split_whitespace().skip(1))
        .find(|(_, word)| *word == "loaded")
        .and_then(|(n, _)| n.parse().ok())
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

    tmux.keys(&["G"]);
    tmux.wait_for("the second page", |s| loaded_count(s) >= 200);
    tmux.keys(&["G"]);
    let screen = tmux.wait_for("the third page", |s| loaded_count(s) >= 300);
    assert!(screen.contains("loaded"), "{screen}");

    tmux.keys(&["g"]);
    let mut link = None;
    for _ in 0..12 {
        tmux.keys(&["Enter"]);
        let screen = tmux.wait_for("the detail", |s| {
            s.contains("Metadata (built-in)") && s.contains("Delivery")
        });
        link = screen
            .split_whitespace()
            .find(|w| w.starts_with("https://issues.example.com/"))
            .map(str::to_owned);
        if link.is_some() {
            break;
        }
        tmux.keys(&["Escape"]);
        tmux.wait_for("the list again", |s| !s.contains("Metadata (built-in)"));
        tmux.keys(&["j"]);
    }
    let link = link.expect("an item with an issue-tracker link among the first 12");
    tmux.keys(&["y"]);
    tmux.wait_for("the copy confirmation", |s| {
        s.contains("Copied the issue-tracker link via OSC 52")
    });
    let buffer = String::from_utf8(tmux.run(&["show-buffer"]).stdout).unwrap();
    assert_eq!(buffer, link);
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
        s.contains("loaded") && !s.contains("too small")
    });
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
        feedback_inbox::sim::DEMO_KEY,
        binary().display()
    );
    tmux.keys(&[&command, "Enter"]);
    let screen = tmux.wait_for("two arrivals", |s| {
        s.contains("loaded") && (2..10).any(|n| s.contains(&format!("live: {n} arrived")))
    });
    // The list is at its top: the arrivals show on screen, marked new, and the title counts them.
    assert!(
        screen.contains('•') && (2..10).any(|n| screen.contains(&format!("{n} new"))),
        "{screen}"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("the shell prompt", |s| !s.contains("Projects"));
}
