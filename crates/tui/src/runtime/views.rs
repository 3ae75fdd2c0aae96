//! The views' work off the UI thread: counting every view's unseen items in the store (the
//! view's own query, with done and snoozed items hidden as the list hides them, less its seen
//! items), and writing a `:save-view` into the config file.

use feedback_store::search::Reading;

use super::reads::Task;
use crate::action::Msg;
use crate::effect::Effect;
use crate::state::ViewSpec;
use feedback_store::search::Context;
use feedback_store::{Shared, Store, StoreError};

/// The work an effect asks for (`None` for the effects that are not the views').
#[must_use]
pub fn task(store: &Shared, effect: &Effect, reading: &Reading) -> Option<Task> {
    let task: Task = match effect {
        Effect::CountViews {
            request_id,
            specs,
            now,
        } => {
            let (store, specs, request_id) = (store.clone(), specs.clone(), *request_id);
            let cx = reading.at(*now);
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
                result: feedback_config::views::save(&path, &view),
                view,
            })
        }
        _ => return None,
    };
    Some(task)
}

/// Unseen items of each view, in order; `None` for a view whose search does not compile
/// against the store (an app name no longer known, say). Each view is the list's query, done
/// and snoozed items hidden as the list hides them ([`Store::views_unseen`]).
pub fn count(
    store: &Store,
    specs: &[ViewSpec],
    cx: &Context,
) -> Result<Vec<Option<usize>>, StoreError> {
    store.views_unseen(specs, cx)
}
