//! Webhooks (spec part 6): verifying a signed `feedback.created` delivery, the payload types,
//! and the receiver behind `webhook listen` and the inbox's `--listen`.

pub mod event;
pub mod inbox_journal;
pub mod journal;
pub mod receiver;
pub mod record;
pub mod seen;
pub mod serve;
pub mod stored;
pub mod verify;

pub use event::{Event, FEEDBACK_CREATED, Submission};
pub use verify::{DEFAULT_TOLERANCE, Delivery, MAX_BODY, Secret, VerifyError, sign, verify};

#[cfg(all(test, unix))]
mod files_tests;
#[cfg(test)]
mod journal_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing_tests;
