//! The views' work off the UI thread: counting every view's unseen items in the store (the
//! view's own query, with done and snoozed items hidden as the list hides them, less its seen
//! items), and writing a `:save-view` into the config file.

use super::reads::Task;
use crate::action::Msg;
use crate::failure::Failure;
use crate::state::ViewSpec;
use feedback_store::search::Context;
use feedback_store::{Shared, Store, StoreError};

/// `Count::CountViews`: the unseen items of each view, and how long counting took.
pub(super) fn count_task(
    store: &Shared,
    request_id: u64,
    specs: Vec<ViewSpec>,
    cx: Context,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let started = std::time::Instant::now();
        let result = store.read(|s| count(s, &specs, &cx)).map_err(Failure::from);
        Msg::ViewsCounted {
            request_id,
            result,
            took: started.elapsed(),
        }
    })
}

/// `Effect::WriteView`: `:save-view` written into the config file.
pub(super) fn write(path: std::path::PathBuf, view: feedback_config::views::SavedView) -> Task {
    Box::new(move || Msg::ViewWritten {
        result: feedback_config::views::save(&path, &view),
        view,
    })
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
