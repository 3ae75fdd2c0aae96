//! The thread that runs the inbox's store reads. One thread, in order: the reads share one
//! connection anyway, and one thread keeps the memory a million-key answer takes in one
//! allocator arena instead of leaving megabytes behind in each of a pool's threads. The view's
//! queries go before the other reads (panes, rows, details), so a status switch never waits
//! behind a slow pane count; but after a query, one other read waiting goes first, so that a
//! stream of queries (a mirror's syncs) never starves the rows and the detail. An older query
//! still waiting is skipped by the executor. The triage writes run on a queue of this kind too:
//! at shutdown theirs is drained ([`Reader::finish`]), so an action pressed just before quitting
//! is committed, while the reads' queues are dropped ([`Reader::stop`]).

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::reads::Task;
use crate::mutex::lock;
use crate::tui::action::Msg;

#[derive(Default)]
struct Queue {
    first: VecDeque<Task>,
    rest: VecDeque<Task>,
    stopped: bool,
    /// Stopped, but the tasks waiting run first (the writes at shutdown).
    draining: bool,
    /// The thread ended (its last task done).
    ended: bool,
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
                    // Nobody listens any more once the loop ended: a draining queue still
                    // runs its tasks (they are writes), a stopped one has none left anyway.
                    let _ = tx.send(task());
                }
                let (queue, ended) = &*shared;
                lock(queue).ended = true;
                ended.notify_all();
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
        // All: `finish` waits on the same condition.
        ready.notify_all();
    }

    /// Ends the thread after the task it runs: the tasks waiting are dropped.
    pub(super) fn stop(&self) {
        let (queue, ready) = &*self.queue;
        lock(queue).stopped = true;
        ready.notify_all();
    }

    /// Ends the thread once every task waiting ran, and waits for that up to `wait`; false
    /// when the wait ran out (a write stuck behind another process's lock, say).
    pub(super) fn finish(&self, wait: Duration) -> bool {
        let (queue, changed) = &*self.queue;
        let mut guard = lock(queue);
        guard.draining = true;
        changed.notify_all();
        let (guard, _) = changed
            .wait_timeout_while(guard, wait, |q| !q.ended)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        guard.ended
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

/// The next read, view queries first; `None` once stopped, or drained.
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
        if queue.draining {
            return None;
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

    #[test]
    fn finishing_runs_every_task_still_queued_and_waits_for_the_thread() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let reader = Reader::start(tx);
        // The first task runs until the queue is told to finish, so the second is still queued
        // then (as a write is when `q` follows `d` at once).
        let queue = Arc::clone(&reader.queue);
        reader.push(
            Box::new(move || {
                let (q, changed) = &*queue;
                let guard = lock(q);
                let _ = changed
                    .wait_timeout_while(guard, Duration::from_secs(10), |q| !q.draining)
                    .unwrap();
                Msg::Opened {
                    url: "first".into(),
                    result: Ok(()),
                }
            }),
            false,
        );
        reader.push(task("second"), false);
        assert!(reader.finish(Duration::from_secs(10)), "the thread ended");
        let mut done = Vec::new();
        while let Ok(msg) = rx.try_recv() {
            if let Msg::Opened { url, .. } = msg {
                done.push(url);
            }
        }
        assert_eq!(done, ["first", "second"]);
    }
}
