//! The inbox: screens as insta snapshots, the whole loop against the simulator, insight, similar items, hostile text on every sink, and its scale.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;
#[path = "../hostile/mod.rs"]
mod hostile;
#[path = "../insight_support/mod.rs"]
mod insight_support;

mod app_flow;
mod hostile_sinks;
mod hostile_sinks_acting;
mod inbox_scale;
mod inbox_terminal;
mod insight_fixes;
mod insight_flow;
mod similar_flow;
mod tui_acting_snapshots;
mod tui_help_modes_snapshots;
mod tui_history;
mod tui_insight;
mod tui_messages_snapshots;
mod tui_reading_snapshots;
mod tui_search_basis;
mod tui_similar_snapshots;
mod tui_snapshots;
mod tui_team_snapshots;
mod tui_top_issues_snapshots;
mod tui_triage_snapshots;
mod tui_versions;
mod tui_views_snapshots;
