//! The service's protocol, client side: the read API's wire models and their lenient decoding,
//! the key, query rules, the HTTP client (reqwest) with retries and rate-limit pacing, the
//! cursor walker, the webhook protocol (`webhook`: the signature, its verification, the event
//! types) and an item's detail as lines (`detail_fields`). It builds on `feedback-core` only and
//! never imports a store, a database driver or a terminal library.

pub mod base_url;
pub mod client;
pub mod detail_fields;
pub mod error;
pub mod key;
pub mod lenient;
pub mod model;
pub mod query;
pub mod ratelimit;
pub mod retry;
pub mod walker;
pub mod webhook;

pub use client::{Client, ClientBuilder, ServerDate, Timeouts};
pub use error::ApiError;
pub use key::{ApiKey, KeyError};
pub use model::*;
pub use query::{FeedbackQuery, ScopeQuery};
pub use ratelimit::RateLimit;
pub use retry::{RetryPolicy, Wait, WaitReason};
pub use walker::FeedbackWalker;
