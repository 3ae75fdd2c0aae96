//! A faithful in-process simulator of the service's read API (axum on 127.0.0.1), used by
//! `demo`, by the tests and by `feedback-inbox sim`. It serves a seeded dataset with keyset
//! cursors, every validation rule and error code, a per-minute rate limit, gzip, the OpenAPI
//! document and llms.txt, and it has fault knobs for tests.

pub mod catalog;
pub mod cursor;
pub mod data;
mod edits;
pub mod faults;
mod layers;
pub mod limiter;
mod routes;
pub mod server;
pub mod state;
pub mod submit;
pub mod webhooks;

pub use faults::{FaultKind, Faults, Route};
pub use server::{SimConfig, SimHandle, start, start_with};
pub use state::{SimState, Stats};

/// The key the simulator accepts (an Indie-plan key).
pub const DEMO_KEY: &str = "service_eu_sk_demo_0123456789abcdef";
/// A well-formed key of a Starter-plan account: answered with 403.
pub const STARTER_KEY: &str = "service_us_sk_starter_0123456789abcdef";
