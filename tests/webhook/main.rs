//! Webhook deliveries: the receiver, its journal and files, the CLI, signals, catching up and the store's record of deliveries seen.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;
#[path = "../webhook_support/mod.rs"]
mod webhook_support;

mod webhook_catchup;
mod webhook_cli;
mod webhook_files;
mod webhook_listen;
mod webhook_receiver;
mod webhook_signals;
mod webhook_store_seen;
mod webhooks;
