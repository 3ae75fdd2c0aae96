//! Follows `next_cursor` until it is null. Never yields an id twice, in memory that does not grow
//! with the walk: the list is ordered newest first by `(received_at, id)` (keyset paging), so an
//! item is new exactly when it comes after the last one yielded in that order (and, for safety,
//! is not among the previous page's ids); items that arrive at the top while walking are not
//! part of the walk. An item whose time was unreadable (the lenient decoder's Unix epoch) has no
//! place in that order: it never moves the boundary and is told by its id (such items are rare).
//! When the service rejects a
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

use jiff::Timestamp;

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
    /// The last item yielded, as the list orders it: every later item comes after it.
    boundary: Option<(Timestamp, FeedbackId)>,
    /// The ids of the last page that had new items.
    last_page: HashSet<FeedbackId>,
    /// Items yielded whose time was unreadable (see the module's doc).
    timeless: HashSet<FeedbackId>,
    yielded: usize,
    /// Cursors followed since the last page with new items (or the walk's start from the
    /// top): a server cycling through cursors is caught when one comes back.
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
            boundary: None,
            last_page: HashSet::new(),
            timeless: HashSet::new(),
            yielded: 0,
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
                    let fresh = self.take_fresh(page.data);
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
                        self.cursors.clear();
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

    /// The items of a page not yielded yet (see the module's doc), remembered as yielded.
    fn take_fresh(&mut self, data: Vec<Feedback>) -> Vec<Feedback> {
        let fresh: Vec<Feedback> = data
            .into_iter()
            .filter(|f| {
                if self.last_page.contains(&f.id) {
                    return false;
                }
                if f.received_at == Timestamp::UNIX_EPOCH {
                    return self.timeless.insert(f.id.clone());
                }
                self.boundary
                    .as_ref()
                    .is_none_or(|(at, id)| (f.received_at, &f.id) < (*at, id))
            })
            .collect();
        let oldest = fresh
            .iter()
            .filter(|f| f.received_at != Timestamp::UNIX_EPOCH)
            .min_by(|a, b| (a.received_at, &a.id).cmp(&(b.received_at, &b.id)));
        if let Some(last) = oldest {
            self.boundary = Some((last.received_at, last.id.clone()));
        }
        if !fresh.is_empty() {
            self.last_page = fresh.iter().map(|f| f.id.clone()).collect();
            self.yielded += fresh.len();
        }
        fresh
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
        self.yielded
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::{ApiKey, ProjectRef, Status};

    fn item(n: i64, second: i64) -> Feedback {
        Feedback {
            id: FeedbackId(format!("fb_{n:06}")),
            message: String::new(),
            reporter_email: None,
            status: Status::New,
            received_at: Timestamp::from_second(second).unwrap(),
            tags: vec![],
            app: None,
            project: ProjectRef {
                id: "p".into(),
                name: "P".into(),
            },
        }
    }

    fn walker() -> FeedbackWalker {
        let key = ApiKey::parse("service_eu_sk_demo_0123456789abcdef").unwrap();
        let client = Client::builder("http://127.0.0.1:9", key)
            .unwrap()
            .build()
            .unwrap();
        FeedbackWalker::new(client, FeedbackQuery::default())
    }

    /// Pages of `size` items newest first, `count` pages, two items sharing each second.
    fn pages(count: i64, size: i64) -> Vec<Vec<Feedback>> {
        let total = count * size;
        (0..count)
            .map(|p| {
                (p * size..(p + 1) * size)
                    .map(|n| item(total - n, 1_000_000 + (total - n) / 2))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn what_it_remembers_stays_one_page_however_long_the_walk_and_no_id_comes_twice() {
        let mut walk = walker();
        let pages = pages(500, 100);
        let mut ids = HashSet::new();
        for page in &pages {
            for f in walk.take_fresh(page.clone()) {
                assert!(ids.insert(f.id), "twice");
            }
            assert!(walk.last_page.len() <= 100 && walk.timeless.is_empty());
        }
        assert_eq!(ids.len(), 50_000);
        assert_eq!(walk.yielded(), 50_000);
        // A restart re-reads from the top: nothing comes twice, the rest comes once.
        for page in &pages[..10] {
            assert!(walk.take_fresh(page.clone()).is_empty());
        }
        let mut again = walker();
        let mut overlap = pages[0].clone();
        assert_eq!(again.take_fresh(overlap.clone()).len(), 100);
        // A page that repeats the previous one's last items (a shifted page) yields the rest.
        overlap.drain(..90);
        overlap.extend(pages[1].iter().cloned());
        assert_eq!(again.take_fresh(overlap).len(), 100);
    }

    #[test]
    fn an_item_of_unreadable_time_costs_nothing_after_it() {
        let mut walk = walker();
        let mut first = pages(2, 3);
        let mut odd = item(999, 0);
        odd.received_at = Timestamp::UNIX_EPOCH;
        first[0].push(odd.clone());
        assert_eq!(walk.take_fresh(first[0].clone()).len(), 4);
        assert_eq!(walk.take_fresh(first[1].clone()).len(), 3);
        // Seen again (a restart), it is known by its id.
        assert!(walk.take_fresh(vec![odd]).is_empty());
    }
}
