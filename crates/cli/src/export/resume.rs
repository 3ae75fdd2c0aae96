//! `list --all` that can be resumed. Pages are written whole, one after the other; the cursor
//! after the last page written is the place to resume from. When the walk is interrupted
//! (Ctrl-C, SIGTERM, or an error after some pages) the output is ended cleanly (`json` closed,
//! with that cursor as `next_cursor`) and stderr says how to go on, with the command line the
//! caller builds from that cursor:
//!
//! ```text
//! resume with: feedback-inbox list --all --status archived --since 2026-11-15T09:30:00Z --format csv --cursor 'c1…'
//! ```
//!
//! `--cursor C --all` continues from it: a walk from a given cursor never restarts from the
//! top (see [`feedback_api::walker`]), and when the server rejects that cursor (`invalid_cursor`)
//! before anything was written it is a usage error (exit 2), never a silent export of
//! everything again. A cursor rejected later in the walk ends it like any failure (exit 1, the
//! output closed, the resume line).

use super::super::CliError;
use super::super::since::ListWindow;
use super::detail::Details;
use super::progress::{ListProgress, Position};
use super::sink::Sink;
use feedback_api::{ApiError, Client, Cursor, FeedbackQuery, FeedbackWalker};

/// What an interrupted walk ended with.
enum Stop {
    Done,
    Signal(i32),
    Failed(CliError),
}

/// The walk's moving parts.
pub struct Walk<'w, 's> {
    pub client: &'w Client,
    pub sink: Sink<'s>,
    pub details: Details,
    pub progress: ListProgress,
    /// `--since`/`--until`: the walk ends at the first item older than `--since`.
    pub window: ListWindow,
    /// The page size asked for (to tell the requests stopping early saved).
    pub limit: u32,
    pub position: Position,
}

impl Walk<'_, '_> {
    /// Walks each of `parts` to the end in turn (the lists of several statuses: one output),
    /// writing each page; on an interruption ends the output and prints how to resume (`hint`
    /// builds the command line from the part and the cursor to go on from: the command's own).
    pub async fn run(
        mut self,
        parts: Vec<FeedbackQuery>,
        hint: impl Fn(usize, Option<&Cursor>) -> String,
    ) -> Result<(), CliError> {
        let started_from = parts.first().and_then(|q| q.cursor.clone());
        let interrupt = interrupted();
        tokio::pin!(interrupt);
        let (mut part, mut resume) = (0, started_from.clone());
        let stop = 'parts: loop {
            let Some(query) = parts.get(part) else {
                break Stop::Done;
            };
            let mut walker = self.client.walk(query.clone());
            loop {
                let step = tokio::select! {
                    biased;
                    signal = &mut interrupt => Err(Stop::Signal(signal)),
                    more = self.step(&mut walker, &mut resume) => more.map_err(Stop::Failed),
                };
                match step {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(end) => break 'parts end,
                }
            }
            // The next list starts from its top.
            (part, resume) = (part + 1, None);
        };
        self.progress.finish();
        let detail_note = self.details_note();
        let written = self.position.items > 0;
        match stop {
            Stop::Done => {
                self.sink.finish(None)?;
                if let Some(note) = &detail_note {
                    eprintln!("{note}");
                }
                Ok(())
            }
            // The user's own cursor, rejected before anything was written: a usage error.
            // A cursor rejected later (the walk's own, after pages) ends like any failure.
            Stop::Failed(error)
                if is_invalid_cursor(&error) && started_from.is_some() && !written =>
            {
                Err(cursor_error(error))
            }
            Stop::Failed(error @ CliError::Io(_)) => Err(error),
            stop => {
                self.sink.interrupt(resume.as_ref())?;
                if let Some(note) = &detail_note {
                    eprintln!("{note}");
                }
                if written {
                    eprintln!("resume with: {}", hint(part, resume.as_ref()));
                } else if resume.is_some() {
                    eprintln!(
                        "nothing written; retry with: {}",
                        hint(part, resume.as_ref())
                    );
                } else {
                    eprintln!("nothing written; run the same command again");
                }
                match stop {
                    Stop::Signal(number) => Err(CliError::Signal(number)),
                    Stop::Failed(error) => Err(error),
                    Stop::Done => Ok(()),
                }
            }
        }
    }

    fn details_note(&self) -> Option<String> {
        let fetched = self.details.fetched();
        (fetched > 0).then(|| {
            format!(
                "with-detail: {} details fetched",
                feedback_core::text::output::thousands(fetched)
            )
        })
    }

    /// One page: read, completed with details, written; then the resume point moves past
    /// it. `false` at the end. Cancelled at an await (an interruption), nothing of the page
    /// was written and the resume point has not moved.
    async fn step(
        &mut self,
        walker: &mut FeedbackWalker,
        resume: &mut Option<Cursor>,
    ) -> Result<bool, CliError> {
        let Some(batch) = walker.next_page().await else {
            return Ok(false);
        };
        let (items, older) = self.window.window.cut(batch?);
        let records = self.details.records(items).await?;
        let sink = &mut self.sink;
        self.progress.suspend(|| sink.page(&records))?;
        resume.clone_from(&walker.cursor().cloned());
        if older > 0 {
            // The list is newest first: nothing further down is in the window.
            self.progress.finish();
            self.window.stopped(walker, older, self.limit);
            return Ok(false);
        }
        let details = u32::try_from(self.details.fetched()).unwrap_or(u32::MAX);
        let at = &mut self.position;
        at.advance(&records, walker.requests().saturating_add(details));
        self.progress
            .update(at, self.client.rate_limit(), jiff::Timestamp::now());
        Ok(true)
    }
}

fn is_invalid_cursor(error: &CliError) -> bool {
    matches!(error, CliError::Api(ApiError::InvalidCursor { .. }))
}

/// A cursor the server rejected is a usage error (exit 2) that says what to do; any other
/// error is passed on.
#[must_use]
pub(crate) fn cursor_error(error: CliError) -> CliError {
    if is_invalid_cursor(&error) {
        CliError::Usage(format!(
            "{error}; a cursor works only with the filters it was made with and expires: run the command again without --cursor"
        ))
    } else {
        error
    }
}

/// The first SIGINT or SIGTERM: its number.
async fn interrupted() -> i32 {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut int), Ok(mut term)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = int.recv() => 2,
            _ = term.recv() => 15,
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            return std::future::pending().await;
        }
        2
    }
}
