//! The store's schema, as migrations. A store written by an older version is brought up to date
//! when it is opened; one written by a newer version is refused (its tables may mean something
//! this version does not know). Migrations only ever get appended.

use rusqlite_migration::{HookResult, M, Migrations};

/// The SQL of every migration, oldest first.
pub const STEPS: &[&str] = &[
    V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V17, V18, V19, V20, V21,
    V22, V23,
];

/// Schema 1: the mirror of the account. Text is kept raw, as the server sent it, and sanitized
/// where it is shown. `items.k` is the item's place in time (in schema 1 and 2, `received` in
/// microseconds times 1024 plus a tie-breaker; schema 3 turned it around, see [`V3`]) and the
/// rowid of the full-text index: newest first is one direction of `k` in every table and index
/// (a bare index on `status` is ordered by it), and a
/// search walks the index's matches newest first and stops after a screen. The indexes serve the
/// views (a status, a project, an app) and the panes' counts, which walk index ranges only;
/// `item_tags` repeats the item's status for the same reason.
const V1: &str = r"
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT NOT NULL, slug TEXT, created_at TEXT) WITHOUT ROWID;
CREATE TABLE apps (id TEXT PRIMARY KEY, project_id TEXT, name TEXT NOT NULL, slug TEXT, platform TEXT,
                   app_identifier TEXT, region TEXT) WITHOUT ROWID;
CREATE TABLE server_tags (tag TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE project_refs (k INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, UNIQUE (id, name));
CREATE TABLE app_refs (k INTEGER PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL, platform TEXT NOT NULL,
                       UNIQUE (id, name, platform));
CREATE TABLE items (
  k INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  received INTEGER NOT NULL,
  status TEXT NOT NULL,
  project INTEGER NOT NULL REFERENCES project_refs(k),
  app INTEGER REFERENCES app_refs(k),
  email TEXT,
  message TEXT NOT NULL,
  tags TEXT NOT NULL,
  seen INTEGER NOT NULL,
  delivery TEXT,
  detail_at INTEGER
);
CREATE INDEX items_by_status ON items(status);
CREATE INDEX items_by_project ON items(project, status);
CREATE INDEX items_by_app ON items(app, status);
CREATE TABLE item_tags (tag TEXT NOT NULL, status TEXT NOT NULL, k INTEGER NOT NULL,
                        PRIMARY KEY (tag, status, k)) WITHOUT ROWID;
CREATE TABLE item_meta (k INTEGER NOT NULL, custom INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                        PRIMARY KEY (k, custom, key)) WITHOUT ROWID;
CREATE INDEX item_meta_by_key ON item_meta(key, value);
CREATE VIRTUAL TABLE items_fts USING fts5(message, content='', contentless_delete=1,
                                          tokenize='unicode61 remove_diacritics 2');
";

/// Schema 2: the sync's walk state (`feedback_sync`). Per status: the newest item mirrored from
/// the top (`head_*`), whether the deep end was reached, the reconcile walk's position; the gaps
/// a head walk left (cursor, the key the cursor continues after, the last item stored, the
/// stored key the gap ends at: NULL for the deep end); items a reconcile walk missed from `new`,
/// to re-read. Keys are `(received microseconds, id)`, the list's order.
const V2: &str = r"
CREATE TABLE sync_status (
  status TEXT PRIMARY KEY,
  head_received INTEGER,
  head_id TEXT,
  synced_at INTEGER,
  complete INTEGER NOT NULL DEFAULT 0,
  reconcile_cursor TEXT,
  reconcile_received INTEGER,
  reconcile_id TEXT,
  reconcile_started INTEGER,
  reconciled_at INTEGER
) WITHOUT ROWID;
CREATE TABLE sync_gaps (
  g INTEGER PRIMARY KEY,
  status TEXT NOT NULL,
  cursor TEXT,
  cursor_received INTEGER,
  cursor_id TEXT,
  last_received INTEGER NOT NULL,
  last_id TEXT NOT NULL,
  until_received INTEGER,
  until_id TEXT
);
CREATE INDEX sync_gaps_by_status ON sync_gaps(status, last_received);
CREATE TABLE sync_recheck (id TEXT PRIMARY KEY, found INTEGER NOT NULL) WITHOUT ROWID;
";

/// Schema 3: keys newest first ascending (`store::keys`): `k` becomes `-k` in every table, and
/// the full-text index is built again (a contentless index cannot change a rowid). The tables
/// are copied in their new order, which also packs them (at 1,000,000 items it takes about 20 s,
/// once). Turning keys around twice would undo it: the marker table makes a second run fail (and
/// roll back) should another process have migrated the store since this one read its version.
const V3: &str = r"
CREATE TABLE keys_newest_first_ascending (since INTEGER);
CREATE TABLE items_v3 (
  k INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  received INTEGER NOT NULL,
  status TEXT NOT NULL,
  project INTEGER NOT NULL REFERENCES project_refs(k),
  app INTEGER REFERENCES app_refs(k),
  email TEXT,
  message TEXT NOT NULL,
  tags TEXT NOT NULL,
  seen INTEGER NOT NULL,
  delivery TEXT,
  detail_at INTEGER
);
INSERT INTO items_v3 SELECT -k, id, received, status, project, app, email, message, tags, seen,
                            delivery, detail_at FROM items ORDER BY k DESC;
DROP TABLE items;
ALTER TABLE items_v3 RENAME TO items;
CREATE INDEX items_by_status ON items(status);
CREATE INDEX items_by_project ON items(project, status);
CREATE INDEX items_by_app ON items(app, status);
CREATE TABLE item_tags_v3 (tag TEXT NOT NULL, status TEXT NOT NULL, k INTEGER NOT NULL,
                           PRIMARY KEY (tag, status, k)) WITHOUT ROWID;
INSERT INTO item_tags_v3 SELECT tag, status, -k FROM item_tags ORDER BY tag, status, k DESC;
DROP TABLE item_tags;
ALTER TABLE item_tags_v3 RENAME TO item_tags;
CREATE TABLE item_meta_v3 (k INTEGER NOT NULL, custom INTEGER NOT NULL, key TEXT NOT NULL,
                           value TEXT NOT NULL, PRIMARY KEY (k, custom, key)) WITHOUT ROWID;
INSERT INTO item_meta_v3 SELECT -k, custom, key, value FROM item_meta ORDER BY k DESC, custom, key;
DROP TABLE item_meta;
ALTER TABLE item_meta_v3 RENAME TO item_meta;
CREATE INDEX item_meta_by_key ON item_meta(key, value);
DROP TABLE items_fts;
CREATE VIRTUAL TABLE items_fts USING fts5(message, content='', contentless_delete=1,
                                          tokenize='unicode61 remove_diacritics 2');
INSERT INTO items_fts (rowid, message) SELECT k, message FROM items ORDER BY k;
";

/// Schema 4: the user's triage state per item (`store::triage`). Keyed by the server's id, not
/// the local key: an item dropped by retention or forgotten and stored again keeps its state.
/// A row exists only for items someone triaged, so the views join it through small sets
/// (`items.k IN (SELECT …)`, computed once per query) and the default view's walk of the status
/// index stays a walk that stops after a screen. `snoozed_until` is in seconds, `changed` in
/// microseconds; `meta.triage_rev` counts triage writes so another window sees them. The
/// partial indexes keep the done, seen and snoozed sets a walk of their own rows.
const V4: &str = r"
CREATE TABLE triage (
  id TEXT PRIMARY KEY,
  seen INTEGER NOT NULL DEFAULT 0,
  starred INTEGER NOT NULL DEFAULT 0,
  snoozed_until INTEGER,
  done INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  changed INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX triage_by_snooze ON triage(snoozed_until) WHERE snoozed_until IS NOT NULL;
CREATE INDEX triage_done ON triage(id) WHERE done = 1;
CREATE INDEX triage_seen ON triage(id) WHERE seen = 1;
";

/// Schema 5: the details to fetch (`store::enrich`): keys of items someone asked to enrich
/// (`e` over a view), newest first by key. A row leaves when its item has its detail or is
/// gone, so the queue outlives a restart and costs nothing once done; `retry_at` (Unix
/// seconds) parks a row whose fetch failed for the server's reasons until then.
const V5: &str = r"
CREATE TABLE enrich_queue (k INTEGER PRIMARY KEY, retry_at INTEGER);
";

/// Schema 6 (pivots, `store::pivot`): an item's tags by its key, so a pivot by tag joins each
/// item of a view to its tags with one seek (the table's own key starts with the tag), and the
/// untagged items apart (a pivot's "(none)" group without reading every item's row).
const V6: &str = r"
CREATE INDEX item_tags_by_item ON item_tags(k, tag);
CREATE INDEX items_untagged ON items(status) WHERE tags = '[]';
";

/// Schema 7 (pivots, `store::pivot`): the items whose detail is stored, by status (and key, the
/// row id), so a metadata pivot's "based on N of M items" counts them from this index instead
/// of reading every item's row for `detail_at` (the column is in the index so SQLite reads it
/// as covering).
const V7: &str = r"
CREATE INDEX items_detailed ON items(status, detail_at) WHERE detail_at IS NOT NULL;
";

/// The statements that count `pivot_counts` from the tables (schema 8, and the tests'
/// reference for the counts kept as items are written).
macro_rules! recount_pivot_counts {
    () => {
        r"
CREATE TEMP VIEW IF NOT EXISTS recount_items AS
  SELECT i.k, i.status, i.project, coalesce(i.app, 0) AS app, i.tags, i.meta_at,
         coalesce(t.done, 0) AS done
  FROM items i LEFT JOIN triage t ON t.id = i.id;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 0, '', status, project, app, done, '', count(*) FROM temp.recount_items
  GROUP BY 3, 4, 5, 6;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 1, '', status, project, app, done, '', count(*) FROM temp.recount_items
  WHERE tags = '[]' GROUP BY 3, 4, 5, 6;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 2, '', i.status, i.project, i.app, i.done, t.tag, count(*)
  FROM item_tags t JOIN temp.recount_items i ON i.k = t.k GROUP BY 3, 4, 5, 6, 7;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 3, '', status, project, app, done, '', count(*) FROM temp.recount_items
  WHERE meta_at IS NOT NULL GROUP BY 3, 4, 5, 6;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 4 + m.custom, m.key, i.status, i.project, i.app, i.done, m.value, count(*)
  FROM item_meta m JOIN temp.recount_items i ON i.k = m.k GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT 6, 'androidVersion', i.status, i.project, i.app, i.done, a.value, count(*)
  FROM item_meta a JOIN temp.recount_items i ON i.k = a.k
  WHERE a.custom = 0 AND a.key = 'androidVersion'
    AND EXISTS (SELECT 1 FROM item_meta o WHERE o.k = a.k AND o.custom = 0 AND o.key = 'iOSVersion')
  GROUP BY 3, 4, 5, 6, 7;
DROP VIEW temp.recount_items;
"
    };
}

/// Schema 8 (pivots, `store::pivot::counts`): `items.meta_at`, when the item's metadata became
/// known (a detail, or a webhook delivery even with no metadata: an item with none is then known
/// to have none), set for the items known so far; `triage.k`, the stored item's key (NULL while
/// it is not stored), so the items a view hides are a scan of the small triage table instead of
/// a lookup by id per triaged item (60,000 done items took 180 ms), with the states of items
/// not stored indexed apart (storing an item looks for its state only when there are any);
/// and `pivot_counts`, the pivots' counts kept
/// as items are written (`store::write::counts`), built here from the tables. Keyed by what a
/// pivot reads: one dimension (and metadata key) at a time, for a status, project and app, done
/// items apart (the views hide them).
const V8: &str = concat!(
    r"
ALTER TABLE items ADD COLUMN meta_at INTEGER;
UPDATE items SET meta_at = coalesce(detail_at, seen)
  WHERE detail_at IS NOT NULL OR k IN (SELECT k FROM item_meta);
ALTER TABLE triage ADD COLUMN k INTEGER;
UPDATE triage SET k = (SELECT items.k FROM items WHERE items.id = triage.id);
CREATE INDEX triage_unstored ON triage(id) WHERE k IS NULL;
CREATE TABLE pivot_counts (
  dim INTEGER NOT NULL,
  key TEXT NOT NULL,
  status TEXT NOT NULL,
  project INTEGER NOT NULL,
  app INTEGER NOT NULL,
  done INTEGER NOT NULL,
  value TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (dim, key, status, project, app, done, value)
) WITHOUT ROWID;
",
    recount_pivot_counts!()
);

/// Schema 9 (similar feedback, `store::similar`): each item's app by its key, so that counting
/// the apps of 20,000 similar items reads this index's small entries (a few thousand pages)
/// instead of one row of the items table each (a page each: 2.5 µs an item at 1,000,000).
const V9: &str = r"
CREATE INDEX items_app_by_key ON items(k, app);
";

/// Schema 10: `items.status` is the list an item is in, always `new` or `archived` (views, panes,
/// counts and the sync's walks rest on it); `items.unknown_status` is the service's own value when
/// it is one this version does not know (the enum may grow), shown and searched instead. Items
/// stored before with such a value in `status` move to `new`, the list's default (the next walk
/// that lists one elsewhere moves it there), with their tags and counts.
const V10: &str = r"
ALTER TABLE items ADD COLUMN unknown_status TEXT;
UPDATE item_tags SET status = 'new' WHERE status NOT IN ('new', 'archived');
INSERT INTO pivot_counts (dim, key, status, project, app, done, value, n)
  SELECT dim, key, 'new', project, app, done, value, n FROM pivot_counts
  WHERE status NOT IN ('new', 'archived')
  ON CONFLICT (dim, key, status, project, app, done, value)
  DO UPDATE SET n = pivot_counts.n + excluded.n;
DELETE FROM pivot_counts WHERE status NOT IN ('new', 'archived');
UPDATE items SET unknown_status = status, status = 'new' WHERE status NOT IN ('new', 'archived');
CREATE INDEX items_by_unknown_status ON items(unknown_status) WHERE unknown_status IS NOT NULL;
";

/// Schema 11 (enrichment, `store::enrich`): `enrich_queue.detail`, set for an item queued for
/// its delivery links (`has:link`), which only its detail brings: it stays queued until the
/// detail is stored, even once a webhook delivery brought its metadata.
const V11: &str = r"
ALTER TABLE enrich_queue ADD COLUMN detail INTEGER NOT NULL DEFAULT 0;
";

/// Schema 12 (webhooks, `store::deliveries`): the idempotency keys of the deliveries a webhook
/// receiver acknowledged, each with when it was first seen (Unix microseconds), so a redelivery
/// is recognised after a restart; written in the transaction that stores what the delivery
/// brought. The oldest are pruned by count (the index walks them oldest first).
const V12: &str = r"
CREATE TABLE webhook_seen (key TEXT PRIMARY KEY, seen_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX webhook_seen_by_time ON webhook_seen(seen_at);
";

/// Schema 13 (the team, `store::team`): this store's replica of the team's shared state, read
/// from the team's database after `team_replica`'s position: each item's owner, labels, done and
/// snooze (`team_items`, the labels also one row each in `team_labels` for `label:`; done and
/// snooze are laid into `triage`, where the views read them), the events
/// (`team_events`, an item's history) and the notes (`team_notes`, every version, by event).
/// `team_outbox` holds the changes made here and not yet sent (in the order made, by `n`);
/// `team_lost`, those the team refused (a claim someone else won), until they are reported.
const V13: &str = r"
CREATE TABLE team_replica (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  team TEXT NOT NULL,
  member TEXT NOT NULL,
  seq INTEGER NOT NULL,
  caught_up_at INTEGER
);
CREATE TABLE team_items (
  item_id TEXT PRIMARY KEY,
  owner TEXT,
  labels TEXT NOT NULL DEFAULT '[]',
  done INTEGER NOT NULL DEFAULT 0,
  snoozed_until INTEGER,
  last_seq INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX team_items_by_owner ON team_items(owner, item_id) WHERE owner IS NOT NULL;
CREATE TABLE team_labels (label TEXT NOT NULL, item_id TEXT NOT NULL, PRIMARY KEY (label, item_id))
  WITHOUT ROWID;
CREATE INDEX team_labels_by_item ON team_labels(item_id);
CREATE TABLE team_events (
  seq INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  member TEXT NOT NULL,
  item_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX team_events_by_item ON team_events(item_id, seq);
CREATE TABLE team_notes (
  note_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (note_id, seq)
) WITHOUT ROWID;
CREATE INDEX team_notes_by_item ON team_notes(item_id, seq);
CREATE TABLE team_outbox (
  n INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE,
  item_id TEXT NOT NULL,
  change TEXT NOT NULL,
  member TEXT NOT NULL,
  made_at INTEGER NOT NULL
);
CREATE TABLE team_lost (
  event_id TEXT PRIMARY KEY,
  item_id TEXT NOT NULL,
  change TEXT NOT NULL,
  why TEXT NOT NULL,
  at INTEGER NOT NULL
) WITHOUT ROWID;
";

/// Schema 14: the inbox's search history (`store::searches`), newest last by `n`; a text is
/// kept once.
const V14: &str = r"
CREATE TABLE search_history (
  n INTEGER PRIMARY KEY AUTOINCREMENT,
  text TEXT NOT NULL UNIQUE,
  at INTEGER NOT NULL
);
";

/// Schema 15: how far the store has followed the team's shared mirror (`store::team_mirror`),
/// kept with the replica, so a replica started anew follows the mirror from its start.
const V15: &str = r"
ALTER TABLE team_replica ADD COLUMN mirror_seq INTEGER NOT NULL DEFAULT 0;
";

/// Schema 16: the items this store wrote while its process was the team's syncer and has not
/// yet published to the team's mirror (`store::mirror_outbox`): each item's id and the write
/// count (`items_rev`) of its last write here; an item no longer stored is published as
/// removed. Filled only while the meta key `mirror_publishing` is set.
const V16: &str = r"
CREATE TABLE mirror_outbox (id TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
";

/// Schema 17: the items a webhook receiver stored that wait to be shared with the team's mirror
/// (`webhook listen --team`, `store::team_deliveries`), written in the delivery's transaction.
const V17: &str = r"
CREATE TABLE team_deliveries (id TEXT PRIMARY KEY) WITHOUT ROWID;
";

/// Schema 18 (bulk reads, `store::rows`): the items' keys and ids in key order, so a walk that
/// writes ids alone (`search … --fields id`) reads this narrow index, not the items' rows. New
/// items take keys at its ends (keys follow received times), so a sync's writes append to it.
const V18: &str = r"
CREATE INDEX items_by_key_id ON items(k, id);
";

/// Schema 19 (stemmed search, `query::stems`): the full-text index keeps each message twice, its
/// words as written (`message`, for exact words and prefixes) and their English stems (`stems`,
/// for plain words and phrases), one stem per word so phrases stay adjacent. The stems are made
/// in Rust, so the index is filled by [`fill_stems`] after this step.
const V19: &str = r"
DROP TABLE items_fts;
CREATE VIRTUAL TABLE items_fts USING fts5(message, stems, content='', contentless_delete=1,
                                          tokenize='unicode61 remove_diacritics 2');
";

/// Schema 20 (`store::team_rebuild`): the id of the team the replica follows, made with the team
/// (`team init`), so a team dropped and made again under the same name is told from the one
/// followed. Unknown (NULL) for a replica made before: the next connection records it. The
/// outbox's changes of an item are found by an index, however many wait.
const V20: &str = r"
ALTER TABLE team_replica ADD COLUMN instance TEXT;
CREATE INDEX team_outbox_by_item ON team_outbox(item_id, n);
";

/// Schema 21 (`store::links`): links on items to what was made from them outside (a ticket):
/// this store's own (`links`, kept here when the store is in no team) and the team's, read from
/// its `link` and `unlink` events (`team_links`, forgotten with the rest of the replica). One row
/// per item and URL (in its normal form); `at` in Unix microseconds.
const V21: &str = r"
CREATE TABLE links (
  item_id TEXT NOT NULL,
  url TEXT NOT NULL,
  title TEXT,
  author TEXT,
  at INTEGER NOT NULL,
  PRIMARY KEY (item_id, url)
) WITHOUT ROWID;
CREATE TABLE team_links (
  item_id TEXT NOT NULL,
  url TEXT NOT NULL,
  title TEXT,
  author TEXT NOT NULL,
  at INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (item_id, url)
) WITHOUT ROWID;
";

/// Schema 22 (`store::replies`): the replies to reporters, kept before they are sent and after
/// (`state`: waiting, sending, sent, unknown, failed), in the order kept (`n`); one per address
/// in a send (`batch`); `item_ids` a JSON array; times in Unix microseconds.
const V22: &str = r"
CREATE TABLE replies (
  n INTEGER PRIMARY KEY AUTOINCREMENT,
  reply_id TEXT NOT NULL UNIQUE,
  batch TEXT NOT NULL,
  item_ids TEXT NOT NULL,
  to_addr TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  by TEXT,
  state TEXT NOT NULL,
  made_at INTEGER NOT NULL,
  tried_at INTEGER,
  sent_at INTEGER,
  tries INTEGER NOT NULL DEFAULT 0,
  why TEXT
);
CREATE INDEX replies_by_state ON replies(state, n);
CREATE INDEX replies_by_batch ON replies(batch, to_addr COLLATE NOCASE);
";

/// Schema 23 (`store::team_templates`): the team's shared reply templates as last read from it,
/// so `R` offers them offline; forgotten with the rest of the replica. `at` in Unix microseconds.
const V23: &str = r"
CREATE TABLE team_templates (
  name TEXT NOT NULL PRIMARY KEY,
  subject TEXT,
  body TEXT NOT NULL,
  shared_by TEXT NOT NULL,
  at INTEGER NOT NULL
);
";

/// Fills the full-text index after [`V19`], in key order (one segment, as a sync writes it).
fn fill_stems(tx: &rusqlite::Transaction<'_>) -> HookResult {
    let mut read = tx.prepare("SELECT k, message FROM items ORDER BY k")?;
    let mut insert =
        tx.prepare("INSERT INTO items_fts (rowid, message, stems) VALUES (?1, ?2, ?3)")?;
    let mut rows = read.query([])?;
    while let Some(row) = rows.next()? {
        let (k, message): (i64, String) = (row.get(0)?, row.get(1)?);
        insert.execute(rusqlite::params![
            k,
            message,
            feedback_core::query::stems(&message)
        ])?;
    }
    Ok(())
}

/// [`recount_pivot_counts`]: the statements that count `pivot_counts` from the tables.
#[cfg(test)]
pub(crate) const RECOUNT_PIVOT_COUNTS: &str = recount_pivot_counts!();

/// Every migration, oldest first.
#[must_use]
pub(crate) fn migrations() -> Migrations<'static> {
    Migrations::new(
        STEPS
            .iter()
            .enumerate()
            .map(|(at, sql)| match at + 1 {
                19 => M::up_with_hook(sql, fill_stems),
                _ => M::up(sql),
            })
            .collect(),
    )
}

/// The schema version this build writes.
#[must_use]
pub fn latest() -> usize {
    STEPS.len()
}
