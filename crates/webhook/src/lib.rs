//! The webhook receiver (spec part 6) behind `webhook listen` and the inbox's `--listen`
//! (hyper), built on the protocol (`feedback_api::webhook`: verifying a signed
//! `feedback.created` delivery, the payload types): its journal written before the 204, its
//! record of the deliveries it acknowledged, and storing what arrives in the store. It never
//! imports the inbox, the command line, the sync or the team backend.

pub mod inbox_journal;
pub mod journal;
pub mod receiver;
pub mod record;
pub mod seen;
pub mod serve;
pub mod stored;

#[cfg(all(test, unix))]
mod files_tests;
#[cfg(test)]
mod journal_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing_tests;
