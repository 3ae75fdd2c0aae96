//! The signals that end the inbox (and `webhook listen`): SIGINT, SIGHUP, SIGQUIT and SIGTERM
//! (on Windows: Ctrl-C, Ctrl-Break and the console closed). Their handlers are
//! installed before the terminal is switched to raw mode and stay for the life of the process
//! (tokio never uninstalls them), so from that moment on none of them can kill the process with
//! the terminal left in raw mode, on the alternate screen or reporting the mouse: the loop
//! stops, the terminal is restored, and only then does a further signal end the process at once.
//! A signal that arrives before the handlers exist finds the terminal untouched.

use std::future::poll_fn;
use std::task::Poll;

#[cfg(unix)]
use tokio::signal::unix::{Signal, SignalKind, signal};

/// The signals handled, with their numbers (for the conventional exit status 128 + n).
#[cfg(unix)]
const HANDLED: [(fn() -> SignalKind, i32); 4] = [
    (SignalKind::hangup, 1),
    (SignalKind::interrupt, 2),
    (SignalKind::quit, 3),
    (SignalKind::terminate, 15),
];

/// On Windows, the console's events that end the program, with the numbers their Unix
/// counterparts have (for the same exit status): Ctrl-C as SIGINT, Ctrl-Break as SIGQUIT, the
/// console window closed as SIGHUP.
#[cfg(windows)]
enum Console {
    CtrlC(tokio::signal::windows::CtrlC),
    CtrlBreak(tokio::signal::windows::CtrlBreak),
    Close(tokio::signal::windows::CtrlClose),
}

#[cfg(windows)]
impl Console {
    fn poll_recv(&mut self, cx: &mut std::task::Context<'_>) -> Poll<Option<()>> {
        match self {
            Self::CtrlC(s) => s.poll_recv(cx),
            Self::CtrlBreak(s) => s.poll_recv(cx),
            Self::Close(s) => s.poll_recv(cx),
        }
    }
}

/// Listeners for the terminating signals; a signal that arrives while nobody waits is kept
/// until the next [`Signals::next`].
pub struct Signals {
    #[cfg(unix)]
    streams: Vec<(i32, Signal)>,
    #[cfg(windows)]
    streams: Vec<(i32, Console)>,
}

impl Signals {
    /// Installs the handlers. A signal that cannot be handled is logged and left to its
    /// default action (nothing better can be done about it).
    #[must_use]
    pub fn install() -> Self {
        #[cfg(unix)]
        {
            let streams = HANDLED
                .iter()
                .filter_map(|(kind, number)| match signal(kind()) {
                    Ok(stream) => Some((*number, stream)),
                    Err(error) => {
                        tracing::warn!(%error, number, "cannot handle signal");
                        None
                    }
                })
                .collect();
            Self { streams }
        }
        #[cfg(windows)]
        {
            use tokio::signal::windows::{ctrl_break, ctrl_c, ctrl_close};
            let mut streams = Vec::new();
            let mut take = |number: i32, made: std::io::Result<Console>| match made {
                Ok(stream) => streams.push((number, stream)),
                Err(error) => tracing::warn!(%error, number, "cannot handle console event"),
            };
            take(2, ctrl_c().map(Console::CtrlC));
            take(3, ctrl_break().map(Console::CtrlBreak));
            take(1, ctrl_close().map(Console::Close));
            Self { streams }
        }
        #[cfg(not(any(unix, windows)))]
        Self {}
    }

    /// Resolves with the number of the next signal (never, where there are none).
    pub async fn next(&mut self) -> i32 {
        #[cfg(any(unix, windows))]
        {
            poll_fn(|cx| {
                for (number, stream) in &mut self.streams {
                    if stream.poll_recv(cx).is_ready() {
                        return Poll::Ready(*number);
                    }
                }
                Poll::Pending
            })
            .await
        }
        #[cfg(not(any(unix, windows)))]
        poll_fn(|_| Poll::Pending).await
    }

    /// Once the terminal is restored: the next signal ends the process at once (exit status
    /// 128 + its number), so a shutdown that hangs can still be interrupted.
    pub fn exit_on_next(mut self) {
        tokio::spawn(async move {
            let number = self.next().await;
            std::process::exit(128 + number);
        });
    }
}
