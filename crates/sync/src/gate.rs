//! Turn-taking in one process: one sync operation at a time, and what the user asked for goes
//! first. A background operation waits while a user operation is pending or running, and
//! checks again before each of its requests (between pages), so it yields at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::futures::Notified;
use tokio::sync::{Mutex, MutexGuard, Notify};

use super::Priority;
use feedback_api::RateLimit;

/// The turn of one operation.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    turn: Mutex<()>,
    /// User operations waiting or running.
    users: AtomicUsize,
    /// Signalled when a user operation ends.
    idle: Notify,
    /// Signalled when a user operation starts waiting.
    arrived: Notify,
}

/// Held while an operation runs; ends the user's claim when dropped.
pub(crate) struct Turn<'a> {
    _claim: Option<Claim<'a>>,
    _guard: MutexGuard<'a, ()>,
}

/// A user operation waiting or running; dropped (also when the wait is cancelled), it lets the
/// background go on.
struct Claim<'a> {
    gate: &'a Gate,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        self.gate.users.fetch_sub(1, Ordering::SeqCst);
        self.gate.idle.notify_waiters();
    }
}

impl Gate {
    /// Waits for this operation's turn.
    pub(crate) async fn turn(&self, priority: Priority) -> Turn<'_> {
        if priority == Priority::User {
            self.users.fetch_add(1, Ordering::SeqCst);
            let claim = Claim { gate: self };
            self.arrived.notify_waiters();
            let guard = self.turn.lock().await;
            return Turn {
                _claim: Some(claim),
                _guard: guard,
            };
        }
        loop {
            self.wait_for_users().await;
            let guard = self.turn.lock().await;
            if self.users.load(Ordering::SeqCst) == 0 {
                return Turn {
                    _claim: None,
                    _guard: guard,
                };
            }
        }
    }

    /// True while a user operation waits or runs: a background walk stops between pages.
    pub(crate) fn user_waiting(&self) -> bool {
        self.users.load(Ordering::SeqCst) > 0
    }

    /// Completes when a user operation arrives after this was called.
    pub(crate) fn arrived(&self) -> Notified<'_> {
        self.arrived.notified()
    }

    async fn wait_for_users(&self) {
        loop {
            let notified = self.idle.notified();
            if self.users.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// How long a background request must wait so that the remaining budget stays at or above
/// `floor_percent` of the limit after it: until the window resets when sending now would go
/// under. `None`: send now (also when the budget is unknown).
#[must_use]
pub(crate) fn floor_wait(
    rate: RateLimit,
    now: jiff::Timestamp,
    floor_percent: u8,
) -> Option<Duration> {
    let (limit, remaining, reset) = (rate.limit?, rate.remaining?, rate.reset?);
    let floor = (u64::from(limit) * u64::from(floor_percent)).div_ceil(100);
    if u64::from(remaining) > floor || reset <= now {
        return None;
    }
    Some(feedback_core::clock::until(now, reset))
}
