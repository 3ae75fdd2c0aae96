//! Injected time for the network side. The API client (retry waits, rate-limit pacing), the
//! simulator (per-minute windows, timestamps) and the webhook sender and receiver (signature
//! times, tolerance) read "now" and sleep through [`Clock`], so tests can share one
//! [`ManualClock`] between them and run minute-long waits in microseconds. The inbox's screen
//! does not: `update` gets time only as `Msg::Tick(now)`, which the run loop reads from the
//! system clock on a tokio interval; the CLI's ages and the simulator's injected latency fault
//! use the system clock and tokio's timer directly.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use crate::mutex::lock;

/// A boxed sleep future, so `Clock` stays object-safe.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Source of "now" and of waiting.
pub trait Clock: Send + Sync + std::fmt::Debug + 'static {
    fn now(&self) -> Timestamp;
    fn sleep(&self, duration: Duration) -> Sleep;
}

/// Shared handle to a clock.
pub type SharedClock = Arc<dyn Clock>;

/// The real clock: system time and tokio timers.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }

    fn sleep(&self, duration: Duration) -> Sleep {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// The system clock as a [`SharedClock`].
#[must_use]
pub fn system() -> SharedClock {
    Arc::new(SystemClock)
}

/// A test clock: `sleep` advances "now" by the requested duration and returns at once, and the
/// total slept time is recorded so tests can assert on waits without waiting.
#[derive(Debug)]
pub struct ManualClock {
    state: Mutex<ManualState>,
}

#[derive(Debug)]
struct ManualState {
    now: Timestamp,
    slept: Vec<Duration>,
}

impl ManualClock {
    #[must_use]
    pub fn new(start: Timestamp) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(ManualState {
                now: start,
                slept: Vec::new(),
            }),
        })
    }

    /// Moves time forward without recording a sleep.
    pub fn advance(&self, duration: Duration) {
        let mut state = lock(&self.state);
        state.now = add(state.now, duration);
    }

    /// Every duration passed to `sleep`, in order.
    #[must_use]
    pub fn sleeps(&self) -> Vec<Duration> {
        lock(&self.state).slept.clone()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        lock(&self.state).now
    }

    fn sleep(&self, duration: Duration) -> Sleep {
        let mut state = lock(&self.state);
        state.now = add(state.now, duration);
        state.slept.push(duration);
        Box::pin(std::future::ready(()))
    }
}

fn add(ts: Timestamp, duration: Duration) -> Timestamp {
    let signed = SignedDuration::try_from(duration).unwrap_or(SignedDuration::MAX);
    ts.checked_add(signed).unwrap_or(Timestamp::MAX)
}

/// Non-negative duration from `from` until `to` (zero when `to` is not later).
#[must_use]
pub fn until(from: Timestamp, to: Timestamp) -> Duration {
    Duration::try_from(to.duration_since(from)).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_clock_sleep_advances_time_and_records() {
        let clock = ManualClock::new(Timestamp::UNIX_EPOCH);
        clock.sleep(Duration::from_secs(5)).await;
        assert_eq!(clock.now().as_second(), 5);
        assert_eq!(clock.sleeps(), vec![Duration::from_secs(5)]);
    }

    #[test]
    fn until_is_zero_for_the_past() {
        let a = Timestamp::from_second(10).unwrap();
        let b = Timestamp::from_second(4).unwrap();
        assert_eq!(until(a, b), Duration::ZERO);
        assert_eq!(until(b, a), Duration::from_secs(6));
    }
}
