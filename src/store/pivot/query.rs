//! The SQL of a pivot: the view's condition (`store::read`) with the group's column joined in,
//! counted by SQLite, and the last 30 days' rows streamed to be put in local days.

use std::collections::HashMap;

use rusqlite::types::Value;
use rusqlite::{Row, params_from_iter};

use super::days::{PeriodCursor, Window};
use super::fast::{self, Part};
use super::{By, Group, Groups, LOCALE_KEY, OS_KEYS, Period, VERSION_KEY};
use crate::store::read::{order, view_condition};
use crate::store::search::Context;
use crate::store::{Store, StoreError, ViewQuery};

/// How a pivot by value reads its group: the joins it adds to the view and the two columns
/// (the key, the label) it selects.
struct Column {
    join: String,
    key: &'static str,
    label: &'static str,
    /// Parameters of the join (numbered after the view's).
    params: Vec<Value>,
}

impl Store {
    /// The groups of a pivot by value (not by time), unordered; a metadata pivot leaves out
    /// the items without the key (the caller adds them).
    pub(super) fn value_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        window: &Window,
        counts: bool,
    ) -> Result<Vec<Group>, StoreError> {
        if matches!(by, By::App | By::Platform) {
            return self.app_groups(view, by, window, counts);
        }
        let (from, condition, mut params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let custom = match by {
            By::Meta(key) => self.custom_or_built_in(key)?,
            _ => 0,
        };
        let parts = match fast::parts(view, by, &condition, &mut params, custom) {
            Some(parts) => parts,
            None => {
                let column = Self::column(by, params.len(), custom).map_err(|e| self.error(e))?;
                params.extend(column.params.iter().cloned());
                let (key, label, join) = (column.key, column.label, &column.join);
                vec![Part {
                    counts: format!(
                        "SELECT {key}, {label}, count(*) {from} {join} WHERE {condition} GROUP BY 1, 2"
                    ),
                    recent: format!(
                        "SELECT {key}, {label}, items.k {from} {join} WHERE {condition} \
                         AND items.k > {{LO}} AND items.k <= {{HI}}"
                    ),
                }]
            }
        };
        let (n, _) = push_window(&mut params, window);
        let mut groups = Groups::new(window.days());
        for part in parts {
            if counts {
                self.each_row(&part.counts, &params[..n], |row| {
                    let count: i64 = row.get(2)?;
                    if count > 0 {
                        entry(&mut groups, by, row)?.count += count.unsigned_abs();
                    }
                    Ok(())
                })?;
            }
            let recent = part
                .recent
                .replace("{LO}", &format!("?{}", n + 1))
                .replace("{HI}", &format!("?{}", n + 2));
            self.each_row(&recent, &params, |row| {
                if let Some(slot) = window.slot(row.get(2)?) {
                    let group = entry(&mut groups, by, row)?;
                    group.daily[slot] = group.daily[slot].saturating_add(1);
                }
                Ok(())
            })?;
        }
        Ok(groups.met)
    }

    /// The groups of a pivot by app or platform: counted by the items' app reference (an
    /// integer, no join per item), then named from the few references.
    fn app_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        window: &Window,
        counts: bool,
    ) -> Result<Vec<Group>, StoreError> {
        let mut refs = AppRefs::new();
        self.each_row("SELECT k, id, name, platform FROM app_refs", &[], |row| {
            refs.insert(row.get(0)?, (row.get(1)?, row.get(2)?, row.get(3)?));
            Ok(())
        })?;
        let mut groups = Groups::new(window.days());
        let (from, condition, mut params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        if counts {
            // The index (app, status, key) holds all a status view needs: SQLite would
            // otherwise walk the status index and read each item's row for its app. A project
            // has its own index, and a full-text match drives its own query.
            let from = if from == "FROM items" && view.project.is_none() {
                "FROM items INDEXED BY items_by_app"
            } else {
                from
            };
            let sql = format!("SELECT items.app, count(*) {from} WHERE {condition} GROUP BY 1");
            self.each_row(&sql, &params, |row| {
                let count: i64 = row.get(1)?;
                app_group(&mut groups, &refs, by, row.get(0)?).count += count.unsigned_abs();
                Ok(())
            })?;
        }
        let (_, in_window) = push_window(&mut params, window);
        let sql = format!("SELECT items.app, items.k {from} WHERE {condition} AND {in_window}");
        self.each_row(&sql, &params, |row| {
            if let Some(slot) = window.slot(row.get(1)?) {
                let group = app_group(&mut groups, &refs, by, row.get(0)?);
                group.daily[slot] = group.daily[slot].saturating_add(1);
            }
            Ok(())
        })?;
        Ok(groups.met)
    }

    /// The groups of a day or week pivot over the whole view, newest first (items whose key
    /// gives no time last, as `None`).
    pub(super) fn period_groups(
        &self,
        view: &ViewQuery,
        period: Period,
        cx: &Context,
        window: &Window,
    ) -> Result<Vec<Group>, StoreError> {
        let (from, condition, params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let sql = format!(
            "SELECT items.k {from} WHERE {condition} ORDER BY {}",
            order(view)
        );
        let mut cursor = PeriodCursor::new(period, cx.tz.clone());
        let mut groups = Groups::new(window.days());
        self.each_row(&sql, &params, |row| {
            let k: i64 = row.get(0)?;
            let name = cursor.name(k).map(str::to_owned);
            let group = groups.entry(name, None);
            group.count += 1;
            if let Some(slot) = window.slot(k) {
                group.daily[slot] = group.daily[slot].saturating_add(1);
            }
            Ok(())
        })?;
        let mut groups = groups.met;
        // Met newest first; a key without a time goes last.
        groups.sort_by_key(|g| g.key.is_none());
        Ok(groups)
    }

    /// The view's items, and how many of them have their metadata known: metadata stored (a
    /// detail's or a webhook delivery's, one seek in `item_meta` per item), or a detail stored
    /// without any (`detail_at`, as enrichment and `--with-detail` go by: such an item is
    /// known to have none, and fetching it again would bring nothing). The latter are counted
    /// over the partial index of detailed items (`items_detailed`) only.
    pub(super) fn covered(&self, view: &ViewQuery) -> Result<(u64, u64), StoreError> {
        let (from, condition, params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let has_meta = "EXISTS (SELECT 1 FROM item_meta m WHERE m.k = items.k)";
        let sql = format!(
            "SELECT count(*), count(CASE WHEN {has_meta} THEN 1 END), \
             (SELECT count(*) {from} WHERE {condition} AND items.detail_at IS NOT NULL \
              AND NOT {has_meta}) {from} WHERE {condition}"
        );
        let three = |row: &Row<'_>| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, i64>(2)?,
            ))
        };
        self.conn()
            .prepare_cached(&sql)
            .and_then(|mut s| s.query_row(params_from_iter(params), three))
            .map(|(total, with_meta, detail_without)| {
                (
                    total.unsigned_abs(),
                    with_meta.unsigned_abs() + detail_without.unsigned_abs(),
                )
            })
            .map_err(|e| self.error(e))
    }

    /// Calls `each` with the key of every item of `view` inside `window`.
    pub(super) fn window_keys(
        &self,
        view: &ViewQuery,
        window: &Window,
        mut each: impl FnMut(i64),
    ) -> Result<(), StoreError> {
        let (from, condition, mut params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let (_, in_window) = push_window(&mut params, window);
        let sql = format!("SELECT items.k {from} WHERE {condition} AND {in_window}");
        self.each_row(&sql, &params, |row| {
            each(row.get(0)?);
            Ok(())
        })
    }

    /// The join and columns of a pivot by value; `n` parameters come before the join's;
    /// `custom` says which kind of key `meta.KEY` is. An error for the pivots read otherwise
    /// (apps and platforms by `app_groups`, days and weeks by `period_groups`): a caller that
    /// sends one here is wrong, and a column of NULLs would pass for one "(none)" group.
    fn column(by: &By, n: usize, custom: i64) -> rusqlite::Result<Column> {
        let column = |join: String, key, label, params| Column {
            join,
            key,
            label,
            params,
        };
        let meta = |custom: i64, keys: &[&str], label| {
            let list: Vec<String> = (1..=keys.len()).map(|i| format!("?{}", n + i)).collect();
            let join = format!(
                "JOIN item_meta m ON m.k = items.k AND m.custom = {custom} AND m.key IN ({})",
                list.join(", ")
            );
            let params = keys.iter().map(|k| Value::Text((*k).to_owned())).collect();
            column(join, "m.value", label, params)
        };
        Ok(match by {
            By::Tag => column(
                "LEFT JOIN item_tags t ON t.k = items.k".to_owned(),
                "t.tag",
                "NULL",
                Vec::new(),
            ),
            By::Version => meta(0, &[VERSION_KEY], "NULL"),
            By::Locale => meta(0, &[LOCALE_KEY], "NULL"),
            By::Os => {
                let mut os = meta(0, &OS_KEYS, "m.key");
                os.join.push_str(&fast::one_os("m"));
                os
            }
            By::Meta(key) => meta(custom, &[key.as_str()], "NULL"),
            By::App | By::Platform | By::Day | By::Week => {
                return Err(rusqlite::Error::InvalidColumnName(format!(
                    "no joined column groups a pivot by {}",
                    by.name()
                )));
            }
        })
    }

    /// 1 when some item has `key` as a custom key, else 0 (the built-in key of that name).
    fn custom_or_built_in(&self, key: &str) -> Result<i64, StoreError> {
        let custom = self
            .conn()
            .prepare_cached("SELECT 1 FROM item_meta WHERE key = ?1 AND custom = 1")
            .and_then(|mut s| s.exists([key]))
            .map_err(|e| self.error(e))?;
        let built_in = !custom
            && self
                .conn()
                .prepare_cached("SELECT 1 FROM item_meta WHERE key = ?1 AND custom = 0")
                .and_then(|mut s| s.exists([key]))
                .map_err(|e| self.error(e))?;
        Ok(i64::from(!built_in))
    }

    fn each_row(
        &self,
        sql: &str,
        params: &[Value],
        mut each: impl FnMut(&Row<'_>) -> rusqlite::Result<()>,
    ) -> Result<(), StoreError> {
        let mut run = || -> rusqlite::Result<()> {
            let mut stmt = self.conn().prepare_cached(sql)?;
            let mut rows = stmt.query(params_from_iter(params))?;
            while let Some(row) = rows.next()? {
                each(row)?;
            }
            Ok(())
        };
        run().map_err(|e| self.error(e))
    }
}

/// An app reference's (id, name, platform) by its key.
type AppRefs = HashMap<i64, (String, String, String)>;

/// The group of an item with app reference `app`: one per app id (an app renamed has refs of
/// both names: the group shows the name met first), or per platform.
fn app_group<'g>(
    groups: &'g mut Groups,
    refs: &AppRefs,
    by: &By,
    app: Option<i64>,
) -> &'g mut Group {
    match (by, app.and_then(|k| refs.get(&k))) {
        (By::App, Some((id, name, _))) => {
            let group = groups.entry(Some(id.clone()), None);
            if group.label.is_none() {
                group.label = Some(name.clone());
            }
            group
        }
        (By::Platform, Some((_, _, platform))) => groups.entry(Some(platform.clone()), None),
        _ => groups.entry(None, None),
    }
}

/// The group of a row `(key, label, …)`. OS versions are told apart by platform and shown as
/// "iOS 17.2" / "Android 14".
fn entry<'g>(groups: &'g mut Groups, by: &By, row: &Row<'_>) -> rusqlite::Result<&'g mut Group> {
    let key: Option<String> = row.get(0)?;
    let label: Option<String> = row.get(1)?;
    Ok(match by {
        By::Os => {
            let shown = label.map(|os_key| match os_key.as_str() {
                "iOSVersion" => format!("iOS {}", key.as_deref().unwrap_or_default()),
                "androidVersion" => format!("Android {}", key.as_deref().unwrap_or_default()),
                other => format!("{other} {}", key.as_deref().unwrap_or_default()),
            });
            groups.entry(key, shown)
        }
        _ => groups.entry(key, label),
    })
}

/// Appends the window's key range to `params`: how many parameters came before it, and the
/// condition on `items.k` that uses them.
fn push_window(params: &mut Vec<Value>, window: &Window) -> (usize, String) {
    let (low, high) = window.key_range();
    let n = params.len();
    params.extend([Value::Integer(low), Value::Integer(high)]);
    (n, format!("items.k > ?{} AND items.k <= ?{}", n + 1, n + 2))
}
