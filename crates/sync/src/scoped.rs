//! A head walk of one app's or one project's part of a status (`sync --app/--project`): what is
//! new there, at the cost of that part alone (k new items of the app: k/100 + 1 requests,
//! whatever the other apps received meanwhile).
//!
//! The walk reads the status's list filtered by the scope, newest first, and stops at the first
//! page that reaches the *stop*: the newer of the status's head, when the status is mirrored
//! without a hole (no gap left by a head walk, the deep end reached: everything at or below the
//! head is stored), and the scope's own head (the top of the last scoped walk that reached its
//! stop: the scope is stored without a hole below it). Without either, it reads the scope's
//! whole list, so that `sync --app X` leaves all of X stored whatever the rest of the store. Each page is stored in its own
//! transaction; the scope's head moves only in the transaction of the page that reaches the
//! stop, so a walk cut short (an error, a kill) moves nothing and the next run reads those pages
//! again (upserts by id: no duplicates).
//!
//! The whole-status walk state is not touched: a later whole-status head walk still walks down
//! to its own head, storing what the scoped walk did not cover (other apps' items). The
//! reconcile walk is a whole-status walk too: a scoped sync does not run it.

use super::paging::fetch;
use super::walk::{next_within, put_page};
use super::{Priority, Report, SyncError, Syncer};
use feedback_api::Status;
use feedback_store::sync_state::{self as state, Key};

/// The part of a status a scoped walk reads: an app id, a project id, or both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    pub app: Option<String>,
    pub project: Option<String>,
}

impl Scope {
    /// The `meta` row that holds this scope's head for `status`.
    fn meta_key(&self, status: &str) -> String {
        format!(
            "scope_head:{status}:app={}:project={}",
            self.app.as_deref().unwrap_or("*"),
            self.project.as_deref().unwrap_or("*")
        )
    }
}

/// The scoped head walk of `status`: see the module doc. `full` ignores both heads and reads
/// the scope's whole list.
pub(crate) async fn head(
    sy: &Syncer,
    status: &Status,
    scope: &Scope,
    full: bool,
) -> Result<Report, SyncError> {
    let _session = sy.session()?;
    let _turn = sy.gate.turn(Priority::User).await;
    let name = status.as_str().to_owned();
    let meta = scope.meta_key(&name);
    let stop = if full {
        None
    } else {
        let (name, meta) = (name.clone(), meta.clone());
        sy.blocking(move |s| {
            // The status's head is a stop only while nothing below it is missing: an open gap
            // (the deep end not reached included) leaves holes only the scope's whole list can
            // fill.
            let whole = if s.sync_gaps(&name)?.is_empty() {
                s.sync_status(&name)?.head
            } else {
                None
            };
            Ok(whole.max(s.scoped_head(&meta)?))
        })
        .await?
    };
    walk(sy, status, scope, stop, meta).await
}

async fn walk(
    sy: &Syncer,
    status: &Status,
    scope: &Scope,
    stop: Option<Key>,
    meta: String,
) -> Result<Report, SyncError> {
    let mut report = Report::default();
    let (mut cursor, mut cursor_key) = (None, None);
    let mut top: Option<Key> = None;
    loop {
        let mut query = sy.query(status, cursor.take());
        query.app.clone_from(&scope.app);
        query.project.clone_from(&scope.project);
        let page = fetch(sy, &query, cursor_key.as_ref()).await?;
        report.requests += 1;
        report.requests += sy.confirm_page(&page).await?;
        let at = sy.now();
        let cutoff = sy.cutoff(at);
        let bottom = page.page.data.iter().map(Key::of).min();
        top = top.max(page.page.data.iter().map(Key::of).max());
        let next = next_within(&page, cutoff);
        let reached = next.is_none()
            || stop
                .as_ref()
                .is_some_and(|stop| bottom.as_ref().is_some_and(|b| b <= stop));
        let head = if reached { top.clone() } else { None };
        let meta = meta.clone();
        let listed = status.clone();
        let written = sy
            .blocking(move |s| {
                s.write(|tx| {
                    let written = put_page(tx, &page, &listed, at, cutoff)?;
                    if let Some(head) = &head {
                        state::raise_scoped_head(tx, &meta, head)?;
                    }
                    Ok(written)
                })
            })
            .await?;
        report.added += written.added;
        report.changed += written.changed;
        if reached {
            report.reached_end = true;
            return Ok(report);
        }
        cursor = next;
        if bottom.is_some() {
            cursor_key = bottom;
        }
    }
}

impl Syncer {
    /// The scoped head walk of one status (`sync --app/--project`): see [`scoped`](self).
    pub async fn head_scoped(
        &self,
        status: &Status,
        scope: &Scope,
        full: bool,
    ) -> Result<Report, SyncError> {
        head(self, status, scope, full).await
    }
}
