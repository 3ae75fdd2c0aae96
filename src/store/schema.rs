//! The store's schema, as migrations. A store written by an older version is brought up to date
//! when it is opened; one written by a newer version is refused (its tables may mean something
//! this version does not know). Migrations only ever get appended.

use rusqlite_migration::{M, Migrations};

/// Schema 1: the mirror of the account. Text is kept raw, as the server sent it, and sanitized
/// where it is shown. `items.k` is a local key, and the rowid of the full-text index. The indexes
/// serve the views (newest first within a status, a project, an app) and the panes' counts, which
/// walk index ranges only; `item_tags` repeats the item's status for the same reason.
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
CREATE INDEX items_by_status ON items(status, received);
CREATE INDEX items_by_project ON items(project, status, received);
CREATE INDEX items_by_app ON items(app, status, received);
CREATE TABLE item_tags (tag TEXT NOT NULL, status TEXT NOT NULL, k INTEGER NOT NULL,
                        PRIMARY KEY (tag, status, k)) WITHOUT ROWID;
CREATE TABLE item_meta (k INTEGER NOT NULL, custom INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
                        PRIMARY KEY (k, custom, key)) WITHOUT ROWID;
CREATE INDEX item_meta_by_key ON item_meta(key, value);
CREATE VIRTUAL TABLE items_fts USING fts5(message, content='', contentless_delete=1,
                                          tokenize='unicode61 remove_diacritics 2');
";

/// Every migration, oldest first.
#[must_use]
pub fn migrations() -> Migrations<'static> {
    Migrations::new(vec![M::up(V1)])
}

/// The schema version this build writes.
#[must_use]
pub fn latest() -> usize {
    1
}
