//! The command line as a user runs it: its commands, doctor, exports, names, stats, the store commands and their errors.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;
#[path = "../shell_completion/mod.rs"]
mod shell_completion;
#[path = "../webhook_support/mod.rs"]
mod webhook_support;

mod cli;
mod cli_doctor;
mod cli_exports;
mod cli_hardening;
mod cli_login;
mod cli_names;
mod cli_stats;
mod cli_store;
mod msrv;
mod store_errors;
