//! The views' work off the UI thread: counting every view's unseen items in the store (the
//! view's own query, with done and snoozed items hidden as the list hides them, less its seen
//! items), and writing a `:save-view` into the config file.

use jiff::tz::TimeZone;

use super::reads::Task;
use crate::store::search::{self, Context};
use crate::store::{Shared, Store, StoreError, ViewQuery};
use crate::tui::action::Msg;
use crate::tui::effect::Effect;
use crate::tui::state::ViewSpec;

/// The work an effect asks for (`None` for the effects that are not the views').
#[must_use]
pub fn task(store: &Shared, effect: &Effect, tz: &TimeZone) -> Option<Task> {
    let task: Task = match effect {
        Effect::CountViews {
            request_id,
            specs,
            now,
        } => {
            let (store, specs, request_id) = (store.clone(), specs.clone(), *request_id);
            let cx = Context {
                now: *now,
                tz: tz.clone(),
            };
            Box::new(move || {
                let started = std::time::Instant::now();
                let result = store
                    .read(|s| count(s, &specs, &cx))
                    .map_err(|e| e.to_string());
                Msg::ViewsCounted {
                    request_id,
                    result,
                    took: started.elapsed(),
                }
            })
        }
        Effect::WriteView { path, view } => {
            let (path, view) = (path.clone(), view.clone());
            Box::new(move || Msg::ViewWritten {
                result: crate::config::views::save(&path, &view),
                view,
            })
        }
        _ => return None,
    };
    Some(task)
}

/// Unseen items of each view, in order; `None` for a view whose search does not compile
/// against the store (an app name no longer known, say). The seen items' keys are collected
/// once into a temporary table (a user who has seen 300,000 items must not pay for that set once
/// per view: a search's `is:unseen` would); each view then counts its items, and those of them
/// in that table, each a walk of the view's index.
pub fn count(
    store: &Store,
    specs: &[ViewSpec],
    cx: &Context,
) -> Result<Vec<Option<usize>>, StoreError> {
    let conn = store.conn();
    conn.execute_batch(
        "CREATE TEMP TABLE IF NOT EXISTS views_seen (k INTEGER PRIMARY KEY);
         DELETE FROM temp.views_seen;
         INSERT INTO temp.views_seen
             SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE t.seen = 1;",
    )
    .map_err(|e| store.error(e))?;
    let counts = specs
        .iter()
        .map(|spec| {
            let Some(all) = view_query(store, spec, cx) else {
                return Ok(None);
            };
            let seen = seen_only(all.clone());
            let total = store.view_count(&all)?;
            let seen = store.view_count(&seen)?;
            Ok(Some(
                usize::try_from(total.saturating_sub(seen)).unwrap_or(usize::MAX),
            ))
        })
        .collect();
    // The table is kept empty between counts (its pages go back to the cache).
    conn.execute_batch("DELETE FROM temp.views_seen;")
        .map_err(|e| store.error(e))?;
    counts
}

/// The list's query of `spec`, as `reads::query` builds it (done and snoozed items hidden
/// unless its search names them).
pub(super) fn view_query(store: &Store, spec: &ViewSpec, cx: &Context) -> Option<ViewQuery> {
    let mut view = super::reads::panes_query(spec);
    let parsed = search::parse(&spec.search).ok()?;
    if !parsed.is_empty() {
        view = view.search(search::compile(store.conn(), &parsed, cx).ok()?);
    }
    Some(if parsed.asks_for_hidden() {
        view
    } else {
        view.hide_triaged(cx.now)
    })
}

/// `view` narrowed to the items in `temp.views_seen`.
fn seen_only(mut view: ViewQuery) -> ViewQuery {
    const SEEN: &str = "items.k IN (SELECT k FROM temp.views_seen)";
    let (condition, params) = view.condition.take().unwrap_or_default();
    let condition = if condition.is_empty() {
        SEEN.to_owned()
    } else {
        format!("({condition}) AND {SEEN}")
    };
    view.condition = Some((condition, params));
    view
}
