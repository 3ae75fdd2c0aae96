//! feedback-inbox: a terminal inbox for the feedback service's read API, with its client,
//! simulator and command line.

pub mod api;
pub mod background;
pub mod child_env;
pub mod cli;
pub mod clipboard;
pub mod clock;
pub mod config;
pub mod detail_fields;
pub mod excerpt;
pub mod json;
pub mod launch;
pub mod logging;
mod mutex;
pub mod private_files;
pub mod query;
pub mod screen;
pub mod signals;
pub mod sim;
pub mod store;
pub mod sync;
pub mod team;
pub mod team_sync;
pub mod text;
pub mod timefmt;
pub mod tui;
pub mod webhook;
pub mod width;
