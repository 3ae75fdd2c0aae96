//! The triage qualifiers (`is:unseen`, `is:seen`, `is:starred`, `is:done`, `is:snoozed`,
//! `has:note`) as SQL. Triage rows exist only for items someone triaged and are keyed by the
//! server's id (`store::triage`): each qualifier is a set of item keys, computed once per
//! query, which a walk of the view's index probes; an untouched item is unseen and nothing else.

use rusqlite::types::Value;

use crate::query::Is;

/// The keys of triaged items whose row satisfies `condition` (over `t`, the triage row).
fn triaged(condition: &str) -> String {
    format!("items.k IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE {condition})")
}

/// `has:note`.
pub(super) fn has_note() -> &'static str {
    "items.k IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id \
     WHERE t.note IS NOT NULL AND trim(t.note) <> '')"
}

/// `is:…`; `param` adds a parameter and names it (`?N`): `now` (seconds) for `is:snoozed`.
pub(super) fn is_sql(is: Is, now: i64, param: impl FnOnce(Value) -> String) -> String {
    match is {
        Is::Seen => triaged("t.seen = 1"),
        Is::Unseen => format!("NOT ({})", triaged("t.seen = 1")),
        Is::Starred => triaged("t.starred = 1"),
        Is::Done => triaged("t.done = 1"),
        Is::Snoozed => triaged(&format!("t.snoozed_until > {}", param(Value::Integer(now)))),
    }
}
