//! The thread that runs the inbox's store reads. One thread, in order: the reads share one
//! connection anyway, and one thread keeps the memory a million-key answer takes in one
//! allocator arena instead of leaving megabytes behind in each of a pool's threads. The view's
//! queries go before the other reads (panes, rows, details), so a status switch never waits
//! behind a slow pane count; but after a query, one other read waiting goes first, so that a
//! stream of queries (a mirror's syncs) never starves the rows and the detail. An older query
//! still waiting is skipped by the executor.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use tokio::sync::mpsc::UnboundedSender;

use super::reads::Task;
use crate::clock::lock;
use crate::tui::action::Msg;

#[derive(Default)]
struct Queue {
    first: VecDeque<Task>,
    rest: VecDeque<Task>,
    stopped: bool,
    /// The last task taken was a query: another read's turn, if one waits.
    after_query: bool,
}

/// The reading thread's queue; the thread ends when it is stopped (or dropped).
pub(super) struct Reader {
    queue: Arc<(Mutex<Queue>, Condvar)>,
}

impl Reader {
    pub(super) fn start(tx: UnboundedSender<Msg>) -> Self {
        let queue = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let shared = Arc::clone(&queue);
        let spawned = std::thread::Builder::new()
            .name("store-reads".into())
            .spawn(move || {
                while let Some(task) = next(&shared) {
                    if tx.send(task()).is_err() {
                        break;
                    }
                }
            });
        if let Err(error) = spawned {
            tracing::error!(%error, "cannot start the store-reads thread");
        }
        Self { queue }
    }

    /// Queues a read; `first` (a view query) goes before the other reads waiting.
    pub(super) fn push(&self, task: Task, first: bool) {
        let (queue, ready) = &*self.queue;
        let mut queue = lock(queue);
        if first {
            queue.first.push_back(task);
        } else {
            queue.rest.push_back(task);
        }
        ready.notify_one();
    }

    pub(super) fn stop(&self) {
        let (queue, ready) = &*self.queue;
        lock(queue).stopped = true;
        ready.notify_one();
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Queue {
    /// Queries first, but never two in a row while another read waits.
    fn take(&mut self) -> Option<Task> {
        let rest_first = self.after_query && !self.rest.is_empty();
        let task = if rest_first {
            self.rest.pop_front().map(|t| (t, false))
        } else {
            let query = self.first.pop_front().map(|t| (t, true));
            query.or_else(|| self.rest.pop_front().map(|t| (t, false)))
        };
        let (task, query) = task?;
        self.after_query = query;
        Some(task)
    }
}

/// The next read, view queries first; `None` once stopped.
fn next(shared: &(Mutex<Queue>, Condvar)) -> Option<Task> {
    let (queue, ready) = shared;
    let mut queue = lock(queue);
    loop {
        if queue.stopped {
            return None;
        }
        if let Some(task) = queue.take() {
            return Some(task);
        }
        queue = ready
            .wait(queue)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn task(name: &'static str) -> Task {
        Box::new(move || Msg::Opened {
            url: name.to_owned(),
            result: Ok(()),
        })
    }

    fn name(task: Task) -> String {
        match task() {
            Msg::Opened { url, .. } => url,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn queries_go_first_but_leave_one_other_read_a_turn_between_them() {
        let mut queue = Queue::default();
        queue.rest.extend([task("rows"), task("detail")]);
        queue.first.extend([task("q1"), task("q2"), task("q3")]);
        let order: Vec<String> = std::iter::from_fn(|| queue.take()).map(name).collect();
        assert_eq!(order, ["q1", "rows", "q2", "detail", "q3"]);
    }
}
