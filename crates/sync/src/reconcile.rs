//! The reconcile walk of `new`: finds stored items that left `new` (see the crate
//! doc) and re-reads them by their detail.

use jiff::Timestamp;

use super::paging::fetch_as;
use super::walk::{next_within, put_page};
use super::{Priority, Report, SyncError, Syncer};
use feedback_api::lenient::CountedPage;
use feedback_api::{ApiError, Cursor, Status};
use feedback_store::sync_state::{self as state, Key};
use feedback_store::{self as store, Sighting};

const NEW: &str = "new";

/// One page of the walk, then the re-reads: see [`Syncer::reconcile_page`].
pub(crate) async fn page(sy: &Syncer, priority: Priority) -> Result<Report, SyncError> {
    if priority == Priority::Background && !sy.settings.background {
        return Err(SyncError::BackgroundOff);
    }
    let _session = sy.session()?;
    let _turn = sy.gate.turn(priority).await;
    let mut report = Report::default();
    drain(sy, priority, &mut report).await?;
    if !sy.may_send(priority).await {
        return Ok(report);
    }
    let row = sy.blocking(|s| s.sync_status(NEW)).await?;
    let started = row
        .reconcile_started
        .unwrap_or_else(|| sy.now().as_second());
    let (mut cursor, mut key) = (row.reconcile_cursor, row.reconcile_key);
    let asked = loop {
        let asked = sy.now();
        let query = sy.query(&Status::New, cursor.clone());
        let fetched = fetch_as(sy, priority, &query, key.as_ref()).await;
        if !matches!(fetched, Ok(None)) {
            report.requests += 1;
        }
        match fetched {
            // The user arrived: this page waits for the next step.
            Ok(None) => return Ok(report),
            Ok(Some(page)) => break (asked, page),
            Err(ApiError::InvalidCursor { .. }) if cursor.is_some() => {
                tracing::warn!("the reconcile walk's cursor was rejected; it restarts at the top");
                (cursor, key) = (None, None);
                sy.blocking(move |s| {
                    s.write(|tx| state::set_reconcile(tx, NEW, None, None, Some(started)))
                })
                .await?;
            }
            Err(error) => return Err(error.into()),
        }
    };
    let (asked, counted) = asked;
    report.requests += sy.confirm_page(&counted).await?;
    let at = sy.now();
    let cutoff = sy.cutoff(at);
    let (written, end) = sy
        .blocking(move |s| {
            s.write(|tx| {
                let written = put_page(tx, &counted, &Status::New, at, cutoff)?;
                let step = Step {
                    high: key.as_ref(),
                    asked,
                    started,
                    cutoff,
                };
                let end = advance(tx, &counted, &step)?;
                Ok((written, end))
            })
        })
        .await?;
    report.added += written.added;
    report.changed += written.changed;
    report.reached_end = end;
    drain(sy, priority, &mut report).await?;
    Ok(report)
}

/// Stored items whose status is to be checked again, re-read by their detail (as the reconcile
/// walk does after each page); `Ok(None)` when none waits. The pages of `new` a head walk or
/// backfill shares with the reconcile walk (see [`share`]) queue them too.
pub(crate) async fn recheck(sy: &Syncer, priority: Priority) -> Result<Option<Report>, SyncError> {
    if priority == Priority::Background && !sy.settings.background {
        return Err(SyncError::BackgroundOff);
    }
    let queued = sy.blocking(|s| s.sync_rechecks()).await?;
    if queued.is_empty() {
        return Ok(None);
    }
    let _session = sy.session()?;
    let _turn = sy.gate.turn(priority).await;
    let mut report = Report::default();
    drain(sy, priority, &mut report).await?;
    Ok(Some(report))
}

/// When a page of `new` that a head walk or backfill just read (`sent`: the cursor it was asked
/// with) is the page the reconcile walk would ask for next, it serves that walk too, in the
/// same transaction, so no pass asks for a page another just read: the top page when a walk is
/// due to start (`every` seconds or more since the last one started, or never), or the page
/// after the running walk's position. A first mirror of `new` is therefore also a complete
/// reconcile walk: every page from the top to the end, each range checked.
pub(super) fn share(
    tx: &feedback_store::Tx<'_>,
    sent: Option<&Cursor>,
    counted: &CountedPage,
    asked: Timestamp,
    cutoff: Option<i64>,
    every: std::time::Duration,
) -> feedback_store::TxResult<()> {
    let row = state::status_row(tx, NEW)?;
    let every = i64::try_from(every.as_secs()).unwrap_or(i64::MAX);
    let step = match row.reconcile_started {
        Some(started) if row.reconcile_cursor.as_ref() == sent => Step {
            high: row.reconcile_key.as_ref(),
            asked,
            started,
            cutoff,
        },
        None if sent.is_none()
            && row
                .reconciled_at
                .is_none_or(|at| asked.as_second().saturating_sub(at) >= every) =>
        {
            Step {
                high: None,
                asked,
                started: asked.as_second(),
                cutoff,
            }
        }
        _ => return Ok(()),
    };
    advance(tx, counted, &step).map(|_| ())
}

struct Step<'a> {
    /// The position the page continues after; `None` for the top page.
    high: Option<&'a Key>,
    /// When the page was asked for.
    asked: Timestamp,
    /// When the walk started.
    started: i64,
    /// Items received before this (Unix µs) are not kept (retention): the first page that
    /// reaches past it ends the walk.
    cutoff: Option<i64>,
}

/// For a page of the walk already stored: queues the stored `new` items its range should have
/// held but did not, and moves the walk on, or ends it (the list's end, or the first page past
/// the retention cutoff); true when it ended.
fn advance(
    tx: &feedback_store::Tx<'_>,
    counted: &CountedPage,
    step: &Step<'_>,
) -> feedback_store::TxResult<bool> {
    let page = &counted.page;
    let next = next_within(counted, step.cutoff);
    let bottom = page.data.iter().map(Key::of).min();
    let low = match (&next, step.cutoff) {
        (Some(_), _) => bottom.clone(),
        // Past the cutoff: the range ends there (older stored items are retention's to drop,
        // not moves to re-read).
        (None, Some(cutoff)) => Some(Key {
            received: cutoff,
            id: String::new(),
        }),
        (None, _) => None,
    };
    // A page without a readable item says nothing about its range (unless it ends the list).
    if low.is_some() || next.is_none() {
        state::queue_missing(tx, NEW, low.as_ref(), step.high, step.asked.as_second())?;
    }
    // Seen on this page (in the same second as asked, perhaps): not missing.
    for item in &page.data {
        state::recheck_done(tx, item.id.as_str())?;
    }
    match &next {
        None => state::finish_reconcile(tx, NEW, step.started)?,
        Some(next) => {
            let key = bottom.as_ref().or(step.high);
            state::set_reconcile(tx, NEW, Some(next), key, Some(step.started))?;
        }
    }
    Ok(next.is_none())
}

/// Re-reads the queued items by their detail, while the priority allows.
async fn drain(sy: &Syncer, priority: Priority, report: &mut Report) -> Result<(), SyncError> {
    let ids = sy.blocking(|s| s.sync_rechecks()).await?;
    for id in ids {
        if !sy.may_send(priority).await {
            break;
        }
        // A background re-read gives way when the user arrives, as a list page does (a write
        // already under way finishes on its own thread; the item stays queued otherwise).
        let outcome = if priority == Priority::Background {
            let arrived = sy.gate.arrived();
            tokio::select! {
                outcome = sy.reread(&id) => Some(outcome),
                () = arrived => None,
            }
        } else {
            Some(sy.reread(&id).await)
        };
        let Some(outcome) = outcome else {
            break;
        };
        report.requests += 1;
        if outcome?.is_some_and(|changed| changed) {
            report.changed += 1;
        }
    }
    Ok(())
}

impl Syncer {
    /// Fetches the detail of `id` and stores it, or removes the item when the service no
    /// longer has it; either way it leaves the re-read queue. `Some(changed)` when found.
    pub(super) async fn reread(&self, id: &str) -> Result<Option<bool>, SyncError> {
        if unfetchable(id) {
            // The API cannot name it (see `Client::get_feedback`): it stays as it was.
            let id = id.to_owned();
            self.blocking(move |s| s.write(|tx| state::recheck_done(tx, &id)))
                .await?;
            return Ok(None);
        }
        match self.client.get_feedback(id).await {
            Ok(detail) => {
                self.confirm_detail(&detail.feedback).await?;
                let at = self.now();
                let written = self
                    .blocking(move |s| {
                        s.write(|tx| {
                            let written = store::put_in(tx, &[Sighting::detail(&detail)], at)?;
                            state::recheck_done(tx, detail.feedback.id.as_str())?;
                            Ok(written)
                        })
                    })
                    .await?;
                Ok(Some(written.changed > 0))
            }
            Err(ApiError::NotFound { .. }) => {
                if !self.forget_gone(id).await? {
                    // Nothing proves the account (an empty project list): the item stays, and
                    // leaves the queue so that one answer is not asked for again and again.
                    let id = id.to_owned();
                    self.blocking(move |s| s.write(|tx| state::recheck_done(tx, &id)))
                        .await?;
                }
                Ok(None)
            }
            Err(error) => Err(error.into()),
        }
    }
}

/// Ids the client answers "not found" for without asking (`.`, `..`, control characters): that
/// answer says nothing about the item.
pub(super) fn unfetchable(id: &str) -> bool {
    id.trim().is_empty() || matches!(id, "." | "..") || id.chars().any(char::is_control)
}
