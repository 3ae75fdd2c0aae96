//! The interactive inbox. Data flows one way: terminal events and network results become `Msg`s,
//! `update` changes `AppState` and returns `Effect`s, the executor runs those as tokio tasks
//! whose results come back over a channel, and `render::render` draws the state when it changed.
//!
//! It is the only crate that depends on ratatui and crossterm. It uses every room below it (the
//! store, the sync, the team's link, the webhook receiver's arrivals, the clipboard) and never
//! imports the command line, which opens it only through the binary (`launch`).

pub mod acting;
pub mod action;
pub mod effect;
pub mod failure;
// Grouped view and trends.
pub mod insight;
pub mod keymap;
pub mod layout;
pub mod linking;
pub mod mode_keys;
pub mod overlay;
// Saved views and the command palette.
pub mod palette;
pub mod picker_keys;
pub mod privacy;
pub mod reading;
pub mod replying;
pub mod rows;
pub mod runtime;
pub mod similar;
pub mod state;
pub mod team;
// Fixed data and a harness for tests and benches; never in the shipped binary.
#[cfg(any(test, feature = "testing"))]
pub mod testkit;
// The Top issues screen.
pub mod render;
pub mod top_issues;
pub mod triage;
pub mod update;
// The core's display width held to what ratatui draws.
#[cfg(test)]
mod width_drawn;
// Saved views and the command palette.
pub mod saved_views;

pub use runtime::{Arrival, Ended, Job, Options, SyncPort, TeamSyncer, drive, run};
