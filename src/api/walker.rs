//! Follows `next_cursor` until it is null. Never yields an id twice; when the service rejects a
//! cursor (`invalid_cursor`, e.g. after a deploy rotated cursor keys) a walk that started from
//! the top restarts from the top and skips what it already yielded. A walk that started from a
//! given cursor (a resumed export) never restarts: the top holds what an earlier run already
//! had, so the rejection is passed on. A server that hands back a cursor it already gave, an empty
//! page with a cursor, or ever new cursors over pages of items already yielded would make the
//! walk endless: that stops with [`ApiError::Paging`].
//!
//! Pages without a new item are expected after a restart: the walk re-reads, from the top, at
//! most as many pages as had new items. So the walk stops once the pages in a row without a new
//! item outnumber the pages with new items so far by more than [`STALE_SLACK`].

use std::collections::HashSet;

use super::client::Client;
use super::error::ApiError;
use super::model::{Cursor, Feedback, FeedbackId};
use super::query::FeedbackQuery;

/// Restarts allowed after `invalid_cursor` before the error is passed on.
const MAX_RESTARTS: u32 = 3;

/// Pages in a row without a new item allowed beyond the number of pages that had new items (a
/// few items inserted or reordered while walking may shift what a page holds).
pub const STALE_SLACK: u32 = 2;

/// Page-by-page walk of a feedback query.
pub struct FeedbackWalker {
    client: Client,
    query: FeedbackQuery,
    seen: HashSet<FeedbackId>,
    /// Cursors followed since the walk last started from the top.
    cursors: HashSet<Cursor>,
    done: bool,
    /// False for a walk that started from a given cursor: it must not restart from the top.
    restartable: bool,
    restarts: u32,
    requests: u32,
    /// Pages that had at least one new item.
    productive: u32,
    /// Pages in a row (since the last productive page or restart) without a new item.
    stale: u32,
}

impl FeedbackWalker {
    pub(crate) fn new(client: Client, query: FeedbackQuery) -> Self {
        let cursors = query.cursor.iter().cloned().collect();
        let restartable = query.cursor.is_none();
        Self {
            client,
            query,
            seen: HashSet::new(),
            cursors,
            done: false,
            restartable,
            restarts: 0,
            requests: 0,
            productive: 0,
            stale: 0,
        }
    }

    /// The next batch of not-yet-yielded items, `None` at the end. After an error the walk can
    /// be resumed by calling again.
    pub async fn next_page(&mut self) -> Option<Result<Vec<Feedback>, ApiError>> {
        while !self.done {
            self.requests += 1;
            match self.client.list_feedback_counted(&self.query).await {
                Ok(counted) => {
                    let page = counted.page;
                    // Emptiness is judged on what the server sent, not on what was readable.
                    if let Err(error) =
                        self.check_cursor(counted.received == 0, page.next_cursor.as_ref())
                    {
                        return Some(Err(error));
                    }
                    let fresh: Vec<Feedback> = page
                        .data
                        .into_iter()
                        .filter(|f| self.seen.insert(f.id.clone()))
                        .collect();
                    if fresh.is_empty() {
                        self.stale += 1;
                        if page.next_cursor.is_some()
                            && self.stale > self.productive.saturating_add(STALE_SLACK)
                        {
                            // Nothing was taken from this page: the walk stays where it was.
                            return Some(Err(ApiError::Paging {
                                reason: "it kept sending new cursors over items already listed",
                            }));
                        }
                    } else {
                        self.productive += 1;
                        self.stale = 0;
                    }
                    self.follow(page.next_cursor);
                    if !fresh.is_empty() {
                        return Some(Ok(fresh));
                    }
                }
                Err(ApiError::InvalidCursor { .. })
                    if self.restartable
                        && self.query.cursor.is_some()
                        && self.restarts < MAX_RESTARTS =>
                {
                    tracing::warn!("cursor rejected; restarting the walk from the newest item");
                    self.restarts += 1;
                    self.query.cursor = None;
                    self.cursors.clear();
                    self.stale = 0;
                }
                Err(error) => return Some(Err(error)),
            }
        }
        None
    }

    /// Refuses a next cursor that would make the walk endless (the walk then stays where it
    /// was).
    fn check_cursor(&self, empty: bool, next: Option<&Cursor>) -> Result<(), ApiError> {
        if let Some(cursor) = next {
            if empty {
                return Err(ApiError::Paging {
                    reason: "it sent an empty page with a next cursor",
                });
            }
            if self.cursors.contains(cursor) {
                return Err(ApiError::Paging {
                    reason: "it sent a next cursor it had already sent",
                });
            }
        }
        Ok(())
    }

    /// Takes the next cursor (checked by [`Self::check_cursor`]).
    fn follow(&mut self, next: Option<Cursor>) {
        if let Some(cursor) = &next {
            self.cursors.insert(cursor.clone());
        }
        self.done = next.is_none();
        self.query.cursor = next;
    }

    /// Items yielded so far.
    #[must_use]
    pub fn yielded(&self) -> usize {
        self.seen.len()
    }

    /// List requests made so far (retries inside one request not counted).
    #[must_use]
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// The cursor of the next page to read (`None` at the top, or once done). Every item before
    /// it was yielded: after a batch is handled, a later walk can resume from here.
    #[must_use]
    pub fn cursor(&self) -> Option<&Cursor> {
        self.query.cursor.as_ref()
    }

    /// Times the walk restarted after `invalid_cursor`.
    #[must_use]
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// True once the last page was seen.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.done
    }
}
