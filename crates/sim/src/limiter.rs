//! Per-key, per-minute rate limiting with fixed windows aligned to the minute, as the service
//! reports it: X-RateLimit-Limit, -Remaining and -Reset (Unix seconds of the window's end).

use std::collections::HashMap;
use std::sync::Mutex;

use jiff::Timestamp;

use feedback_core::mutex::lock;

const WINDOW_SECONDS: i64 = 60;

/// The budget after one request was counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Unix seconds at which the window resets.
    pub reset: i64,
    /// Whole seconds until the reset, at least 1 (for Retry-After).
    pub retry_after: i64,
}

/// Counts requests per key and window.
#[derive(Debug)]
pub(crate) struct Limiter {
    per_minute: u32,
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

impl Limiter {
    #[must_use]
    pub(crate) fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request by `key` at `now`.
    pub(crate) fn check(&self, key: &str, now: Timestamp) -> Decision {
        let window = now.as_second().div_euclid(WINDOW_SECONDS);
        let reset = (window + 1) * WINDOW_SECONDS;
        let mut windows = lock(&self.windows);
        let entry = windows.entry(key.to_owned()).or_insert((window, 0));
        if entry.0 != window {
            *entry = (window, 0);
        }
        let allowed = entry.1 < self.per_minute;
        if allowed {
            entry.1 += 1;
        }
        let until_reset = reset - now.as_second();
        Decision {
            allowed,
            limit: self.per_minute,
            remaining: self.per_minute - entry.1,
            reset,
            retry_after: until_reset.max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_spent_then_resets_with_the_next_minute() {
        let limiter = Limiter::new(2);
        let t = |s| Timestamp::from_second(s).unwrap();
        let first = limiter.check("k", t(125));
        assert_eq!(
            (first.allowed, first.remaining, first.reset),
            (true, 1, 180)
        );
        assert!(limiter.check("k", t(126)).allowed);
        let denied = limiter.check("k", t(130));
        assert_eq!(
            (denied.allowed, denied.remaining, denied.retry_after),
            (false, 0, 50)
        );
        assert!(limiter.check("other", t(130)).allowed);
        assert!(limiter.check("k", t(180)).allowed);
    }
}
