//! `--since` and `--until` on `list` and `search`: a date (`2026-11-01`, local midnight), a
//! local date-time (`2026-11-01T09:30`), an instant (`2026-11-01T09:30:00Z`, as `received_at`
//! is written) or an age (`7d`, `36h`, `30m`, `2w`, counted back from now). Dates and ages are
//! read by the search language's own parsers in the same zone and from the same now, so
//! `--since 2026-11-01` is `after:2026-11-01`, `--until 2026-11-01` is `before:2026-11-01`, and
//! `--since 7d` is `age:<=7d`. The window is `since <= received < until`.
//!
//! The API has no time filter. `list` reads newest first, so once a page reaches an item older
//! than `--since` every later page is older too: the walk ends there, exactly. `--until` only
//! skips the newer items: the pages holding them must still be read.

use jiff::Timestamp;

use super::CliError;
use feedback_api::Feedback;
use feedback_core::text::sanitize_line;
use feedback_store::search::{self, Context, Sql};

/// The window `--since`/`--until` give, as instants.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    pub since: Option<Timestamp>,
    pub until: Option<Timestamp>,
}

/// One flag's value as an instant, read in `cx` (its zone for dates, its now for ages).
pub fn instant(flag: &str, value: &str, cx: &Context) -> Result<Timestamp, CliError> {
    let bad = |why: String| CliError::Usage(format!("{flag} {}: {why}", sanitize_line(value)));
    let value = value.trim();
    if let Ok(at) = value.parse::<Timestamp>() {
        return Ok(at);
    }
    if let Some(age) = search::duration(value) {
        return search::age_cutoff(cx.now, age, &(0..0)).map_err(|e| bad(e.message.into()));
    }
    match search::date(value, &(0..0)) {
        Ok(at) => search::local_instant(at, &cx.tz, &(0..0)).map_err(|e| bad(e.message.into())),
        Err(_) => Err(bad(
            "expected a date (2026-11-01), a date-time (2026-11-01T09:30, local; or \
             2026-11-01T09:30:00Z) or an age (7d, 36h, 30m, 2w)"
                .to_owned(),
        )),
    }
}

impl Window {
    /// The window of the flags, checked: `--since` must come before `--until`.
    pub fn new(since: Option<&str>, until: Option<&str>, cx: &Context) -> Result<Self, CliError> {
        let window = Self {
            since: since.map(|v| instant("--since", v, cx)).transpose()?,
            until: until.map(|v| instant("--until", v, cx)).transpose()?,
        };
        if let (Some(since), Some(until)) = (window.since, window.until)
            && since >= until
        {
            return Err(CliError::Usage(format!(
                "--since ({since}) is not before --until ({until}): nothing could match"
            )));
        }
        Ok(window)
    }

    /// True when neither flag was given.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn is_open(&self) -> bool {
        self.since.is_none() && self.until.is_none()
    }

    /// True for an item received inside the window.
    #[must_use]
    pub fn contains(&self, at: Timestamp) -> bool {
        self.since.is_none_or(|s| at >= s) && self.until.is_none_or(|u| at < u)
    }

    /// A newest-first page cut to the window, and how many of its items were older than
    /// `--since` (any: the walk is past it and can end).
    #[must_use]
    pub fn cut(&self, items: Vec<Feedback>) -> (Vec<Feedback>, usize) {
        let older = self
            .since
            .map_or(0, |s| items.iter().filter(|f| f.received_at < s).count());
        let kept = items
            .into_iter()
            .filter(|f| self.contains(f.received_at))
            .collect();
        (kept, older)
    }

    /// `sql` narrowed to the window: ranges of the items' keys (their received times, see
    /// `store::keys`), as `after:` and `before:` compile.
    pub fn narrow(&self, sql: &mut Sql) {
        sql.narrow_received(self.since, self.until);
    }
}

/// `list`'s window, and the items of its list older than `--since` the store holds (when it
/// mirrors the status to its end), to say how many requests stopping early saved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListWindow {
    pub window: Window,
    pub older_stored: Option<u64>,
}

impl ListWindow {
    /// Says on stderr that the walk stopped early, when it did (the last page had a next
    /// cursor): `older` items of the last page were older than `--since`.
    pub fn stopped(&self, walker: &feedback_api::walker::FeedbackWalker, older: usize, limit: u32) {
        if let Some(since) = self.window.since
            && !walker.is_done()
        {
            let stopped = Stopped {
                since,
                requests: walker.requests(),
                dropped: older,
                limit,
                older_stored: self.older_stored,
            };
            eprintln!("{}", stopped.describe());
        }
    }
}

/// The stored items of `query`'s list (status, project, app, tag) received before `since`,
/// when the store mirrors that status to its end; `None` when it cannot say.
#[must_use]
pub(crate) fn older_stored(
    store: &feedback_store::Store,
    query: &feedback_api::FeedbackQuery,
    since: Timestamp,
) -> Option<u64> {
    let status = query.status.clone().unwrap_or(feedback_api::Status::New);
    let state = feedback_sync::status_state(store, &status).ok()?;
    if !state.complete {
        return None;
    }
    let view = feedback_store::ViewQuery::listed(Some(status.as_str()))
        .in_project(query.project.clone())
        .in_app(query.app.clone())
        .tagged(query.tag.clone())
        .received_before(since);
    store
        .view_count(&view)
        .inspect_err(|e| tracing::debug!(error = %e, "older items not counted"))
        .ok()
}

/// How a `list --all` walk with `--since` ended early, for the line on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    pub since: Timestamp,
    /// Requests the walk made.
    pub requests: u32,
    /// Items of the last page older than `--since` (read, not shown).
    pub dropped: usize,
    /// Page size of the walk.
    pub limit: u32,
    /// Items of this list older than `--since` the store holds, when it mirrors the status to
    /// its end (else unknown).
    pub older_stored: Option<u64>,
}

impl Stopped {
    /// "--since: stopped after 3 requests at the first item older than …; about 12 requests
    /// saved (the local store holds 1,180 older items of this list)", or, without a count to go
    /// by, that it stopped and that the older pages were not fetched.
    #[must_use]
    pub fn describe(&self) -> String {
        let head = format!(
            "--since: stopped after {} at the first item older than {}",
            plural(u64::from(self.requests), "request"),
            self.since
        );
        match self.older_stored {
            Some(older) => {
                let left = older.saturating_sub(u64::try_from(self.dropped).unwrap_or(u64::MAX));
                // The server handed a next cursor, so one request at least was saved.
                let saved = left.div_ceil(u64::from(self.limit.max(1))).max(1);
                format!(
                    "{head}; about {} saved (the local store holds {} older items of this list)",
                    plural(saved, "request"),
                    feedback_core::text::output::thousands(older)
                )
            }
            None => format!("{head}; the older pages were not fetched"),
        }
    }
}

fn plural(n: u64, noun: &str) -> String {
    feedback_core::text::output::counted(n, noun)
}

#[cfg(test)]
mod tests;
