//! The views' work off the UI thread: counting every view's unseen items in the store (one
//! `count(*)` per view, the view's own query narrowed by `is:unseen`, with done and snoozed
//! items hidden as the list hides them), and writing a `:save-view` into the config file.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::reads::Task;
use crate::store::search::{self, Context};
use crate::store::{Shared, Store, StoreError, ViewQuery};
use crate::tui::action::Msg;
use crate::tui::effect::Effect;
use crate::tui::state::ViewSpec;
use crate::tui::views::unseen_search;

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
            Box::new(move || Msg::ViewsCounted {
                request_id,
                result: store
                    .read(|s| count(s, &specs, &cx))
                    .map_err(|e| e.to_string()),
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
/// against the store (an app name no longer known, say).
pub fn count(
    store: &Store,
    specs: &[ViewSpec],
    cx: &Context,
) -> Result<Vec<Option<usize>>, StoreError> {
    specs
        .iter()
        .map(|spec| {
            let Some(query) = unseen_query(store, spec, cx.now, cx) else {
                return Ok(None);
            };
            let n = store.view_count(&query)?;
            Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
        })
        .collect()
}

/// The list's query of `spec` (as `reads::query` builds it), narrowed to unseen items.
fn unseen_query(store: &Store, spec: &ViewSpec, now: Timestamp, cx: &Context) -> Option<ViewQuery> {
    let view = ViewQuery {
        status: Some(spec.status.clone()),
        project: spec.project.as_ref().map(|c| c.value.clone()),
        app: spec.app.as_ref().map(|c| c.value.clone()),
        tag: spec.tag.as_ref().map(|c| c.value.clone()),
        ..ViewQuery::default()
    };
    let parsed = search::parse(&unseen_search(&spec.search)).ok()?;
    let sql = search::compile(store.conn(), &parsed, cx).ok()?;
    let view = view.search(sql);
    Some(if parsed.asks_for_hidden() {
        view
    } else {
        view.hide_triaged(now)
    })
}
