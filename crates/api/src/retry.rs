//! Retry policy for the API's idempotent GETs and the waits it produces.
//!
//! Transient failures (network, timeout, 408, 5xx) are retried with bounded exponential backoff
//! and jitter; 429 waits for Retry-After (else the window reset). Each wait is reported to an
//! observer before it starts, so a UI can show a countdown, and can be cancelled.

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

/// How hard to try.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Attempts in all for transient failures (the first try included).
    pub max_tries: u32,
    /// Backoff before the second try; doubles each time.
    pub base_delay: Duration,
    /// Backoff never exceeds this.
    pub max_delay: Duration,
    /// 429 answers waited out before giving up.
    pub max_rate_limit_waits: u32,
    /// Longest single rate-limit wait (a guard against absurd Retry-After values).
    pub max_rate_limit_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_tries: 4,
            base_delay: Duration::from_millis(300),
            max_delay: Duration::from_secs(5),
            max_rate_limit_waits: 5,
            max_rate_limit_wait: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// Backoff after the `failures`-th failure: `base * 2^(failures-1)`, capped, with jitter that
    /// keeps it between half and all of that value.
    #[must_use]
    pub fn backoff(&self, failures: u32, rng: &mut fastrand::Rng) -> Duration {
        let exp = failures.saturating_sub(1).min(16);
        let full = self.base_delay.saturating_mul(1 << exp).min(self.max_delay);
        let half = full / 2;
        let jitter_ms = u64::try_from(half.as_millis()).unwrap_or(u64::MAX);
        half + Duration::from_millis(rng.u64(0..=jitter_ms))
    }
}

/// Why the client is waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitReason {
    /// The service answered 429; the wait ends when it said to retry.
    RateLimited,
    /// The known budget is spent; holding back until the window resets to avoid a 429.
    Pacing,
    /// A transient failure; `attempt` of `max_tries` comes next.
    Retry {
        attempt: u32,
        max_tries: u32,
        error: String,
    },
}

/// One wait, reported before it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    pub reason: WaitReason,
    pub duration: Duration,
    pub until: Timestamp,
    /// What the server's figures asked for (a Retry-After, or the time until the budget resets)
    /// when it was longer than [`RetryPolicy::max_rate_limit_wait`] and so was cut to
    /// `duration`: a server bug or clock skew, worth telling the user.
    pub capped_from: Option<Duration>,
}

/// Receives every wait before it starts.
pub type WaitObserver = Arc<dyn Fn(&Wait) + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered_within_bounds() {
        let policy = RetryPolicy::default();
        let mut rng = fastrand::Rng::with_seed(7);
        for failures in 1..10 {
            let full = policy
                .base_delay
                .saturating_mul(1 << (failures - 1))
                .min(policy.max_delay);
            let d = policy.backoff(failures, &mut rng);
            assert!(d >= full / 2 && d <= full, "{failures}: {d:?}");
        }
    }
}
