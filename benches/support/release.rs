//! What the benches that time the release binary share: which binary, their settings from the
//! environment, and the figures they print.
#![allow(unreachable_pub)] // shared by the benches that include it

use std::path::{Path, PathBuf};
use std::time::Duration;

/// `target/release/feedback-inbox`, or the binary `FEEDBACK_BULK_BINARY` names.
pub fn binary() -> PathBuf {
    std::env::var_os("FEEDBACK_BULK_BINARY").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/feedback-inbox"),
        PathBuf::from,
    )
}

/// A number from the environment, or `default`.
pub fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

pub fn median(values: &mut [Duration]) -> Duration {
    values.sort();
    values[values.len() / 2]
}

/// The value `share` percent of the values are at or under.
pub fn percentile(values: &mut [Duration], share: usize) -> Duration {
    values.sort();
    values[(values.len() * share).div_ceil(100).saturating_sub(1)]
}
