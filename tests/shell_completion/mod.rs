//! Asking the program for completions as the script `completions bash` installs does: the words
//! of the line so far after `--`, the index of the word to complete, `COMPLETE=bash`.
#![allow(dead_code, clippy::unwrap_used)]

use std::ffi::OsStr;
use std::process::Command;

/// The candidates the program answers for word `index` of `words`, with `env` set (and
/// nothing else of this process's environment but `PATH`).
pub fn complete(env: &[(&str, &OsStr)], words: &[&str], index: usize) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", index.to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(words)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}
