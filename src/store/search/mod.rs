//! The search language ([`crate::query`]) over the store: a parsed query compiled to one SQL
//! condition ([`compile`]), with app and project names and qualifier values looked up in the
//! store. Words reach FTS5 only as quoted strings, so an FTS5 syntax error cannot happen.

mod compile;
mod resolve;
mod triage;

#[cfg(test)]
mod tests;

pub use compile::{Sql, compile, fts_string};
// The parsing that comes before compiling, and the values `--since`/`--until` share with
// `age:`/`after:`/`before:`, for the callers that name them beside `compile`.
pub use crate::query::{Basis, Query, age_cutoff, date, duration, local_instant, parse};

/// What the compiler needs besides the store: "now" for `age:` and the user's zone for dates.
#[derive(Debug, Clone)]
pub struct Context {
    pub now: jiff::Timestamp,
    pub tz: jiff::tz::TimeZone,
}
