//! The service's client against the simulator: paging, waits, hardening, the contract with the spec, lenient decoding.
//!
//! One test binary for the lot, so the workspace is linked once for them.
#![allow(clippy::unwrap_used)] // a test states what it expects by unwrapping
#![allow(unreachable_pub)] // the shared helpers are pub for the modules that use them

#[path = "../common/mod.rs"]
mod common;

mod api_hardening;
mod api_paging;
mod api_sim;
mod api_waits;
mod contract;
mod decode_props;
mod lenient_logging;
