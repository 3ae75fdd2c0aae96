//! The triage qualifiers (`is:unseen`, `is:seen`, `is:starred`, `is:done`, `is:snoozed`,
//! `has:note`) as SQL. Triage rows exist only for items someone triaged and are keyed by the
//! server's id (`store::triage`): each qualifier is a set of item keys, computed once per
//! query, which a walk of the view's index probes; an untouched item is unseen and nothing else.

use rusqlite::types::Value;

use super::ast::{Expr, FilterKind, Is};

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

/// True when the search `input` names any triage qualifier (`is:…`, `has:note`): a triage
/// change may then move items in or out of its view. A search that does not parse names none.
#[must_use]
pub fn names_triage(input: &str) -> bool {
    super::parse(input)
        .ok()
        .and_then(|q| q.root().map(mentions))
        .unwrap_or(false)
}

fn mentions(expr: &Expr) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(mentions),
        Expr::Not(inner) => mentions(inner),
        Expr::Text(_) => false,
        Expr::Filter(f) => matches!(
            f.kind,
            FilterKind::Is(_) | FilterKind::Has(super::ast::Has::Note)
        ),
    }
}

/// True when `expr` names `is:done` or `is:snoozed` anywhere.
pub(super) fn names_hidden(expr: &Expr) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(names_hidden),
        Expr::Not(inner) => names_hidden(inner),
        Expr::Text(_) => false,
        Expr::Filter(f) => matches!(f.kind, FilterKind::Is(Is::Done | Is::Snoozed)),
    }
}
