//! The store reads of the inbox, run on blocking threads (and once before the loop, for the
//! first frame): a view's keys with the rows around the screen, a window of rows, the panes and
//! a detail.

use jiff::tz::TimeZone;

use crate::store::search::{self, Context};
use crate::store::{Coverage, Shared, Store, StoreError, ViewQuery};
use crate::tui::action::{Freshness, Msg, Panes, ViewData, ViewError};
use crate::tui::effect::Effect;
use crate::tui::rows::{Row, Window};
use crate::tui::state::{Anchor, ViewSpec};
use crate::tui::update::WINDOW_MARGIN;

/// How fresh a status is; the syncer knows (`None` when it cannot say).
pub type FreshnessOf = std::sync::Arc<dyn Fn(&Store, &str) -> Option<Freshness> + Send + Sync>;

/// A read to run on a blocking thread, and the message it answers with.
pub type Task = Box<dyn FnOnce() -> Msg + Send>;

/// The read an effect asks for (`None` for the effects that are not reads).
pub fn task(
    store: &Shared,
    effect: Effect,
    tz: &TimeZone,
    freshness: &FreshnessOf,
) -> Option<Task> {
    let store = store.clone();
    let freshness = std::sync::Arc::clone(freshness);
    let task: Task = match effect {
        Effect::Query {
            request_id,
            spec,
            anchor,
            rows,
            now,
            limit,
        } => {
            let cx = Context {
                now,
                tz: tz.clone(),
            };
            let shape = Shape { rows, limit };
            Box::new(move || Msg::ViewLoaded {
                request_id,
                result: store
                    .read(|s| query(s, &spec, &anchor, shape, &cx, &*freshness))
                    .map(Box::new),
            })
        }
        Effect::LoadRows {
            request_id,
            start,
            keys,
        } => Box::new(move || Msg::RowsLoaded {
            request_id,
            result: store
                .read(|s| window(s, start, &keys))
                .map_err(|e| e.to_string()),
        }),
        Effect::LoadPanes {
            request_id,
            status,
            project,
        } => Box::new(move || Msg::PanesLoaded {
            request_id,
            result: store
                .read(|s| panes(s, &status, project.as_deref()))
                .map(Box::new)
                .map_err(|e| e.to_string()),
        }),
        Effect::LoadDetail { id } => Box::new(move || {
            let result = store
                .read(|s| s.detail(&id))
                .map(|d| d.map(Box::new))
                .map_err(|e| e.to_string());
            Msg::DetailStored { id, result }
        }),
        _ => return None,
    };
    Some(task)
}

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
        None => view_keys(store, spec, limit, cx)?,
    };
    let triage = super::triage_writes::figures(store, &keys, cx.now).map_err(store_error)?;
    let partial = spec.pinned.is_none() && limit.is_some_and(|l| keys.len() >= l);
    // Counted with the whole view only: the first screen's answer stays a few rows' reads.
    let basis = match (&spec.pinned, limit) {
        (None, None) => basis(store, spec, cx)?,
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

/// For a search that reads details (`version:`), how many of the items it is about have them.
fn basis(store: &Store, spec: &ViewSpec, cx: &Context) -> Result<Option<Coverage>, ViewError> {
    let parsed = search::parse(&spec.search).map_err(ViewError::Query)?;
    let Some(basis) = parsed.basis() else {
        return Ok(None);
    };
    let view = scope_view(store, spec, &parsed, cx)?;
    store
        .basis_coverage(&view, basis)
        .map(Some)
        .map_err(store_error)
}

/// The items a search that reads details is about: the view of `spec` with its search less
/// those qualifiers (done and snoozed items hidden as the list hides them).
fn scope_view(
    store: &Store,
    spec: &ViewSpec,
    parsed: &search::Query,
    cx: &Context,
) -> Result<ViewQuery, ViewError> {
    let mut view = panes_query(spec);
    let scope = parsed.without_details();
    if !scope.is_empty() {
        let sql = store.compile(&scope, cx).map_err(ViewError::Query)?;
        view = view.search(sql);
    }
    Ok(if parsed.asks_for_hidden() {
        view
    } else {
        view.hide_triaged(cx.now)
    })
}

/// The items whose details `e` fetches for the view `spec`: its items, or for a search that
/// reads details, the items it is about (its matches have them already), and what they lack:
/// their metadata, or their whole detail for delivery links.
pub(super) fn details_view(
    store: &Store,
    spec: &ViewSpec,
    cx: &Context,
) -> Option<(ViewQuery, search::Basis)> {
    let parsed = search::parse(&spec.search).ok()?;
    if let Some(basis) = parsed.basis() {
        return Some((scope_view(store, spec, &parsed, cx).ok()?, basis));
    }
    Some((
        super::views::view_query(store, spec, cx)?,
        search::Basis::Metadata,
    ))
}

/// The keys of the view `spec` (its filters and search, the hidden items left out), and how
/// many of the first are woken items put on top.
fn view_keys(
    store: &Store,
    spec: &ViewSpec,
    limit: Option<usize>,
    cx: &Context,
) -> Result<(Vec<i64>, usize), ViewError> {
    let mut view = panes_query(spec);
    let parsed = search::parse(&spec.search).map_err(ViewError::Query)?;
    if !parsed.is_empty() {
        let sql = store.compile(&parsed, cx).map_err(ViewError::Query)?;
        view = view.search(sql);
    }
    if !parsed.asks_for_hidden() {
        // The first screen looks up its rows one by one (microseconds); a whole view collects
        // the hidden items once (`store::triage` has the figures).
        view = if limit.is_some() {
            view.hide_triaged_per_row(cx.now)
        } else {
            view.hide_triaged(cx.now)
        };
    }
    let keys = store.view_keys(&view, limit).map_err(store_error)?;
    // Woken items come first, until they are seen (`store::woken`).
    let woken = store.woken_keys(&view, cx.now).map_err(store_error)?;
    Ok(woken_first(keys, woken, limit))
}

/// `keys` with the `woken` ones (a subset of the view, in its order) moved to the top, and
/// how many those are; a limited read keeps its limit.
fn woken_first(keys: Vec<i64>, woken: Vec<i64>, limit: Option<usize>) -> (Vec<i64>, usize) {
    if woken.is_empty() {
        return (keys, 0);
    }
    let set: std::collections::HashSet<i64> = woken.iter().copied().collect();
    let mut out = woken;
    out.extend(keys.into_iter().filter(|k| !set.contains(k)));
    if let Some(limit) = limit {
        out.truncate(limit);
    }
    let on_top = set.len().min(out.len());
    (out, on_top)
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
    Ok(Window {
        start,
        rows,
        triage,
    })
}

/// The panes' data for a status (apps of `project` when given).
pub fn panes(store: &Store, status: &str, project: Option<&str>) -> Result<Panes, StoreError> {
    Ok(Panes {
        counts: store.counts(Some(status))?,
        projects: store.projects()?,
        apps: store.apps(project)?,
    })
}

/// The view of `spec` before its search: its status and the panes' filters.
pub(super) fn panes_query(spec: &ViewSpec) -> ViewQuery {
    ViewQuery {
        status: spec.status_filter().map(str::to_owned),
        project: spec.project.as_ref().map(|c| c.value.clone()),
        app: spec.app.as_ref().map(|c| c.value.clone()),
        tag: spec.tag.as_ref().map(|c| c.value.clone()),
        ..ViewQuery::default()
    }
}

#[allow(clippy::needless_pass_by_value)] // the shape `map_err` hands it
fn store_error(err: StoreError) -> ViewError {
    ViewError::Store(err.to_string())
}
