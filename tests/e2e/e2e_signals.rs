//! End-to-end: the terminal is given back whatever ends the inbox. The demo runs in tmux under a
//! script that records what was left behind once it ends (see `tmux::Watched`); it is ended by
//! SIGINT, SIGHUP, SIGQUIT and SIGTERM at start-up, while running and during shutdown, and by
//! Ctrl-C from the prompt, the detail and the help. A bracketed paste is text for the prompt.
//! Skipped (with a note) where tmux is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::tmux;

use std::time::{Duration, Instant};

use tmux::{Tmux, Watched, timeout};

#[test]
fn every_terminating_signal_restores_the_terminal_while_the_inbox_runs() {
    let Some(tmux) = Tmux::start("signals") else {
        return;
    };
    for (signal, number) in [("INT", 2), ("HUP", 1), ("QUIT", 3), ("TERM", 15)] {
        let watched = Watched::start(&tmux);
        tmux.wait_for("the first page", |s| {
            s.contains("as of") && s.contains("Projects")
        });
        watched.kill(signal);
        watched.assert_restored(&tmux, &format!("SIG{signal} while running"));
        assert_eq!(
            watched.exit_status(),
            Some(128 + number),
            "SIG{signal} while running: the exit status says the inbox was signalled"
        );
        tmux.keys(&["clear", "Enter"]);
    }
}

#[test]
fn a_signal_while_the_editor_has_the_terminal_reaches_the_editor_and_ends_the_inbox() {
    let Some(tmux) = Tmux::start("signal-editor") else {
        return;
    };
    for (signal, number) in [("INT", 2), ("TERM", 15)] {
        let editor = tempfile::tempdir().unwrap();
        let script = editor.path().join("editor.sh");
        let heard = editor.path().join("heard");
        let ready = editor.path().join("ready");
        // An editor that never ends by itself, says when it listens, and says which signal
        // reached it: the signal must reach the editor itself, not only a shell that started it.
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\ntrap 'echo {signal} > \"{}\"; kill $!; exit 1' {signal}\n: > \"{}\"\nsleep 600 &\nwait\n",
                heard.display(),
                ready.display()
            ),
        )
        .unwrap();
        let watched = Watched::start_with(&tmux, &format!("EDITOR=\"sh {}\"", script.display()));
        tmux.wait_for("the first page", |s| {
            s.contains("as of") && s.contains("Projects")
        });
        tmux.keys(&["N"]);
        let deadline = Instant::now() + timeout();
        while tmux.alternate_on() {
            assert!(
                Instant::now() < deadline,
                "the editor did not get the terminal"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        // A signal sent before the editor set its trap would end it unheard.
        while !ready.exists() {
            assert!(Instant::now() < deadline, "the editor did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        watched.kill(signal);
        watched.assert_restored(&tmux, &format!("SIG{signal} while the editor runs"));
        assert_eq!(
            std::fs::read_to_string(&heard).ok().as_deref(),
            Some(format!("{signal}\n").as_str()),
            "SIG{signal} was passed on to the editor"
        );
        assert_eq!(watched.exit_status(), Some(128 + number), "SIG{signal}");
        // The next run's "STTY-DONE" is the only one on the screen.
        tmux.keys(&["clear", "Enter"]);
    }
}

#[test]
fn a_signal_at_start_up_or_during_shutdown_restores_the_terminal() {
    let Some(tmux) = Tmux::start("signal-moments") else {
        return;
    };
    for signal in ["INT", "HUP", "QUIT", "TERM"] {
        let watched = Watched::start(&tmux);
        let deadline = Instant::now() + timeout();
        while !tmux.alternate_on() {
            assert!(Instant::now() < deadline, "the inbox did not start");
            std::thread::sleep(Duration::from_millis(5));
        }
        watched.kill(signal);
        watched.assert_restored(&tmux, &format!("SIG{signal} at start-up"));
        tmux.keys(&["clear", "Enter"]);

        let watched = Watched::start(&tmux);
        tmux.wait_for("the first page", |s| s.contains("as of"));
        tmux.keys(&["q"]);
        watched.kill(signal);
        watched.kill(signal);
        watched.assert_restored(&tmux, &format!("q, then SIG{signal} twice"));
        tmux.keys(&["clear", "Enter"]);

        let watched = Watched::start(&tmux);
        tmux.wait_for("the first page", |s| s.contains("as of"));
        watched.kill(signal);
        watched.kill("TERM");
        watched.kill(signal);
        watched.assert_restored(&tmux, &format!("SIG{signal} three times in a row"));
        tmux.keys(&["clear", "Enter"]);
    }
}

#[test]
fn a_bracketed_paste_fills_the_prompt_and_ctrl_c_quits_from_it() {
    let Some(tmux) = Tmux::start("paste") else {
        return;
    };
    let watched = Watched::start(&tmux);
    tmux.wait_for("the first page", |s| s.contains("as of"));
    tmux.keys(&["/"]);
    tmux.run(&["set-buffer", "-b", "text", "KINGFISHER\nsq"]);
    tmux.run(&["paste-buffer", "-p", "-b", "text", "-t", "main"]);
    let screen = tmux.wait_for("the pasted prompt", |s| s.contains("KINGFISHER sq"));
    assert!(tmux.alternate_on(), "the pasted q did not quit:\n{screen}");
    assert!(
        screen.lines().last().unwrap_or_default().contains(" new "),
        "the pasted s did not switch status:\n{screen}"
    );
    tmux.keys(&["C-c"]);
    watched.assert_restored(&tmux, "Ctrl-C in the prompt");
}

#[test]
fn ctrl_c_quits_from_the_detail_and_the_help() {
    let Some(tmux) = Tmux::start("ctrl-c") else {
        return;
    };
    for screen in ["Enter", "?"] {
        let watched = Watched::start(&tmux);
        tmux.wait_for("the first page", |s| s.contains("as of"));
        tmux.keys(&[screen]);
        tmux.wait_for("the screen", |s| {
            s.contains("Metadata (built-in)") || s.contains("toggle_mouse")
        });
        tmux.keys(&["C-c"]);
        watched.assert_restored(&tmux, &format!("Ctrl-C after {screen}"));
        tmux.keys(&["clear", "Enter"]);
    }
}
