//! How far a newest-first walk has come and how long the rest will take. The API tells no
//! totals, so a walk's progress is measured in time: it goes from the newest item back towards
//! the oldest possible one (a far end such as the oldest project's creation), so the share of
//! that span it has covered is the share done, and the requests so far tell how many remain.
//! The ETA is what those requests take at the pace so far, within the rate-limit budget: those
//! beyond what is left in this window wait for the next windows. `sync` and `list --all` both
//! measure their walks with these.

use std::time::Duration;

use jiff::Timestamp;

use feedback_api::RateLimit;
use feedback_core::clock;
use feedback_sync::StatusState;

/// The share of a status's walk done: all of it when complete; for a first mirror, the share
/// of the time from the head back to `origin` the deep walk has covered.
#[must_use]
pub(crate) fn share_done(state: &StatusState, origin: Option<Timestamp>) -> Option<f64> {
    if state.complete {
        return Some(1.0);
    }
    let (head, reached, origin) = (state.head_at?, state.deep_at?, origin?);
    let span = head.duration_since(origin).as_secs_f64();
    if span <= 0.0 {
        return None;
    }
    Some((head.duration_since(reached).as_secs_f64() / span).clamp(0.0, 1.0))
}

/// Requests still to come when `done` (a share) took `spent` requests.
#[must_use]
pub(crate) fn requests_left(spent: u32, done: f64) -> Option<u64> {
    if done <= 0.0 || spent == 0 {
        return None;
    }
    let left = (f64::from(spent) * (1.0 - done) / done).ceil();
    // Non-negative and far below u64::MAX for any real walk.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(left.max(0.0) as u64)
}

/// How long `left` requests take at `per_request` each, within the budget: what this window
/// has left goes now, the rest waits for the next windows (a minute each).
#[must_use]
pub fn eta(left: u64, per_request: Duration, rate: RateLimit, now: Timestamp) -> Duration {
    let at_pace = per_request.saturating_mul(u32::try_from(left).unwrap_or(u32::MAX));
    let (Some(limit), Some(remaining)) = (rate.limit, rate.remaining) else {
        return at_pace;
    };
    if left <= u64::from(remaining) || limit == 0 {
        return at_pace;
    }
    let beyond = left - u64::from(remaining);
    let windows = beyond.div_ceil(u64::from(limit));
    let to_reset = rate
        .reset
        .map_or(Duration::from_secs(60), |reset| clock::until(now, reset));
    let last_window = beyond - (windows - 1) * u64::from(limit);
    to_reset
        + Duration::from_secs(60 * (windows - 1))
        + per_request.saturating_mul(u32::try_from(last_window).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn a_first_mirror_is_measured_by_the_time_span_walked() {
        let mut state = StatusState {
            head_at: Some(at(1000)),
            deep_at: Some(at(750)),
            ..StatusState::default()
        };
        assert_eq!(share_done(&state, Some(at(0))), Some(0.25));
        assert_eq!(share_done(&state, None), None);
        state.deep_at = None;
        assert_eq!(share_done(&state, Some(at(0))), None);
        state.complete = true;
        assert_eq!(share_done(&state, Some(at(0))), Some(1.0));
        // A quarter done in 5 requests: 15 to go.
        assert_eq!(requests_left(5, 0.25), Some(15));
        assert_eq!(requests_left(0, 0.25), None);
    }

    #[test]
    fn the_eta_waits_for_the_windows_the_budget_needs() {
        let now = at(100);
        let per = Duration::from_millis(100);
        let rate = RateLimit {
            limit: Some(60),
            remaining: Some(10),
            reset: Some(at(130)),
        };
        // Within the budget: at the pace so far.
        assert_eq!(eta(10, per, rate, now), Duration::from_secs(1));
        // 10 now, 60 in the next window, 30 in the one after.
        assert_eq!(
            eta(100, per, rate, now),
            Duration::from_secs(30 + 60) + per * 30
        );
        assert_eq!(
            eta(10, per, RateLimit::default(), now),
            Duration::from_secs(1)
        );
    }
}
