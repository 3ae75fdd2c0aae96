//! A command that has the terminal (`$EDITOR`, a `|` command) while a terminating signal
//! arrives: the loop is held up until the command ends, so the signal is passed on to the
//! command here, by a watcher of its own, and the loop, once the command has ended, sees the
//! same signal, restores the terminal and quits. A signal that arrives before the command is
//! registered is passed on the moment it is.

use std::process::{Child, ExitStatus};
use std::sync::{Arc, Mutex, PoisonError};

/// The command in the foreground, and the last signal that arrived.
#[derive(Debug, Clone, Default)]
pub(crate) struct Foreground(Arc<Mutex<Shared>>);

#[derive(Debug, Default)]
struct Shared {
    pid: Option<u32>,
    signalled: Option<i32>,
}

impl Foreground {
    fn shared(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new one, watching the signals when `watch` (there is a real terminal to hand over).
    #[must_use]
    pub(crate) fn watching(watch: bool) -> Self {
        let this = Self::default();
        if watch {
            this.watch();
        }
        this
    }

    /// Watches the terminating signals for the life of the process (the loop keeps its own
    /// listeners: each listener hears every signal).
    pub(super) fn watch(&self) {
        let this = self.clone();
        let mut signals = feedback_core::signals::Signals::install();
        tokio::spawn(async move {
            loop {
                let number = signals.next().await;
                this.deliver(number);
            }
        });
    }

    /// A terminating signal arrived: pass it on to the command in the foreground, if any.
    pub(super) fn deliver(&self, number: i32) {
        let mut shared = self.shared();
        shared.signalled = Some(number);
        if let Some(pid) = shared.pid {
            pass_on(pid, number);
        }
    }

    /// The signal that arrived, if one did.
    #[must_use]
    pub(super) fn signalled(&self) -> Option<i32> {
        self.shared().signalled
    }

    /// Waits for `child`, passing it any terminating signal that arrives meanwhile (or that
    /// arrived already).
    pub(super) fn wait(&self, child: &mut Child) -> std::io::Result<ExitStatus> {
        {
            let mut shared = self.shared();
            shared.pid = Some(child.id());
            if let Some(number) = shared.signalled {
                pass_on(child.id(), number);
            }
        }
        let status = child.wait();
        self.shared().pid = None;
        status
    }
}

#[cfg(unix)]
fn pass_on(pid: u32, number: i32) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    if let (Ok(pid), Ok(signal)) = (i32::try_from(pid), Signal::try_from(number)) {
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

#[cfg(not(unix))]
fn pass_on(_pid: u32, _number: i32) {}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::os::unix::process::ExitStatusExt;
    use std::process::Command;

    use super::*;

    #[test]
    fn a_signal_is_passed_on_to_the_command_in_the_foreground() {
        let foreground = Foreground::default();
        foreground.deliver(15);
        let mut child = Command::new("sleep").arg("600").spawn().unwrap();
        let status = foreground.wait(&mut child).unwrap();
        assert_eq!(status.signal(), Some(15));
        assert_eq!(foreground.signalled(), Some(15));
    }

    #[test]
    fn a_signal_that_arrives_while_the_command_runs_ends_the_wait() {
        let foreground = Foreground::default();
        let watcher = foreground.clone();
        let sender = std::thread::spawn(move || {
            // Waits for the command to be registered, then signals.
            while watcher.shared().pid.is_none() {
                std::thread::yield_now();
            }
            // SIGTERM: a hangup or an interrupt may be ignored by whatever runs the tests
            // (`nohup`, a background job), and the command would inherit that.
            watcher.deliver(15);
        });
        let mut child = Command::new("sleep").arg("600").spawn().unwrap();
        let status = foreground.wait(&mut child).unwrap();
        sender.join().unwrap();
        assert_eq!(status.signal(), Some(15));
    }
}
