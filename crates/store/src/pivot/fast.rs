//! Faster statements for the common views: a status (or everything), the hidden triage set,
//! a time range, searches by tag — any view whose condition names only an item's key and
//! status. Those are answered from the compact tag and metadata indexes without reading the
//! items' rows (reading 250,000 rows of a 700 MB table costs a second; walking an index of
//! the same items, tens of milliseconds). Other views take the general join (`query`).

use rusqlite::types::Value;

use super::{By, LOCALE_KEY, OS_KEYS, VERSION_KEY};
use crate::ViewQuery;

/// Statements whose rows are `(key, label, count)` and `(key, label, k)` (the latter with
/// `{LO}` and `{HI}` for the window's key range).
pub(super) struct Part {
    pub counts: String,
    pub recent: String,
}

/// The view's condition said of `alias.k` (and `alias.status` when the table has it), when it
/// names nothing else of the item's row; `None` otherwise.
fn over(view: &ViewQuery, condition: &str, alias: &str, has_status: bool) -> Option<String> {
    if view.fts.is_some() || view.project.is_some() || view.app.is_some() {
        return None;
    }
    let mut c = condition.replace("items.k", &format!("{alias}.k"));
    if has_status {
        c = c.replace("items.status", &format!("{alias}.status"));
    }
    let rest = c.replace("items.status", "");
    (!rest.contains("items.")).then_some(c)
}

/// The fast statements of a pivot by tag or metadata over `view`, with their parameters
/// appended to `params`; `None` when the view needs the general join.
pub(super) fn parts(
    view: &ViewQuery,
    by: &By,
    condition: &str,
    params: &mut Vec<Value>,
    custom: i64,
) -> Option<Vec<Part>> {
    match by {
        By::Tag => {
            let c = over(view, condition, "tg", true)?;
            Some(vec![
                Part {
                    counts: format!(
                        "SELECT tg.tag, NULL, count(*) FROM item_tags tg WHERE {c} GROUP BY tg.tag"
                    ),
                    recent: format!(
                        "SELECT tg.tag, NULL, tg.k FROM item_tags tg INDEXED BY item_tags_by_item \
                         WHERE {c} AND tg.k > {{LO}} AND tg.k <= {{HI}}"
                    ),
                },
                // The untagged items, from the partial index that holds only them.
                Part {
                    counts: format!(
                        "SELECT NULL, NULL, count(*) FROM items WHERE {condition} AND items.tags = '[]'"
                    ),
                    recent: format!(
                        "SELECT NULL, NULL, items.k FROM items WHERE {condition} \
                         AND items.tags = '[]' AND items.k > {{LO}} AND items.k <= {{HI}}"
                    ),
                },
            ])
        }
        By::Version | By::Os | By::Locale | By::Meta(_) => {
            let c = over(view, condition, "mt", false)?;
            // A status is checked in the (status, key) index, not in the item's row.
            let join = if *by == By::Version {
                // A version is grouped with its app, which only the item's row holds.
                "JOIN items ON items.k = mt.k"
            } else if c.contains("items.status") {
                "JOIN items INDEXED BY items_by_status ON items.k = mt.k"
            } else {
                ""
            };
            let keys: Vec<String> = match by {
                By::Version => vec![VERSION_KEY.to_owned()],
                By::Locale => vec![LOCALE_KEY.to_owned()],
                By::Os => OS_KEYS.iter().map(|k| (*k).to_owned()).collect(),
                By::Meta(key) => vec![key.clone()],
                _ => Vec::new(),
            };
            let list: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    params.push(Value::Text(k));
                    format!("?{}", params.len())
                })
                .collect();
            let label = match by {
                By::Os => "mt.key",
                By::Version => super::version::APP_LABEL,
                _ => "NULL",
            };
            let mut filter = format!("mt.custom = {custom} AND mt.key IN ({})", list.join(", "));
            if *by == By::Os {
                filter.push_str(&one_os("mt"));
            }
            // One key: grouped by its value alone, in the (key, value) index's own order, with
            // no sort of every row (a quarter less time at 1M items); OS has two keys.
            let group = if matches!(by, By::Os | By::Version) {
                "1, 2"
            } else {
                "1"
            };
            Some(vec![Part {
                counts: format!(
                    "SELECT mt.value, {label}, count(*) FROM item_meta mt {join} \
                     WHERE {filter} AND {c} GROUP BY {group}"
                ),
                recent: format!(
                    "SELECT mt.value, {label}, mt.k FROM item_meta mt {join} \
                     WHERE {filter} AND {c} AND mt.k > {{LO}} AND mt.k <= {{HI}}"
                ),
            }])
        }
        _ => None,
    }
}

/// The condition that counts an item once in a pivot by OS when it has both OS keys (a
/// delivery of an odd client): its `iOSVersion` wins, as the key listed first, and its
/// `androidVersion` row (`alias`) is left out. One seek in `item_meta`'s own key, done only for
/// the Android rows.
pub(super) fn one_os(alias: &str) -> String {
    let [ios, android] = OS_KEYS;
    format!(
        " AND NOT ({alias}.key = '{android}' AND EXISTS (SELECT 1 FROM item_meta os \
         WHERE os.k = {alias}.k AND os.custom = 0 AND os.key = '{ios}'))"
    )
}
