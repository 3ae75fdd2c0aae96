//! The interactive inbox without a terminal: the built binary, with stdout piped, stops at once
//! with one sentence and exit status 2 instead of drawing escape sequences into the pipe.
#![allow(clippy::unwrap_used)]

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with stdout piped and stdin empty; kills it if it is still running at the
/// deadline (the inbox waiting for keys that never come).
fn run_piped(args: &[&str]) -> (Option<i32>, String, String) {
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("FEEDBACK_BASE_URL", "http://127.0.0.1:9")
        .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY)
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.and_then(|s| s.code()), out, err)
}

#[test]
fn the_inbox_and_the_demo_without_a_terminal_say_so_and_exit_2() {
    for args in [&[][..], &["demo"][..]] {
        let (code, out, err) = run_piped(args);
        assert_eq!(code, Some(2), "{args:?} exits 2; stderr: {err}");
        assert!(out.is_empty(), "{args:?} wrote to the pipe: {out:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one sentence: {err}");
        assert!(err.contains("needs a terminal"), "{args:?}: {err}");
        assert!(err.contains("stdout"), "{args:?}: {err}");
        assert!(!err.contains('\x1b'), "{args:?}: {err:?}");
    }
}
