//! The triage qualifiers (`is:unseen`, `is:seen`, `is:starred`, `is:done`, `is:snoozed`,
//! `has:note`, `note:`) as SQL. Triage rows exist only for items someone triaged and are keyed by the
//! server's id (`store::triage`): each qualifier is a set of item keys, computed once per
//! query, which a walk of the view's index probes; an untouched item is unseen and nothing else.
//! The team's qualifiers (`assignee:`, `is:mine`, `is:unclaimed`, `label:`, `note-by:`,
//! `note:`) read the store's replica of the team (`store::team`) the same way, with this
//! member's changes still in the outbox laid over it as the inbox shows them
//! (`team_sync::states_now`): a claim not yet sent is already the member's, a label added
//! offline is found by `label:`. The links' qualifiers (`has:ticket`, `ticket:`) read the
//! store's own links and the team's, with the outbox's links and unlinks laid over the same way.

use rusqlite::types::Value;

use feedback_core::query::Is;

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
/// note, or the latest version of one of the team's notes on it (one in the outbox, when this
/// member wrote one not yet sent), holds the text, any case.
pub(super) fn note_holds(pattern: &str) -> String {
    format!(
        "(items.k IN (SELECT i.k FROM triage t JOIN items i ON i.id = t.id \
         WHERE t.note LIKE {pattern} ESCAPE '\\') \
         OR items.k IN (SELECT i.k FROM team_notes n JOIN items i ON i.id = n.item_id \
         WHERE n.body LIKE {pattern} ESCAPE '\\' \
         AND n.seq = (SELECT max(m.seq) FROM team_notes m WHERE m.note_id = n.note_id) \
         AND n.note_id NOT IN (SELECT id FROM ({PENDING_NOTES}))) \
         OR items.k IN (SELECT i.k FROM ({PENDING_NOTES}) p JOIN items i ON i.id = p.item_id \
         WHERE p.body LIKE {pattern} ESCAPE '\\'))"
    )
}

/// The outbox's change as JSON to read (an unreadable one reads as `{}`: it is never sent
/// either, and must not stop a search).
const CHANGE: &str = "(CASE WHEN json_valid(x.change) THEN x.change ELSE '{}' END)";

/// The notes in the outbox, each at its latest version there: `id`, `item_id`, `author`,
/// `body`.
const PENDING_NOTES: &str = "SELECT id, item_id, author, body, max(n) FROM \
    (SELECT json_extract((CASE WHEN json_valid(x.change) THEN x.change ELSE '{}' END), \
       '$.note.note_id') AS id, \
     json_extract((CASE WHEN json_valid(x.change) THEN x.change ELSE '{}' END), '$.note.body') \
       AS body, x.item_id, x.member AS author, x.n FROM team_outbox x) \
    WHERE id IS NOT NULL GROUP BY id";

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
        Is::Replied => {
            format!("items.k IN (SELECT i.k FROM ({REPLIES}) r JOIN items i ON i.id = r.item_id)")
        }
    }
}

/// The member this store acts as in its team (none: no owner is theirs).
const ME: &str = "(SELECT member FROM team_replica WHERE one = 1)";

/// An outbox row (`x`) that changes its item's owner: a claim, a take-over, an unclaim, an
/// assignment.
fn owner_change() -> String {
    format!(
        "(x.change IN ('\"claim\"', '\"unclaim\"') \
         OR json_type({CHANGE}, '$.\"take-over\"') IS NOT NULL \
         OR json_type({CHANGE}, '$.assign') IS NOT NULL)"
    )
}

/// The owner the outbox's last owner change on each item gives it: `item_id`, `owner`.
fn pending_owners() -> String {
    format!(
        "SELECT item_id, owner FROM (SELECT x.item_id, \
         CASE WHEN x.change = '\"unclaim\"' THEN NULL \
         WHEN json_type({CHANGE}, '$.assign') IS NOT NULL THEN json_extract({CHANGE}, '$.assign.to') \
         ELSE x.member END AS owner, max(x.n) FROM team_outbox x WHERE {} GROUP BY x.item_id)",
        owner_change()
    )
}

/// The keys of items whose team state (`o`, with an `owner`) satisfies `condition`: the
/// replica's row where the outbox changes no owner, else the outbox's last change.
fn team_items(condition: &str) -> String {
    format!(
        "(items.k IN (SELECT i.k FROM team_items o JOIN items i ON i.id = o.item_id \
         WHERE {condition} AND o.item_id NOT IN (SELECT x.item_id FROM team_outbox x WHERE {})) \
         OR items.k IN (SELECT i.k FROM ({}) o JOIN items i ON i.id = o.item_id WHERE {condition}))",
        owner_change(),
        pending_owners()
    )
}

/// `assignee:me`, `assignee:NAME` (`name`, the parameter naming the member, any case).
pub(super) fn assignee(name: Option<&str>) -> String {
    match name {
        None => team_items(&format!("o.owner = {ME}")),
        Some(name) => team_items(&format!("o.owner = {name} COLLATE NOCASE")),
    }
}

/// `label:NAME` (`label`, the parameter naming it, any case): an item with a label of that
/// name, each label as the replica has it unless the outbox mentions it (by its exact name) on
/// the item, else as its last mention leaves it (a change that adds and removes it removes
/// it, as the inbox lays changes over).
pub(super) fn label(label: &str) -> String {
    let mentions = format!(
        "SELECT x.item_id, a.value AS name, x.n * 2 AS at, 1 AS present FROM team_outbox x, \
         json_each({CHANGE}, '$.labels.add') a WHERE a.value = {label} COLLATE NOCASE \
         UNION ALL SELECT x.item_id, a.value, x.n * 2 + 1, 0 FROM team_outbox x, \
         json_each({CHANGE}, '$.labels.remove') a WHERE a.value = {label} COLLATE NOCASE"
    );
    format!(
        "(items.k IN (SELECT i.k FROM team_labels l JOIN items i ON i.id = l.item_id \
         WHERE l.label = {label} COLLATE NOCASE AND NOT EXISTS (SELECT 1 FROM ({mentions}) m \
         WHERE m.item_id = l.item_id AND m.name = l.label)) \
         OR items.k IN (SELECT i.k FROM (SELECT item_id, present, max(at) FROM ({mentions}) \
         GROUP BY item_id, name) m JOIN items i ON i.id = m.item_id WHERE m.present = 1))"
    )
}

/// `note-by:me`, `note-by:NAME`: items with a note (any version, one in the outbox too) by
/// that member.
pub(super) fn note_by(name: Option<&str>) -> String {
    let author = name.map_or_else(|| ME.to_owned(), |name| format!("{name} COLLATE NOCASE"));
    format!(
        "(items.k IN (SELECT i.k FROM team_notes n JOIN items i ON i.id = n.item_id \
         WHERE n.author = {author}) \
         OR items.k IN (SELECT i.k FROM ({PENDING_NOTES}) p JOIN items i ON i.id = p.item_id \
         WHERE p.author = {author}))"
    )
}

/// The links the store holds (its own, and the team's, which take a URL both hold): `item_id`,
/// `url`, `title`.
const STORED_LINKS: &str = "SELECT item_id, url, title FROM team_links \
    UNION ALL SELECT l.item_id, l.url, l.title FROM links l WHERE NOT EXISTS \
    (SELECT 1 FROM team_links t WHERE t.item_id = l.item_id AND t.url = l.url)";

/// The outbox's links and unlinks, each a mention of an item's URL: `item_id`, `url`, `title`,
/// `at` (the outbox's order), `present` (1: linked, 0: unlinked).
fn link_mentions() -> String {
    format!(
        "SELECT x.item_id, json_extract({CHANGE}, '$.link.url') AS url, \
         json_extract({CHANGE}, '$.link.title') AS title, x.n AS at, 1 AS present \
         FROM team_outbox x WHERE json_type({CHANGE}, '$.link') = 'object' \
         UNION ALL SELECT x.item_id, json_extract({CHANGE}, '$.unlink.url'), NULL, x.n, 0 \
         FROM team_outbox x WHERE json_type({CHANGE}, '$.unlink') = 'object'"
    )
}

/// The keys of items with a link (`l`: `url`, `title`) satisfying `condition`: each link as the
/// store holds it unless the outbox mentions its URL on the item, else as its last mention
/// leaves it (an unlink removes it).
fn links_where(condition: &str) -> String {
    let mentions = link_mentions();
    format!(
        "(items.k IN (SELECT i.k FROM ({STORED_LINKS}) l JOIN items i ON i.id = l.item_id \
         WHERE {condition} AND NOT EXISTS (SELECT 1 FROM ({mentions}) m \
         WHERE m.item_id = l.item_id AND m.url = l.url)) \
         OR items.k IN (SELECT i.k FROM (SELECT item_id, url, title, present, max(at) \
         FROM ({mentions}) GROUP BY item_id, url) l JOIN items i ON i.id = l.item_id \
         WHERE l.present = 1 AND {condition}))"
    )
}

/// `has:ticket`: an item with a link.
pub(super) fn has_ticket() -> String {
    links_where("1")
}

/// `ticket:TEXT` (`pattern`, the parameter holding `%TEXT%`, LIKE-escaped with `\`): an item
/// with a link whose address or title holds the text, any case.
pub(super) fn ticket(pattern: &str) -> String {
    links_where(&format!(
        "(l.url LIKE {pattern} ESCAPE '\\' OR l.title LIKE {pattern} ESCAPE '\\')"
    ))
}

/// Every reply sent to an item's reporter: `item_id`, `author` (the member; NULL for this
/// store's own in no team), `at` (Unix microseconds): this store's sent replies (a reply
/// answers each of its items) and the team's `reply` events.
const REPLIES: &str = "SELECT j.value AS item_id, r.by AS author, r.sent_at AS at \
    FROM replies r, json_each(r.item_ids) j WHERE r.state = 'sent' \
    UNION ALL SELECT e.item_id, e.member, e.at FROM team_events e WHERE e.kind = 'reply'";

/// `replied-by:me`, `replied-by:NAME` (`name`, the parameter naming the member, any case): a
/// reply sent by that member; `me` is this store's member, and this store's own replies in no
/// team.
pub(super) fn replied_by(name: Option<&str>) -> String {
    let author = match name {
        None => format!("(r.author = {ME} OR (r.author IS NULL AND {ME} IS NULL))"),
        Some(name) => format!("r.author = {name} COLLATE NOCASE"),
    };
    format!(
        "items.k IN (SELECT i.k FROM ({REPLIES}) r JOIN items i ON i.id = r.item_id WHERE {author})"
    )
}

/// `replied:<2d` and the like: the item's newest reply was sent at `op` `cutoff` (a parameter
/// holding Unix microseconds; `>` for younger than the age).
pub(super) fn replied(op: &str, cutoff: &str) -> String {
    format!(
        "items.k IN (SELECT i.k FROM (SELECT item_id, max(at) AS at FROM ({REPLIES}) \
         GROUP BY item_id) r JOIN items i ON i.id = r.item_id WHERE r.at {op} {cutoff})"
    )
}
