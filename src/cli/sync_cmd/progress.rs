//! What `sync` shows while it runs: a progress bar on a terminal (items, requests, the budget,
//! an ETA from the budget), plain lines otherwise.
//!
//! The API tells no totals, so a first mirror's progress is measured in time: the walk goes
//! from the newest item back towards the oldest possible one (the account's oldest project's
//! creation), so the share of that span it has covered is the share done, and the requests so
//! far tell how many remain. The ETA is what those requests take at the pace so far, within
//! the budget: those beyond what is left in this window wait for the next windows.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use jiff::Timestamp;

use super::super::CliError;
use crate::api::RateLimit;
use crate::clock;
use crate::mutex;
use crate::sync::{Report, StatusState};

/// Positions of the bar: per mille of the span walked.
const SCALE: u32 = 1000;

/// A progress bar on a terminal, plain lines otherwise; counts what was done.
#[derive(Clone)]
pub struct Progress {
    bar: Option<ProgressBar>,
    totals: Arc<Mutex<Totals>>,
}

#[derive(Debug, Clone, Copy)]
struct Totals {
    report: Report,
    started: Instant,
    /// Requests of the status being walked.
    status_requests: u32,
}

impl Progress {
    #[must_use]
    pub fn new(terminal: bool) -> Self {
        let bar = terminal.then(|| {
            let bar = ProgressBar::new(u64::from(SCALE));
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} {prefix:.bold} [{bar:20}] {percent:>3}% {wide_msg} {elapsed}",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Self {
            bar,
            totals: Arc::new(Mutex::new(Totals {
                report: Report::default(),
                started: Instant::now(),
                status_requests: 0,
            })),
        }
    }

    /// A new status is walked: its bar starts over.
    pub fn start(&self, status: &str) {
        mutex::lock(&self.totals).status_requests = 0;
        if let Some(bar) = &self.bar {
            bar.set_prefix(status.to_owned());
            bar.set_position(0);
        }
    }

    /// One step done; `state` is the status's state after it (its `stored` is not read),
    /// `origin` the oldest possible item's time, `now` the injected clock's time.
    pub fn record(
        &self,
        step: &Report,
        state: &StatusState,
        origin: Option<Timestamp>,
        rate: RateLimit,
        now: Timestamp,
    ) {
        let totals = {
            let mut totals = mutex::lock(&self.totals);
            add(&mut totals.report, step);
            totals.status_requests += step.requests;
            *totals
        };
        let Some(bar) = &self.bar else {
            return;
        };
        let done = share_done(state, origin);
        if let Some(done) = done {
            // The share is in [0, 1]: the cast cannot lose anything that matters.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            bar.set_position((done * f64::from(SCALE)).round() as u64);
        }
        let eta = done
            .and_then(|d| requests_left(totals.status_requests, d))
            .map(|left| {
                let per_request = totals.started.elapsed() / totals.report.requests.max(1);
                format!(
                    " · ETA {}",
                    super::super::rough_duration(eta(left, per_request, rate, now))
                )
            })
            .unwrap_or_default();
        let budget = match (rate.remaining, rate.limit) {
            (Some(remaining), Some(limit)) => format!(" · budget {remaining}/{limit}"),
            _ => String::new(),
        };
        bar.set_message(format!(
            "{} · {} req{budget}{eta}",
            crate::text::output::counted(totals.report.added, "item"),
            crate::text::output::thousands(u64::from(totals.report.requests))
        ));
    }

    /// Counts requests made outside the walks (discovery) in the totals.
    pub fn count(&self, step: &Report) {
        add(&mut mutex::lock(&self.totals).report, step);
    }

    /// A line: above the bar on a terminal, on `out` otherwise.
    pub fn say(&self, out: &mut impl Write, line: &str) -> Result<(), CliError> {
        match &self.bar {
            Some(bar) => bar.println(crate::text::sanitize_line(line)),
            None => writeln!(out, "{line}")?,
        }
        Ok(())
    }

    /// A wait of the client (pacing, retry): in the bar, or a line on stderr.
    pub fn wait(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(line.to_owned()),
            None => eprintln!("{line}"),
        }
    }

    /// A wait that changes every second (another sync's): in the bar only, off a terminal the
    /// line said when it began is enough.
    pub fn waiting(&self, line: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(line.to_owned());
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    #[must_use]
    pub fn totals(&self) -> Report {
        mutex::lock(&self.totals).report
    }
}

fn add(total: &mut Report, step: &Report) {
    total.added += step.added;
    total.changed += step.changed;
    total.requests += step.requests;
}

/// The share of a status's walk done: all of it when complete; for a first mirror, the share
/// of the time from the head back to `origin` the deep walk has covered.
#[must_use]
pub fn share_done(state: &StatusState, origin: Option<Timestamp>) -> Option<f64> {
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
pub fn requests_left(spent: u32, done: f64) -> Option<u64> {
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

/// "budget 812/1000, resets in 42s".
#[must_use]
pub fn budget_text(rate: RateLimit, now: Timestamp) -> Option<String> {
    let (remaining, limit) = (rate.remaining?, rate.limit?);
    let reset = rate
        .seconds_to_reset(now)
        .map(|s| format!(", resets in {s}s"))
        .unwrap_or_default();
    Some(format!("budget {remaining}/{limit}{reset}"))
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
        assert_eq!(
            budget_text(rate, now).unwrap(),
            "budget 10/60, resets in 30s"
        );
    }
}
