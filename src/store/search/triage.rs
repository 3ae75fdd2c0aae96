//! The triage qualifiers (`is:unseen`, `is:seen`, `is:starred`, `is:done`, `is:snoozed`,
//! `has:note`, `note:`) as SQL. Triage rows exist only for items someone triaged and are keyed by the
//! server's id (`store::triage`): each qualifier is a set of item keys, computed once per
//! query, which a walk of the view's index probes; an untouched item is unseen and nothing else.
//! The team's qualifiers (`assignee:`, `is:mine`, `is:unclaimed`, `label:`, `note-by:`) read
//! the store's replica of the team (`store::team`) the same way.

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

/// `note:TEXT` (`pattern`, the parameter holding `%TEXT%`, LIKE-escaped with `\`): the item's
/// note, or the latest version of one of the team's notes on it, holds the text, any case.
pub(super) fn note_holds(pattern: &str) -> String {
    format!(
        "(items.k IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id \
         WHERE t.note LIKE {pattern} ESCAPE '\\') \
         OR items.k IN (SELECT i.k FROM team_notes n JOIN items i ON i.id = n.item_id \
         WHERE n.body LIKE {pattern} ESCAPE '\\' \
         AND n.seq = (SELECT max(m.seq) FROM team_notes m WHERE m.note_id = n.note_id)))"
    )
}

/// `is:…`; `param` adds a parameter and names it (`?N`): `now` (seconds) for `is:snoozed`.
pub(super) fn is_sql(is: Is, now: i64, param: impl FnOnce(Value) -> String) -> String {
    match is {
        Is::Seen => triaged("t.seen = 1"),
        Is::Unseen => format!("NOT ({})", triaged("t.seen = 1")),
        Is::Starred => triaged("t.starred = 1"),
        Is::Done => triaged("t.done = 1"),
        Is::Snoozed => triaged(&format!("t.snoozed_until > {}", param(Value::Integer(now)))),
        Is::Unclaimed => format!("NOT ({})", team_items("o.owner IS NOT NULL")),
        Is::Mine => team_items(&format!("o.owner = {ME}")),
    }
}

/// The member this store acts as in its team (none: no owner is theirs).
const ME: &str = "(SELECT member FROM team_replica WHERE one = 1)";

/// The keys of items whose team state (`o`, a row of `team_items`) satisfies `condition`.
fn team_items(condition: &str) -> String {
    format!(
        "items.k IN (SELECT i.k FROM team_items o JOIN items i ON i.id = o.item_id WHERE {condition})"
    )
}

/// `assignee:me`, `assignee:NAME` (`name`, the parameter naming the member, any case).
pub(super) fn assignee(name: Option<&str>) -> String {
    match name {
        None => team_items(&format!("o.owner = {ME}")),
        Some(name) => team_items(&format!("o.owner = {name} COLLATE NOCASE")),
    }
}

/// `label:NAME` (`label`, the parameter naming it, any case).
pub(super) fn label(label: &str) -> String {
    format!(
        "items.k IN (SELECT i.k FROM team_labels l JOIN items i ON i.id = l.item_id \
         WHERE l.label = {label} COLLATE NOCASE)"
    )
}

/// `note-by:me`, `note-by:NAME`: items with a note (any version) by that member.
pub(super) fn note_by(name: Option<&str>) -> String {
    let author = name.map_or_else(|| ME.to_owned(), |name| format!("{name} COLLATE NOCASE"));
    format!(
        "items.k IN (SELECT i.k FROM team_notes n JOIN items i ON i.id = n.item_id \
         WHERE n.author = {author})"
    )
}
