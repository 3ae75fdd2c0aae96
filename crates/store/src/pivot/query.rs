//! The SQL of a pivot: the view's condition (`store::read`) with the group's column joined in,
//! counted by SQLite, and the last 30 days' rows streamed to be put in local days.

use std::collections::HashMap;

use rusqlite::types::Value;
use rusqlite::{Row, params_from_iter};

use super::days::{PeriodCursor, Window};
use super::fast::{self, Part};
use super::{By, Group, Groups, LOCALE_KEY, OS_KEYS, Period, VERSION_KEY, kept};
use crate::read::{order, view_condition};
use crate::search::Context;
use crate::{Store, StoreError, ViewQuery};

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
    /// The groups of a pivot by value (not by time), unordered, with their daily series over
    /// `window`, and their counts over the whole view when `counts`; a metadata pivot leaves out
    /// the items without the key (the caller adds them).
    pub(super) fn value_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        window: &Window,
        counts: bool,
    ) -> Result<Vec<Group>, StoreError> {
        let mut groups = Groups::new(window.days());
        let refs = if matches!(by, By::App | By::Platform) {
            self.app_refs()?
        } else {
            AppRefs::new()
        };
        let app = |groups: &mut Groups, key: Option<i64>, n: i64| {
            let group = app_group(groups, &refs, by, key);
            group.count = group.count.saturating_add_signed(n);
        };
        if counts && kept::eligible(view) {
            self.kept_groups(view, by, &mut groups, |g, key, n| {
                app(g, key, i64::try_from(n).unwrap_or(i64::MAX));
            })?;
            if let Some(hidden) = kept::hidden_view(view) {
                self.counted_groups(&hidden, by, &mut groups, -1, &app)?;
            }
        } else if counts {
            self.counted_groups(view, by, &mut groups, 1, &app)?;
        }
        self.recent_groups(view, by, window, &mut groups, &refs)?;
        let mut groups = groups.met;
        if counts {
            groups.retain(|g| g.count > 0);
        }
        if *by == By::Version {
            return self.version_groups(groups);
        }
        Ok(groups)
    }

    /// Adds (`sign` 1) or takes off (-1) the counts of `view`'s items by `by` in `groups`,
    /// counted from the items; apps and platforms through `app`.
    fn counted_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        groups: &mut Groups,
        sign: i64,
        app: &dyn Fn(&mut Groups, Option<i64>, i64),
    ) -> Result<(), StoreError> {
        if matches!(by, By::App | By::Platform) {
            let (from, condition, params) =
                view_condition(self.conn(), view).map_err(|e| self.error(e))?;
            // The index (app, status, key) holds all a status view needs: SQLite would
            // otherwise walk the status index and read each item's row for its app. A project
            // has its own index, and a full-text match drives its own query; a set of keys
            // (the hidden items) is looked up by key.
            let from = if from == "FROM items" && view.project.is_none() && sign > 0 {
                "FROM items INDEXED BY items_by_app"
            } else {
                from
            };
            let sql = format!("SELECT items.app, count(*) {from} WHERE {condition} GROUP BY 1");
            return self.each_row(&sql, &params, |row| {
                app(groups, row.get(0)?, sign * row.get::<_, i64>(1)?);
                Ok(())
            });
        }
        let (parts, params) = self.statements(view, by)?;
        for part in parts {
            self.each_row(&part.counts, &params, |row| {
                let count: i64 = row.get(2)?;
                if count > 0 {
                    let group = entry(groups, by, row)?;
                    group.count = group.count.saturating_add_signed(sign * count);
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    /// Adds `view`'s items inside `window` to their groups' daily series.
    fn recent_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        window: &Window,
        groups: &mut Groups,
        refs: &AppRefs,
    ) -> Result<(), StoreError> {
        if matches!(by, By::App | By::Platform) {
            let (from, condition, mut params) =
                view_condition(self.conn(), view).map_err(|e| self.error(e))?;
            let (_, in_window) = push_window(&mut params, window);
            let sql = format!("SELECT items.app, items.k {from} WHERE {condition} AND {in_window}");
            return self.each_row(&sql, &params, |row| {
                if let Some(slot) = window.slot(row.get(1)?) {
                    let group = app_group(groups, refs, by, row.get(0)?);
                    group.daily[slot] = group.daily[slot].saturating_add(1);
                }
                Ok(())
            });
        }
        let (parts, mut params) = self.statements(view, by)?;
        let (n, _) = push_window(&mut params, window);
        for part in parts {
            let recent = part
                .recent
                .replace("{LO}", &format!("?{}", n + 1))
                .replace("{HI}", &format!("?{}", n + 2));
            self.each_row(&recent, &params, |row| {
                if let Some(slot) = window.slot(row.get(2)?) {
                    let group = entry(groups, by, row)?;
                    group.daily[slot] = group.daily[slot].saturating_add(1);
                }
                Ok(())
            })?;
        }
        Ok(())
    }

    /// The statements of a pivot by tag or metadata over `view`, and their parameters (the
    /// window's are appended by the caller).
    fn statements(&self, view: &ViewQuery, by: &By) -> Result<(Vec<Part>, Vec<Value>), StoreError> {
        let (from, condition, mut params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let custom = match by {
            By::Meta(key) => self.custom_or_built_in(key)?,
            _ => 0,
        };
        if let Some(parts) = fast::parts(view, by, &condition, &mut params, custom) {
            return Ok((parts, params));
        }
        let column = Self::column(by, params.len(), custom).map_err(|e| self.error(e))?;
        params.extend(column.params.iter().cloned());
        let (key, label, join) = (column.key, column.label, &column.join);
        let part = Part {
            counts: format!(
                "SELECT {key}, {label}, count(*) {from} {join} WHERE {condition} GROUP BY 1, 2"
            ),
            recent: format!(
                "SELECT {key}, {label}, items.k {from} {join} WHERE {condition} \
                 AND items.k > {{LO}} AND items.k <= {{HI}}"
            ),
        };
        Ok((vec![part], params))
    }

    /// Every app reference's (id, name, platform) by its key.
    fn app_refs(&self) -> Result<AppRefs, StoreError> {
        let mut refs = AppRefs::new();
        self.each_row("SELECT k, id, name, platform FROM app_refs", &[], |row| {
            refs.insert(row.get(0)?, (row.get(1)?, row.get(2)?, row.get(3)?));
            Ok(())
        })?;
        Ok(refs)
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
        // Keys come in order: a period's items one after the other, its group looked up once.
        let mut current: Option<(String, usize)> = None;
        self.each_row(&sql, &params, |row| {
            let k: i64 = row.get(0)?;
            let name = cursor.name(k);
            let at = match (&current, name) {
                (Some((last, at)), Some(name)) if last == name => *at,
                _ => {
                    let at = groups.at(name, None);
                    current = name.map(|n| (n.to_owned(), at));
                    at
                }
            };
            let group = &mut groups.met[at];
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
            By::Version => meta(0, &[VERSION_KEY], super::version::APP_LABEL),
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
    pub(super) fn custom_or_built_in(&self, key: &str) -> Result<i64, StoreError> {
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

    pub(super) fn each_row(
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
            let group = groups.entry(Some(id), None);
            if group.label.is_none() {
                group.label = Some(name.clone());
            }
            group
        }
        (By::Platform, Some((_, _, platform))) => groups.entry(Some(platform), None),
        _ => groups.entry(None, None),
    }
}

/// The group of a row `(key, label, …)`. OS versions are told apart by platform and shown as
/// "iOS 17.2" / "Android 14".
pub(super) fn entry<'g>(
    groups: &'g mut Groups,
    by: &By,
    row: &Row<'_>,
) -> rusqlite::Result<&'g mut Group> {
    let text = |at: usize| {
        row.get_ref(at)?.as_str_or_null().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(at, rusqlite::types::Type::Text, Box::new(e))
        })
    };
    let (key, label) = (text(0)?, text(1)?);
    let at = match (by, label) {
        (By::Os, Some(os_key)) => {
            let version = key.unwrap_or_default();
            let shown = match os_key {
                "iOSVersion" => format!("iOS {version}"),
                "androidVersion" => format!("Android {version}"),
                other => format!("{other} {version}"),
            };
            groups.at(key, Some(&shown))
        }
        _ => groups.at(key, label),
    };
    Ok(&mut groups.met[at])
}

/// Appends the window's key range to `params`: how many parameters came before it, and the
/// condition on `items.k` that uses them.
fn push_window(params: &mut Vec<Value>, window: &Window) -> (usize, String) {
    let (low, high) = window.key_range();
    let n = params.len();
    params.extend([Value::Integer(low), Value::Integer(high)]);
    (n, format!("items.k > ?{} AND items.k <= ?{}", n + 1, n + 2))
}
