//! Insight's work off the UI thread: the store's custom metadata keys (for the `=` picker), the
//! pivot of a view (the grouped view) and its trend (the trends panel). A view is the list's
//! own query (`views::view_query`): the groups count exactly what the list shows.

use jiff::tz::TimeZone;

use super::reads::Task;
use crate::store::search::Context;
use crate::store::{Shared, Store, StoreError};
use crate::tui::action::Msg;
use crate::tui::effect::Effect;

/// At most this many custom keys are offered (a store with thousands would fill the picker).
const MAX_KEYS: usize = 200;

/// The work an effect asks for (`None` for the effects that are not insight's).
#[must_use]
pub fn task(store: &Shared, effect: &Effect, tz: &TimeZone) -> Option<Task> {
    let store = store.clone();
    let task: Task = match effect {
        Effect::MetaKeys => {
            Box::new(move || Msg::MetaKeys(store.read(custom_keys).map_err(|e| e.to_string())))
        }
        Effect::Pivot {
            request_id,
            spec,
            by,
            now,
        } => {
            let (request_id, spec, by) = (*request_id, spec.clone(), by.clone());
            let cx = Context {
                now: *now,
                tz: tz.clone(),
            };
            Box::new(move || {
                let result = store.read(|s| {
                    let view = super::views::view_query(s, &spec, &cx)
                        .ok_or_else(|| "the view's search does not apply".to_owned())?;
                    s.pivot(&view, &by, &cx).map_err(|e| e.to_string())
                });
                Msg::Pivoted {
                    request_id,
                    result: result.map(Box::new),
                }
            })
        }
        Effect::Trend {
            request_id,
            spec,
            by,
            now,
        } => {
            let (request_id, spec, by) = (*request_id, spec.clone(), by.clone());
            let cx = Context {
                now: *now,
                tz: tz.clone(),
            };
            Box::new(move || {
                let result = store.read(|s| {
                    let view = super::views::view_query(s, &spec, &cx)
                        .ok_or_else(|| "the view's search does not apply".to_owned())?;
                    s.trend(&view, &by, &cx).map_err(|e| e.to_string())
                });
                Msg::Trended {
                    request_id,
                    result: result.map(Box::new),
                }
            })
        }
        _ => return None,
    };
    Some(task)
}

/// The custom metadata keys stored, by name.
fn custom_keys(store: &Store) -> Result<Vec<String>, StoreError> {
    let mut stmt = store
        .conn()
        .prepare_cached("SELECT DISTINCT key FROM item_meta WHERE custom = 1 ORDER BY key LIMIT ?1")
        .map_err(|e| store.error(e))?;
    let rows = stmt
        .query_map([i64::try_from(MAX_KEYS).unwrap_or(i64::MAX)], |r| {
            r.get::<_, String>(0)
        })
        .map_err(|e| store.error(e))?;
    rows.collect::<Result<Vec<_>, _>>()
        .map_err(|e| store.error(e))
}
