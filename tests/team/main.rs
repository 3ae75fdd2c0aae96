//! The team on a real PostgreSQL: the backend, its CLI, the outbox, the live link, the shared mirror and its faults, races and restarts.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;
#[path = "../hostile/mod.rs"]
mod hostile;
#[path = "../mirror_cli/mod.rs"]
mod mirror_cli;
#[path = "../sync_support/mod.rs"]
mod sync_support;
#[path = "../team_inbox/mod.rs"]
mod team_inbox;
#[path = "../team_pg/mod.rs"]
mod team_pg;
#[path = "../webhook_support/mod.rs"]
mod webhook_support;

mod team_backend;
mod team_cli;
mod team_deliveries;
mod team_faults;
mod team_guarded;
mod team_inbox_walk;
mod team_live;
mod team_mirror;
mod team_mirror_hostile;
mod team_mirror_restart;
mod team_mirror_walk;
mod team_outbox;
mod team_race;
mod team_restart;
mod team_sync_cli;
mod team_sync_faults;
mod team_windows;
mod webhook_team;
