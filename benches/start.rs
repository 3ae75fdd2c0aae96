//! What a user waits for when the inbox opens, timed on the release binary through a
//! pseudo-terminal of 120x40, as the terminal receives it:
//!
//! - **First run**: an empty store, against the simulator answering every request after
//!   `START_LATENCY_MS` (150) ms: from launch to the newest item's row on screen. Each round
//!   trip costs the latency, so the figure says how many the first rows wait for.
//! - **Offline start** on the bulk benches' store (`BULK_ITEMS`, 1,000,000 by default, made once
//!   in `target/bulk/`), the service unreachable: from launch to the newest item's row, then
//!   `j`/`k` pressed `START_KEYS` (200) times, each timed from the key written to the first
//!   bytes of the frame that answers it (the output is let settle between keys).
//!
//! Each launch runs `START_RUNS` times (7). `cargo bench --bench start` after `cargo build
//! --release` (`FEEDBACK_BULK_BINARY` names another binary). Needs `setsid` (util-linux) to give
//! the inbox the terminal as its controlling one. Figures for people: nothing is asserted.
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

#[path = "support/bulk_store.rs"]
mod bulk_store;
#[path = "support/release.rs"]
mod release;

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use release::{binary, env_or, median, percentile};

use feedback_sim::{self as sim, DEMO_KEY, SimConfig};
use feedback_store::Store;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        // Built as a test: nothing to measure.
        return;
    }
    let binary = binary();
    let runs = env_or("START_RUNS", 7);
    first_run(&binary, runs);
    offline(&binary, runs);
}

/// An empty store against the simulator with latency.
fn first_run(binary: &Path, runs: usize) {
    let latency = Duration::from_millis(env_or("START_LATENCY_MS", 150) as u64);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sim = runtime
        .block_on(sim::start(SimConfig {
            items: 5000,
            rate_per_minute: 1_000_000,
            latency,
            ..SimConfig::default()
        }))
        .unwrap();
    let newest = {
        let data = sim.state().read();
        let item = data
            .items()
            .find(|it| it.feedback.status.as_str() == "new")
            .unwrap();
        needle(&item.feedback.message)
    };
    let mut waits = Vec::new();
    for _ in 0..runs {
        let home = tempfile::tempdir().unwrap();
        let store = home.path().join("store.db");
        let started = Instant::now();
        let mut inbox = Pty::spawn(
            binary,
            &["--store", store.to_str().unwrap()],
            home.path(),
            &sim.base_url(),
        );
        let shown = inbox.wait_for(&newest, Duration::from_secs(30));
        waits.push(shown - started);
    }
    println!(
        "first run, empty store, {} ms a round trip: rows after {} median, {} p95 ({runs} runs)",
        latency.as_millis(),
        ms(median(&mut waits)),
        ms(percentile(&mut waits, 95)),
    );
    runtime.block_on(sim.shutdown());
}

/// The bulk store with the service unreachable.
fn offline(binary: &Path, runs: usize) {
    let items = env_or("BULK_ITEMS", 1_000_000);
    let path = bulk_store::path(items);
    let newest = {
        let store = Store::open(&path).unwrap();
        let ids = store.ids_with_status("new").unwrap();
        needle(&store.item(&ids[0]).unwrap().unwrap().feedback.message)
    };
    // Nothing listens on port 9 (discard) here: every request is refused at once.
    let unreachable = "http://127.0.0.1:9";
    let keys = env_or("START_KEYS", 200);
    let (mut waits, mut frames) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let home = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let mut inbox = Pty::spawn(
            binary,
            &["--store", path.to_str().unwrap()],
            home.path(),
            unreachable,
        );
        let shown = inbox.wait_for(&newest, Duration::from_secs(30));
        waits.push(shown - started);
        if run == 0 {
            inbox.settle(Duration::from_millis(300));
            for n in 0..keys {
                let key: &[u8] = if n % 2 == 0 { b"j" } else { b"k" };
                frames.push(inbox.answer(key));
                inbox.settle(Duration::from_millis(30));
            }
        }
    }
    println!(
        "offline start, {items} items: rows after {} median, {} p95 ({runs} runs)",
        ms(median(&mut waits)),
        ms(percentile(&mut waits, 95)),
    );
    println!(
        "j/k to frame, {items} items: {} median, {} p95, {} p99 ({keys} keys)",
        ms(median(&mut frames)),
        ms(percentile(&mut frames, 95)),
        ms(percentile(&mut frames, 99)),
    );
}

/// The inbox in a pseudo-terminal, its output read as it comes.
struct Pty {
    child: Child,
    input: File,
    output: Receiver<(Instant, Vec<u8>)>,
    seen: Vec<u8>,
}

impl Pty {
    fn spawn(binary: &Path, args: &[&str], home: &Path, base_url: &str) -> Self {
        let size = nix::pty::Winsize {
            ws_row: 40,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = nix::pty::openpty(Some(&size), None).unwrap();
        let terminal = |fd: &std::os::fd::OwnedFd| Stdio::from(fd.try_clone().unwrap());
        let child = Command::new("setsid")
            .arg("--ctty")
            .arg(binary)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("TERM", "xterm-256color")
            .env("FEEDBACK_BASE_URL", base_url)
            .env("FEEDBACK_API_KEY", DEMO_KEY)
            .stdin(terminal(&pty.slave))
            .stdout(terminal(&pty.slave))
            .stderr(terminal(&pty.slave))
            .spawn()
            .unwrap();
        drop(pty.slave);
        let input = File::from(pty.master);
        let mut reader = input.try_clone().unwrap();
        let (sender, output) = channel();
        std::thread::spawn(move || {
            let mut buffer = vec![0_u8; 1 << 16];
            // Ends when the inbox is gone (the terminal answers EIO) or nobody listens.
            while let Ok(n @ 1..) = reader.read(&mut buffer) {
                if sender.send((Instant::now(), buffer[..n].to_vec())).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            input,
            output,
            seen: Vec::new(),
        }
    }

    /// When `needle` had arrived whole.
    fn wait_for(&mut self, needle: &[u8], limit: Duration) -> Instant {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (at, bytes) = self
                .output
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("{:?} never showed", String::from_utf8_lossy(needle)));
            self.seen.extend_from_slice(&bytes);
            if self.seen.windows(needle.len()).any(|w| w == needle) {
                return at;
            }
        }
    }

    /// Reads until nothing has come for `quiet`.
    fn settle(&mut self, quiet: Duration) {
        loop {
            match self.output.recv_timeout(quiet) {
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return,
                Err(RecvTimeoutError::Disconnected) => panic!("the inbox ended"),
            }
        }
    }

    /// Writes `key`; how long until the first bytes after it.
    fn answer(&mut self, key: &[u8]) -> Duration {
        let sent = Instant::now();
        self.input.write_all(key).unwrap();
        let (at, _) = self.output.recv_timeout(Duration::from_secs(5)).unwrap();
        at - sent
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The start of a message as a row shows it: its leading plain ASCII, at most 16 bytes (what
/// the sanitizer and the column's width leave alone).
fn needle(message: &str) -> Vec<u8> {
    let plain: Vec<u8> = message
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b' ')
        .take(16)
        .collect();
    assert!(
        plain.len() >= 6,
        "the newest message starts with {message:?}"
    );
    plain
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
