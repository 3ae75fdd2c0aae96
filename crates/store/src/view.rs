//! A view as the inbox and its counts ask for it: a [`ViewSpec`] (status, the panes' project,
//! app and tag, the search) made into the store's query once, here. Done and snoozed items are
//! left out unless the search names them, as the list leaves them out; woken items come first
//! (`store::woken`). Every reader of a view (the list's keys, the views' unseen counts, the
//! pivots, Top issues, the details `e` fetches) starts from [`Store::view_query`].

use super::search::{Basis, Context, Query};
use super::{Coverage, Store, StoreError, ViewQuery, ViewSpec};
use feedback_core::query::QueryError;

/// Why a view cannot be read: its search does not hold (the user can fix it), or the store
/// failed.
#[derive(Debug, thiserror::Error)]
pub enum ViewReadError {
    #[error(transparent)]
    Query(QueryError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A view's keys, newest first with woken items on top, and how many of the first are woken.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewKeys {
    pub keys: Vec<i64>,
    pub woken: usize,
}

impl Store {
    /// The query of `spec` as the list shows it: its filters, its search compiled against the
    /// store, and done and snoozed items hidden unless the search names them. `per_row` hides
    /// them row by row, for a read that stops after a screen.
    pub fn view_query(
        &self,
        spec: &ViewSpec,
        cx: &Context,
        per_row: bool,
    ) -> Result<ViewQuery, QueryError> {
        query_of(&self.conn, spec, cx, per_row)
    }

    /// The keys of the view `spec` (at most `limit`), woken items first.
    pub fn view_keys_of(
        &self,
        spec: &ViewSpec,
        limit: Option<usize>,
        cx: &Context,
    ) -> Result<ViewKeys, ViewReadError> {
        // The first screen looks up its rows' triage one by one (microseconds); a whole view
        // collects the hidden items once (`store::triage` has the figures).
        let view = self
            .view_query(spec, cx, limit.is_some())
            .map_err(ViewReadError::Query)?;
        let keys = self.view_keys(&view, limit)?;
        let woken = self.woken_keys(&view, cx.now)?;
        Ok(woken_first(keys, woken, limit))
    }

    /// For a search that reads details (`version:`), how many of the items it is about have
    /// them; `None` for any other search.
    pub fn view_coverage(
        &self,
        spec: &ViewSpec,
        cx: &Context,
    ) -> Result<Option<Coverage>, ViewReadError> {
        let parsed = spec
            .search
            .parsed()
            .map_err(|e| ViewReadError::Query(e.clone()))?;
        let Some(basis) = parsed.basis() else {
            return Ok(None);
        };
        let view = self
            .scope_query(spec, parsed, cx)
            .map_err(ViewReadError::Query)?;
        Ok(Some(self.basis_coverage(&view, basis)?))
    }

    /// The items whose details `e` fetches for the view `spec`, and what they lack: the view's
    /// items and their metadata, or for a search that reads details, the items it is about (its
    /// matches have them already) and what it reads. `None` when the search does not hold.
    #[must_use]
    pub fn view_detail_scope(&self, spec: &ViewSpec, cx: &Context) -> Option<(ViewQuery, Basis)> {
        let parsed = spec.search.query()?;
        match parsed.basis() {
            Some(basis) => Some((self.scope_query(spec, parsed, cx).ok()?, basis)),
            None => Some((self.view_query(spec, cx, false).ok()?, Basis::Metadata)),
        }
    }

    /// Unseen items of each view, in order; `None` for a view whose search does not compile
    /// against the store (an app name no longer known, say).
    pub fn views_unseen(
        &self,
        specs: &[ViewSpec],
        cx: &Context,
    ) -> Result<Vec<Option<usize>>, StoreError> {
        let views: Vec<_> = specs
            .iter()
            .map(|spec| self.view_query(spec, cx, false).ok())
            .collect();
        self.unseen_counts(&views)
    }

    /// The items a search that reads details is about: the view with its search less those
    /// qualifiers, done and snoozed items hidden as the list hides them.
    fn scope_query(
        &self,
        spec: &ViewSpec,
        parsed: &Query,
        cx: &Context,
    ) -> Result<ViewQuery, QueryError> {
        let view = searched(&self.conn, panes_query(spec), &parsed.without_details(), cx)?;
        Ok(if parsed.asks_for_hidden() {
            view
        } else {
            view.hide_triaged(cx.now)
        })
    }
}

/// [`Store::view_query`] over `conn` (`view:NAME` in a search compiles its view with it).
pub(super) fn query_of(
    conn: &rusqlite::Connection,
    spec: &ViewSpec,
    cx: &Context,
    per_row: bool,
) -> Result<ViewQuery, QueryError> {
    let parsed = spec.search.parsed().map_err(Clone::clone)?;
    let view = searched(conn, panes_query(spec), parsed, cx)?;
    Ok(if parsed.asks_for_hidden() {
        view
    } else if per_row {
        view.hide_triaged_per_row(cx.now)
    } else {
        view.hide_triaged(cx.now)
    })
}

/// `view` narrowed by `query` (unchanged by the empty query).
fn searched(
    conn: &rusqlite::Connection,
    view: ViewQuery,
    query: &Query,
    cx: &Context,
) -> Result<ViewQuery, QueryError> {
    if query.is_empty() {
        return Ok(view);
    }
    Ok(view.search(super::search::compile(conn, query, cx)?))
}

/// The view of `spec` before its search: its status and the panes' filters.
fn panes_query(spec: &ViewSpec) -> ViewQuery {
    ViewQuery {
        status: spec.status_filter().map(str::to_owned),
        project: spec.project.as_ref().map(|c| c.value.clone()),
        app: spec.app.as_ref().map(|c| c.value.clone()),
        tag: spec.tag.as_ref().map(|c| c.value.clone()),
        ..ViewQuery::default()
    }
}

/// `keys` with the `woken` ones (a subset of the view, in its order) moved to the top, and
/// how many those are; a limited read keeps its limit.
fn woken_first(keys: Vec<i64>, woken: Vec<i64>, limit: Option<usize>) -> ViewKeys {
    if woken.is_empty() {
        return ViewKeys { keys, woken: 0 };
    }
    let set: std::collections::HashSet<i64> = woken.iter().copied().collect();
    let mut out = woken;
    out.extend(keys.into_iter().filter(|k| !set.contains(k)));
    if let Some(limit) = limit {
        out.truncate(limit);
    }
    let on_top = set.len().min(out.len());
    ViewKeys {
        keys: out,
        woken: on_top,
    }
}
