//! Support for the tmux end-to-end tests: a private tmux server with one session running a
//! shell, the binary under test, and a watcher that checks what the inbox left of the terminal.
//! Screens are polled with `capture-pane` until the expected text appears or a deadline passes.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A private tmux server with one 120x35 session running a shell.
pub struct Tmux {
    socket: String,
    _home: tempfile::TempDir,
}

impl Tmux {
    pub fn start(name: &str) -> Option<Self> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "tmux is not installed: the end-to-end tests cannot skip under CI"
            );
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

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap()
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// True while the pane shows the alternate screen (a full-screen program is up).
    pub fn alternate_on(&self) -> bool {
        let out = self
            .run(&["display", "-p", "-t", "main", "#{alternate_on}"])
            .stdout;
        String::from_utf8_lossy(&out).trim() == "1"
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "main"]).stdout)
            .into_owned()
    }

    /// Polls the screen until `ready` holds; panics with the last screen at the deadline.
    pub fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
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
pub fn timeout() -> Duration {
    Duration::from_secs(if std::env::var_os("CI").is_some() {
        30
    } else {
        10
    })
}

/// `FEEDBACK_E2E_BINARY` when set (CI points it at the release build); otherwise the release
/// binary when it is built and at least as new as the test profile's (so a stale release build
/// left from earlier work is never tested by mistake).
pub fn binary() -> PathBuf {
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

/// The demo started by a script that, once the inbox has ended (however it ended), records
/// what the inbox left behind: its exit status, the terminal's modes (`stty -a`), and whether a paste still
/// arrives wrapped in bracketed-paste markers. The script's own shell is not interactive, so
/// it does not repair the terminal the way an interactive bash would after a killed job.
pub struct Watched {
    dir: tempfile::TempDir,
    pid: String,
}

impl Watched {
    pub fn start(tmux: &Tmux) -> Self {
        Self::start_with(tmux, "")
    }

    /// [`Watched::start`] with `env` (`NAME=value ...`, quoted with double quotes only) in the
    /// demo's environment.
    pub fn start_with(tmux: &Tmux, env: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().display();
        let script = format!(
            "sh -c 'echo $$ > {d}/pid; exec env {env} {bin} demo --items 3000'\n\
             echo $? > {d}/status\n\
             stty -a > {d}/stty\n\
             echo STTY-DONE\n\
             IFS= read -r line\n\
             printf '%s\\n' \"$line\" | cat -v > {d}/paste\n\
             echo ALL-DONE\n",
            bin = binary().display()
        );
        std::fs::write(dir.path().join("run.sh"), script).unwrap();
        tmux.keys(&[&format!("sh {d}/run.sh"), "Enter"]);
        let deadline = Instant::now() + timeout();
        let pid = loop {
            let pid = std::fs::read_to_string(dir.path().join("pid")).unwrap_or_default();
            if pid.trim().parse::<u32>().is_ok() {
                break pid.trim().to_owned();
            }
            assert!(Instant::now() < deadline, "the demo did not start");
            std::thread::sleep(Duration::from_millis(20));
        };
        Self { dir, pid }
    }

    pub fn kill(&self, signal: &str) {
        // The process may already be gone (a second signal during shutdown): not an error here.
        let _ = Command::new("kill")
            .args(["-s", signal, &self.pid])
            .output()
            .unwrap();
    }

    /// The inbox's exit status, once it has ended.
    pub fn exit_status(&self) -> Option<i32> {
        let text = std::fs::read_to_string(self.dir.path().join("status")).ok()?;
        text.trim().parse().ok()
    }

    /// Waits for the inbox to end, then checks every mode it had turned on is off again.
    pub fn assert_restored(&self, tmux: &Tmux, case: &str) {
        tmux.wait_for(&format!("the inbox to end ({case})"), |s| {
            s.contains("STTY-DONE")
        });
        let stty = std::fs::read_to_string(self.dir.path().join("stty")).unwrap();
        let modes: Vec<&str> = stty
            .split(|c: char| c.is_whitespace() || c == ';')
            .collect();
        for mode in ["icanon", "echo", "icrnl", "isig"] {
            assert!(modes.contains(&mode), "{case}: {mode} is off:\n{stty}");
        }
        assert!(
            !tmux.alternate_on(),
            "{case}: still on the alternate screen"
        );
        for flag in ["mouse_any_flag", "mouse_button_flag", "mouse_sgr_flag"] {
            let format = format!("#{{{flag}}}");
            let out = tmux.run(&["display", "-p", "-t", "main", &format]).stdout;
            let value = String::from_utf8_lossy(&out).trim().to_owned();
            assert_eq!(value, "0", "{case}: {flag} is still on");
        }
        tmux.run(&["set-buffer", "-b", "probe", "probe-text"]);
        tmux.run(&["paste-buffer", "-p", "-b", "probe", "-t", "main"]);
        tmux.keys(&["Enter"]);
        tmux.wait_for(&format!("the paste probe ({case})"), |s| {
            s.contains("ALL-DONE")
        });
        let pasted = std::fs::read_to_string(self.dir.path().join("paste")).unwrap();
        // A key typed just before a signal may be left unread in front of the probe; only the
        // bracketed-paste markers around it matter here.
        assert!(
            pasted.ends_with("probe-text\n") && !pasted.contains("[200~"),
            "{case}: bracketed paste is still on: {pasted:?}"
        );
    }
}
