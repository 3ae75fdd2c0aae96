//! Runs `api_key_command` (through `sh -c`, as git's credential helpers are run) and takes the
//! first line of its stdout as the key.
//!
//! The command is the user's, but it must not hang the program or flood it: it gets a deadline
//! (default 10 s, `api_key_command_timeout_seconds`) after which it is killed, its output is
//! capped, and the program does not wait for a background child that inherited stdout and keeps
//! it open (it reads until the first line, end of output or a short grace after the command
//! exited). Its stderr, shown when it fails, is sanitized and has anything key-shaped redacted.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::ConfigError;

/// How long the command may run when the config does not say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The timeouts the config may give, in seconds.
pub const TIMEOUT_SECONDS: std::ops::RangeInclusive<u64> = 1..=3600;
/// The most output read from each of stdout and stderr.
pub const OUTPUT_CAP: usize = 64 * 1024;
/// How long to keep reading after the command exited, for output still in the pipe.
const AFTER_EXIT: Duration = Duration::from_millis(200);
/// How often to look whether the command exited while no output arrives.
const POLL: Duration = Duration::from_millis(10);

/// Runs `command` and returns the first line of its stdout, trimmed.
pub fn run(command: &str, timeout: Duration) -> Result<String, ConfigError> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(&format!("could not start it: {e}")))?;
    let stdout = child.stdout.take().map(reader);
    let stderr = child.stderr.take().map(reader);
    let deadline = Instant::now()
        .checked_add(timeout)
        .ok_or_else(|| failed("its timeout is too long"))?;
    let mut out = Vec::new();
    let status = wait(&mut child, stdout.as_ref(), &mut out, deadline, timeout)?;
    let grace = deadline.min(Instant::now() + AFTER_EXIT);
    if let Some(rx) = &stdout {
        drain(rx, &mut out, grace, |bytes| bytes.contains(&b'\n'));
    }
    if !status.success() {
        let mut err = Vec::new();
        if let Some(rx) = &stderr {
            drain(rx, &mut err, grace, |_| false);
        }
        return Err(failed(&format!(
            "it exited with {status}: {}",
            first_line_shown(&err)
        )));
    }
    first_line(&out)
}

/// Waits for the command to exit, collecting stdout meanwhile; kills it at the deadline or when
/// its output passes the cap.
fn wait(
    child: &mut Child,
    stdout: Option<&Receiver<Vec<u8>>>,
    out: &mut Vec<u8>,
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
        if out.len() > OUTPUT_CAP {
            stop(child);
            return Err(too_long());
        }
        let tick = deadline.min(now + POLL);
        match stdout {
            Some(rx) => {
                drain(rx, out, tick, |_| true);
            }
            None => std::thread::sleep(tick - now),
        }
    }
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Reads a pipe on its own thread, sending chunks until end of output; stops after one byte over
/// the cap (enough to tell the output was too long) or once nobody listens.
fn reader(mut pipe: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        let mut total = 0;
        while total <= OUTPUT_CAP {
            let n = match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n.min(OUTPUT_CAP + 1 - total),
            };
            total += n;
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Moves arrived chunks into `out` until `enough`, end of output, or `until`; true at end of
/// output.
fn drain(
    rx: &Receiver<Vec<u8>>,
    out: &mut Vec<u8>,
    until: Instant,
    enough: impl Fn(&[u8]) -> bool,
) -> bool {
    loop {
        let left = until.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(chunk) => {
                out.extend_from_slice(&chunk);
                if enough(out) || out.len() > OUTPUT_CAP {
                    return false;
                }
            }
            Err(RecvTimeoutError::Timeout) => return false,
            Err(RecvTimeoutError::Disconnected) => return true,
        }
    }
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
    let clean = crate::text::sanitize_line(line);
    crate::api::key::redact_keys(&crate::width::excerpt(&clean, 200)).into_owned()
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
mod tests {
    use super::*;

    fn quick() -> Duration {
        Duration::from_secs(5)
    }

    #[test]
    fn first_line_of_stdout_is_the_key() {
        let key = run("printf ' service_eu_sk_abc \\nmore\\n'", quick()).unwrap();
        assert_eq!(key, "service_eu_sk_abc");
        assert_eq!(
            run("printf service_eu_sk_x", quick()).unwrap(),
            "service_eu_sk_x"
        );
    }

    #[test]
    fn a_background_child_holding_stdout_open_is_not_waited_for() {
        let started = Instant::now();
        let key = run("sleep 30 & echo service_eu_sk_abc", Duration::from_secs(20)).unwrap();
        assert_eq!(key, "service_eu_sk_abc");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_command_that_hangs_is_stopped_at_the_timeout() {
        let started = Instant::now();
        let err = run("sleep 30", Duration::from_millis(300)).unwrap_err();
        assert!(
            err.to_string().contains("did not finish within 0.3s"),
            "{err}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_timeout_past_the_clock_is_an_error_not_a_panic() {
        let err = run("echo service_eu_sk_x", Duration::MAX).unwrap_err();
        assert!(err.to_string().contains("timeout is too long"), "{err}");
    }

    #[test]
    fn endless_output_is_capped() {
        let err = run("yes x | tr -d '\\n'", quick()).unwrap_err();
        assert!(
            err.to_string().contains("no line break within 64 KiB"),
            "{err}"
        );
    }

    #[test]
    fn stderr_is_cleaned_and_redacted_before_it_is_shown() {
        let err = run(
            "printf '\\n\\033]0;t\\007wrong key service_eu_sk_leaked1\\n' >&2; exit 3",
            quick(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            !err.contains("leaked1") && err.contains("<redacted>"),
            "{err}"
        );
        assert!(!err.chars().any(char::is_control), "{err:?}");
        assert!(err.contains("exit status: 3"), "{err}");
    }
}
