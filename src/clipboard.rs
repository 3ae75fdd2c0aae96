//! Copying text for the user: the system clipboard through arboard where one is reachable (one
//! instance kept for the whole process, since X11/Wayland contents vanish with their owner), and
//! otherwise an OSC 52 write to the terminal (SSH, no display), wrapped for tmux when inside it.
//! The text handed in is already sanitized.

use std::io::Write;
use std::sync::{Arc, Mutex};

use base64::Engine;
use thiserror::Error;

/// Largest OSC 52 payload (base64 characters) we send; many terminals drop longer ones.
pub const OSC52_MAX_ENCODED: usize = 4096;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ClipboardError {
    #[error("too large for the terminal clipboard ({0} bytes encoded, limit {OSC52_MAX_ENCODED})")]
    TooLarge(usize),
    #[error("no clipboard available: {0}")]
    Unavailable(String),
}

/// Somewhere text can be copied to. Returns how it was copied, for the status bar.
pub trait Clipboard: Send {
    fn copy(&mut self, text: &str) -> Result<&'static str, ClipboardError>;
}

/// The OSC 52 escape sequence that asks the terminal to set its clipboard. Inside tmux the
/// sequence is sent twice: plainly (tmux with `set-clipboard on` stores it in a paste buffer and
/// forwards it) and wrapped in tmux's DCS passthrough (reaches the outer terminal when
/// `allow-passthrough` is on).
pub fn osc52_sequence(text: &str, in_tmux: bool) -> Result<Vec<u8>, ClipboardError> {
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
    fn copy(&mut self, text: &str) -> Result<&'static str, ClipboardError> {
        let bytes = osc52_sequence(text, self.in_tmux)?;
        self.out
            .write_all(&bytes)
            .and_then(|()| self.out.flush())
            .map_err(|e| ClipboardError::Unavailable(e.to_string()))?;
        Ok(if self.in_tmux {
            "via OSC 52 (tmux)"
        } else {
            "via OSC 52"
        })
    }
}

/// The system clipboard when reachable, else OSC 52 on stdout.
pub struct SystemClipboard {
    system: Option<arboard::Clipboard>,
    fallback: Osc52<std::io::Stdout>,
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
        Self {
            system,
            fallback: Osc52::new(std::io::stdout(), std::env::var_os("TMUX").is_some()),
        }
    }
}

impl Default for SystemClipboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Clipboard for SystemClipboard {
    fn copy(&mut self, text: &str) -> Result<&'static str, ClipboardError> {
        if let Some(system) = &mut self.system {
            if system.set_text(text.to_owned()).is_ok() {
                return Ok("to the system clipboard");
            }
        }
        self.fallback.copy(text)
    }
}

/// True inside an SSH session.
#[must_use]
pub fn over_ssh() -> bool {
    ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// True where a graphical session can be reached (always on macOS and Windows).
#[must_use]
pub fn has_display() -> bool {
    if cfg!(any(target_os = "macos", target_os = "windows")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// An in-memory clipboard for tests.
#[derive(Debug, Clone, Default)]
pub struct MemoryClipboard {
    pub copied: Arc<Mutex<Vec<String>>>,
}

impl Clipboard for MemoryClipboard {
    fn copy(&mut self, text: &str) -> Result<&'static str, ClipboardError> {
        crate::clock::lock(&self.copied).push(text.to_owned());
        Ok("to memory")
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(sink.copy("a").unwrap(), "via OSC 52");
        assert_eq!(sink.out, b"\x1b]52;c;YQ==\x07");
    }
}
