//! The store reads of the inbox, run on blocking threads (and once before the loop, for the
//! first frame): a view's keys with the rows around the screen, a window of rows, the panes and
//! a detail.

use crate::action::{Freshness, Msg, Panes, ViewData, ViewError};
use crate::failure::Failure;
use crate::rows::{Row, Window};
use crate::state::{Anchor, ViewSpec};
use crate::team::TeamShown;
use crate::update::WINDOW_MARGIN;
use feedback_store::search::Context;
use feedback_store::{Shared, Store, StoreError, ViewReadError};

/// How fresh a status is; the syncer knows (`None` when it cannot say).
pub(crate) type FreshnessOf =
    std::sync::Arc<dyn Fn(&Store, &str) -> Option<Freshness> + Send + Sync>;

/// A read to run on a blocking thread, and the message it answers with.
pub type Task = Box<dyn FnOnce() -> Msg + Send>;

/// `Read::Query`'s answer: the view's keys and the rows around the screen, with the open
/// detail's item read too.
pub(super) fn view_loaded(
    store: &Shared,
    request_id: u64,
    (spec, anchor): (ViewSpec, Anchor),
    shape: Shape,
    open: Option<String>,
    cx: Context,
    freshness: &FreshnessOf,
) -> Task {
    let store = store.clone();
    let freshness = std::sync::Arc::clone(freshness);
    Box::new(move || Msg::ViewLoaded {
        request_id,
        result: store
            .read(|s| {
                let mut data = query(s, &spec, &anchor, shape, &cx, &*freshness)?;
                if let Some(id) = &open {
                    read_also(s, &mut data.window, id).map_err(store_error)?;
                }
                Ok(data)
            })
            .map(Box::new),
    })
}

/// `Read::LoadRows`: the rows of `keys`, which start at view position `start`.
pub(super) fn rows(store: &Shared, request_id: u64, start: usize, keys: Vec<i64>) -> Task {
    let store = store.clone();
    Box::new(move || Msg::RowsLoaded {
        request_id,
        result: store
            .read(|s| window(s, start, &keys))
            .map_err(Failure::from),
    })
}

/// `Count::LoadPanes`: the pane entries with stored counts for a status.
pub(super) fn load_panes(
    store: &Shared,
    request_id: u64,
    status: String,
    project: Option<String>,
) -> Task {
    let store = store.clone();
    Box::new(move || Msg::PanesLoaded {
        request_id,
        result: store
            .read(|s| panes(s, &status, project.as_deref()))
            .map(Box::new)
            .map_err(Failure::from),
    })
}

/// `Count::CompletionValues`: the values stored under a metadata qualifier's keys.
pub(super) fn completion_values(
    store: &Shared,
    name: String,
    key: feedback_core::query::MetaKey,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = store
            .read(|s| match &key {
                feedback_core::query::MetaKey::BuiltIn(keys) => {
                    s.meta_values(keys, false, COMPLETION_VALUES)
                }
                feedback_core::query::MetaKey::Any(key) => {
                    s.meta_values(&[key.as_str()], true, COMPLETION_VALUES)
                }
            })
            .map_err(Failure::from);
        Msg::CompletionValues { name, result }
    })
}

/// `Read::LoadSearches`: the search history.
pub(super) fn searches(store: &Shared) -> Task {
    let store = store.clone();
    Box::new(move || {
        Msg::SearchesLoaded(
            store
                .read(feedback_store::Store::searches)
                .map_err(Failure::from),
        )
    })
}

/// `Read::LoadDetail`: the stored detail of an item.
pub(super) fn detail(store: &Shared, id: String) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = store
            .read(|s| s.detail(&id))
            .map(|d| d.map(Box::new))
            .map_err(Failure::from);
        Msg::DetailStored { id, result }
    })
}

/// Most values the prompt offers for a metadata qualifier.
const COMPLETION_VALUES: usize = 200;

/// The screen a query reads for: its rows, and at most how many keys.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    pub limit: Option<usize>,
}

/// The keys of a view, where the anchor's items are in it, and the rows around the screen.
pub fn query(
    store: &Store,
    spec: &ViewSpec,
    anchor: &Anchor,
    Shape { rows, limit }: Shape,
    cx: &Context,
    freshness: &dyn Fn(&Store, &str) -> Option<Freshness>,
) -> Result<ViewData, ViewError> {
    let (keys, woken) = match &spec.pinned {
        // A pinned key set is answered as it is, less what the store no longer holds.
        Some(pinned) => (
            super::similar::stored_keys(store, pinned).map_err(store_error)?,
            0,
        ),
        None => {
            let view = store.view_keys_of(spec, limit, cx).map_err(view_error)?;
            (view.keys, view.woken)
        }
    };
    let triage = super::triage_writes::figures(store, &keys, cx.now).map_err(store_error)?;
    let partial = spec.pinned.is_none() && limit.is_some_and(|l| keys.len() >= l);
    // Counted with the whole view only: the first screen's answer stays a few rows' reads.
    let basis = match (&spec.pinned, limit) {
        (None, None) => store.view_coverage(spec, cx).map_err(view_error)?,
        _ => None,
    };
    let (mut selected, mut top, mut first) = (None, None, None);
    for (n, key) in keys.iter().enumerate() {
        if anchor.selected.is_some_and(|(k, _)| k == *key) {
            selected = Some(n);
        }
        if anchor.top == Some(*key) {
            top = Some(n);
        }
        if anchor.first == Some(*key) {
            first = Some(n);
        }
    }
    let last = keys.len().saturating_sub(1);
    let selected = selected.or(anchor.selected.map(|(_, fallback)| fallback.min(last)));
    // The screen's first row: the anchored top, or what keeps the selection on screen.
    let base = top.unwrap_or_else(|| selected.map_or(0, |s| (s + 1).saturating_sub(rows)));
    let start = base.saturating_sub(WINDOW_MARGIN);
    let end = (base + rows + WINDOW_MARGIN).min(keys.len());
    let window =
        window(store, start, keys.get(start..end).unwrap_or_default()).map_err(store_error)?;
    Ok(ViewData {
        keys: keys.into(),
        selected,
        top,
        first,
        woken,
        window,
        freshness: freshness(store, spec.listed()),
        partial,
        triage,
        basis,
    })
}

/// The rows of `keys`, which start at view position `start`. A key no longer stored (dropped
/// by retention meanwhile) ends the window there; the next query shows the view without it.
pub fn window(store: &Store, start: usize, keys: &[i64]) -> Result<Window, StoreError> {
    let items = store.items(keys)?;
    let ids: Vec<&str> = items.iter().map(|i| i.feedback.id.as_str()).collect();
    let mut states = store.triage_of(&ids)?;
    let rows: Vec<Row> = items
        .iter()
        .zip(keys)
        .take_while(|(item, key)| item.key == **key)
        .map(|(item, _)| Row::new(item))
        .collect();
    let triage = rows
        .iter()
        .map(|row| {
            let state = states.remove(&*row.id).unwrap_or_default();
            (row.id.to_string(), state)
        })
        .collect();
    let ids: Vec<String> = rows.iter().map(|row| row.id.to_string()).collect();
    let team = TeamShown::read_touched(store, &ids)?;
    Ok(Window {
        start,
        rows,
        triage,
        team,
    })
}

/// The states of item `id` beside the window's rows' (the open detail's item, which may have
/// left the view), so that its detail shows what the store holds now.
pub(crate) fn read_also(store: &Store, window: &mut Window, id: &str) -> Result<(), StoreError> {
    if window.triage.contains_key(id) {
        return Ok(());
    }
    let state = store.triage_of(&[id])?.remove(id).unwrap_or_default();
    window.triage.insert(id.to_owned(), state);
    window
        .team
        .extend(TeamShown::read_touched(store, &[id.to_owned()])?);
    Ok(())
}

/// The panes' data for a status (apps of `project` when given).
pub fn panes(store: &Store, status: &str, project: Option<&str>) -> Result<Panes, StoreError> {
    Ok(Panes {
        counts: store.counts(Some(status))?,
        projects: store.projects()?,
        apps: store.apps(project)?,
    })
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` hands it
fn store_error(err: StoreError) -> ViewError {
    ViewError::Store(err.to_string())
}

fn view_error(err: ViewReadError) -> ViewError {
    match err {
        ViewReadError::Query(err) => ViewError::Query(err),
        ViewReadError::Store(err) => store_error(err),
    }
}
