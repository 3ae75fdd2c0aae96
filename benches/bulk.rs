//! The bulk paths at the size a year of a busy account reaches: the release binary searching
//! and exporting a store of `BULK_ITEMS` items (1,000,000 by default; the simulator's data as a
//! sync stores it, made once and kept in `target/bulk/`), writing JSONL to `/dev/null` as a
//! script piping into `jq` would read it. Each command runs `BULK_RUNS` times (5) in a fresh
//! process; printed: the median and p95 wall time, the median user and system time, the peak
//! resident size, and the lines written. With `rg` on `PATH`, the same words are also searched
//! with `rg -i -w` over the store's JSONL export, the tool a user would reach for instead:
//! counting (`-c`), and printing the matching lines through the same pipe.
//!
//! `cargo bench --bench bulk` (after `cargo build --release`; `FEEDBACK_BULK_BINARY` names
//! another binary). A figure for people, not a test: nothing is asserted about time.
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use release::{binary, env_or, median, percentile};

#[path = "support/bulk_store.rs"]
mod bulk_store;
#[path = "support/release.rs"]
mod release;

/// Words of the simulator's messages by how many of 1,000,000 items hold them: 3,363 (rare),
/// 8,102 (about 1%) and 824,458 (most).
const WORDS: [(&str, &str); 3] = [
    ("rare", "upload"),
    ("one_percent", "login"),
    ("common", "the"),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--one") {
        one(&args[at + 1..]);
        return;
    }
    if !args.iter().any(|a| a == "--bench") {
        // Built as a test: nothing to measure at a small size.
        return;
    }
    let items: usize = env_or("BULK_ITEMS", 1_000_000);
    let runs: usize = env_or("BULK_RUNS", 5);
    let binary = binary();
    let store = bulk_store::path(items);
    println!(
        "{} on a store of {items} items ({:.0} MB), {runs} runs each",
        binary.display(),
        std::fs::metadata(&store).unwrap().len() as f64 / 1e6
    );
    let store_arg = store.display().to_string();
    let mut commands: Vec<(String, Vec<String>)> = Vec::new();
    for (name, word) in WORDS {
        commands.push((
            format!("search {name} ({word}) jsonl"),
            strings(&["search", word, "--format", "jsonl"]),
        ));
    }
    let common = WORDS[2].1;
    commands.push((
        format!("search common ({common}) --fields id"),
        strings(&["search", common, "--format", "jsonl", "--fields", "id"]),
    ));
    commands.push((
        "store export (all, jsonl)".to_owned(),
        strings(&["store", "export"]),
    ));
    for (name, command) in &commands {
        let mut args = vec!["--store".to_owned(), store_arg.clone()];
        args.extend(command.iter().cloned());
        report(name, &binary, &args, runs);
    }
    if let Some(rg) = which("rg") {
        let export = store.with_extension("jsonl");
        if !export.exists() {
            let file = std::fs::File::create(&export).unwrap();
            let status = Command::new(&binary)
                .args(["--store", &store_arg, "store", "export"])
                .stdout(file)
                .status()
                .unwrap();
            assert!(status.success());
        }
        // Counting (`-c`) writes one number; printing writes the matching lines through the
        // same pipe as the searches above, the work a script's `rg … | jq` asks for.
        for (name, word) in WORDS {
            let export = export.display().to_string();
            for (how, count) in [("count", true), ("lines", false)] {
                let mut args = strings(&["-i", "-w", word, &export]);
                if count {
                    args.insert(0, "-c".to_owned());
                }
                report(
                    &format!("rg {name} ({word}) {how} over the export"),
                    &rg,
                    &args,
                    runs,
                );
            }
        }
    }
}

/// Runs `program args` `runs` times, each in a fresh process of this bench (whose children's
/// usage is then that one run's), and prints the figures.
fn report(name: &str, program: &Path, args: &[String], runs: usize) {
    let mut walls = Vec::new();
    let mut users = Vec::new();
    let mut systems = Vec::new();
    let mut peak = 0_u64;
    let mut lines = 0_u64;
    for _ in 0..runs {
        let out = Command::new(std::env::current_exe().unwrap())
            .arg("--one")
            .arg(program)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let f: Vec<u64> = text
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        walls.push(Duration::from_micros(f[0]));
        users.push(Duration::from_micros(f[1]));
        systems.push(Duration::from_micros(f[2]));
        peak = peak.max(f[3]);
        lines = f[4];
    }
    println!(
        "{name:<42} median {:>9.3?}  p95 {:>9.3?}  user {:>9.3?}  sys {:>9.3?}  peak {:>6.1} MiB  {lines} lines",
        median(&mut walls),
        percentile(&mut walls, 95),
        median(&mut users),
        median(&mut systems),
        peak as f64 / 1024.0
    );
}

/// One run of `program args…`: its wall time, user and system time in seconds, peak resident
/// size in KiB, and the lines it wrote (counted through a pipe as a consumer would read them).
fn one(command: &[String]) {
    use std::io::Read as _;

    let started = Instant::now();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .env("HOME", std::env::temp_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut buffer = vec![0_u8; 1 << 16];
    let mut lines = 0_u64;
    loop {
        let n = stdout.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        // A bench's reader: counting newlines needs no crate of its own.
        #[allow(clippy::naive_bytecount)]
        let read = buffer[..n].iter().filter(|&&b| b == b'\n').count();
        lines += read as u64;
    }
    let status = child.wait().unwrap();
    let wall = started.elapsed();
    assert!(status.success(), "{command:?}: {status}");
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    let micros = |t: nix::sys::time::TimeVal| {
        u64::try_from(t.tv_sec()).unwrap() * 1_000_000 + u64::try_from(t.tv_usec()).unwrap()
    };
    println!(
        "{} {} {} {} {lines}",
        wall.as_micros(),
        micros(usage.user_time()),
        micros(usage.system_time()),
        usage.max_rss()
    );
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}
