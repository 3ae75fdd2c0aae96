//! The thread that runs the inbox's store reads. One thread, in order: the reads share one
//! connection anyway, and one thread keeps the memory a million-key answer takes in one
//! allocator arena instead of leaving megabytes behind in each of a pool's threads. The view's
//! queries go before the other reads (panes, rows, details), so a status switch never waits
//! behind a slow pane count; an older query still waiting is skipped by the executor.

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

/// The next read, view queries first; `None` once stopped.
fn next(shared: &(Mutex<Queue>, Condvar)) -> Option<Task> {
    let (queue, ready) = shared;
    let mut queue = lock(queue);
    loop {
        if queue.stopped {
            return None;
        }
        if let Some(task) = queue.first.pop_front().or_else(|| queue.rest.pop_front()) {
            return Some(task);
        }
        queue = ready
            .wait(queue)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
}
