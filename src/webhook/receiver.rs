//! The webhook receiver (axum on the given address): POST on `/` or `/webhook`, each delivery
//! verified before anything else; 204 when accepted (or already seen), 401 for a bad or missing
//! signature, 400 for a bad body, 413 when too large, 405 for other methods. Accepted events are
//! appended to an optional JSONL file (one whole line each) and reported as [`Notice`]s. Neither
//! the secret nor the body of a rejected delivery is ever logged.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use tokio::sync::mpsc::UnboundedSender;

use super::event::Event;
use super::seen::Seen;
use super::verify::{self, Delivery, MAX_BODY, Secret, VerifyError};
use crate::background::Background;
use crate::clock::{SharedClock, lock};

/// How to run a receiver.
#[derive(Debug)]
pub struct ReceiverConfig {
    pub addr: SocketAddr,
    pub secret: Secret,
    pub tolerance: Duration,
    /// The idempotency record.
    pub seen: Seen,
    /// Where accepted events are appended, one JSON document per line.
    pub jsonl: Option<PathBuf>,
    pub clock: SharedClock,
}

/// What happened to one delivery.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// Verified and recorded for the first time.
    Accepted(Box<Event>),
    /// Verified, but its idempotency key (`feedback.id`) was recorded before: acknowledged, not
    /// recorded again.
    Duplicate(String),
    /// Refused with this status and reason.
    Rejected { status: u16, reason: String },
}

struct Shared {
    secret: Secret,
    tolerance: Duration,
    clock: SharedClock,
    record: Mutex<Record>,
    notices: UnboundedSender<Notice>,
}

struct Record {
    seen: Seen,
    jsonl: Option<File>,
}

/// A running receiver. Dropping it stops the server.
#[derive(Debug)]
pub struct ReceiverHandle {
    addr: SocketAddr,
    server: Background,
}

/// Binds and starts receiving; what happens to each delivery goes to `notices`.
pub async fn start(
    config: ReceiverConfig,
    notices: UnboundedSender<Notice>,
) -> std::io::Result<ReceiverHandle> {
    let jsonl = match &config.jsonl {
        Some(path) => Some(OpenOptions::new().create(true).append(true).open(path)?),
        None => None,
    };
    let shared = Arc::new(Shared {
        secret: config.secret,
        tolerance: config.tolerance,
        clock: config.clock,
        record: Mutex::new(Record {
            seen: config.seen,
            jsonl,
        }),
        notices,
    });
    let app = Router::new()
        .route("/", post(receive))
        .route("/webhook", post(receive))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared);
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let server = Background::serve(listener, app, "webhook receiver");
    Ok(ReceiverHandle { addr, server })
}

impl ReceiverHandle {
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR/`, the URL to deliver to.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops receiving and waits for the server to end.
    pub async fn shutdown(self) {
        self.server.stop().await;
    }
}

async fn receive(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(rejection) => {
            let status = rejection.status();
            let reason = if status == StatusCode::PAYLOAD_TOO_LARGE {
                "the body is over the 1 MiB limit".to_owned()
            } else {
                "the body could not be read".to_owned()
            };
            return reject(&shared, status, reason);
        }
    };
    let header = |name: &str| {
        headers
            .get(name)
            .map(|v| v.to_str().unwrap_or("(not text)"))
    };
    let delivery = Delivery {
        timestamp: header("x-service-timestamp"),
        signature: header("x-service-signature"),
        body: &body,
    };
    match verify::verify(
        &shared.secret,
        delivery,
        shared.clock.now(),
        shared.tolerance,
    ) {
        Ok(event) => accept(&shared, event, &body),
        Err(error) => reject(&shared, status_of(&error), error.to_string()),
    }
}

fn status_of(error: &VerifyError) -> StatusCode {
    match error {
        VerifyError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        VerifyError::Body(_) => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNAUTHORIZED,
    }
}

fn reject(shared: &Shared, status: StatusCode, reason: String) -> Response {
    tracing::warn!(status = status.as_u16(), %reason, "webhook delivery rejected");
    let _ = shared.notices.send(Notice::Rejected {
        status: status.as_u16(),
        reason: reason.clone(),
    });
    (status, reason).into_response()
}

/// Records a verified event once per `feedback.id`; a failure to record answers 500 so the
/// service delivers again.
fn accept(shared: &Shared, event: Event, body: &[u8]) -> Response {
    let mut record = lock(&shared.record);
    let key = event.idempotency_key();
    if let Some(key) = &key
        && record.seen.contains(key)
    {
        let _ = shared.notices.send(Notice::Duplicate(key.clone()));
        return StatusCode::NO_CONTENT.into_response();
    }
    if let Some(file) = &mut record.jsonl
        && let Err(error) = append_line(file, body)
    {
        tracing::error!(%error, "cannot append the event to the JSONL file");
        return (StatusCode::INTERNAL_SERVER_ERROR, "cannot record the event").into_response();
    }
    if let Some(key) = &key
        && let Err(error) = record.seen.insert(key)
    {
        // The event is recorded; only a later duplicate could be recorded again.
        tracing::error!(%error, "cannot write the idempotency record");
    }
    drop(record);
    let _ = shared.notices.send(Notice::Accepted(Box::new(event)));
    StatusCode::NO_CONTENT.into_response()
}

/// The body as one compact JSON line (all its fields, whatever their layout was), written whole.
fn append_line(file: &mut File, body: &[u8]) -> std::io::Result<()> {
    let value: serde_json::Value = crate::json::from_slice(body).map_err(std::io::Error::other)?;
    let mut line = serde_json::to_vec(&value).map_err(std::io::Error::other)?;
    line.push(b'\n');
    file.write_all(&line)?;
    file.flush()
}
