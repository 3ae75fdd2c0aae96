//! The release binary driven in tmux: reading, acting, triage, the store, signals and the team.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../team_pg/mod.rs"]
mod team_pg;
#[path = "../tmux/mod.rs"]
mod tmux;

mod e2e_acting;
mod e2e_signals;
mod e2e_store;
mod e2e_team;
mod e2e_tmux;
mod e2e_triage;
mod e2e_version;
