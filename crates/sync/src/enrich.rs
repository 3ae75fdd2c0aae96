//! Enrichment: the details of the items queued in the store (`Store::queue_details`, the
//! inbox's `e` over a view), fetched newest first in the background: paced by the budget,
//! never taking it under the floor, giving way to anything the user asks for. Each detail is
//! stored as it comes; the queue is in the store, so a restart continues where it stopped, and
//! an error (429, 5xx, the network) costs nothing but a later retry.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use super::{Priority, Report, SyncError, Syncer};
use feedback_api::{ApiError, RateLimit};

/// The budget's window (the limit is per minute, spec §6).
const WINDOW: Duration = Duration::from_secs(60);
/// How long a queued item whose fetch failed with a server error waits before another try.
pub const PARK: Duration = Duration::from_secs(60);

impl Syncer {
    /// Fetches and stores the detail of the newest queued item; `Ok(None)` when the queue is
    /// empty. Waits (as background work does) while the budget is at the floor; a user
    /// operation arriving meanwhile ends the step with nothing sent (`requests == 0`).
    pub async fn enrich_step(&self) -> Result<Option<Report>, SyncError> {
        if !self.settings.background {
            return Err(SyncError::BackgroundOff);
        }
        if self.next_enrich().await?.is_none() {
            return Ok(None);
        }
        // Another process enriching the same store would spend the budget on the same items:
        // one at a time per store, as the walks are.
        let _session = self.session()?;
        let _turn = self.gate.turn(Priority::Background).await;
        if !self.may_send(Priority::Background).await {
            return Ok(Some(Report::default()));
        }
        // Read again after the waits: a detail the user opened meanwhile is not fetched twice.
        let Some(id) = self.next_enrich().await? else {
            return Ok(None);
        };
        let done = Report {
            requests: 1,
            ..Report::default()
        };
        match self.detail(&id).await {
            Ok(_) => Ok(Some(Report { changed: 1, ..done })),
            Err(SyncError::Api(error)) => self.enrich_failed(id, error).await.map(|()| Some(done)),
            Err(error) => Err(error),
        }
    }

    async fn next_enrich(&self) -> Result<Option<String>, SyncError> {
        let now = self.now().as_second();
        self.blocking(move |s| s.next_queued(now)).await
    }

    /// What a failed fetch does to the queue. The service or the account out of reach is
    /// nobody's item's fault: the error goes up, the row stays. A server error may be this
    /// item's: its row waits [`PARK`] while the others go on. Anything else (gone, refused,
    /// malformed) will not change by asking again: the row leaves the queue, so one odd item
    /// never stops the rest.
    async fn enrich_failed(&self, id: String, error: Arc<ApiError>) -> Result<(), SyncError> {
        match &*error {
            ApiError::Network { .. }
            | ApiError::Timeout
            | ApiError::RateLimited { .. }
            | ApiError::Unauthorized
            | ApiError::IndiePlanRequired
            | ApiError::Cancelled
            | ApiError::Setup(_) => Err(SyncError::Api(error)),
            ApiError::Server { .. } => {
                let until = self.now().as_second() + PARK.as_secs().cast_signed();
                tracing::warn!(%error, "enrichment: a detail failed; it waits before another try");
                self.blocking(move |s| s.park_queued(&id, until)).await
            }
            _ => {
                tracing::warn!(%error, "enrichment: a detail cannot be had; left out");
                self.blocking(move |s| s.unqueue(&id)).await
            }
        }
    }
}

/// How long `pending` details take at the budget `rate` with `floor_percent` kept, when one
/// request takes `per_request`: what the window allows now, then the window's reset, then
/// `limit − floor` per window. `None` while the budget is unknown.
#[must_use]
pub fn estimate(
    pending: u64,
    rate: RateLimit,
    floor_percent: u8,
    now: Timestamp,
    per_request: Duration,
) -> Option<Duration> {
    let (limit, remaining, reset) = (rate.limit?, rate.remaining?, rate.reset?);
    let floor = (u64::from(limit) * u64::from(floor_percent)).div_ceil(100);
    let usable = u64::from(remaining).saturating_sub(floor);
    let per_window = u64::from(limit).saturating_sub(floor).max(1);
    let cost = |n: u64| per_request.saturating_mul(u32::try_from(n).unwrap_or(u32::MAX));
    if pending <= usable {
        return Some(cost(pending));
    }
    let to_reset = if reset > now {
        feedback_core::clock::until(now, reset)
    } else {
        Duration::ZERO
    };
    let later = pending - usable;
    let window = WINDOW.max(cost(per_window));
    // Whole windows, then the last one's requests (a whole window's worth when it is full).
    let full = (later - 1) / per_window;
    let last = later - full * per_window;
    let full = u32::try_from(full).unwrap_or(u32::MAX);
    Some(to_reset.max(cost(usable)) + window.saturating_mul(full) + cost(last))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate(limit: u32, remaining: u32, reset_in: i64, now: Timestamp) -> RateLimit {
        RateLimit {
            limit: Some(limit),
            remaining: Some(remaining),
            reset: Some(now + jiff::SignedDuration::from_secs(reset_in)),
        }
    }

    #[test]
    fn the_estimate_spends_what_is_above_the_floor_then_whole_windows() {
        let now = Timestamp::from_second(1_800_000_000).unwrap();
        let ms = Duration::from_millis;
        // 60 per minute, floor 20% = 12: 48 per window.
        let r = rate(60, 40, 30, now);
        assert_eq!(estimate(28, r, 20, now, ms(100)), Some(ms(2_800)));
        // 28 now, then the reset in 30 s, then 48 per minute.
        assert_eq!(estimate(29, r, 20, now, ms(100)), Some(ms(30_100)));
        assert_eq!(
            estimate(28 + 48 * 2 + 5, r, 20, now, ms(100)),
            Some(ms(30_000 + 120_000 + 500))
        );
        // At the floor: nothing now.
        let r = rate(60, 12, 10, now);
        assert_eq!(estimate(1, r, 20, now, ms(100)), Some(ms(10_100)));
        // Slow requests: a window lasts as long as its requests take.
        let r = rate(60, 12, 10, now);
        assert_eq!(
            estimate(48 + 1, r, 20, now, ms(2_000)),
            Some(ms(10_000 + 96_000 + 2_000))
        );
        // Exactly a window's worth after the reset: its requests' time, not a whole window.
        let r = rate(60, 40, 30, now);
        assert_eq!(estimate(28 + 48, r, 20, now, ms(100)), Some(ms(34_800)));
        assert_eq!(estimate(5, RateLimit::default(), 20, now, ms(1)), None);
    }
}
