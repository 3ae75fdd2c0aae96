//! A view's rows lent to a writer for the time of a callback: the columns as the store holds
//! them, borrowed, so a bulk export turns each row straight into text with no item made for
//! it (an item is a dozen allocations; at a million rows they were most of an export's time).

use jiff::Timestamp;
use rusqlite::params_from_iter;

use super::match_walk::{Choice, Walk};
use super::read::column::{APP, EMAIL, ID, KEY, MESSAGE, PROJECT, RECEIVED, STATUS, TAGS};
use super::read::{RefColumns, micros};
use super::{Store, StoreError, ViewQuery};

/// Which of a row's columns a writer reads. Those it leaves out are not read from the store
/// (nor their joins) and are empty in the rows it is lent: `""`, no email, no tags, no app, the
/// epoch. A walk that needs none of them reads the ids alone, from an index of the keys and
/// ids (`items_by_key_id`), not the items' rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // a set of column groups, each in or out
pub struct RowNeeds {
    pub message: bool,
    pub email: bool,
    pub tags: bool,
    pub project: bool,
    pub app: bool,
    pub status: bool,
    pub received: bool,
}

impl RowNeeds {
    /// Every column (the API's item shape).
    pub const ALL: Self = Self {
        message: true,
        email: true,
        tags: true,
        project: true,
        app: true,
        status: true,
        received: true,
    };

    /// The id alone.
    pub const ID: Self = Self {
        message: false,
        email: false,
        tags: false,
        project: false,
        app: false,
        status: false,
        received: false,
    };
}

/// One row of a view, borrowed (see [`Store::view_rows_each`]). Text is the store's: the
/// service's bytes, not sanitized. The item's own texts are `str`, or as read, bytes not yet
/// checked to be UTF-8 ([`RowBytes`], which a bulk walk copies and checks on another thread).
#[derive(Debug, Clone, Copy)]
pub struct ItemRow<'r, T: ?Sized = str> {
    pub key: i64,
    pub id: &'r T,
    pub message: &'r T,
    pub email: Option<&'r T>,
    /// The status the item was listed under, or the one this version does not know that it
    /// carried.
    pub status: &'r T,
    pub received_at: Timestamp,
    /// The tags as stored: a JSON array of strings.
    pub tags: &'r T,
    pub project: RefRow<'r>,
    pub app: Option<AppRow<'r>>,
}

/// A row as the walk reads it, its item's texts not yet checked to be UTF-8.
pub type RowBytes<'r> = ItemRow<'r, [u8]>;

impl<'r> RowBytes<'r> {
    /// The row with its texts checked to be UTF-8, or the statement's column of the first that
    /// is not, and why.
    pub fn checked(&self) -> Result<ItemRow<'r>, (usize, std::str::Utf8Error)> {
        let text = |column: usize, bytes| std::str::from_utf8(bytes).map_err(|e| (column, e));
        Ok(ItemRow {
            key: self.key,
            id: text(ID, self.id)?,
            message: text(MESSAGE, self.message)?,
            email: self.email.map(|e| text(EMAIL, e)).transpose()?,
            status: text(STATUS, self.status)?,
            received_at: self.received_at,
            tags: text(TAGS, self.tags)?,
            project: self.project,
            app: self.app,
        })
    }
}

/// A project as an item names it.
#[derive(Debug, Clone, Copy)]
pub struct RefRow<'r> {
    pub id: &'r str,
    pub name: &'r str,
}

/// An app as an item names it.
#[derive(Debug, Clone, Copy)]
pub struct AppRow<'r> {
    pub id: &'r str,
    pub name: &'r str,
    pub platform: &'r str,
}

/// The projects and apps items name, by their keys: a few rows, read once before a walk, so
/// the walk reads each row's references from memory instead of joining them row by row (two
/// lookups a row were a quarter of a bulk read). Kept sorted by key and searched: a few dozen
/// keys are found sooner than each row's key is hashed.
#[derive(Debug, Default)]
struct Refs {
    projects: Vec<(i64, String, String)>,
    apps: Vec<(i64, String, String, String)>,
}

impl Refs {
    fn read(conn: &rusqlite::Connection, needs: RowNeeds) -> rusqlite::Result<Self> {
        let mut refs = Self::default();
        if needs.project {
            refs.projects = conn
                .prepare_cached("SELECT k, id, name FROM project_refs ORDER BY k")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
        }
        if needs.app {
            refs.apps = conn
                .prepare_cached("SELECT k, id, name, platform FROM app_refs ORDER BY k")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(refs)
    }

    fn project(&self, key: i64) -> RefRow<'_> {
        match self.projects.binary_search_by_key(&key, |p| p.0) {
            Ok(at) => {
                let (_, id, name) = &self.projects[at];
                RefRow { id, name }
            }
            Err(_) => RefRow { id: "", name: "" },
        }
    }

    fn app(&self, key: i64) -> Option<AppRow<'_>> {
        let at = self.apps.binary_search_by_key(&key, |a| a.0).ok()?;
        let (_, id, name, platform) = &self.apps[at];
        Some(AppRow { id, name, platform })
    }
}

impl Store {
    /// The rows of the view `query`, newest first (at most `limit`), each lent to `each` as it
    /// is read, with the columns `needs` asks for: the same walk as
    /// [`Store::view_items_each`], in flat memory (a match holding much of the store is read
    /// by one pass, `store::match_walk`). The walk and the references it reads are one read
    /// transaction, so they agree.
    pub fn view_rows_each<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        each: impl FnMut(&ItemRow<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.view_rows_walk(query, limit, needs, Choice::Cheaper, each)
    }

    /// [`Store::view_rows_each`] lending the rows as read, their texts not yet checked to be
    /// UTF-8: a bulk export checks them where it writes them, off the reading thread.
    pub fn view_row_bytes_each<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        each: impl FnMut(&RowBytes<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.view_rows_read(query, limit, needs, Choice::Cheaper, each)
    }

    /// [`Store::view_rows_each`] with the walk `choice` asks for.
    pub(super) fn view_rows_walk<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        choice: Choice,
        mut each: impl FnMut(&ItemRow<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.view_rows_read(query, limit, needs, choice, |row| {
            let row = row
                .checked()
                .map_err(|(column, e)| self.error(rusqlite::Error::Utf8Error(column, e)))?;
            each(&row)
        })
    }

    /// The walk of [`Store::view_rows_walk`], lending the rows as read.
    fn view_rows_read<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        choice: Choice,
        mut each: impl FnMut(&RowBytes<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let conn = self.conn();
        // A read transaction (unless one is open already): SQLite fixes what it sees at its
        // first read, the references.
        let snapshot = if conn.is_autocommit() {
            Some(conn.unchecked_transaction().map_err(|e| self.error(e))?)
        } else {
            None
        };
        let refs = Refs::read(conn, needs).map_err(|e| self.error(e))?;
        let walk = self.match_walk(query, limit, choice)?;
        let (sql, params, merged) = match walk {
            Walk::Lookup => {
                let (sql, params) = self.view_rows_sql(query, limit, needs, RefColumns::Keys)?;
                (sql, params, None)
            }
            Walk::Merge(keys) => {
                let (Some(&first), Some(&last)) = (keys.first(), keys.last()) else {
                    return Ok(());
                };
                let (sql, params) =
                    self.view_rows_scan_sql(query, first..=last, needs, RefColumns::Keys)?;
                (sql, params, Some(keys))
            }
        };
        let mut stmt = conn.prepare_cached(&sql).map_err(|e| self.error(e))?;
        let mut rows = stmt
            .query(params_from_iter(params))
            .map_err(|e| self.error(e))?;
        let mut matched = merged.as_deref().map(|keys| keys.iter().peekable());
        let mut lent = 0_usize;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            let key: i64 = row.get(KEY).map_err(|e| self.error(e))?;
            if let Some(keys) = &mut matched {
                while keys.next_if(|&&k| k < key).is_some() {}
                match keys.peek() {
                    None => break,
                    Some(&&k) if k != key => continue,
                    Some(_) => {}
                }
                if limit.is_some_and(|l| lent >= l) {
                    break;
                }
            }
            let text = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_bytes()?));
            let optional = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_bytes_or_null()?));
            // Only the columns asked for are looked at: the others are empty values.
            let read = || -> rusqlite::Result<RowBytes<'_>> {
                let app = if needs.app {
                    row.get::<_, Option<i64>>(APP)?
                        .and_then(|key| refs.app(key))
                } else {
                    None
                };
                Ok(ItemRow {
                    key,
                    id: text(ID)?,
                    message: if needs.message { text(MESSAGE)? } else { b"" },
                    email: if needs.email { optional(EMAIL)? } else { None },
                    status: if needs.status { text(STATUS)? } else { b"" },
                    received_at: if needs.received {
                        micros(row.get(RECEIVED)?).unwrap_or(Timestamp::UNIX_EPOCH)
                    } else {
                        Timestamp::UNIX_EPOCH
                    },
                    tags: if needs.tags { text(TAGS)? } else { b"[]" },
                    project: if needs.project {
                        refs.project(row.get(PROJECT)?)
                    } else {
                        RefRow { id: "", name: "" }
                    },
                    app,
                })
            };
            let item = read().map_err(|e| self.error(e))?;
            each(&item)?;
            lent += 1;
        }
        drop(rows);
        drop(stmt);
        // Nothing was written: ending it either way only lets the snapshot go.
        drop(snapshot);
        Ok(())
    }
}

/// Rows copied out of a walk into one buffer, so that another thread can write them while the
/// walk goes on. The text is the store's (the service's bytes, not sanitized), as in the rows,
/// checked to be UTF-8 as each row is read back.
#[derive(Debug, Default)]
pub struct RowBatch {
    text: Vec<u8>,
    rows: Vec<Spans>,
    /// The store's name, for the error of a text that is not UTF-8.
    store: std::sync::Arc<str>,
}

/// The statement's column each of a copied row's texts was read from (a reference's is the
/// item's key of it), named in the error of one that is not UTF-8.
const COPIED_FROM: [usize; 10] = [
    ID, MESSAGE, EMAIL, STATUS, TAGS, PROJECT, PROJECT, APP, APP, APP,
];

/// Where a copied row's texts end in its batch's buffer: id, message, email, status, tags,
/// project id and name, app id, name and platform, each starting where the one before ends.
#[derive(Debug, Clone, Copy)]
struct Spans {
    key: i64,
    received_at: Timestamp,
    ends: [usize; 10],
    email: bool,
    app: bool,
}

impl Store {
    /// An empty batch of this store's rows.
    #[must_use]
    pub fn row_batch(&self) -> RowBatch {
        RowBatch {
            store: self.describe().into(),
            ..RowBatch::default()
        }
    }
}

impl RowBatch {
    /// An empty batch of the same store's rows, holding no memory yet.
    #[must_use]
    pub fn empty_like(&self) -> Self {
        Self {
            store: self.store.clone(),
            ..Self::default()
        }
    }

    /// Copies `row` in.
    pub fn push(&mut self, row: &RowBytes<'_>) {
        let app = row.app.unwrap_or(AppRow {
            id: "",
            name: "",
            platform: "",
        });
        let parts: [&[u8]; 10] = [
            row.id,
            row.message,
            row.email.unwrap_or_default(),
            row.status,
            row.tags,
            row.project.id.as_bytes(),
            row.project.name.as_bytes(),
            app.id.as_bytes(),
            app.name.as_bytes(),
            app.platform.as_bytes(),
        ];
        let mut ends = [0; 10];
        for (end, part) in ends.iter_mut().zip(parts) {
            self.text.extend_from_slice(part);
            *end = self.text.len();
        }
        self.rows.push(Spans {
            key: row.key,
            received_at: row.received_at,
            ends,
            email: row.email.is_some(),
            app: row.app.is_some(),
        });
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The bytes of text the batch holds.
    #[must_use]
    pub fn text_bytes(&self) -> usize {
        self.text.len()
    }

    /// Empties the batch, keeping its memory for the next.
    pub fn clear(&mut self) {
        self.text.clear();
        self.rows.clear();
    }

    /// A copied row's texts, which end at `ends` in its `bytes`: the row's bytes are checked
    /// once, and each text is UTF-8 exactly when they are and it begins and ends on a
    /// character's boundary. Otherwise each alone is checked, and the first that is not UTF-8
    /// is the store's error.
    fn texts<'b>(
        &'b self,
        bytes: &'b [u8],
        ends: [usize; 10],
    ) -> Result<[&'b str; 10], StoreError> {
        let whole = std::str::from_utf8(bytes).ok();
        let mut parts = [""; 10];
        let mut start = 0;
        for (at, (part, end)) in parts.iter_mut().zip(ends).enumerate() {
            let span = start..end;
            *part = match whole.and_then(|w| w.get(span.clone())) {
                Some(text) => text,
                None => std::str::from_utf8(&bytes[span]).map_err(|e| {
                    let error = rusqlite::Error::Utf8Error(COPIED_FROM[at], e);
                    StoreError::sqlite(self.store.to_string(), error)
                })?,
            };
            start = end;
        }
        Ok(parts)
    }

    /// The rows, in the order they were pushed; a row whose texts are not UTF-8 is the store's
    /// error.
    pub fn rows(&self) -> impl Iterator<Item = Result<ItemRow<'_>, StoreError>> {
        self.rows.iter().enumerate().map(|(i, spans)| {
            let first = if i == 0 { 0 } else { self.rows[i - 1].ends[9] };
            let bytes = &self.text[first..spans.ends[9]];
            let parts = self.texts(bytes, spans.ends.map(|end| end - first))?;
            let [
                id,
                message,
                email,
                status,
                tags,
                project_id,
                project_name,
                app_id,
                app_name,
                platform,
            ] = parts;
            Ok(ItemRow {
                key: spans.key,
                id,
                message,
                email: spans.email.then_some(email),
                status,
                received_at: spans.received_at,
                tags,
                project: RefRow {
                    id: project_id,
                    name: project_name,
                },
                app: spans.app.then_some(AppRow {
                    id: app_id,
                    name: app_name,
                    platform,
                }),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{RowBatch, RowNeeds};
    use crate::{Store, StoreError, ViewQuery};
    use feedback_api::Feedback;

    /// The simulator's items (hostile and international text, items without an app or an
    /// email) and one whose project was renamed after some of its items were stored.
    fn store() -> Store {
        let anchor = "2026-11-20T12:00:00Z".parse().unwrap();
        let data = feedback_sim::data::generate(5, 300, anchor);
        let mut items: Vec<Feedback> = data.items().map(|d| d.feedback).collect();
        let mut renamed = items[0].clone();
        renamed.id = feedback_api::FeedbackId("renamed".into());
        renamed.project.name = "A new name".into();
        renamed.reporter_email = None;
        renamed.app = None;
        items.push(renamed);
        Store::listed_in_memory(&items, anchor).unwrap()
    }

    /// Owned copies of a walk's rows, as `view_rows_each` lends them.
    fn walk(store: &Store, needs: RowNeeds) -> Vec<String> {
        let mut rows = Vec::new();
        store
            .view_rows_each(&ViewQuery::listed(None), None, needs, |row| {
                rows.push(format!("{row:?}"));
                Ok::<_, StoreError>(())
            })
            .unwrap();
        rows
    }

    /// The rule: a walk's references are the ones each item named when it was stored, read
    /// from memory as a join would read them.
    #[test]
    fn a_walk_reads_each_rows_references_as_a_join_would() {
        let store = store();
        let mut joined = Vec::new();
        store
            .view_items_each(&ViewQuery::listed(None), None, 64, |items| {
                joined.extend(items);
                Ok::<_, StoreError>(())
            })
            .unwrap();
        let mut walked = 0;
        store
            .view_rows_each(&ViewQuery::listed(None), None, RowNeeds::ALL, |row| {
                let item = &joined[walked].feedback;
                assert_eq!(row.id, item.id.0);
                assert_eq!(
                    (row.project.id, row.project.name),
                    (item.project.id.as_str(), item.project.name.as_str())
                );
                let app = row.app.map(|a| (a.id, a.name, a.platform));
                let expected = item
                    .app
                    .as_ref()
                    .map(|a| (a.id.as_str(), a.name.as_str(), a.platform.as_str()));
                assert_eq!(app, expected, "{}", row.id);
                walked += 1;
                Ok::<_, StoreError>(())
            })
            .unwrap();
        assert_eq!(walked, joined.len());
        assert!(
            joined
                .iter()
                .any(|i| i.feedback.project.name == "A new name")
        );
        assert!(joined.iter().any(|i| i.feedback.app.is_none()));
    }

    /// The rule: a batch lends back exactly the rows copied into it, in order, also after it
    /// was cleared and filled again.
    #[test]
    fn a_batch_lends_back_the_rows_copied_in() {
        let store = store();
        for needs in [
            RowNeeds::ALL,
            RowNeeds {
                email: true,
                app: true,
                received: true,
                ..RowNeeds::ID
            },
        ] {
            let expected = walk(&store, needs);
            let mut batch = store.row_batch();
            let mut copied = Vec::new();
            let lent = |batch: &RowBatch| -> Vec<String> {
                batch.rows().map(|r| format!("{:?}", r.unwrap())).collect()
            };
            store
                .view_row_bytes_each(&ViewQuery::listed(None), None, needs, |row| {
                    batch.push(row);
                    if batch.len() == 7 {
                        copied.extend(lent(&batch));
                        batch.clear();
                        assert!(batch.is_empty());
                    }
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            copied.extend(lent(&batch));
            assert_eq!(copied, expected);
            assert!(expected.iter().any(|r| r.contains("email: None")));
        }
    }

    /// A stored text that is not UTF-8 (a damaged store, or one written by another program) is
    /// the store's error naming its column, whether the row is lent by a walk or read back
    /// from a batch, also where the texts copied side by side would join into UTF-8.
    #[test]
    fn a_text_that_is_not_utf8_is_an_error_naming_its_column() {
        for (message, email) in [
            (&b"caf\xC3"[..], &b"\xA9@example.com"[..]),
            (&b"ok"[..], &b"\xFF@example.com"[..]),
        ] {
            let store = store();
            let key: i64 = store
                .conn()
                .query_row("SELECT min(k) FROM items", [], |r| r.get(0))
                .unwrap();
            store
                .conn()
                .execute(
                    "UPDATE items SET message = CAST(?1 AS TEXT), email = CAST(?2 AS TEXT) \
                     WHERE k = ?3",
                    rusqlite::params![message, email, key],
                )
                .unwrap();
            let column = if message == b"ok" { 3 } else { 2 };
            let view = ViewQuery::listed(None);
            let walked = store
                .view_rows_each(&view, None, RowNeeds::ALL, |_| Ok::<_, StoreError>(()))
                .unwrap_err();
            let mut batch = store.row_batch();
            store
                .view_row_bytes_each(&view, None, RowNeeds::ALL, |row| {
                    batch.push(row);
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let copied = batch.rows().find_map(Result::err).unwrap();
            for error in [walked, copied] {
                let text = error.to_string();
                assert!(text.contains("damaged: in-memory store"), "{text}");
                // rusqlite names the statement's column as "at index".
                assert!(text.contains(&format!("at index {column})")), "{text}");
            }
            // The other rows are read back whole.
            assert_eq!(batch.rows().flatten().count(), batch.len() - 1);
        }
    }

    /// A walk of ids alone, the pass a large match is merged with and the lookup alike, reads
    /// the index of keys and ids, never the items' rows; one that needs a row's other columns
    /// reads the rows.
    #[test]
    fn a_walk_of_ids_alone_reads_the_index_of_keys_and_ids() {
        let store = store();
        let plan = |sql: &str, params: Vec<rusqlite::types::Value>| -> String {
            let mut stmt = store
                .conn()
                .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
                .unwrap();
            let rows = stmt
                .query_map(rusqlite::params_from_iter(params), |row| {
                    row.get::<_, String>(3)
                })
                .unwrap();
            rows.map(Result::unwrap).collect::<Vec<_>>().join("; ")
        };
        let view = ViewQuery::default();
        for needs in [RowNeeds::ID, RowNeeds::ALL] {
            let (scan, params) = store
                .view_rows_scan_sql(&view, 0..=i64::MAX, needs, super::RefColumns::Keys)
                .unwrap();
            let scanned = plan(&scan, params);
            let (lookup, params) = store
                .view_rows_sql(&view, None, needs, super::RefColumns::Keys)
                .unwrap();
            let looked = plan(&lookup, params);
            let covered = |plan: &str| plan.contains("COVERING INDEX items_by_key_id");
            assert_eq!(
                covered(&scanned),
                needs == RowNeeds::ID,
                "{needs:?}: {scanned}"
            );
            assert_eq!(
                covered(&looked),
                needs == RowNeeds::ID,
                "{needs:?}: {looked}"
            );
        }
    }
}
