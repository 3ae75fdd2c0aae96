//! Head walks and backfill: pages of a status's list written with the walk state they advance
//! in one transaction (see the crate doc).

use jiff::Timestamp;

use super::fill::fill;
use super::paging::fetch_as;
use super::{Priority, Report, SyncError, Syncer};
use feedback_api::lenient::CountedPage;
use feedback_api::{Cursor, FeedbackQuery, Status};
use feedback_store::sync_state::{self as state, Gap, Key};
use feedback_store::{self as store, Sighting, Written};

/// Head sync of `status`: see [`Syncer::head`].
pub(crate) async fn head(
    sy: &Syncer,
    status: &Status,
    priority: Priority,
) -> Result<Report, SyncError> {
    check_background(sy, priority)?;
    let _session = sy.session()?;
    let _turn = sy.gate.turn(priority).await;
    head_walk(sy, status, priority, sy.settings.head_page_cap.max(1)).await
}

/// Up to `max` backfill pages of `status`'s first gap: see [`Syncer::backfill_pages`].
pub(crate) async fn backfill_pages(
    sy: &Syncer,
    status: &Status,
    priority: Priority,
    max: u32,
) -> Result<Option<Report>, SyncError> {
    check_background(sy, priority)?;
    let _session = sy.session()?;
    let _turn = sy.gate.turn(priority).await;
    let name = status.as_str().to_owned();
    let (row, gaps) = sy
        .blocking(move |s| Ok((s.sync_status(&name)?, s.sync_gaps(&name)?)))
        .await?;
    let Some(gap) = gaps.into_iter().next() else {
        if row.head.is_none() && !row.complete {
            // Never synced: the first page is the head's.
            return head_walk(sy, status, priority, 1).await.map(Some);
        }
        return Ok(None);
    };
    if !sy.may_send(priority).await {
        return Ok(Some(Report::default()));
    }
    let (report, closed) = fill(sy, status, gap, priority, max.max(1)).await?;
    Ok(Some(Report {
        reached_end: closed,
        ..report
    }))
}

fn check_background(sy: &Syncer, priority: Priority) -> Result<(), SyncError> {
    if priority == Priority::Background && !sy.settings.background {
        return Err(SyncError::BackgroundOff);
    }
    Ok(())
}

/// The head walk, its turn taken: the top page, then the gap it opened for up to `cap` pages
/// in all.
async fn head_walk(
    sy: &Syncer,
    status: &Status,
    priority: Priority,
    cap: u32,
) -> Result<Report, SyncError> {
    if !sy.may_send(priority).await {
        return Ok(Report::default());
    }
    let query = sy.query(status, None);
    let asked = sy.now();
    let Some(page) = fetch_as(sy, priority, &query, None).await? else {
        return Ok(Report::default());
    };
    head_from(sy, status, priority, cap, asked, page).await
}

/// The head walk from its top page, asked for at `asked` and come back (its request counted
/// here): the page stored, then the gap it opened walked for up to `cap` pages in all.
pub(super) async fn head_from(
    sy: &Syncer,
    status: &Status,
    priority: Priority,
    cap: u32,
    asked: Timestamp,
    page: CountedPage,
) -> Result<Report, SyncError> {
    let mut report = Report {
        requests: 1,
        ..Report::default()
    };
    report.requests += sy.confirm_page(&page).await?;
    let stamp = sy.stamp(asked);
    let name = status.as_str().to_owned();
    let (written, opened) = sy
        .blocking(move |s| s.write_refetchable(|tx| head_page(tx, &name, &page, &stamp)))
        .await?;
    add_written(&mut report, &written);
    let Some(gap) = opened else {
        report.reached_end = true;
        return Ok(report);
    };
    if cap > 1 && sy.may_send(priority).await {
        let (step, closed) = fill(sy, status, gap, priority, cap - 1).await?;
        report.add(step);
        report.reached_end = closed;
    }
    Ok(report)
}

/// Stores the top page and moves the head; opens a gap when the page did not reach the
/// stored head (or, on a first mirror, the deep end when there are more pages).
fn head_page(
    tx: &feedback_store::Tx<'_>,
    status: &str,
    counted: &CountedPage,
    stamp: &Stamp,
) -> feedback_store::TxResult<(Written, Option<Gap>)> {
    let (at, cutoff) = (stamp.at, stamp.cutoff);
    let page = &counted.page;
    let written = put_page(tx, counted, &Status::from(status), at, cutoff)?;
    stamp.share(tx, status, None, counted)?;
    let row = state::status_row(tx, status)?;
    let (Some(top), Some(bottom)) = (
        page.data.iter().map(Key::of).max(),
        page.data.iter().map(Key::of).min(),
    ) else {
        state::set_synced(tx, status, at.as_second())?;
        let Some(next) = page.next_cursor.clone() else {
            // An empty list (or nothing readable on its only page): nothing more to walk.
            if row.head.is_none() {
                state::set_complete(tx, status)?;
            }
            return Ok((written, None));
        };
        // A full page with no readable item: the rest lies below an unknown position, so the
        // gap starts at the top.
        let mut gap = Gap {
            g: 0,
            cursor: Some(next),
            cursor_key: None,
            last: Key {
                received: i64::MAX,
                id: String::new(),
            },
            until: row.head,
        };
        gap.g = state::insert_gap(tx, status, &gap)?;
        return Ok((written, Some(gap)));
    };
    let head = row.head.clone().map_or(top.clone(), |old| old.max(top));
    state::set_head(tx, status, &head, at.as_second())?;
    let Some(next) = next_within(counted, cutoff) else {
        if row.head.is_none() {
            state::set_complete(tx, status)?;
        }
        return Ok((written, None));
    };
    if row.head.as_ref().is_some_and(|old| bottom <= *old) {
        return Ok((written, None));
    }
    let mut gap = Gap {
        g: 0,
        cursor: Some(next),
        cursor_key: Some(bottom.clone()),
        last: bottom,
        until: row.head,
    };
    gap.g = state::insert_gap(tx, status, &gap)?;
    Ok((written, Some(gap)))
}

/// When a walk's page was asked for and came back, and what follows from that for it.
pub(super) struct Stamp {
    asked: Timestamp,
    pub(super) at: Timestamp,
    /// Items received before this (Unix µs) are not kept (the retention setting).
    pub(super) cutoff: Option<i64>,
    reconcile_every: std::time::Duration,
}

impl Stamp {
    /// A page of `new` may serve the reconcile walk too (see `reconcile::share`).
    pub(super) fn share(
        &self,
        tx: &feedback_store::Tx<'_>,
        status: &str,
        sent: Option<&Cursor>,
        counted: &CountedPage,
    ) -> feedback_store::TxResult<()> {
        if status != Status::New.as_str() {
            return Ok(());
        }
        super::reconcile::share(
            tx,
            sent,
            counted,
            self.asked,
            self.cutoff,
            self.reconcile_every,
        )
    }
}

/// Stores a page's items, but none received before `cutoff` (the retention setting drops
/// them; storing them again would undo it).
pub(super) fn put_page(
    tx: &feedback_store::Tx<'_>,
    counted: &CountedPage,
    listed: &Status,
    at: Timestamp,
    cutoff: Option<i64>,
) -> feedback_store::TxResult<Written> {
    put_pages(tx, &[(counted, at, cutoff)], listed)
}

/// [`put_page`] for pages of one list written together, each with the time it came back and
/// its cutoff.
pub(super) fn put_pages(
    tx: &feedback_store::Tx<'_>,
    pages: &[(&CountedPage, Timestamp, Option<i64>)],
    listed: &Status,
) -> feedback_store::TxResult<Written> {
    let sightings: Vec<(Vec<Sighting<'_>>, Timestamp)> = pages
        .iter()
        .map(|(counted, at, cutoff)| {
            let kept = counted
                .page
                .data
                .iter()
                .filter(|item| cutoff.is_none_or(|c| item.received_at.as_microsecond() >= c))
                .map(|f| Sighting::listed(f, listed))
                .collect();
            (kept, *at)
        })
        .collect();
    let groups: Vec<(&[Sighting<'_>], Timestamp)> = sightings
        .iter()
        .map(|(s, at)| (s.as_slice(), *at))
        .collect();
    let written = store::put_groups_in(tx, &groups)?;
    // Seen on a list just now: its status is known, a queued re-read would tell nothing more.
    for (counted, ..) in pages {
        for item in &counted.page.data {
            state::recheck_done(tx, item.id.as_str())?;
        }
    }
    Ok(written)
}

/// The page's next cursor, unless the page already reached past the retention cutoff (what
/// lies below is not kept: the walk is done).
pub(super) fn next_within(counted: &CountedPage, cutoff: Option<i64>) -> Option<Cursor> {
    let past = cutoff.is_some_and(|c| {
        counted
            .page
            .data
            .iter()
            .any(|item| item.received_at.as_microsecond() < c)
    });
    if past {
        None
    } else {
        counted.page.next_cursor.clone()
    }
}

pub(super) fn add_written(report: &mut Report, written: &Written) {
    report.added += written.added;
    report.changed += written.changed;
}

impl Syncer {
    /// The stamp of a page asked for at `asked` that came back now.
    pub(super) fn stamp(&self, asked: Timestamp) -> Stamp {
        let at = self.now();
        Stamp {
            asked,
            at,
            cutoff: self.cutoff(at),
            reconcile_every: self.settings.reconcile_every,
        }
    }

    /// Items received before this (Unix microseconds) are not kept (the retention setting).
    pub(super) fn cutoff(&self, at: Timestamp) -> Option<i64> {
        let keep = jiff::SignedDuration::try_from(self.settings.retention?).ok()?;
        at.checked_sub(keep).ok().map(Timestamp::as_microsecond)
    }

    pub(super) fn query(&self, status: &Status, cursor: Option<Cursor>) -> FeedbackQuery {
        FeedbackQuery {
            status: Some(status.clone()),
            limit: Some(self.settings.page_size.clamp(1, 100)),
            cursor,
            ..FeedbackQuery::default()
        }
    }

    /// Whether a request may go now: always for the user; for the background, when no user
    /// operation waits, after waiting (if needed) for the budget to stay above the floor.
    pub(super) async fn may_send(&self, priority: Priority) -> bool {
        if priority == Priority::User {
            return true;
        }
        loop {
            let arrived = self.gate.arrived();
            if self.gate.user_waiting() {
                return false;
            }
            let wait = super::gate::floor_wait(
                self.client.rate_limit(),
                self.now(),
                self.settings.floor_percent,
            );
            let Some(wait) = wait else {
                return true;
            };
            tokio::select! {
                () = self.clock.sleep(wait) => {}
                () = arrived => return false,
            }
        }
    }
}
