//! Follows `next_cursor` until it is null. Never yields an id twice; when the service rejects a
//! cursor (`invalid_cursor`, e.g. after a deploy rotated cursor keys) it restarts from the top and
//! skips what it already yielded.

use std::collections::HashSet;

use super::client::Client;
use super::error::ApiError;
use super::model::{Feedback, FeedbackId};
use super::query::FeedbackQuery;

/// Restarts allowed after `invalid_cursor` before the error is passed on.
const MAX_RESTARTS: u32 = 3;

/// Page-by-page walk of a feedback query.
pub struct FeedbackWalker {
    client: Client,
    query: FeedbackQuery,
    seen: HashSet<FeedbackId>,
    done: bool,
    restarts: u32,
    requests: u32,
}

impl FeedbackWalker {
    pub(crate) fn new(client: Client, query: FeedbackQuery) -> Self {
        Self {
            client,
            query,
            seen: HashSet::new(),
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
                    self.query.cursor = page.next_cursor;
                    self.done = self.query.cursor.is_none();
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
                }
                Err(error) => return Some(Err(error)),
            }
        }
        None
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
