//! Copying text for the user: the system clipboard through arboard where one is reachable (one
//! instance kept for the whole process, since X11/Wayland contents vanish with their owner);
//! inside tmux, `tmux load-buffer -w -`, so the text lands in tmux's paste buffer for sure (and
//! tmux forwards it to the outer terminal when `set-clipboard` allows); otherwise, or when that
//! fails, an OSC 52 write to the terminal, which the terminal may or may not honour. The result
//! says which of these happened, so the status bar never claims more than was done. The text
//! handed in is already sanitized. It is the only crate that depends on arboard and builds on
//! `feedback-core` alone.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use thiserror::Error;

/// Largest OSC 52 payload (base64 characters) we send; many terminals drop longer ones.
pub(crate) const OSC52_MAX_ENCODED: usize = 4096;

/// How long `tmux load-buffer` may take before the copy falls back to OSC 52 (the copy runs on
/// the UI loop, so it must not hang it).
pub const TMUX_TIMEOUT: Duration = Duration::from_secs(1);

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ClipboardError {
    #[error("too large for the terminal clipboard ({0} bytes encoded, limit {OSC52_MAX_ENCODED})")]
    TooLarge(usize),
    #[error("no clipboard available: {0}")]
    Unavailable(String),
}

/// Where a copy went, which decides what the status bar may claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyMethod {
    SystemClipboard,
    TmuxBuffer,
    /// Written to the terminal as OSC 52: a request the terminal (or tmux) may ignore.
    Osc52 {
        in_tmux: bool,
    },
    Memory,
}

impl CopyMethod {
    /// True when the text certainly landed; OSC 52 is only a request to the terminal.
    #[must_use]
    pub fn certain(self) -> bool {
        !matches!(self, Self::Osc52 { .. })
    }

    /// Completes "Copied the id …" (certain) or "Sent the id …" (OSC 52).
    #[must_use]
    pub fn how(self) -> &'static str {
        match self {
            Self::SystemClipboard => "to the system clipboard",
            Self::TmuxBuffer => "to tmux's paste buffer",
            Self::Osc52 { in_tmux: true } => {
                "as OSC 52; tmux passes it on only with set-clipboard on"
            }
            Self::Osc52 { in_tmux: false } => {
                "as OSC 52; it is copied only if the terminal accepts OSC 52"
            }
            Self::Memory => "to memory",
        }
    }
}

/// Somewhere text can be copied to. Returns how it was copied, for the status bar.
pub trait Clipboard: Send {
    fn copy(&mut self, text: &str) -> Result<CopyMethod, ClipboardError>;
}

/// The OSC 52 escape sequence that asks the terminal to set its clipboard. Inside tmux the
/// sequence is sent twice: plainly (tmux with `set-clipboard on` stores it in a paste buffer and
/// forwards it) and wrapped in tmux's DCS passthrough (reaches the outer terminal when
/// `allow-passthrough` is on).
pub(crate) fn osc52_sequence(text: &str, in_tmux: bool) -> Result<Vec<u8>, ClipboardError> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    if encoded.len() > OSC52_MAX_ENCODED {
        return Err(ClipboardError::TooLarge(encoded.len()));
    }
    let plain = format!("\x1b]52;c;{encoded}\x07");
    let mut out = plain.clone().into_bytes();
    if in_tmux {
        out.extend_from_slice(format!("\x1bPtmux;\x1b\x1b]52;c;{encoded}\x07\x1b\\").as_bytes());
    }
    Ok(out)
}

/// OSC 52 to a terminal writer.
pub struct Osc52<W: Write + Send> {
    out: W,
    in_tmux: bool,
}

impl<W: Write + Send> Osc52<W> {
    pub fn new(out: W, in_tmux: bool) -> Self {
        Self { out, in_tmux }
    }
}

impl<W: Write + Send> Clipboard for Osc52<W> {
    fn copy(&mut self, text: &str) -> Result<CopyMethod, ClipboardError> {
        let bytes = osc52_sequence(text, self.in_tmux)?;
        self.out
            .write_all(&bytes)
            .and_then(|()| self.out.flush())
            .map_err(|e| ClipboardError::Unavailable(e.to_string()))?;
        Ok(CopyMethod::Osc52 {
            in_tmux: self.in_tmux,
        })
    }
}

/// Loads text into tmux's paste buffer.
pub trait TmuxBuffer: Send {
    /// `Err` carries why it failed (tmux missing, too old for `-w`, no server, timeout).
    fn load(&mut self, text: &str) -> Result<(), String>;
}

/// The real one: `tmux load-buffer -w -` with the text on stdin.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TmuxCommand;

impl TmuxBuffer for TmuxCommand {
    fn load(&mut self, text: &str) -> Result<(), String> {
        let mut command = Command::new("tmux");
        command.args(["load-buffer", "-w", "-"]);
        feed(command, text.as_bytes(), TMUX_TIMEOUT)
    }
}

/// How often `feed` looks whether its child has ended.
const FEED_POLL: Duration = Duration::from_millis(10);

/// Runs `command` with `input` on stdin and its output discarded (it must not draw over the
/// inbox); an error when it cannot start, exits unsuccessfully, or takes longer than `timeout`,
/// in which case it is killed and reaped, so a hung child never outlives the copy. The input is
/// written from a helper thread (a child that does not read would block the write); that write
/// ends when the child does, as its stdin then breaks.
pub fn feed(mut command: Command, input: &[u8], timeout: Duration) -> Result<(), String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take();
    let input = input.to_vec();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let written = stdin.as_mut().map_or(Ok(()), |s| s.write_all(&input));
        drop(stdin);
        let _ = tx.send(written);
    });
    let status = wait_or_kill(&mut child, timeout)?;
    if !status.success() {
        return Err(format!("exited with {status}"));
    }
    match rx.recv_timeout(timeout) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err("its input could not be written".to_owned()),
    }
}

/// Runs `command` (stdin empty) and returns its stdout, trimmed; an error when it cannot
/// start, exits unsuccessfully (with its stderr), or takes longer than `timeout`, in which case
/// it is killed and reaped. Its output is read from helper threads, so a chatty child never
/// blocks on a full pipe.
pub fn run(mut command: Command, timeout: Duration) -> Result<String, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let read = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).trim().to_owned()
        })
    };
    let stdout = read(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = read(child.stderr.take().map(|p| Box::new(p) as _));
    let status = wait_or_kill(&mut child, timeout)?;
    // The child has ended: its pipes are closed and the readers finish.
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if status.success() {
        Ok(stdout)
    } else {
        Err(format!("{status} ({stderr})"))
    }
}

/// Waits for `child` at most `timeout`; past it, or when it cannot be waited for, kills and
/// reaps it.
fn wait_or_kill(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Result<std::process::ExitStatus, String> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if std::time::Instant::now() < deadline => std::thread::sleep(FEED_POLL),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {}s", timeout.as_secs_f32()));
            }
            Err(error) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(error.to_string());
            }
        }
    }
}

/// The terminal's clipboard: tmux's paste buffer when inside tmux, else (or when that fails)
/// OSC 52.
pub(crate) struct TerminalClipboard<T: TmuxBuffer, W: Write + Send> {
    tmux: Option<T>,
    osc52: Osc52<W>,
}

impl<T: TmuxBuffer, W: Write + Send> TerminalClipboard<T, W> {
    /// `tmux` is `Some` inside tmux.
    pub(crate) fn new(tmux: Option<T>, out: W) -> Self {
        let in_tmux = tmux.is_some();
        Self {
            tmux,
            osc52: Osc52::new(out, in_tmux),
        }
    }
}

impl<T: TmuxBuffer, W: Write + Send> Clipboard for TerminalClipboard<T, W> {
    fn copy(&mut self, text: &str) -> Result<CopyMethod, ClipboardError> {
        if let Some(tmux) = &mut self.tmux {
            match tmux.load(text) {
                Ok(()) => return Ok(CopyMethod::TmuxBuffer),
                Err(reason) => tracing::info!(%reason, "tmux load-buffer failed; using OSC 52"),
            }
        }
        self.osc52.copy(text)
    }
}

/// The system clipboard when reachable, else the terminal's.
pub struct SystemClipboard {
    system: Option<arboard::Clipboard>,
    fallback: TerminalClipboard<TmuxCommand, std::io::Stdout>,
}

impl SystemClipboard {
    /// Connects to the system clipboard unless running over SSH (where it would be the remote
    /// machine's) or without a display.
    #[must_use]
    pub fn new() -> Self {
        let system = if over_ssh() || !has_display() {
            None
        } else {
            arboard::Clipboard::new().ok()
        };
        let tmux = std::env::var_os("TMUX").is_some().then_some(TmuxCommand);
        Self {
            system,
            fallback: TerminalClipboard::new(tmux, std::io::stdout()),
        }
    }
}

impl Default for SystemClipboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Clipboard for SystemClipboard {
    fn copy(&mut self, text: &str) -> Result<CopyMethod, ClipboardError> {
        if let Some(system) = &mut self.system
            && system.set_text(text.to_owned()).is_ok()
        {
            return Ok(CopyMethod::SystemClipboard);
        }
        self.fallback.copy(text)
    }
}

/// Whether the system clipboard answers now (what `doctor` asks): `Err` with the reason when
/// it does not.
pub fn system_probe() -> Result<(), String> {
    arboard::Clipboard::new()
        .map(drop)
        .map_err(|e| e.to_string())
}

/// True inside an SSH session.
#[must_use]
pub fn over_ssh() -> bool {
    over_ssh_in(&|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
}

/// True inside an SSH session, by `env` (a variable's value, `None` when unset): the one test
/// `y`, `o` and `doctor` share.
#[must_use]
pub fn over_ssh_in(env: &dyn Fn(&str) -> Option<String>) -> bool {
    ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]
        .iter()
        .any(|v| env(v).is_some())
}

/// True where a graphical session can be reached (always on macOS and Windows).
#[must_use]
pub fn has_display() -> bool {
    has_display_in(&|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
}

/// [`has_display`] by `env`.
#[must_use]
pub fn has_display_in(env: &dyn Fn(&str) -> Option<String>) -> bool {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| env(v).is_some_and(|s| !s.is_empty()))
}

/// An in-memory clipboard for tests.
#[derive(Debug, Clone, Default)]
pub struct MemoryClipboard {
    pub copied: Arc<Mutex<Vec<String>>>,
}

impl Clipboard for MemoryClipboard {
    fn copy(&mut self, text: &str) -> Result<CopyMethod, ClipboardError> {
        feedback_core::mutex::lock(&self.copied).push(text.to_owned());
        Ok(CopyMethod::Memory)
    }
}

#[cfg(test)]
mod tests;
