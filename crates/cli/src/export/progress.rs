//! What `list --all` shows on stderr while it walks: on a terminal an `indicatif` bar (the share
//! done, items, requests, the budget left, an ETA) whose wait for the budget or a retry counts
//! down live; otherwise each wait as a plain line, as every command reports them. Output written
//! to the terminal while the bar shows goes through [`ListProgress::suspend`], so a table row
//! never lands inside the bar's line.
//!
//! The API tells no totals, so the share done and the ETA are measured as `sync` measures a
//! first mirror (by [`crate::estimate`]): the share of the time from the newest item back
//! to the far end (the oldest project's creation, or `--since` when later) that the walk has
//! covered, and the requests that took (list requests and `--with-detail`'s detail requests).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use jiff::Timestamp;

use super::super::estimate::{eta, requests_left, share_done};
use feedback_api::retry::WaitObserver;
use feedback_api::{RateLimit, Wait, WaitReason};
use feedback_core::mutex;
use feedback_sync::StatusState;

/// A wait under way: why, and until when.
type Waiting = Arc<Mutex<Option<(String, Instant)>>>;

/// The walk's progress line on a terminal, or nothing but wait lines.
#[derive(Clone)]
pub struct ListProgress {
    bar: Option<ProgressBar>,
    waiting: Waiting,
    started: Instant,
}

/// Where the walk is: for the line.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    pub items: u64,
    pub requests: u32,
    /// The newest item's time and the last one's so far.
    pub newest: Option<Timestamp>,
    pub reached: Option<Timestamp>,
    /// The walk's far end: no item older is listed (the oldest project's creation, or
    /// `--since` when later, see [`far_end`]).
    pub origin: Option<Timestamp>,
}

/// Steps of the bar's length: the share done in thousandths.
const BAR_STEPS: u64 = 1000;

impl Position {
    /// A page of `records` was written; `requests` were made so far (list and detail).
    pub fn advance(&mut self, records: &[super::Record], requests: u32) {
        self.items += u64::try_from(records.len()).unwrap_or(u64::MAX);
        self.requests = requests;
        self.newest = self
            .newest
            .or(records.first().map(|r| r.feedback.received_at));
        self.reached = records
            .last()
            .map(|r| r.feedback.received_at)
            .or(self.reached);
    }

    /// The share of the span walked, 0 to 1, when known.
    #[must_use]
    pub fn done(&self) -> Option<f64> {
        let state = StatusState {
            head_at: self.newest,
            deep_at: self.reached,
            ..StatusState::default()
        };
        share_done(&state, self.origin)
    }
}

/// The far end of a walk: the later of the oldest project's creation and `--since`.
#[must_use]
pub(crate) fn far_end(oldest: Option<Timestamp>, since: Option<Timestamp>) -> Option<Timestamp> {
    match (oldest, since) {
        (Some(oldest), Some(since)) => Some(oldest.max(since)),
        (oldest, since) => oldest.or(since),
    }
}

/// The bar's position for a share done.
fn steps(done: f64) -> u64 {
    // 0..=1000: no truncation or sign to lose.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let steps = (done.clamp(0.0, 1.0) * 1000.0).round() as u64;
    steps.min(BAR_STEPS)
}

impl ListProgress {
    #[must_use]
    pub fn new(terminal: bool) -> Self {
        let waiting: Waiting = Arc::new(Mutex::new(None));
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(BAR_STEPS);
            let shown = Arc::clone(&waiting);
            if let Ok(style) =
                ProgressStyle::with_template("{wait}[{bar:20}] {percent:>3}% {wide_msg} {elapsed}")
            {
                bar.set_style(style.progress_chars("=> ").with_key(
                    "wait",
                    move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                        if let Some(text) = countdown(&shown, Instant::now()) {
                            let _ = w.write_str(&text);
                        }
                    },
                ));
            }
            bar.set_message("listing…");
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Self {
            bar,
            waiting,
            started: Instant::now(),
        }
    }

    /// True when a bar is shown (on a terminal).
    #[must_use]
    pub(crate) fn is_bar(&self) -> bool {
        self.bar.is_some()
    }

    /// The client's wait observer: a live countdown in the bar, or a line on stderr.
    #[must_use]
    pub fn observer(&self) -> WaitObserver {
        let progress = self.clone();
        Arc::new(move |wait: &Wait| progress.wait(wait))
    }

    fn wait(&self, wait: &Wait) {
        if self.bar.is_none() {
            eprintln!("{}", super::super::describe_wait(wait));
            return;
        }
        let why = match &wait.reason {
            WaitReason::Pacing => "budget spent, next window in".to_owned(),
            WaitReason::RateLimited => "rate limited, retrying in".to_owned(),
            WaitReason::Retry {
                attempt, max_tries, ..
            } => format!("request failed, try {attempt} of {max_tries} in"),
        };
        *mutex::lock(&self.waiting) = Some((why, Instant::now() + wait.duration));
    }

    /// A page was written: the bar shows where the walk is (and no wait).
    pub fn update(&self, at: &Position, rate: RateLimit, now: Timestamp) {
        *mutex::lock(&self.waiting) = None;
        if let Some(bar) = &self.bar {
            if let Some(done) = at.done() {
                bar.set_position(steps(done));
            }
            bar.set_message(line(at, rate, now, self.started.elapsed()));
        }
    }

    /// Runs `write` with the bar cleared from the terminal and drawn again after, so what it
    /// writes (a table's rows on the same terminal) is never mixed into the bar's line.
    pub(crate) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Removes the bar (before the last lines on stderr).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// "rate limited, retrying in 7s · " while a wait runs (first on the line: the message is
/// what gets cut on a narrow terminal).
fn countdown(waiting: &Waiting, now: Instant) -> Option<String> {
    let guard = mutex::lock(waiting);
    let (why, until) = guard.as_ref()?;
    let left = until.saturating_duration_since(now);
    let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    (!left.is_zero()).then(|| format!("{why} {seconds}s · "))
}

/// "1,200 items · 12 req · budget 48/60 · ETA 2m 10s".
#[must_use]
pub fn line(at: &Position, rate: RateLimit, now: Timestamp, elapsed: Duration) -> String {
    let budget = match (rate.remaining, rate.limit) {
        (Some(remaining), Some(limit)) => format!(" · budget {remaining}/{limit}"),
        _ => String::new(),
    };
    let eta = at
        .done()
        .and_then(|done| requests_left(at.requests, done))
        .map(|left| {
            let per_request = elapsed / at.requests.max(1);
            format!(
                " · ETA {}",
                super::super::rough_duration(eta(left, per_request, rate, now))
            )
        })
        .unwrap_or_default();
    format!(
        "{} · {} req{budget}{eta}",
        feedback_core::text::output::counted(at.items, "item"),
        at.requests
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_second(s).unwrap()
    }

    #[test]
    fn the_line_tells_items_requests_budget_and_an_eta_from_the_span_walked() {
        let position = Position {
            items: 1200,
            requests: 12,
            newest: Some(at(1000)),
            reached: Some(at(750)),
            origin: Some(at(0)),
        };
        let rate = RateLimit {
            limit: Some(60),
            remaining: Some(48),
            reset: Some(at(130)),
        };
        // A quarter of the span in 12 requests of 1s: 36 to go, within the budget.
        let shown = line(&position, rate, at(100), Duration::from_secs(12));
        assert_eq!(shown, "1,200 items · 12 req · budget 48/60 · ETA 36s");
        let unknown = Position {
            origin: None,
            ..position
        };
        assert_eq!(
            line(&unknown, RateLimit::default(), at(100), Duration::ZERO),
            "1,200 items · 12 req"
        );
    }

    #[test]
    fn the_far_end_is_the_later_of_the_oldest_project_and_since() {
        assert_eq!(far_end(Some(at(10)), Some(at(500))), Some(at(500)));
        assert_eq!(far_end(Some(at(600)), Some(at(500))), Some(at(600)));
        assert_eq!(far_end(None, Some(at(500))), Some(at(500)));
        assert_eq!(far_end(Some(at(10)), None), Some(at(10)));
        assert_eq!(far_end(None, None), None);
    }

    fn record(s: i64) -> super::super::Record {
        let json = format!(
            r#"{{"id":"fb_{s}","received_at":"{}","status":"new","message":"m","tags":[],"app":null,"project":{{"id":"p","name":"P"}}}}"#,
            at(s)
        );
        super::super::Record::bare(feedback_core::json::from_slice(json.as_bytes()).unwrap())
    }

    #[test]
    fn the_bar_stands_at_the_share_walked_and_counts_every_request() {
        let mut position = Position {
            items: 0,
            requests: 0,
            newest: None,
            reached: None,
            origin: Some(at(0)),
        };
        position.advance(&[record(1000), record(900)], 1);
        // A list request and four details.
        position.advance(&[record(800), record(750)], 1 + 4);
        assert_eq!(position.items, 4);
        assert_eq!(position.requests, 5);
        assert_eq!(position.done(), Some(0.25));
        let progress = ListProgress {
            bar: Some(ProgressBar::hidden()),
            ..ListProgress::new(false)
        };
        progress.update(&position, RateLimit::default(), at(100));
        assert_eq!(progress.bar.as_ref().unwrap().position(), 250);
        assert_eq!(progress.suspend(|| 7), 7);
        assert_eq!(steps(1.5), BAR_STEPS);
    }

    #[test]
    fn a_wait_counts_down_and_ends() {
        let waiting: Waiting = Arc::new(Mutex::new(None));
        let start = Instant::now();
        *waiting.lock().unwrap() = Some((
            "rate limited, retrying in".into(),
            start + Duration::from_secs(7),
        ));
        assert_eq!(
            countdown(&waiting, start).as_deref(),
            Some("rate limited, retrying in 7s · ")
        );
        assert_eq!(
            countdown(&waiting, start + Duration::from_millis(4500)).as_deref(),
            Some("rate limited, retrying in 3s · ")
        );
        assert_eq!(countdown(&waiting, start + Duration::from_secs(7)), None);
    }
}
