//! Client side of the service's read API: wire models, the key, query rules, the HTTP client
//! with retries and rate-limit pacing, and the cursor walker.

pub mod base_url;
pub mod client;
pub mod error;
pub mod key;
pub mod lenient;
pub mod model;
pub mod query;
pub mod ratelimit;
pub mod retry;
pub mod walker;

pub use client::{Client, ClientBuilder, ServerDate, Timeouts};
pub use error::ApiError;
pub use key::{ApiKey, KeyError};
pub use model::*;
pub use query::{FeedbackQuery, ScopeQuery};
pub use ratelimit::RateLimit;
pub use retry::{RetryPolicy, Wait, WaitReason};
pub use walker::FeedbackWalker;
