//! What `sync` shows while it runs: a progress bar on a terminal (items, requests, the budget,
//! an ETA from the budget), plain lines otherwise.
//!
//! A first mirror's share done and its ETA are measured by [`crate::estimate`], with the
//! account's oldest project's creation as the far end of the walk.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use jiff::Timestamp;

use super::super::CliError;
use super::super::estimate::{eta, requests_left, share_done};
use feedback_api::RateLimit;
use feedback_core::mutex;
use feedback_sync::{Report, StatusState};

/// Positions of the bar: per mille of the span walked.
const SCALE: u32 = 1000;

/// A progress bar on a terminal, plain lines otherwise; counts what was done.
#[derive(Clone)]
pub(crate) struct Progress {
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
    pub(crate) fn new(terminal: bool) -> Self {
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
    pub(crate) fn start(&self, status: &str) {
        mutex::lock(&self.totals).status_requests = 0;
        if let Some(bar) = &self.bar {
            bar.set_prefix(status.to_owned());
            bar.set_position(0);
        }
    }

    /// One step done; `state` is the status's state after it (its `stored` is not read),
    /// `origin` the oldest possible item's time, `now` the injected clock's time.
    pub(crate) fn record(
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
            feedback_core::text::output::counted(totals.report.added, "item"),
            feedback_core::text::output::thousands(u64::from(totals.report.requests))
        ));
    }

    /// Counts requests made outside the walks (discovery) in the totals.
    pub(crate) fn count(&self, step: &Report) {
        add(&mut mutex::lock(&self.totals).report, step);
    }

    /// A line: above the bar on a terminal, on `out` otherwise.
    pub(crate) fn say(&self, out: &mut impl Write, line: &str) -> Result<(), CliError> {
        match &self.bar {
            Some(bar) => bar.println(feedback_core::text::sanitize_line(line)),
            None => writeln!(out, "{line}")?,
        }
        Ok(())
    }

    /// A wait of the client (pacing, retry): in the bar, or a line on stderr.
    pub(crate) fn wait(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(line.to_owned()),
            None => eprintln!("{line}"),
        }
    }

    /// A wait that changes every second (another sync's): in the bar only, off a terminal the
    /// line said when it began is enough.
    pub(crate) fn waiting(&self, line: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(line.to_owned());
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    #[must_use]
    pub(crate) fn totals(&self) -> Report {
        mutex::lock(&self.totals).report
    }
}

fn add(total: &mut Report, step: &Report) {
    total.added += step.added;
    total.changed += step.changed;
    total.requests += step.requests;
}
