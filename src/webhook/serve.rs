//! The receiver's HTTP/1 server, with the bounds `axum::serve` does not offer: a request head
//! must arrive within [`Limits::header_timeout`] (which also closes a kept-alive connection
//! that stays idle), a body within [`Limits::body_timeout`] (enforced by the handler), and at
//! most [`Limits::max_connections`] connections are served at once. A connection beyond that
//! is not accepted: it waits in the listen backlog until a slot frees, so idle or slow sockets
//! hold a bounded number of descriptors and are timed out, and a real delivery gets its turn.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::response::Response;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::background::Background;

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
    /// Connections served at once; more wait in the listen backlog.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 5 s for a head, 10 s for a body, 128 connections.
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
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

async fn accept_loop(
    listener: TcpListener,
    limits: Limits,
    handler: impl Handler,
    stop: CancellationToken,
) {
    let max = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let slots = Arc::new(Semaphore::new(max));
    loop {
        let slot = tokio::select! {
            () = stop.cancelled() => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
        };
        let accepted = tokio::select! {
            () = stop.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, _)) => {
                let connection = serve_one(stream, limits, handler.clone(), stop.clone(), slot);
                tokio::spawn(connection);
            }
            Err(error) => {
                tracing::warn!(%error, "the webhook receiver cannot accept a connection");
                drop(slot);
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
        }
    }
    drop(listener);
    // Every connection holds a slot until it ends: having them all back means all ended.
    let all = u32::try_from(max).unwrap_or(u32::MAX);
    let _ = slots.acquire_many(all).await;
}

/// Serves one connection; `slot` is given back when it ends.
async fn serve_one(
    stream: TcpStream,
    limits: Limits,
    handler: impl Handler,
    stop: CancellationToken,
    slot: OwnedSemaphorePermit,
) {
    let service = service_fn(move |request| {
        let handler = handler.clone();
        async move { Ok::<_, Infallible>(handler.handle(request).await) }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = stop.cancelled() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = result {
        tracing::debug!(%error, "a webhook connection ended with an error");
    }
    drop(slot);
}
