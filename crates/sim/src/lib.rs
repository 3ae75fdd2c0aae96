//! A faithful in-process simulator of the service's read API (axum on 127.0.0.1), used by
//! `demo`, by the tests and by `feedback-inbox sim`. It serves a seeded dataset with keyset
//! cursors, every validation rule and error code, a per-minute rate limit, gzip, the OpenAPI
//! document and llms.txt, and it has fault knobs for tests. It signs its webhook deliveries
//! with the API crate's protocol, keeps the fixed items of tests (`fixtures`), and never imports
//! the receiver, the store or anything above them.
//!
//! It serves up to a million items (`sim --items 1000000` starts after 0.7 s of CPU and peaks at
//! about 120 MB resident): items are kept compact and built from a per-item seed when an answer needs
//! them, and a list page costs a binary search plus the page, at any depth (see `index`).
//!
//! # Word frequencies (for search benchmarks)
//!
//! Messages combine a topic's opener and details with sentences that mention devices and
//! features picked with a Zipf-like skew, rare reference numbers and a sign-off. Shares of items
//! whose message holds the word (seed 1; they hold for any seed within a few tenths of a point):
//! - about half: `thanks` (49.5%), `is` (49%); very common: `the` (82%), `my` (38%);
//! - common: `screen` (23%), `app` (20%), `notifications` (6.6%), `sync` (5.7%);
//! - a few percent: `invoice` (3.7%), `crashes` (1.9%), `refund` (1.6%), `duplicated` (1.5%);
//! - about 1% or less: `templates` (0.98%), `folders` (0.89%), `fairphone` (0.58%);
//! - rare: `latex` and `gpx` (0.1%), `stylus` (0.06%); error codes like `E4821` and 8-digit
//!   order numbers are nearly unique (thousands of words in under 0.01% of items).
//!
//! The data tells a story (`story`): releases, a bad one, a locale's complaints on one screen,
//! near-duplicate families, weighted metadata.
//!
//! The data for a given seed changed when items became per-item seeded (November 2026), and
//! again when the story came (the messages of near-duplicate families, the metadata, the bad
//! app's extra crash reports): the same seed still always gives the same data.

pub mod catalog;
pub mod cursor;
pub mod data;
mod edits;
pub mod faults;
pub mod fixtures;
mod index;
pub mod item;
mod layers;
pub mod limiter;
pub mod query;
mod routes;
pub mod server;
pub mod state;
pub mod story;
pub mod submit;
mod vocab;
pub mod webhooks;

pub use faults::{FaultKind, Faults, Route};
pub use server::{SimConfig, SimHandle, start, start_with};
pub use state::{SimState, Stats};

/// The key the simulator accepts (an Indie-plan key).
pub const DEMO_KEY: &str = "service_eu_sk_demo_0123456789abcdef";
/// A well-formed key of a Starter-plan account: answered with 403.
pub const STARTER_KEY: &str = "service_us_sk_starter_0123456789abcdef";
