//! A thread that runs the inbox's store work, one task at a time, in order, fed by a channel.
//! The reads share one connection anyway, and one thread keeps the memory a million-key answer
//! takes in one allocator arena instead of leaving megabytes behind in each of a pool's threads.
//! The view's queries go before the other reads (panes, rows, details), so a status switch never
//! waits behind a slow pane count; but after a query, one other read waiting goes first, so that
//! a stream of queries (a mirror's syncs) never starves the rows and the detail. A query still
//! waiting when a newer one comes is dropped here, unanswered: `update` waits only for the
//! latest (and drops the answer of one that had started). The triage writes run on a thread of this kind too:
//! at shutdown theirs is drained ([`StoreThread::finish`]), so an action pressed just before
//! quitting is committed, while the reads' are dropped ([`StoreThread::stop`]).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;

use super::reads::Task;
use crate::action::Msg;

/// What the thread is told.
enum Order {
    /// Run a task; `first`: a view query.
    Run(Task, bool),
    /// End after the task running: the tasks waiting are dropped.
    Stop,
    /// End once every task waiting ran.
    Finish,
}

#[derive(Default)]
struct Queue {
    /// The latest view query, while it waits.
    first: Option<Task>,
    rest: VecDeque<Task>,
    /// The last task taken was a query: another read's turn, if one waits.
    after_query: bool,
}

/// A store thread and its channel; the thread ends when stopped, finished or dropped.
pub(super) struct StoreThread {
    orders: Sender<Order>,
    /// Closed when the thread ends (its sender is dropped with the thread's state).
    ended: Receiver<()>,
}

impl StoreThread {
    /// Starts the thread `name` (what it does, as `top -H` shows it); answers go to `tx`.
    pub(super) fn start(name: &str, tx: UnboundedSender<Msg>) -> Self {
        let (orders, inbox) = channel();
        let (end, ended) = channel::<()>();
        let spawned = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                run(&inbox, &tx);
                drop(end);
            });
        if let Err(error) = spawned {
            tracing::error!(%error, name, "cannot start a store thread");
        }
        Self { orders, ended }
    }

    /// Queues a task; `first` (a view query) goes before the other reads waiting.
    pub(super) fn push(&self, task: Task, first: bool) {
        // The thread may have ended (stopped): the task is dropped, as a stopped queue's are.
        let _ = self.orders.send(Order::Run(task, first));
    }

    /// Ends the thread after the task it runs: the tasks waiting are dropped.
    pub(super) fn stop(&self) {
        let _ = self.orders.send(Order::Stop);
    }

    /// Ends the thread once every task waiting ran, and waits for that up to `wait`; false
    /// when the wait ran out (a write stuck behind another process's lock, say).
    pub(super) fn finish(&self, wait: Duration) -> bool {
        self.drain();
        self.wait_end(wait)
    }

    /// Tells the thread to end once every task waiting ran.
    fn drain(&self) {
        let _ = self.orders.send(Order::Finish);
    }

    /// Waits up to `wait` for the thread to end.
    fn wait_end(&self, wait: Duration) -> bool {
        match self.ended.recv_timeout(wait) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => true,
            Err(RecvTimeoutError::Timeout) => false,
        }
    }
}

impl Drop for StoreThread {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The thread's loop: takes every order waiting, runs the next task, and blocks for an order
/// only when no task waits.
fn run(inbox: &Receiver<Order>, tx: &UnboundedSender<Msg>) {
    let mut queue = Queue::default();
    let mut draining = false;
    loop {
        let waiting = usize::from(queue.first.is_some()) + queue.rest.len();
        if waiting == 0 {
            if draining {
                return;
            }
            match inbox.recv() {
                Ok(order) => {
                    if !queue.apply(order, &mut draining) {
                        return;
                    }
                }
                // Every sender is gone: nobody can ask for more.
                Err(_) => return,
            }
        }
        while let Ok(order) = inbox.try_recv() {
            if !queue.apply(order, &mut draining) {
                return;
            }
        }
        if let Some(task) = queue.take() {
            // Nobody listens any more once the loop ended: a draining thread still runs its
            // tasks (they are writes).
            let _ = tx.send(task());
        }
    }
}

impl Queue {
    /// Takes an order in; false when the thread is to stop now.
    fn apply(&mut self, order: Order, draining: &mut bool) -> bool {
        match order {
            Order::Run(task, true) => self.first = Some(task),
            Order::Run(task, false) => self.rest.push_back(task),
            Order::Stop => return false,
            Order::Finish => *draining = true,
        }
        true
    }

    /// Queries first, but never two in a row while another read waits.
    fn take(&mut self) -> Option<Task> {
        let rest_first = self.after_query && !self.rest.is_empty();
        let task = if rest_first {
            self.rest.pop_front().map(|t| (t, false))
        } else {
            let query = self.first.take().map(|t| (t, true));
            query.or_else(|| self.rest.pop_front().map(|t| (t, false)))
        };
        let (task, query) = task?;
        self.after_query = query;
        Some(task)
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

    fn order(queue: &mut Queue, name: &'static str, first: bool) {
        assert!(queue.apply(Order::Run(task(name), first), &mut false));
    }

    #[test]
    fn queries_go_first_but_leave_one_other_read_a_turn_between_them() {
        let mut queue = Queue::default();
        order(&mut queue, "rows", false);
        order(&mut queue, "detail", false);
        order(&mut queue, "q1", true);
        let mut ran = vec![name(queue.take().unwrap())];
        order(&mut queue, "q2", true);
        ran.extend(std::iter::from_fn(|| queue.take()).map(name));
        assert_eq!(ran, ["q1", "rows", "q2", "detail"]);
    }

    #[test]
    fn a_query_still_waiting_is_dropped_for_a_newer_one() {
        let mut queue = Queue::default();
        for query in ["q1", "q2", "q3"] {
            order(&mut queue, query, true);
        }
        order(&mut queue, "rows", false);
        let ran: Vec<String> = std::iter::from_fn(|| queue.take()).map(name).collect();
        assert_eq!(ran, ["q3", "rows"]);
    }

    #[test]
    fn finishing_runs_every_task_still_queued_and_waits_for_the_thread() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let thread = StoreThread::start("test-writes", tx);
        // The first task runs until it is let go, after the thread was told to finish: the
        // second is still queued then (as a write is when `q` follows `d` at once).
        let (go, wait) = std::sync::mpsc::channel::<()>();
        thread.push(
            Box::new(move || {
                let _ = wait.recv_timeout(Duration::from_secs(10));
                Msg::Opened {
                    url: "first".into(),
                    result: Ok(()),
                }
            }),
            false,
        );
        thread.push(task("second"), false);
        thread.drain();
        go.send(()).unwrap();
        assert!(thread.wait_end(Duration::from_secs(10)), "the thread ended");
        let mut done = Vec::new();
        while let Ok(msg) = rx.try_recv() {
            if let Msg::Opened { url, .. } = msg {
                done.push(url);
            }
        }
        assert_eq!(done, ["first", "second"]);
    }

    #[test]
    fn stopping_drops_the_tasks_waiting() {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let thread = StoreThread::start("test-reads", tx);
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let (started, running) = std::sync::mpsc::channel::<()>();
        thread.push(
            Box::new(move || {
                started.send(()).unwrap();
                let _ = wait.recv_timeout(Duration::from_secs(10));
                Msg::Opened {
                    url: "running".into(),
                    result: Ok(()),
                }
            }),
            false,
        );
        running.recv_timeout(Duration::from_secs(10)).unwrap();
        thread.push(task("waiting"), false);
        thread.stop();
        go.send(()).unwrap();
        assert!(thread.wait_end(Duration::from_secs(10)));
        let mut done = Vec::new();
        while let Ok(msg) = rx.try_recv() {
            if let Msg::Opened { url, .. } = msg {
                done.push(url);
            }
        }
        assert_eq!(done, ["running"]);
    }
}
