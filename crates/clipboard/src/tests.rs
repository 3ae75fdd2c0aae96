//! Tests of the clipboard paths, `feed` and `run` (children killed on timeout), and the
//! SSH/display checks.
use super::*;

#[test]
fn osc52_is_base64_and_wrapped_for_tmux() {
    let plain = osc52_sequence("hi", false).unwrap();
    assert_eq!(plain, b"\x1b]52;c;aGk=\x07");
    let tmux = String::from_utf8(osc52_sequence("hi", true).unwrap()).unwrap();
    assert!(
        tmux.starts_with("\x1b]52;c;aGk=\x07\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"),
        "{tmux:?}"
    );
}

#[test]
fn large_copies_are_refused_with_a_reason() {
    let big = "x".repeat(4000);
    let err = osc52_sequence(&big, false).unwrap_err();
    assert!(matches!(err, ClipboardError::TooLarge(n) if n > OSC52_MAX_ENCODED));
    assert!(
        err.to_string()
            .contains("too large for the terminal clipboard")
    );
    assert!(osc52_sequence(&"x".repeat(3000), false).is_ok());
}

#[test]
fn osc52_writer_writes_the_sequence() {
    let mut sink = Osc52::new(Vec::new(), false);
    assert_eq!(
        sink.copy("a").unwrap(),
        CopyMethod::Osc52 { in_tmux: false }
    );
    assert_eq!(sink.out, b"\x1b]52;c;YQ==\x07");
}

/// A tmux buffer that records what it was given, or fails.
struct FakeTmux {
    loaded: Arc<Mutex<Vec<String>>>,
    fail: bool,
}

impl TmuxBuffer for FakeTmux {
    fn load(&mut self, text: &str) -> Result<(), String> {
        if self.fail {
            return Err("no server running".into());
        }
        feedback_core::mutex::lock(&self.loaded).push(text.to_owned());
        Ok(())
    }
}

type Loaded = Arc<Mutex<Vec<String>>>;

fn terminal(fail: bool) -> (TerminalClipboard<FakeTmux, Vec<u8>>, Loaded) {
    let loaded = Arc::default();
    let tmux = FakeTmux {
        loaded: Arc::clone(&loaded),
        fail,
    };
    (TerminalClipboard::new(Some(tmux), Vec::new()), loaded)
}

#[test]
fn inside_tmux_the_copy_goes_to_the_paste_buffer_first() {
    let (mut clipboard, loaded) = terminal(false);
    let method = clipboard.copy("https://x.example/1").unwrap();
    assert_eq!(method, CopyMethod::TmuxBuffer);
    assert!(method.certain());
    assert_eq!(*loaded.lock().unwrap(), ["https://x.example/1"]);
    assert!(
        clipboard.osc52.out.is_empty(),
        "no OSC 52 when tmux took it"
    );
}

#[test]
fn when_tmux_fails_osc52_is_sent_and_the_note_says_on_what_it_depends() {
    let (mut clipboard, loaded) = terminal(true);
    let method = clipboard.copy("hi").unwrap();
    assert_eq!(method, CopyMethod::Osc52 { in_tmux: true });
    assert!(loaded.lock().unwrap().is_empty());
    assert!(
        clipboard
            .osc52
            .out
            .starts_with(b"\x1b]52;c;aGk=\x07\x1bPtmux;")
    );
    assert!(!method.certain(), "OSC 52 is a request, not a copy");
    assert_eq!(
        method.how(),
        "as OSC 52; tmux passes it on only with set-clipboard on"
    );
}

#[test]
fn outside_tmux_osc52_is_the_terminal_clipboard() {
    let mut clipboard: TerminalClipboard<FakeTmux, Vec<u8>> =
        TerminalClipboard::new(None, Vec::new());
    let method = clipboard.copy("a").unwrap();
    assert_eq!(method, CopyMethod::Osc52 { in_tmux: false });
    assert_eq!(clipboard.osc52.out, b"\x1b]52;c;YQ==\x07");
    assert!(method.how().contains("only if the terminal accepts OSC 52"));
}

#[cfg(unix)]
#[test]
fn feed_writes_stdin_and_reports_failure_and_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out");
    let mut cat = Command::new("sh");
    cat.args(["-c", "cat > \"$0\""]).arg(&path);
    feed(cat, b"copied text", Duration::from_secs(10)).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "copied text");

    let mut failing = Command::new("sh");
    failing.args(["-c", "exit 3"]);
    assert!(feed(failing, b"", Duration::from_secs(10)).is_err());
    let missing = Command::new("/nonexistent/tmux");
    assert!(feed(missing, b"", Duration::from_secs(10)).is_err());

    let mut hung = Command::new("sleep");
    hung.arg("2");
    let started = std::time::Instant::now();
    let err = feed(hung, b"", Duration::from_millis(200)).unwrap_err();
    assert!(err.contains("no answer"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_child_that_does_not_answer_in_time_is_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    // Neither reads its input nor ends: records its pid, then sleeps in the same process.
    let mut hung = Command::new("sh");
    hung.args(["-c", "echo $$ > \"$0\"; exec sleep 30"])
        .arg(&pid_file);
    let err = feed(hung, &vec![b'x'; 1 << 20], Duration::from_millis(300)).unwrap_err();
    assert!(err.contains("no answer"), "{err}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let proc_dir = std::path::Path::new("/proc").join(pid.trim());
    assert!(
        !proc_dir.exists(),
        "the hung child {} is still there",
        pid.trim()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn run_returns_stdout_and_kills_a_child_that_does_not_answer_in_time() {
    let mut echo = Command::new("sh");
    echo.args(["-c", "echo ' on '; echo oops >&2"]);
    assert_eq!(run(echo, Duration::from_secs(10)).unwrap(), "on");
    let mut failing = Command::new("sh");
    failing.args(["-c", "echo why >&2; exit 3"]);
    let err = run(failing, Duration::from_secs(10)).unwrap_err();
    assert!(err.contains("why"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let mut hung = Command::new("sh");
    hung.args(["-c", "echo $$ > \"$0\"; exec sleep 30"])
        .arg(&pid_file);
    let err = run(hung, Duration::from_millis(300)).unwrap_err();
    assert!(err.contains("no answer"), "{err}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let proc_dir = std::path::Path::new("/proc").join(pid.trim());
    assert!(
        !proc_dir.exists(),
        "the hung child {} is still there",
        pid.trim()
    );
}

#[test]
fn ssh_and_display_are_read_through_the_lookup_given() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert!(over_ssh_in(&env(&[("SSH_TTY", "/dev/pts/1")])));
    assert!(!over_ssh_in(&env(&[("DISPLAY", ":0")])));
    assert!(has_display_in(&env(&[("WAYLAND_DISPLAY", "w")])));
    if cfg!(target_os = "linux") {
        assert!(!has_display_in(&env(&[("DISPLAY", "")])));
    }
}
