//! Runs `api_key_command` (through `sh -c`, as git's credential helpers are run) and takes the
//! first line of its stdout as the key.
//!
//! The command is the user's, but it must not hang the program or flood it: it gets a deadline
//! (default 10 s, `api_key_command_timeout_seconds`) after which it is killed together with
//! everything it started (it runs in a process group of its own), its output is capped (what
//! follows the first line is read and dropped; no line break within the cap is an error), and
//! the program does not wait for a background child that inherited stdout and keeps it open (it
//! reads until the first line, end of output or a short grace after the command exited). Its
//! stderr, shown when it fails, is sanitized and has anything key-shaped redacted.
//!
//! Being in a group of its own, the command is not the terminal's foreground: it cannot prompt
//! on the terminal (stdin is not the terminal either).

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::ConfigError;

/// How long the command may run when the config does not say.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The timeouts the config may give, in seconds.
pub(crate) const TIMEOUT_SECONDS: std::ops::RangeInclusive<u64> = 1..=3600;
/// The most output read from each of stdout and stderr.
pub(crate) const OUTPUT_CAP: usize = 64 * 1024;
/// How long to keep reading after the command exited, for output still in the pipe.
const AFTER_EXIT: Duration = Duration::from_millis(200);
/// How often to look whether the command exited while no output arrives.
const POLL: Duration = Duration::from_millis(10);
/// Chunks a pipe's reader thread may have waiting unread.
const CHANNEL_CHUNKS: usize = 16;

/// Runs `command` and returns the first line of its stdout, trimmed.
pub fn run(command: &str, timeout: Duration) -> Result<String, ConfigError> {
    let mut sh = feedback_core::child_env::shell_line(command).map_err(|e| failed(&e))?;
    sh.stdin(Stdio::null());
    run_prepared(sh, timeout)
}

/// Runs a prepared command (its stdin as the caller set it) in a process group of its own, so
/// that stopping it stops whatever it started.
fn run_prepared(mut command: Command, timeout: Duration) -> Result<String, ConfigError> {
    let deadline = Instant::now()
        .checked_add(timeout)
        .ok_or_else(|| failed("its timeout is too long"))?;
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let spawned = command.spawn();
    // The command keeps the parent's copies of what it was handed (a pipe as stdin): close them.
    drop(command);
    let mut child = spawned.map_err(|e| failed(&format!("could not start it: {e}")))?;
    let mut pipes = Pipes {
        stdout: child.stdout.take().map(reader),
        stderr: child.stderr.take().map(reader),
        out: Vec::new(),
        err: Vec::new(),
    };
    let status = wait(&mut child, &mut pipes, deadline, timeout)?;
    let grace = deadline.min(Instant::now() + AFTER_EXIT);
    pipes.read_stdout(grace, true);
    if !status.success() {
        pipes.read_stderr(grace);
        let said = first_line_shown(&pipes.err);
        let said = if said.is_empty() {
            " and said nothing on stderr".to_owned()
        } else {
            format!(": {said}")
        };
        return Err(failed(&format!("it exited with {status}{said}")));
    }
    first_line(&pipes.out)
}

/// Waits for the command to exit, collecting its output meanwhile; stops it at the deadline or
/// when its output passes the cap without a line break. Once stdout is at its end (closed by
/// the command), only the exit is polled for.
fn wait(
    child: &mut Child,
    pipes: &mut Pipes,
    deadline: Instant,
    timeout: Duration,
) -> Result<ExitStatus, ConfigError> {
    loop {
        if let Some(status) = child
            .try_wait()
            .map_err(|e| failed(&format!("could not wait for it: {e}")))?
        {
            return Ok(status);
        }
        let now = Instant::now();
        if now >= deadline {
            stop(child);
            return Err(failed(&format!(
                "it did not finish within {}s and was stopped (api_key_command_timeout_seconds)",
                timeout.as_secs_f32()
            )));
        }
        if pipes.overflowed() {
            stop(child);
            return Err(too_long());
        }
        pipes.take_stderr();
        let tick = deadline.min(now + POLL);
        if !pipes.read_stdout(tick, false) {
            std::thread::sleep(tick.saturating_duration_since(Instant::now()));
        }
    }
}

/// Stops the command and everything it started (its process group), then reaps it. The group
/// is signalled before the command is reaped, so its id cannot have been reused.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        use nix::sys::signal::{Signal, killpg};
        let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The command's output as it arrives: of stdout the first line (what follows it is read and
/// dropped, so the command is never blocked on a full pipe), of stderr the first
/// [`OUTPUT_CAP`] bytes.
struct Pipes {
    stdout: Option<Receiver<Vec<u8>>>,
    stderr: Option<Receiver<Vec<u8>>>,
    out: Vec<u8>,
    err: Vec<u8>,
}

impl Pipes {
    /// Reads stdout until a chunk arrives (`until_line`: until the first line is held or the
    /// output passes the cap), its end, or `until`. False once stdout is at its end.
    fn read_stdout(&mut self, until: Instant, until_line: bool) -> bool {
        let Some(rx) = &self.stdout else {
            return false;
        };
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(chunk) => {
                    if !has_line(&self.out) {
                        self.out.extend_from_slice(&chunk);
                    }
                    if !until_line || has_line(&self.out) || self.out.len() > OUTPUT_CAP {
                        return true;
                    }
                }
                Err(RecvTimeoutError::Timeout) => return true,
                Err(RecvTimeoutError::Disconnected) => {
                    self.stdout = None;
                    return false;
                }
            }
        }
    }

    /// True when stdout passed the cap without a line break.
    fn overflowed(&self) -> bool {
        !has_line(&self.out) && self.out.len() > OUTPUT_CAP
    }

    /// Takes the stderr that has arrived, without waiting.
    fn take_stderr(&mut self) {
        if let Some(rx) = &self.stderr {
            while let Ok(chunk) = rx.try_recv() {
                keep_capped(&mut self.err, &chunk);
            }
        }
    }

    /// Reads stderr until the cap, its end, or `until`.
    fn read_stderr(&mut self, until: Instant) {
        let Some(rx) = &self.stderr else {
            return;
        };
        while self.err.len() < OUTPUT_CAP {
            let left = until.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(chunk) => keep_capped(&mut self.err, &chunk),
                Err(_) => return,
            }
        }
    }
}

fn has_line(bytes: &[u8]) -> bool {
    bytes.contains(&b'\n')
}

fn keep_capped(kept: &mut Vec<u8>, chunk: &[u8]) {
    let room = OUTPUT_CAP.saturating_sub(kept.len());
    kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
}

/// Reads a pipe on its own thread, sending chunks until end of output or until nobody listens
/// (at most [`CHANNEL_CHUNKS`] wait unread, so memory stays bounded).
fn reader(mut pipe: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::sync_channel(CHANNEL_CHUNKS);
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            let n = match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// The key: the first line of stdout, trimmed.
fn first_line(out: &[u8]) -> Result<String, ConfigError> {
    let line = out.split(|b| *b == b'\n').next().unwrap_or_default();
    if line.len() > OUTPUT_CAP {
        return Err(too_long());
    }
    let line = std::str::from_utf8(line).map_err(|_| failed("its output is not UTF-8"))?;
    Ok(line.trim().to_owned())
}

/// The first non-empty stderr line, cleaned for a terminal and with keys redacted.
fn first_line_shown(err: &[u8]) -> String {
    let text = String::from_utf8_lossy(err);
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let clean = feedback_core::text::sanitize_line(line);
    feedback_api::key::redact_keys(&feedback_core::excerpt::excerpt(&clean, 200)).into_owned()
}

fn too_long() -> ConfigError {
    failed(&format!(
        "its output has no line break within {} KiB",
        OUTPUT_CAP / 1024
    ))
}

fn failed(why: &str) -> ConfigError {
    ConfigError::KeyCommand(why.to_owned())
}

#[cfg(test)]
mod tests;
