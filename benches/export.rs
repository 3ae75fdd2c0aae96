//! Peak memory of an export as it grows: `list --all --status new` of a simulator of 10,000 and
//! 100,000 items (the `new` ones are exported: their count is printed), in each format, with
//! the default columns and with `--fields all`, by the built binary writing to /dev/null. Each run is measured in
//! a fresh process of this bench (so the peak is that one export's): it starts the simulator,
//! runs the binary, and reads the child's peak resident size (`getrusage`). Memory, not time:
//! a figure for people, not a test.
//!
//! `cargo bench --bench export` (`EXPORT_BENCH_ITEMS=10000,100000` sets the sizes); without
//! `--bench` (built as a test) it measures one small export.
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

use std::process::{Command, Stdio};

const FORMATS: &[&str] = &["json", "jsonl", "csv", "table"];
/// The default columns, and every column (metadata keys and links: empty without a store).
const FIELDS: &[&str] = &["default", "all"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--one") {
        let items: usize = args[at + 1].parse().unwrap();
        let (kib, exported) = one(items, &args[at + 2], &args[at + 3]);
        println!("{kib} {exported}");
        return;
    }
    let sizes: Vec<usize> = if args.iter().any(|a| a == "--bench") {
        std::env::var("EXPORT_BENCH_ITEMS")
            .unwrap_or_else(|_| "10000,100000".into())
            .split(',')
            .map(|n| n.trim().parse().unwrap())
            .collect()
    } else {
        vec![1000]
    };
    println!("peak resident memory of `list --all --status new --format F > /dev/null`");
    for fields in FIELDS {
        for format in FORMATS {
            for items in &sizes {
                let out = Command::new(std::env::current_exe().unwrap())
                    .args(["--one", &items.to_string(), format, fields])
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                let mut words = text.split_whitespace();
                let kib: f64 = words.next().unwrap().parse().unwrap();
                let exported: usize = words.next().unwrap().parse().unwrap();
                println!(
                    "{format:>6} fields {fields:<7} {exported:>7} items exported (of {items:>7}): {:>7.1} MiB",
                    kib / 1024.0
                );
            }
        }
    }
}

/// One export of a simulator of `items` items in `format` with `fields`: the child's peak
/// resident size in KiB, and the items exported (the `new` ones, counted by a second run).
///
/// The simulator runs as its own process (`feedback-inbox sim`): a child's peak resident size
/// counts what it inherited before `exec`, so a simulator in this process would be measured too
/// (and grows with the items).
#[cfg(unix)]
fn one(items: usize, format: &str, fields: &str) -> (i64, usize) {
    use std::io::BufRead;

    let home = tempfile::tempdir().unwrap();
    let mut server = bin(home.path())
        .args(["sim", "--addr", "127.0.0.1:0", "--seed", "11"])
        .args([
            "--items",
            &items.to_string(),
            "--rate-per-minute",
            "1000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    // Kept open to the end: the simulator writes more lines, and a closed pipe would end it.
    let mut said = std::io::BufReader::new(server.stdout.take().unwrap());
    said.read_line(&mut first).unwrap();
    let base_url = first
        .trim()
        .strip_prefix("FEEDBACK_BASE_URL=")
        .unwrap()
        .to_owned();
    let mut fields_flag = vec![];
    if fields != "default" {
        fields_flag = vec!["--fields", fields];
    }
    let export = ["--no-store", "list", "--all", "--status", "new", "--format"];
    let status = bin(home.path())
        .env("FEEDBACK_BASE_URL", &base_url)
        .args(export)
        .arg(format)
        .args(&fields_flag)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    let ids = bin(home.path())
        .env("FEEDBACK_BASE_URL", &base_url)
        .args(export)
        .args(["jsonl", "--fields", "id"])
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    drop(said);
    let exported = String::from_utf8_lossy(&ids.stdout).lines().count();
    (usage.max_rss(), exported)
}

/// The binary in a clean environment under `home`.
fn bin(home: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY);
    command
}

#[cfg(not(unix))]
fn one(_items: usize, _format: &str, _fields: &str) -> (i64, usize) {
    panic!("the export bench measures memory with getrusage (unix only)");
}
