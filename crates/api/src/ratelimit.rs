//! The rate-limit budget as last reported by the service, shared by every clone of a client.
//!
//! Every response, success or error, is fed through [`Budget::record`]; a header that is absent
//! keeps its last known value, except that a 429 without `X-RateLimit-Remaining` means none is
//! left. What is shown ([`Budget::reported`]) is always the server's own figure. Pacing goes by
//! the lowest figure of the window (answers to concurrent requests arrive in any order) less the
//! requests in flight: when the budget is spent the client waits for the window to reset
//! instead of provoking a 429, however many requests it sends at once.

use std::time::Duration;

use jiff::Timestamp;
use reqwest::header::HeaderMap;

pub(crate) const LIMIT_HEADER: &str = "x-ratelimit-limit";
pub(crate) const REMAINING_HEADER: &str = "x-ratelimit-remaining";
pub(crate) const RESET_HEADER: &str = "x-ratelimit-reset";
pub(crate) const RETRY_AFTER_HEADER: &str = "retry-after";

/// Last known per-minute budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RateLimit {
    /// Requests allowed per minute.
    pub limit: Option<u32>,
    /// Requests left in the current window.
    pub remaining: Option<u32>,
    /// When the current window ends.
    pub reset: Option<Timestamp>,
}

impl RateLimit {
    /// Updates from response headers; absent or unparsable headers keep the last value.
    pub(crate) fn merge_headers(&mut self, headers: &HeaderMap) {
        if let Some(limit) = header_u64(headers, LIMIT_HEADER) {
            self.limit = u32::try_from(limit).ok();
        }
        if let Some(remaining) = header_u64(headers, REMAINING_HEADER) {
            self.remaining = Some(u32::try_from(remaining).unwrap_or(u32::MAX));
        }
        if let Some(reset) = header_u64(headers, RESET_HEADER) {
            self.reset = i64::try_from(reset)
                .ok()
                .and_then(|s| Timestamp::from_second(s).ok());
        }
    }

    /// Seconds until the window resets, as seen at `now`.
    #[must_use]
    pub fn seconds_to_reset(&self, now: Timestamp) -> Option<u64> {
        self.reset
            .map(|reset| feedback_core::clock::until(now, reset).as_secs())
    }
}

/// The server's last figures and the requests in flight, shared by every clone of a client.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    reported: RateLimit,
    /// What pacing goes by: the lowest `remaining` the server reported in the current window.
    /// Answers to requests sent together can arrive in any order, and a window only counts
    /// down, so a higher figure in the same window is an older one. `None`: unknown.
    left: Option<u32>,
    /// The window (its reset) that `left` was reported in.
    window: Option<Timestamp>,
    /// Requests sent and not answered yet: the server counts them, its figures do not show
    /// them yet.
    in_flight: u32,
}

impl Budget {
    /// The server's last reported figures (never decremented locally).
    #[must_use]
    pub fn reported(&self) -> RateLimit {
        self.reported
    }

    /// Takes in the headers of a response with this status (the answer to one request that
    /// [`Budget::reserve`] let go).
    pub fn record(&mut self, status: u16, headers: &HeaderMap) {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.reported.merge_headers(headers);
        let remaining = header_u64(headers, REMAINING_HEADER)
            .map(|r| u32::try_from(r).unwrap_or(u32::MAX))
            .or((status == 429).then_some(0));
        if status == 429 && header_u64(headers, REMAINING_HEADER).is_none() {
            self.reported.remaining = Some(0);
        }
        if let Some(remaining) = remaining {
            let same_window = self.window == self.reported.reset;
            self.left = Some(match self.left {
                Some(left) if same_window => left.min(remaining),
                _ => remaining,
            });
            self.window = self.reported.reset;
        }
    }

    /// How long to hold a request back so as not to exceed the budget, or `None` to send now
    /// (it is then counted in flight until its answer is recorded or it is released), so
    /// concurrent callers pace too.
    pub fn reserve(&mut self, now: Timestamp) -> Option<Duration> {
        let left = self.left.map(|l| l.saturating_sub(self.in_flight));
        match (left, self.reported.reset) {
            (Some(0), Some(reset)) if reset > now => Some(feedback_core::clock::until(now, reset)),
            (Some(0), _) => {
                // The window has turned over; the next response tells the new budget.
                self.forget_spent();
                self.in_flight += 1;
                None
            }
            _ => {
                self.in_flight += 1;
                None
            }
        }
    }

    /// Counts a request sent after a wait for the budget (held back by [`Budget::reserve`],
    /// then let go with [`Budget::forget_spent`]).
    pub fn sent(&mut self) {
        self.in_flight += 1;
    }

    /// A request counted in flight ended without an answer (a failed connection, dropped).
    pub fn release(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// Forgets that the budget was spent (after waiting for the reset, or as long as allowed),
    /// so the next request is sent and its answer tells the new figure.
    pub(crate) fn forget_spent(&mut self) {
        self.reported.remaining = None;
        self.left = None;
    }

    /// Time until the window resets, when known and still ahead.
    #[must_use]
    pub fn until_reset(&self, now: Timestamp) -> Option<Duration> {
        self.reported
            .reset
            .map(|reset| feedback_core::clock::until(now, reset))
    }
}

/// The `Retry-After` value: delay-seconds, or an HTTP date (RFC 9110) counted from `now`.
#[must_use]
pub fn retry_after(headers: &HeaderMap, now: Timestamp) -> Option<Duration> {
    if let Some(seconds) = header_u64(headers, RETRY_AFTER_HEADER) {
        return Some(Duration::from_secs(seconds));
    }
    let text = headers.get(RETRY_AFTER_HEADER)?.to_str().ok()?.trim();
    let at = jiff::fmt::rfc2822::DateTimeParser::new()
        .parse_timestamp(text)
        .ok()?;
    Some(feedback_core::clock::until(now, at))
}

fn header_u64(headers: &HeaderMap, name: &str) -> Option<u64> {
    headers.get(name)?.to_str().ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn absent_headers_keep_last_known_values() {
        let mut rl = RateLimit::default();
        rl.merge_headers(&headers(&[
            (LIMIT_HEADER, "60"),
            (REMAINING_HEADER, "10"),
            (RESET_HEADER, "120"),
        ]));
        rl.merge_headers(&headers(&[(REMAINING_HEADER, "9")]));
        assert_eq!(rl.limit, Some(60));
        assert_eq!(rl.remaining, Some(9));
        assert_eq!(rl.reset.unwrap().as_second(), 120);
        rl.merge_headers(&headers(&[(REMAINING_HEADER, "junk")]));
        assert_eq!(rl.remaining, Some(9));
    }

    #[test]
    fn spent_budget_waits_until_reset_then_sends() {
        let now = Timestamp::from_second(100).unwrap();
        let mut budget = Budget::default();
        budget.record(
            200,
            &headers(&[
                (LIMIT_HEADER, "2"),
                (REMAINING_HEADER, "1"),
                (RESET_HEADER, "130"),
            ]),
        );
        assert_eq!(budget.reserve(now), None);
        assert_eq!(budget.reserve(now), Some(Duration::from_secs(30)));
        let later = Timestamp::from_second(130).unwrap();
        assert_eq!(budget.reserve(later), None);
    }

    #[test]
    fn reported_budget_is_the_servers_figure_never_a_local_count() {
        let now = Timestamp::from_second(100).unwrap();
        let mut budget = Budget::default();
        budget.record(
            200,
            &headers(&[(REMAINING_HEADER, "40"), (RESET_HEADER, "130")]),
        );
        for _ in 0..5 {
            assert_eq!(budget.reserve(now), None);
        }
        assert_eq!(budget.reported().remaining, Some(40));
        // A 429 without the header means nothing is left, whatever was known before.
        budget.record(429, &headers(&[(RETRY_AFTER_HEADER, "3")]));
        assert_eq!(budget.reported().remaining, Some(0));
        // A 429 with the header is taken at its word; after the wait it asks (the client
        // forgets the spent budget), the next answer is too.
        budget.record(429, &headers(&[(REMAINING_HEADER, "0")]));
        budget.forget_spent();
        budget.record(200, &headers(&[(REMAINING_HEADER, "59")]));
        assert_eq!(budget.reported().remaining, Some(59));
        assert_eq!(budget.reserve(now), None);
        assert_eq!(budget.reported().remaining, Some(59));
    }

    #[test]
    fn requests_in_flight_and_answers_out_of_order_never_overspend_a_window() {
        let now = Timestamp::from_second(100).unwrap();
        let window =
            |remaining: &str| headers(&[(REMAINING_HEADER, remaining), (RESET_HEADER, "130")]);
        let mut budget = Budget::default();
        budget.record(200, &window("3"));
        // Three sent together take the three left; a fourth waits for the reset.
        for _ in 0..3 {
            assert_eq!(budget.reserve(now), None);
        }
        assert_eq!(budget.reserve(now), Some(Duration::from_secs(30)));
        // The answers come back last first: the older, higher figures do not give back what
        // the newer one spent.
        budget.record(200, &window("0"));
        budget.record(200, &window("2"));
        budget.record(200, &window("1"));
        assert_eq!(budget.reported().remaining, Some(1));
        assert_eq!(budget.reserve(now), Some(Duration::from_secs(30)));
        // A request that got no answer gives its place back.
        let mut budget = Budget::default();
        budget.record(200, &window("1"));
        assert_eq!(budget.reserve(now), None);
        assert_eq!(budget.reserve(now), Some(Duration::from_secs(30)));
        budget.release();
        assert_eq!(budget.reserve(now), None);
        // A new window is taken at its word.
        budget.record(
            200,
            &headers(&[(REMAINING_HEADER, "60"), (RESET_HEADER, "190")]),
        );
        assert_eq!(budget.reserve(now), None);
    }

    #[test]
    fn retry_after_parses_seconds_and_http_dates() {
        let now: Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
        assert_eq!(
            retry_after(&headers(&[(RETRY_AFTER_HEADER, "7")]), now),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            retry_after(
                &headers(&[(RETRY_AFTER_HEADER, "Sun, 01 Nov 2026 12:00:42 GMT")]),
                now
            ),
            Some(Duration::from_secs(42))
        );
        assert_eq!(
            retry_after(
                &headers(&[(RETRY_AFTER_HEADER, "Sun, 01 Nov 2026 11:00:00 GMT")]),
                now
            ),
            Some(Duration::ZERO)
        );
        assert_eq!(
            retry_after(&headers(&[(RETRY_AFTER_HEADER, "soon")]), now),
            None
        );
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }
}
