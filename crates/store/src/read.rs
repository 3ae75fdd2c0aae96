//! Reading the store: the ordered keys of a view (status, project, app, tag and a compiled
//! search condition), the rows of one screen, a detail, pane counts and `store info`.
//! Order is always newest first: `k ASC` (keys follow received times, newest first, see
//! `store::keys`).

use jiff::Timestamp;
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, Row, params_from_iter};

use super::rows::RowNeeds;
use super::{Store, StoreError};
use feedback_api::{
    AppRef, Delivery, Feedback, FeedbackDetail, FeedbackId, Metadata, Platform, ProjectRef, Status,
};

/// What a view shows: each `Some` narrows it. Values are raw ids (as the API takes them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewQuery {
    pub(crate) status: Option<String>,
    pub(crate) project: Option<String>,
    pub(crate) app: Option<String>,
    pub(crate) tag: Option<String>,
    /// A search, compiled to an SQL condition over `items` with its parameters.
    pub(crate) condition: Option<(String, Vec<Value>)>,
    /// The full-text match a search requires: the query then walks its matches newest first.
    pub(crate) fts: Option<String>,
    /// Done items and items snoozed past a time left out (`ViewQuery::hide_triaged`).
    pub(crate) hide: Option<Hide>,
}

/// How a view leaves out done and snoozed items (`store::triage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hide {
    /// Items snoozed past this (Unix seconds) are hidden.
    pub now: i64,
    /// Looked up row by row (a walk that stops after a screen), not as a set collected first.
    pub per_row: bool,
}

impl ViewQuery {
    /// The items listed in `status` (every item: `None`).
    #[must_use]
    pub fn listed(status: Option<&str>) -> Self {
        Self {
            status: status.map(str::to_owned),
            ..Self::default()
        }
    }

    /// This view narrowed to a status, when one is given.
    #[must_use]
    pub fn in_status(mut self, status: Option<String>) -> Self {
        self.status = status;
        self
    }

    /// This view narrowed to a project (by id), when one is given.
    #[must_use]
    pub fn in_project(mut self, project: Option<String>) -> Self {
        self.project = project;
        self
    }

    /// This view narrowed to an app (by id), when one is given.
    #[must_use]
    pub fn in_app(mut self, app: Option<String>) -> Self {
        self.app = app;
        self
    }

    /// This view narrowed to a tag, when one is given.
    #[must_use]
    pub fn tagged(mut self, tag: Option<String>) -> Self {
        self.tag = tag;
        self
    }

    /// This view narrowed to the items received before `at`.
    #[must_use]
    pub fn received_before(mut self, at: Timestamp) -> Self {
        let key = super::micros_key(at.as_microsecond());
        self.condition = Some((super::before("?1"), vec![Value::Integer(key)]));
        self
    }

    /// This view narrowed by a compiled search.
    #[must_use]
    pub fn search(mut self, sql: super::search::Sql) -> Self {
        self.condition = Some((sql.condition, sql.params));
        self.fts = sql.fts;
        self
    }
}

/// A stored item as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredItem {
    /// The local key (the view's order refers to rows by it).
    pub key: i64,
    pub feedback: Feedback,
    /// When the item was last seen: its status and tags are "as of" then.
    pub seen: Timestamp,
}

/// A stored item with what a detail or webhook told us.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredDetail {
    pub item: StoredItem,
    pub metadata: Metadata,
    /// `None` until a detail was fetched.
    pub delivery: Option<Vec<Delivery>>,
    /// When the detail was last fetched.
    pub detail_at: Option<Timestamp>,
}

impl StoredDetail {
    /// As the API's detail shape (an unknown delivery is empty).
    #[must_use]
    pub fn to_detail(&self) -> FeedbackDetail {
        FeedbackDetail {
            feedback: self.item.feedback.clone(),
            metadata: self.metadata.clone(),
            delivery: self.delivery.clone().unwrap_or_default(),
        }
    }
}

/// How a row names its project and app: their ids and names joined in (a lookup per row, for
/// a few items), or the references' keys alone, for a walk that knows every reference
/// (`store::rows`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RefColumns {
    Joined,
    Keys,
}

/// Where each of [`item_columns`]' columns stands in a row, for the rows' readers.
pub(super) mod column {
    pub(crate) const KEY: usize = 0;
    pub(crate) const ID: usize = 1;
    pub(crate) const MESSAGE: usize = 2;
    pub(crate) const EMAIL: usize = 3;
    pub(crate) const STATUS: usize = 4;
    pub(crate) const RECEIVED: usize = 5;
    pub(crate) const TAGS: usize = 6;
    pub(crate) const SEEN: usize = 7;
    /// The project's id, or with `RefColumns::Keys` its key.
    pub(crate) const PROJECT: usize = 8;
    pub(crate) const PROJECT_NAME: usize = 9;
    /// The app's id, or with `RefColumns::Keys` its key.
    pub(crate) const APP: usize = 10;
    pub(crate) const APP_NAME: usize = 11;
    pub(crate) const APP_PLATFORM: usize = 12;
}

/// The columns of an item's row, in the order `item_from_row` and `Store::view_rows_each` read
/// them; those `needs` leaves out are empty values. The status shown is the service's own
/// value, also when the item is kept in a list this version knows (`items.unknown_status`,
/// schema 10). With `RefColumns::Keys` the project's and the app's keys stand where their ids
/// are, and their other columns are empty; a stored item's last sighting is read only with
/// `RefColumns::Joined` (a walk's rows do not carry it), so a walk of ids alone reads only the
/// index of keys and ids.
fn item_columns(needs: RowNeeds, refs: RefColumns) -> String {
    let pick = |needed: bool, column: &'static str, empty: &'static str| {
        if needed { column } else { empty }
    };
    let joined = refs == RefColumns::Joined;
    [
        "items.k",
        "items.id",
        pick(needs.message, "items.message", "NULL"),
        pick(needs.email, "items.email", "NULL"),
        pick(
            needs.status,
            "coalesce(items.unknown_status, items.status)",
            "''",
        ),
        pick(needs.received, "items.received", "0"),
        pick(needs.tags, "items.tags", "'[]'"),
        // Read for a stored item (its last sighting); a walk's rows do not carry it.
        pick(refs == RefColumns::Joined, "items.seen", "0"),
        match (needs.project, joined) {
            (false, _) => "NULL",
            (true, true) => "p.id",
            (true, false) => "items.project",
        },
        pick(needs.project && joined, "p.name", "NULL"),
        match (needs.app, joined) {
            (false, _) => "NULL",
            (true, true) => "a.id",
            (true, false) => "items.app",
        },
        pick(needs.app && joined, "a.name", "NULL"),
        pick(needs.app && joined, "a.platform", "NULL"),
    ]
    .join(", ")
}

/// The joins of the references `needs` reads, after `FROM items` (or the view's own walk, which
/// stays outermost: CROSS JOIN); the references are key lookups. None for `RefColumns::Keys`.
fn item_joins(needs: RowNeeds, refs: RefColumns) -> &'static str {
    if refs == RefColumns::Keys {
        return "";
    }
    match (needs.project, needs.app) {
        (true, true) => {
            " CROSS JOIN project_refs p ON p.k = items.project \
             LEFT JOIN app_refs a ON a.k = items.app"
        }
        (true, false) => " CROSS JOIN project_refs p ON p.k = items.project",
        (false, true) => " LEFT JOIN app_refs a ON a.k = items.app",
        (false, false) => "",
    }
}

impl Store {
    /// Keys of the items `query` selects, newest first; at most `limit` when given.
    pub fn view_keys(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
    ) -> Result<Vec<i64>, StoreError> {
        let (from, condition, params) =
            view_condition(&self.conn, query).map_err(|e| self.error(e))?;
        let limit = limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        let sql = format!(
            "SELECT items.k {from} WHERE {condition} ORDER BY {} LIMIT {limit}",
            order(query)
        );
        self.keys_of(&sql, params)
    }

    /// The keys a query of items' keys (its first column) answers, in its order.
    pub(super) fn keys_of(&self, sql: &str, params: Vec<Value>) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.error(e))?;
        stmt.query_map(params_from_iter(params), |row| row.get(0))
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))
    }

    /// SQLite's plan for `view_keys` (one line per step), for tests and timing runs.
    pub fn view_plan(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
    ) -> Result<Vec<String>, StoreError> {
        let (from, condition, params) =
            view_condition(&self.conn, query).map_err(|e| self.error(e))?;
        let limit = limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        let sql = format!(
            "EXPLAIN QUERY PLAN SELECT items.k {from} WHERE {condition} ORDER BY {} LIMIT {limit}",
            order(query)
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.error(e))?;
        stmt.query_map(params_from_iter(params), |row| row.get(3))
            .and_then(Iterator::collect)
            .map_err(|e| self.error(e))
    }

    /// How many items `query` selects.
    pub fn view_count(&self, query: &ViewQuery) -> Result<u64, StoreError> {
        let (from, condition, params) =
            view_condition(&self.conn, query).map_err(|e| self.error(e))?;
        let sql = format!("SELECT count(*) {from} WHERE {condition}");
        self.conn
            .prepare_cached(&sql)
            .and_then(|mut s| s.query_row(params_from_iter(params), |row| row.get::<_, i64>(0)))
            .map(i64::unsigned_abs)
            .map_err(|e| self.error(e))
    }

    /// The items of the view `query`, newest first (at most `limit`), handed to `each` in
    /// batches of up to `batch` as they are read: one statement walks the view and reads each
    /// item's row as it goes, so a whole store streams in flat memory, with no lookup per key.
    pub fn view_items_each<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        batch: usize,
        mut each: impl FnMut(Vec<StoredItem>) -> Result<(), E>,
    ) -> Result<(), E> {
        let (sql, params) = self.view_rows_sql(query, limit, RowNeeds::ALL, RefColumns::Joined)?;
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.error(e))?;
        let mut rows = stmt
            .query(params_from_iter(params))
            .map_err(|e| self.error(e))?;
        let batch = batch.max(1);
        let mut items = Vec::with_capacity(batch);
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            items.push(item_from_row(row).map_err(|e| self.error(e))?);
            if items.len() == batch {
                each(std::mem::replace(&mut items, Vec::with_capacity(batch)))?;
            }
        }
        if !items.is_empty() {
            each(items)?;
        }
        Ok(())
    }

    /// The statement that walks the view `query` reading each item's row (the columns of
    /// `item_columns`, those `needs` leaves out as empty values, without their joins), newest
    /// first, at most `limit`, and its parameters.
    pub(super) fn view_rows_sql(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        refs: RefColumns,
    ) -> Result<(String, Vec<Value>), StoreError> {
        let (from, condition, params) =
            view_condition(&self.conn, query).map_err(|e| self.error(e))?;
        let limit = limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        let sql = format!(
            "SELECT {} {from}{} WHERE {condition} ORDER BY {} LIMIT {limit}",
            item_columns(needs, refs),
            item_joins(needs, refs),
            order(query)
        );
        Ok((sql, params))
    }

    /// The statement that reads, in key order (newest first), the rows of `query` without its
    /// full-text match whose keys lie in `keys`, and its parameters: the scan a match is
    /// merged with (`store::match_walk`).
    pub(super) fn view_rows_scan_sql(
        &self,
        query: &ViewQuery,
        keys: std::ops::RangeInclusive<i64>,
        needs: RowNeeds,
        refs: RefColumns,
    ) -> Result<(String, Vec<Value>), StoreError> {
        let scan = ViewQuery {
            fts: None,
            ..query.clone()
        };
        let (from, condition, params) =
            view_condition(&self.conn, &scan).map_err(|e| self.error(e))?;
        let sql = format!(
            "SELECT {} {from}{} WHERE {condition} AND items.k BETWEEN {} AND {} ORDER BY items.k",
            item_columns(needs, refs),
            item_joins(needs, refs),
            keys.start(),
            keys.end(),
        );
        Ok((sql, params))
    }

    /// The items with these keys, in the order given (keys no longer stored are left out).
    pub fn items(&self, keys: &[i64]) -> Result<Vec<StoredItem>, StoreError> {
        let all = RowNeeds::ALL;
        let sql = format!(
            "SELECT {} FROM items{} WHERE items.k = ?1",
            item_columns(all, RefColumns::Joined),
            item_joins(all, RefColumns::Joined)
        );
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.error(e))?;
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            if let Some(item) = stmt
                .query_row([key], item_from_row)
                .optional()
                .map_err(|e| self.error(e))?
            {
                out.push(item);
            }
        }
        Ok(out)
    }

    /// The stored item with this server id.
    pub fn item(&self, id: &str) -> Result<Option<StoredItem>, StoreError> {
        let all = RowNeeds::ALL;
        let sql = format!(
            "SELECT {} FROM items{} WHERE items.id = ?1",
            item_columns(all, RefColumns::Joined),
            item_joins(all, RefColumns::Joined)
        );
        self.conn
            .prepare_cached(&sql)
            .and_then(|mut s| s.query_row([id], item_from_row).optional())
            .map_err(|e| self.error(e))
    }

    /// The server ids of the items stored with `status`, newest first.
    pub fn ids_with_status(&self, status: &str) -> Result<Vec<String>, StoreError> {
        let read = || -> rusqlite::Result<Vec<String>> {
            self.conn
                .prepare_cached(
                    "SELECT id FROM items WHERE status = ?1 ORDER BY received DESC, k ASC",
                )?
                .query_map([status], |r| r.get(0))?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }

    /// Which of these server ids are stored.
    pub fn contains_ids(&self, ids: &[&str]) -> Result<Vec<bool>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT 1 FROM items WHERE id = ?1")
            .map_err(|e| self.error(e))?;
        ids.iter()
            .map(|id| stmt.exists([id]).map_err(|e| self.error(e)))
            .collect()
    }

    /// The item with its metadata and delivery, as far as they are known.
    /// The item `id` as stored, with what the store knows of it beyond its list fields, when
    /// it knows anything (a webhook's metadata, a detail read): what the team's mirror shares.
    pub fn item_with_extras(
        &self,
        id: &str,
    ) -> Result<Option<(feedback_api::Feedback, Option<feedback_api::Extras>)>, StoreError> {
        let Some(detail) = self.detail(id)? else {
            return Ok(None);
        };
        let known =
            detail.delivery.is_some() || detail.metadata != feedback_api::Metadata::default();
        let extras = known.then_some(feedback_api::Extras {
            metadata: detail.metadata,
            delivery: detail.delivery,
        });
        Ok(Some((detail.item.feedback, extras)))
    }

    pub fn detail(&self, id: &str) -> Result<Option<StoredDetail>, StoreError> {
        let Some(item) = self.item(id)? else {
            return Ok(None);
        };
        let (delivery, detail_at): (Option<String>, Option<i64>) = self
            .conn
            .prepare_cached("SELECT delivery, detail_at FROM items WHERE k = ?1")
            .and_then(|mut s| s.query_row([item.key], |row| Ok((row.get(0)?, row.get(1)?))))
            .map_err(|e| self.error(e))?;
        let mut metadata = Metadata::default();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT custom, key, value FROM item_meta WHERE k = ?1")
            .map_err(|e| self.error(e))?;
        let rows = stmt
            .query_map([item.key], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get(2)?))
            })
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(|e| self.error(e))?;
        for (custom, key, value) in rows {
            let map = if custom == 0 {
                &mut metadata.built_in
            } else {
                &mut metadata.custom
            };
            map.insert(key, value);
        }
        Ok(Some(StoredDetail {
            item,
            metadata,
            delivery: delivery.and_then(|d| serde_json::from_str(&d).ok()),
            detail_at: detail_at.and_then(|s| Timestamp::from_second(s).ok()),
        }))
    }
}

/// The ORDER BY of a view, newest first: by the full-text index's rowid when it drives the
/// query (SQLite sorts otherwise, not knowing it equals `items.k`).
pub(super) fn order(query: &ViewQuery) -> &'static str {
    if query.fts.is_some() {
        "items_fts.rowid"
    } else {
        "items.k"
    }
}

/// The FROM and WHERE clauses of a view and its parameters. With a full-text match, the match's
/// index drives the query (CROSS JOIN keeps it outermost): its rowids are item keys, so it
/// yields matches newest first and a LIMIT stops it early.
pub(super) fn view_condition(
    conn: &rusqlite::Connection,
    query: &ViewQuery,
) -> rusqlite::Result<(&'static str, String, Vec<Value>)> {
    let mut parts: Vec<String> = vec!["1".to_owned()];
    // A project or an app is usually one reference key: `items.project = k` then reads the
    // index (project, status) in key order, where `IN (SELECT …)` would sort.
    if let Some(project) = &query.project {
        parts.push(key_list(
            "items.project",
            &ref_keys(conn, "project_refs", project)?,
        ));
    }
    if let Some(app) = &query.app {
        parts.push(key_list("items.app", &ref_keys(conn, "app_refs", app)?));
    }
    let mut params: Vec<Value> = Vec::new();
    let mut add = |sql: &str, value: &String| {
        params.push(Value::Text(value.clone()));
        parts.push(sql.replace('?', &format!("?{}", params.len())));
    };
    if let Some(status) = &query.status {
        add("items.status = ?", status);
    }
    match (&query.tag, &query.status) {
        // The item's status is in `item_tags` too: the view's tag is one range of its key.
        (Some(tag), Some(status)) => {
            params.push(Value::Text(tag.clone()));
            params.push(Value::Text(status.clone()));
            let n = params.len();
            parts.push(format!(
                "items.k IN (SELECT k FROM item_tags WHERE tag = ?{} AND status = ?{n})",
                n - 1
            ));
        }
        (Some(tag), None) => add("items.k IN (SELECT k FROM item_tags WHERE tag = ?)", tag),
        (None, _) => {}
    }
    if let Some((condition, extra)) = &query.condition {
        // The search's parameters are numbered from 1 in its condition: renumber them after ours.
        let offset = params.len();
        parts.push(format!("({})", renumber(condition, offset)));
        params.extend(extra.iter().cloned());
    }
    if let Some(hide) = query.hide {
        params.push(Value::Integer(hide.now));
        parts.push(super::triage::hide_condition(hide, params.len()));
    }
    let from = match &query.fts {
        Some(fts) => {
            params.push(Value::Text(fts.clone()));
            parts.push(format!("items_fts MATCH ?{}", params.len()));
            "FROM items_fts CROSS JOIN items ON items.k = items_fts.rowid"
        }
        None => "FROM items",
    };
    Ok((from, parts.join(" AND "), params))
}

/// The local keys of the references (project or app, as items named it) with this server id.
pub(super) fn ref_keys(
    conn: &rusqlite::Connection,
    table: &str,
    id: &str,
) -> rusqlite::Result<Vec<i64>> {
    conn.prepare_cached(&format!("SELECT k FROM {table} WHERE id = ?1 ORDER BY k"))?
        .query_map([id], |row| row.get(0))?
        .collect()
}

/// `column = k`, `column IN (k, …)` or `0` (matches nothing) for our own integer keys.
pub(super) fn key_list(column: &str, keys: &[i64]) -> String {
    match keys {
        [] => "0".to_owned(),
        [one] => format!("{column} = {one}"),
        many => {
            let list: Vec<String> = many.iter().map(i64::to_string).collect();
            format!("{column} IN ({})", list.join(", "))
        }
    }
}

/// Shifts every `?N` placeholder of `sql` by `offset` (placeholders inside string literals are
/// not expected: the search compiler passes every value as a parameter).
pub(super) fn renumber(sql: &str, offset: usize) -> String {
    if offset == 0 {
        return sql.to_owned();
    }
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        out.push(c);
        if c != '?' {
            continue;
        }
        let mut digits = String::new();
        while let Some((_, d)) = chars.peek().filter(|(_, d)| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        match digits.parse::<usize>() {
            Ok(n) => out.push_str(&(n + offset).to_string()),
            Err(_) => out.push_str(&digits),
        }
    }
    out
}

pub(super) fn micros(us: i64) -> Option<Timestamp> {
    Timestamp::from_microsecond(us).ok()
}

fn item_from_row(row: &Row<'_>) -> rusqlite::Result<StoredItem> {
    let tags: String = row.get(column::TAGS)?;
    let app_id: Option<String> = row.get(column::APP)?;
    let app = match app_id {
        Some(id) => Some(AppRef {
            id,
            name: row.get(column::APP_NAME)?,
            platform: Platform::from(row.get::<_, String>(column::APP_PLATFORM)?.as_str()),
        }),
        None => None,
    };
    Ok(StoredItem {
        key: row.get(column::KEY)?,
        feedback: Feedback {
            id: FeedbackId(row.get(column::ID)?),
            message: row.get(column::MESSAGE)?,
            reporter_email: row.get(column::EMAIL)?,
            status: Status::from(row.get::<_, String>(column::STATUS)?.as_str()),
            received_at: micros(row.get(column::RECEIVED)?).unwrap_or(Timestamp::UNIX_EPOCH),
            tags: serde_json::from_str(&tags).unwrap_or_default(),
            app,
            project: ProjectRef {
                id: row.get(column::PROJECT)?,
                name: row.get(column::PROJECT_NAME)?,
            },
        },
        seen: Timestamp::from_second(row.get(column::SEEN)?).unwrap_or(Timestamp::UNIX_EPOCH),
    })
}
