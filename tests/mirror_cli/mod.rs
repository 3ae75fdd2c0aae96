//! Shared set-up of the tests that run the built binary as members of a team sharing one
//! mirror: the command with a clean environment (the simulator's account, the team's URL, a
//! store and a home of its own), what it said, and a proxy that notes what a run asked the
//! service for (`proxy`).
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

pub mod proxy;

use std::path::Path;
use std::process::{Command, Output};

use feedback_sim::DEMO_KEY;

/// The binary as a member of the team at `team_url`, on the store at `store`.
pub fn command(base_url: &str, team_url: &str, store: &Path, args: &[&str]) -> Command {
    let home = store.with_extension("home");
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", DEMO_KEY)
        .env("FEEDBACK_STORE", store)
        .env("FEEDBACK_TEAM_URL", team_url);
    command
}

/// [`command`], run to its end.
pub fn run(base_url: &str, team_url: &str, store: &Path, args: &[&str]) -> Output {
    command(base_url, team_url, store, args).output().unwrap()
}

/// What a run wrote, stdout then stderr.
pub fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
