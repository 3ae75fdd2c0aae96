//! Webhooks (spec part 6): the receiver behind `webhook listen` and the inbox's `--listen`,
//! built on the protocol ([`protocol`]: verifying a signed `feedback.created` delivery, the
//! payload types), with its journal, its record of seen deliveries and storing what arrives.

pub mod inbox_journal;
pub mod journal;
pub mod protocol;
pub mod receiver;
pub mod record;
pub mod seen;
pub mod serve;
pub mod stored;

// The protocol's modules and items are named from here too.
pub use protocol::{
    DEFAULT_TOLERANCE, Delivery, Event, FEEDBACK_CREATED, MAX_BODY, Secret, Submission,
    VerifyError, event, sign, verify,
};

#[cfg(all(test, unix))]
mod files_tests;
#[cfg(test)]
mod journal_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing_tests;
