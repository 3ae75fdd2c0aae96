//! The receiver's HTTP/1 server, with the bounds `axum::serve` does not offer: a request head
//! must arrive within [`Limits::header_timeout`] (which also closes a kept-alive connection
//! that stays idle), a body within [`Limits::body_timeout`] (enforced by the handler), and at
//! most [`Limits::max_connections`] connections are open at once.
//!
//! When every slot is taken and another connection arrives, the oldest connection that is not
//! in the middle of a request (idle, or still dribbling its head) is closed to make room, so
//! hundreds of idle or slow sockets cannot keep a real delivery waiting. When every open
//! connection is serving a request, the newcomer waits for one to finish (each is bounded by
//! the timeouts) and later ones wait in the listen backlog: at most one connection beyond the
//! bound is ever held.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use feedback_core::background::Background;
use feedback_core::mutex::lock;

/// After a failed `accept` (out of descriptors, say), wait this long before the next one.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Time and connection bounds of a receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A request head must arrive within this after the connection opens or after the previous
    /// response; otherwise the connection is closed (slow-loris, idle keep-alive).
    pub header_timeout: Duration,
    /// A request body must arrive within this after its head (answered 408 otherwise).
    pub body_timeout: Duration,
    /// A verified delivery must be recorded within this (answered 500 otherwise, so the
    /// service delivers it again): a record that cannot be written, such as a stdout nobody
    /// reads, never holds a delivery, or the receiver's shutdown, indefinitely.
    pub record_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 5 s for a head, 10 s for a body, 5 s to record, 128 connections.
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            record_timeout: Duration::from_secs(5),
            max_connections: 128,
        }
    }
}

/// A request handler: every request gets a response (errors are responses too).
pub trait Handler: Clone + Send + Sync + 'static {
    fn handle(&self, request: hyper::Request<Incoming>) -> impl Future<Output = Response> + Send;
}

/// Serves `handler` on `listener` within `limits` until the returned handle is stopped; then
/// each connection finishes its request in flight and closes.
pub fn spawn(listener: TcpListener, limits: Limits, handler: impl Handler) -> Background {
    Background::spawn(move |stop| accept_loop(listener, limits, handler, stop))
}

/// The open connections, oldest first, so the oldest idle one can be closed to make room.
#[derive(Default)]
struct Open {
    next: u64,
    connections: BTreeMap<u64, Tracked>,
}

struct Tracked {
    close: CancellationToken,
    /// True while a request is being served.
    busy: Arc<AtomicBool>,
}

impl Open {
    fn add(&mut self) -> (u64, Tracked) {
        let id = self.next;
        self.next += 1;
        let tracked = Tracked {
            close: CancellationToken::new(),
            busy: Arc::new(AtomicBool::new(false)),
        };
        let copy = Tracked {
            close: tracked.close.clone(),
            busy: Arc::clone(&tracked.busy),
        };
        self.connections.insert(id, tracked);
        (id, copy)
    }

    /// Closes the oldest connection that is not serving a request; false when all are.
    fn close_oldest_idle(&mut self) -> bool {
        let idle = self
            .connections
            .iter()
            .find(|(_, c)| !c.busy.load(Ordering::Acquire))
            .map(|(id, _)| *id);
        match idle.and_then(|id| self.connections.remove(&id)) {
            Some(connection) => {
                connection.close.cancel();
                true
            }
            None => false,
        }
    }
}

/// What every connection task shares.
struct Server<H> {
    limits: Limits,
    handler: H,
    stop: CancellationToken,
    open: Mutex<Open>,
    /// Told each time a request ends, so a connection waiting for room can close an idle one.
    request_ended: Notify,
}

async fn accept_loop(
    listener: TcpListener,
    limits: Limits,
    handler: impl Handler,
    stop: CancellationToken,
) {
    let max = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let slots = Arc::new(Semaphore::new(max));
    let server = Arc::new(Server {
        limits,
        handler,
        stop: stop.clone(),
        open: Mutex::new(Open::default()),
        request_ended: Notify::new(),
    });
    loop {
        let accepted = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(error) => {
                tracing::warn!(%error, "the webhook receiver cannot accept a connection");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let Some(slot) = make_room(&server, &slots).await else {
            break;
        };
        // Registered in accept order, so "oldest" means the first accepted.
        let connection = lock(&server.open).add();
        tokio::spawn(serve_one(Arc::clone(&server), stream, slot, connection));
    }
    drop(listener);
    // Every connection holds a slot until it ends: having them all back means all ended.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
}

/// A free slot: at once when there is one, else by closing the oldest idle connection, else
/// when a request ends (and its connection can be closed) or a connection ends. `None` once
/// stopped.
async fn make_room<H>(server: &Server<H>, slots: &Arc<Semaphore>) -> Option<OwnedSemaphorePermit> {
    if let Ok(slot) = Arc::clone(slots).try_acquire_owned() {
        return Some(slot);
    }
    loop {
        let closing = lock(&server.open).close_oldest_idle();
        tokio::select! {
            () = server.stop.cancelled() => return None,
            slot = Arc::clone(slots).acquire_owned() => return slot.ok(),
            () = server.request_ended.notified(), if !closing => {}
        }
    }
}

/// Serves one connection; `slot` is given back when it ends.
async fn serve_one<H: Handler>(
    server: Arc<Server<H>>,
    stream: TcpStream,
    slot: OwnedSemaphorePermit,
    (id, tracked): (u64, Tracked),
) {
    let busy = Arc::clone(&tracked.busy);
    let shared = Arc::clone(&server);
    let service = service_fn(move |request| {
        busy.store(true, Ordering::Release);
        let (server, busy) = (Arc::clone(&shared), Arc::clone(&busy));
        async move {
            let response = server.handler.handle(request).await;
            busy.store(false, Ordering::Release);
            server.request_ended.notify_one();
            Ok::<_, Infallible>(response)
        }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(server.limits.header_timeout)
        .keep_alive(true);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = tracked.close.cancelled() => Ok(()),
        () = server.stop.cancelled() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        tracing::debug!(%error, "a webhook connection ended with an error");
    }
    lock(&server.open).connections.remove(&id);
    drop(slot);
}
