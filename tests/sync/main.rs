//! Walking the simulator into a store: the catalog, enrichment, moves, scopes, turns, walks, and the account guard.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;
#[path = "../sync_support/mod.rs"]
mod sync_support;

mod account_guard;
mod sync_catalog;
mod sync_cli;
mod sync_enrich;
mod sync_moves;
mod sync_scoped;
mod sync_turns;
mod sync_walks;
