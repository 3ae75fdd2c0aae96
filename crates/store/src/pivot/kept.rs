//! A pivot's counts read from the counts kept as items are written (`pivot_counts`, see
//! `store::write::counts`): for a view of a status (or every status), with the project and app
//! panes, and done and snoozed items left out, which is every view the inbox opens with. A few
//! hundred rows are read instead of every item of the view. Done items are counted apart in
//! the kept counts; the items snoozed (and not done) are counted the ordinary way over their
//! own (small) set and taken off. Other views (a search, the tag pane) are counted from the
//! items (`query`).

use rusqlite::Row;
use rusqlite::types::Value;

use super::{By, Groups, LOCALE_KEY, OS_KEYS, VERSION_KEY};
use crate::read::{key_list, ref_keys};
use crate::triage::snoozed_only;
use crate::write::counts::Dim;
use crate::{Store, StoreError, ViewQuery};

/// True when the counts of `view` can be read from the kept counts.
pub(super) fn eligible(view: &ViewQuery) -> bool {
    view.fts.is_none() && view.condition.is_none() && view.tag.is_none()
}

/// The items `view` hides beyond the done ones (snoozed, not done), with the view's other
/// filters: what its kept counts (done items left out) hold beyond the view. `None` when it
/// hides nothing.
pub(super) fn hidden_view(view: &ViewQuery) -> Option<ViewQuery> {
    let hide = view.hide?;
    Some(ViewQuery {
        condition: Some((snoozed_only(1), vec![Value::Integer(hide.now)])),
        hide: None,
        ..view.clone()
    })
}

/// One statement over `pivot_counts`: its SQL (rows `(key, label, count)`) and parameters.
struct Kept {
    sql: String,
    params: Vec<Value>,
}

impl Store {
    /// Adds the kept counts of `view` (snoozed items included) by `by` to `groups`.
    pub(super) fn kept_groups(
        &self,
        view: &ViewQuery,
        by: &By,
        groups: &mut Groups,
        app: impl Fn(&mut Groups, Option<i64>, u64),
    ) -> Result<(), StoreError> {
        let filter = self.kept_filter(view)?;
        if matches!(by, By::App | By::Platform) {
            let sql = format!(
                "SELECT app, sum(n) FROM pivot_counts WHERE dim = {} AND key = '' AND {filter} \
                 GROUP BY app",
                Dim::Items as i64
            );
            return self.each_row(&sql, &[], |row| {
                let key: i64 = row.get(0)?;
                app(groups, (key != 0).then_some(key), count(row, 1)?);
                Ok(())
            });
        }
        for (kept, sign) in self.kept_statements(by, &filter)? {
            self.each_row(&kept.sql, &kept.params, |row| {
                let n = count(row, 2)?;
                let group = super::query::entry(groups, by, row)?;
                group.count = if sign > 0 {
                    group.count + n
                } else {
                    group.count.saturating_sub(n)
                };
                Ok(())
            })?;
        }
        Ok(())
    }

    /// The kept count of `dim` over `view` (snoozed items included).
    pub(super) fn kept_total(&self, view: &ViewQuery, dim: Dim) -> Result<u64, StoreError> {
        let filter = self.kept_filter(view)?;
        let sql = format!(
            "SELECT coalesce(sum(n), 0) FROM pivot_counts WHERE dim = {} AND key = '' AND {filter}",
            dim as i64
        );
        let mut total = 0;
        self.each_row(&sql, &[], |row| {
            total = count(row, 0)?;
            Ok(())
        })?;
        Ok(total)
    }

    /// The condition on status, project and app that selects `view`'s kept counts.
    fn kept_filter(&self, view: &ViewQuery) -> Result<String, StoreError> {
        let mut parts = vec!["n != 0".to_owned()];
        if view.hide.is_some() {
            parts.push("done = 0".to_owned());
        }
        if let Some(status) = &view.status {
            // Quoted as SQL text: the statement then has no parameters to number.
            parts.push(format!("status = '{}'", status.replace('\'', "''")));
        }
        let conn = self.conn();
        if let Some(project) = &view.project {
            let keys = ref_keys(conn, "project_refs", project).map_err(|e| self.error(e))?;
            parts.push(key_list("project", &keys));
        }
        if let Some(app) = &view.app {
            let keys = ref_keys(conn, "app_refs", app).map_err(|e| self.error(e))?;
            parts.push(key_list("app", &keys));
        }
        Ok(parts.join(" AND "))
    }

    /// The statements of a pivot by tag or metadata, each with the sign its counts are added
    /// with.
    fn kept_statements(&self, by: &By, filter: &str) -> Result<Vec<(Kept, i64)>, StoreError> {
        let grouped = |dim: Dim, key: &str, label: &str| Kept {
            sql: format!(
                "SELECT value, {label}, sum(n) FROM pivot_counts \
                 WHERE dim = {} AND key = ?1 AND {filter} GROUP BY 1, 2",
                dim as i64
            ),
            params: vec![Value::Text(key.to_owned())],
        };
        let [ios, android] = OS_KEYS;
        Ok(match by {
            By::Tag => vec![
                (grouped(Dim::Tag, "", "NULL"), 1),
                (
                    Kept {
                        sql: format!(
                            "SELECT NULL, NULL, sum(n) FROM pivot_counts \
                             WHERE dim = {} AND key = '' AND {filter} HAVING sum(n) > 0",
                            Dim::Untagged as i64
                        ),
                        params: Vec::new(),
                    },
                    1,
                ),
            ],
            // A version with its app (`version::APP_LABEL`'s form: the reference key as text).
            By::Version => vec![(grouped(Dim::BuiltIn, VERSION_KEY, "CAST(app AS TEXT)"), 1)],
            By::Locale => vec![(grouped(Dim::BuiltIn, LOCALE_KEY, "NULL"), 1)],
            By::Os => vec![
                (grouped(Dim::BuiltIn, ios, "?1"), 1),
                (grouped(Dim::BuiltIn, android, "?1"), 1),
                // Items with both keys count under iOS only.
                (grouped(Dim::BothOs, android, "?1"), -1),
            ],
            By::Meta(key) => {
                let dim = if self.custom_or_built_in(key)? == 1 {
                    Dim::Custom
                } else {
                    Dim::BuiltIn
                };
                vec![(grouped(dim, key, "NULL"), 1)]
            }
            By::App | By::Platform | By::Day | By::Week => Vec::new(),
        })
    }
}

/// Column `at` of `row`, a count.
fn count(row: &Row<'_>, at: usize) -> rusqlite::Result<u64> {
    Ok(row.get::<_, i64>(at)?.unsigned_abs())
}
