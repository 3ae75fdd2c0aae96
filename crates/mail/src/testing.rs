//! Test-only: a real SMTP server on loopback for the tests of the crates that send mail
//! (`tests/smtp_server.py`, Python's aiosmtpd), on a port of the kernel's choosing. Behind the
//! `testing` feature, never in the shipped binary.
#![allow(clippy::unwrap_used, clippy::missing_panics_doc)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `smtp_server.py` (`args`: `--tls CERT KEY`, `--mode drop`), stopped when dropped.
pub struct SmtpServer {
    child: Child,
    pub port: u16,
    dir: tempfile::TempDir,
}

impl SmtpServer {
    /// Starts the server; `None` (a skip) when Python's aiosmtpd is not here, which under
    /// `CI=true` is a failure.
    #[must_use]
    pub fn start(args: &[&str]) -> Option<Self> {
        let dir = tempfile::tempdir().unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp_server.py");
        let spawned = Command::new("python3")
            .arg(&script)
            .arg("--dir")
            .arg(dir.path())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(child) => child,
            Err(e) => return skip(&format!("python3: {e}")),
        };
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let Some(port) = line.trim().strip_prefix("PORT ") else {
            let _ = child.kill();
            return skip("smtp_server.py did not start (pip install aiosmtpd)");
        };
        Some(Self {
            port: port.parse().unwrap(),
            child,
            dir,
        })
    }

    /// The messages the server accepted, in the order accepted.
    #[must_use]
    pub fn messages(&self) -> Vec<String> {
        let mut found: Vec<(u32, String)> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                let n = name
                    .strip_prefix("msg-")?
                    .strip_suffix(".eml")?
                    .parse()
                    .ok()?;
                let text = std::fs::read_to_string(self.dir.path().join(&name)).ok()?;
                Some((n, text))
            })
            .collect();
        found.sort();
        found.into_iter().map(|(_, text)| text).collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn skip<T>(why: &str) -> Option<T> {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "no SMTP server for the mail tests under CI=true: {why}"
    );
    eprintln!("skipped: {why}");
    None
}
