//! The rate-limit budget as last reported by the service, shared by every clone of a client.
//!
//! Every response, success or error, is fed through [`RateLimit::merge_headers`]; a header that is
//! absent keeps its last known value. The client also uses the snapshot to pace itself: when the
//! budget is spent it waits for the window to reset instead of provoking a 429.

use std::time::Duration;

use jiff::Timestamp;
use reqwest::header::HeaderMap;

pub const LIMIT_HEADER: &str = "x-ratelimit-limit";
pub const REMAINING_HEADER: &str = "x-ratelimit-remaining";
pub const RESET_HEADER: &str = "x-ratelimit-reset";
pub const RETRY_AFTER_HEADER: &str = "retry-after";

/// Last known per-minute budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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
    pub fn merge_headers(&mut self, headers: &HeaderMap) {
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

    /// How long to hold a request back so as not to exceed the budget, or `None` to send now.
    /// Sending reserves one request from the local count, so concurrent callers pace too.
    pub fn reserve(&mut self, now: Timestamp) -> Option<Duration> {
        match (self.remaining, self.reset) {
            (Some(0), Some(reset)) if reset > now => Some(crate::clock::until(now, reset)),
            (Some(0), _) => {
                // The window has turned over; the next response tells the new budget.
                self.remaining = None;
                None
            }
            (Some(n), _) => {
                self.remaining = Some(n - 1);
                None
            }
            (None, _) => None,
        }
    }

    /// Seconds until the window resets, as seen at `now`.
    #[must_use]
    pub fn seconds_to_reset(&self, now: Timestamp) -> Option<u64> {
        self.reset
            .map(|reset| crate::clock::until(now, reset).as_secs())
    }
}

/// The `Retry-After` value in seconds (the HTTP-date form is not used by this service).
#[must_use]
pub fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    header_u64(headers, RETRY_AFTER_HEADER).map(Duration::from_secs)
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
        let mut rl = RateLimit {
            limit: Some(2),
            remaining: Some(1),
            reset: Some(Timestamp::from_second(130).unwrap()),
        };
        assert_eq!(rl.reserve(now), None);
        assert_eq!(rl.remaining, Some(0));
        assert_eq!(rl.reserve(now), Some(Duration::from_secs(30)));
        let later = Timestamp::from_second(130).unwrap();
        assert_eq!(rl.reserve(later), None);
    }

    #[test]
    fn retry_after_parses_seconds() {
        assert_eq!(
            retry_after(&headers(&[(RETRY_AFTER_HEADER, "7")])),
            Some(Duration::from_secs(7))
        );
        assert_eq!(retry_after(&HeaderMap::new()), None);
    }
}
