//! Follows `next_cursor` until it is null. Never yields an id twice; when the service rejects a
//! cursor (`invalid_cursor`, e.g. after a deploy rotated cursor keys) it restarts from the top and
//! skips what it already yielded. A server that hands back a cursor it already gave, or an empty
//! page with a cursor, would make the walk endless: that stops with [`ApiError::Paging`].

use std::collections::HashSet;

use super::client::Client;
use super::error::ApiError;
use super::model::{Cursor, Feedback, FeedbackId};
use super::query::FeedbackQuery;

/// Restarts allowed after `invalid_cursor` before the error is passed on.
const MAX_RESTARTS: u32 = 3;

/// Page-by-page walk of a feedback query.
pub struct FeedbackWalker {
    client: Client,
    query: FeedbackQuery,
    seen: HashSet<FeedbackId>,
    /// Cursors followed since the walk last started from the top.
    cursors: HashSet<Cursor>,
    done: bool,
    restarts: u32,
    requests: u32,
}

impl FeedbackWalker {
    pub(crate) fn new(client: Client, query: FeedbackQuery) -> Self {
        let cursors = query.cursor.iter().cloned().collect();
        Self {
            client,
            query,
            seen: HashSet::new(),
            cursors,
            done: false,
            restarts: 0,
            requests: 0,
        }
    }

    /// The next batch of not-yet-yielded items, `None` at the end. After an error the walk can
    /// be resumed by calling again.
    pub async fn next_page(&mut self) -> Option<Result<Vec<Feedback>, ApiError>> {
        while !self.done {
            self.requests += 1;
            match self.client.list_feedback(&self.query).await {
                Ok(page) => {
                    if let Err(error) = self.follow(page.data.is_empty(), page.next_cursor) {
                        return Some(Err(error));
                    }
                    let fresh: Vec<Feedback> = page
                        .data
                        .into_iter()
                        .filter(|f| self.seen.insert(f.id.clone()))
                        .collect();
                    if !fresh.is_empty() {
                        return Some(Ok(fresh));
                    }
                }
                Err(ApiError::InvalidCursor { .. })
                    if self.query.cursor.is_some() && self.restarts < MAX_RESTARTS =>
                {
                    tracing::warn!("cursor rejected; restarting the walk from the newest item");
                    self.restarts += 1;
                    self.query.cursor = None;
                    self.cursors.clear();
                }
                Err(error) => return Some(Err(error)),
            }
        }
        None
    }

    /// Takes the next cursor, refusing one that would make the walk endless (the walk then
    /// stays where it was).
    fn follow(&mut self, empty: bool, next: Option<Cursor>) -> Result<(), ApiError> {
        if let Some(cursor) = &next {
            if empty {
                return Err(ApiError::Paging {
                    reason: "it sent an empty page with a next cursor",
                });
            }
            if !self.cursors.insert(cursor.clone()) {
                return Err(ApiError::Paging {
                    reason: "it sent a next cursor it had already sent",
                });
            }
        }
        self.done = next.is_none();
        self.query.cursor = next;
        Ok(())
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
