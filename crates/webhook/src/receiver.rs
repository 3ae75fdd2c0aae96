//! The webhook receiver: POST on `/` or `/webhook`, each delivery verified before anything
//! else; 204 when kept (or already seen), 401 for a bad or missing signature or a stale time,
//! 413 when too large (a declared `Content-Length` is refused before the body is read), 408
//! when the body is too slow, 500 when it cannot be written, or not within the record timeout
//! (so the service retries), 405 for
//! other methods, 404 for other paths. A body whose signature holds is never refused for its content: when it is
//! not a usable event it is kept raw in the JSONL (see [`super::journal`]). Nothing is answered
//! 2xx before it is synced to disk. Neither the secret nor a body is ever logged.

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use hyper::body::Incoming;
use tokio::sync::mpsc::UnboundedSender;

use super::journal::{self, AppendLog};
use super::record::{RecordError, Recorded, Recorder};
use super::seen::Seen;
use super::serve::{self, Handler, Limits};
use feedback_api::webhook::event::Event;
use feedback_api::webhook::verify::{self, Delivery, MAX_BODY, Secret, VerifyError};
use feedback_core::background::Background;
use feedback_core::clock::SharedClock;
use feedback_store::Store;

/// How to run a receiver.
#[derive(Debug)]
pub struct ReceiverConfig {
    pub addr: SocketAddr,
    pub secret: Secret,
    pub tolerance: Duration,
    /// The idempotency record, when there is no store.
    pub seen: Seen,
    /// Where the idempotency keys are kept instead of `seen`, in the transaction that also
    /// stores the item each delivery brings (`webhook listen` with a store).
    pub store: Option<Store>,
    /// Where kept deliveries are written, one JSON document per line (`None`: nowhere).
    pub jsonl: Option<Jsonl>,
    pub clock: SharedClock,
}

/// Where a receiver writes what it keeps, each line before the delivery is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Jsonl {
    /// Appended to this file (created when missing), each line synced to disk.
    File(PathBuf),
    /// As `File`, for a journal of this program's own: only a regular file, never through a
    /// symlink (a link or a FIFO in its place is refused).
    Own(PathBuf),
    /// Written to the process's stdout, each line flushed (and synced when it is a file).
    Stdout,
}

/// What happened to one delivery.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// Verified and recorded for the first time; `stored` when the receiver's store took the
    /// item it brought in the transaction that recorded it (the consumer need not store it).
    Accepted { event: Box<Event>, stored: bool },
    /// Verified, but the body is not a usable event (`reason` says why): acknowledged and
    /// kept raw, marked unparsed; `key` is its idempotency key (`unparsed sha256:<hex>`).
    Unparsed { key: String, reason: String },
    /// Verified, but its idempotency key was recorded before: acknowledged, not recorded again.
    Duplicate(String),
    /// Recorded (and reported as accepted), but with the receiver's store its item is not
    /// stored: its project is not among those of the store's account (the feedback id).
    OtherAccount(String),
    /// Refused with this status and reason (500: it could not be written; it will come again).
    Rejected { status: u16, reason: String },
}

/// A `feedback.created` delivery the receiver accepted, as the inbox takes it: its submission,
/// and whether the receiver's store already holds its item (stored in the transaction that
/// recorded the delivery), so the consumer only shows it.
#[derive(Debug, Clone)]
pub struct Arrival {
    pub submission: feedback_api::webhook::Submission,
    pub stored: bool,
}

/// Why a receiver could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot write {}: {source}", path.display())]
    Jsonl {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The address could not be bound.
    #[error(transparent)]
    Bind(io::Error),
}

struct Shared {
    secret: Secret,
    tolerance: Duration,
    body_timeout: Duration,
    record_timeout: Duration,
    clock: SharedClock,
    /// Taken by one delivery at a time; a delivery waits for it without a thread.
    record: Arc<tokio::sync::Mutex<Recorder>>,
    notices: UnboundedSender<Notice>,
}

/// A running receiver. Dropping it stops the server.
#[derive(Debug)]
pub struct ReceiverHandle {
    addr: SocketAddr,
    server: Background,
}

/// Binds and starts receiving with the default [`Limits`]; what happens to each delivery goes
/// to `notices`.
pub async fn start(
    config: ReceiverConfig,
    notices: UnboundedSender<Notice>,
) -> Result<ReceiverHandle, StartError> {
    start_with(config, Limits::default(), notices).await
}

/// Like [`start`], within `limits`.
pub async fn start_with(
    config: ReceiverConfig,
    limits: Limits,
    notices: UnboundedSender<Notice>,
) -> Result<ReceiverHandle, StartError> {
    let jsonl = match config.jsonl {
        Some(Jsonl::File(path)) => match AppendLog::open(&path) {
            Ok(log) => Some((path, log)),
            Err(source) => return Err(StartError::Jsonl { path, source }),
        },
        Some(Jsonl::Own(path)) => {
            match AppendLog::open_record(&path, &mut super::journal::sync_dir) {
                Ok(log) => Some((path, log)),
                Err(source) => return Err(StartError::Jsonl { path, source }),
            }
        }
        Some(Jsonl::Stdout) => Some((PathBuf::from("stdout"), AppendLog::stdout())),
        None => None,
    };
    let shared = Arc::new(Shared {
        secret: config.secret,
        tolerance: config.tolerance,
        body_timeout: limits.body_timeout,
        record_timeout: limits.record_timeout,
        clock: config.clock,
        record: Arc::new(tokio::sync::Mutex::new(match config.store {
            Some(store) => Recorder::with_store(store, jsonl),
            None => Recorder::new(config.seen, jsonl),
        })),
        notices,
    });
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(StartError::Bind)?;
    let addr = listener.local_addr().map_err(StartError::Bind)?;
    let server = serve::spawn(listener, limits, Receive(shared));
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

    /// Stops receiving and waits for the connections to end.
    pub async fn shutdown(self) {
        self.server.stop().await;
    }
}

/// The request handler.
#[derive(Clone)]
struct Receive(Arc<Shared>);

impl Handler for Receive {
    async fn handle(&self, request: hyper::Request<Incoming>) -> Response {
        let shared = &self.0;
        if !matches!(request.uri().path(), "/" | "/webhook") {
            return StatusCode::NOT_FOUND.into_response();
        }
        if request.method() != Method::POST {
            return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, "POST")]).into_response();
        }
        let (parts, body) = request.into_parts();
        if let Some(length) = declared_length(&parts.headers)
            && length > MAX_BODY
        {
            let reason = format!("the declared body of {length} bytes is over the 1 MiB limit");
            return refuse(shared, StatusCode::PAYLOAD_TOO_LARGE, reason);
        }
        let body = match read_body(body, shared.body_timeout).await {
            Ok(body) => body,
            Err((status, reason)) => return refuse(shared, status, reason.to_owned()),
        };
        match entry(shared, &parts.headers, &body) {
            Ok(entry) => keep(shared, entry).await,
            Err(error) => refuse(shared, status_of(&error), error.to_string()),
        }
    }
}

fn declared_length(headers: &HeaderMap) -> Option<usize> {
    let value = headers.get(header::CONTENT_LENGTH)?.to_str().ok()?;
    // Too large to count is over the limit too.
    Some(
        value
            .trim()
            .parse::<u64>()
            .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX)),
    )
}

/// The body, up to [`MAX_BODY`] bytes and within `timeout`.
async fn read_body(
    body: Incoming,
    timeout: Duration,
) -> Result<Vec<u8>, (StatusCode, &'static str)> {
    let read = async {
        let mut stream = Body::new(body).into_data_stream();
        let mut bytes = Vec::new();
        while let Some(chunk) = stream.next().await {
            let chunk =
                chunk.map_err(|_| (StatusCode::BAD_REQUEST, "the body could not be read"))?;
            if bytes.len() + chunk.len() > MAX_BODY {
                return Err((
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the body is over the 1 MiB limit",
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    };
    tokio::time::timeout(timeout, read).await.unwrap_or(Err((
        StatusCode::REQUEST_TIMEOUT,
        "the body did not arrive in time",
    )))
}

/// What a verified delivery adds to the records, and what it is reported as.
struct Entry {
    key: Option<String>,
    line: Vec<u8>,
    notice: Notice,
}

/// Verifies the delivery; a signed body that is not a usable event becomes an unparsed entry.
fn entry(shared: &Shared, headers: &HeaderMap, body: &[u8]) -> Result<Entry, VerifyError> {
    let header = |name: &str| {
        headers
            .get(name)
            .map(|v| v.to_str().unwrap_or("(not text)"))
    };
    let delivery = Delivery {
        timestamp: header("x-service-timestamp"),
        signature: header("x-service-signature"),
        body,
    };
    let now = shared.clock.now();
    let reason = match verify::verify(&shared.secret, delivery, now, shared.tolerance) {
        Ok(event) => match journal::event_line(body) {
            Some(line) => {
                return Ok(Entry {
                    key: event.idempotency_key(),
                    line,
                    notice: Notice::Accepted {
                        event: Box::new(event),
                        stored: false,
                    },
                });
            }
            None => "the body is not JSON".to_owned(),
        },
        Err(VerifyError::Body(why)) => why.to_string(),
        Err(error) => return Err(error),
    };
    let key = format!("unparsed sha256:{}", journal::body_hash(body));
    Ok(Entry {
        line: journal::unparsed_line(body, &reason, now),
        key: Some(key.clone()),
        notice: Notice::Unparsed { key, reason },
    })
}

fn status_of(error: &VerifyError) -> StatusCode {
    match error {
        VerifyError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        // Not reached from the receiver: such a body is kept raw (see `entry`).
        VerifyError::Body(_) => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNAUTHORIZED,
    }
}

fn refuse(shared: &Shared, status: StatusCode, reason: String) -> Response {
    tracing::warn!(status = status.as_u16(), %reason, "webhook delivery refused");
    let _ = shared.notices.send(Notice::Rejected {
        status: status.as_u16(),
        reason: reason.clone(),
    });
    (status, reason).into_response()
}

/// Writes the entry (off the async threads: it syncs to disk) and answers: 204 once it is
/// durable or was already recorded, 500 when it could not be written, or not within the
/// record timeout (the records busy with a write that does not end, say to a stdout nobody
/// reads). When only its seen id could not be written, the entry is kept (and reported) but
/// still answered 500: the retry is then acknowledged as a duplicate. What is kept is reported
/// by the writing thread itself, so a write that ends after its delivery was answered 500 is
/// still reported (and its retry acknowledged as a duplicate).
async fn keep(shared: &Arc<Shared>, entry: Entry) -> Response {
    let Entry { key, line, notice } = entry;
    let deadline = tokio::time::Instant::now() + shared.record_timeout;
    let late = || {
        "the delivery could not be recorded in time (the records are busy with a write that has not finished); answered 500 so the service delivers it again".to_owned()
    };
    let Ok(mut records) =
        tokio::time::timeout_at(deadline, Arc::clone(&shared.record).lock_owned()).await
    else {
        return refuse(shared, StatusCode::INTERNAL_SERVER_ERROR, late());
    };
    let writer = Arc::clone(shared);
    let now = shared.clock.now();
    let task = tokio::task::spawn_blocking(move || {
        let submission = match &notice {
            Notice::Accepted { event, .. } => match &**event {
                Event::FeedbackCreated(submission) => Some(submission),
                Event::Other { .. } => None,
            },
            _ => None,
        };
        let written = records.record(key.as_deref(), &line, submission, now);
        let other_account = submission.map(|s| s.id.0.clone());
        match &written {
            Ok(Recorded::Stored) => match notice {
                Notice::Accepted { event, .. } => report(
                    &writer,
                    Notice::Accepted {
                        event,
                        stored: true,
                    },
                ),
                notice => report(&writer, notice),
            },
            Ok(Recorded::New) | Err(RecordError::Seen(_) | RecordError::Store(_)) => {
                report(&writer, notice);
            }
            Ok(Recorded::NewOtherAccount) => {
                report(&writer, notice);
                report(
                    &writer,
                    Notice::OtherAccount(other_account.unwrap_or_default()),
                );
            }
            Ok(Recorded::Duplicate) => {
                report(&writer, Notice::Duplicate(key.unwrap_or_default()));
            }
            Err(RecordError::Jsonl { .. } | RecordError::Ask(_)) => {}
        }
        written
    });
    let Ok(written) = tokio::time::timeout_at(deadline, task).await else {
        return refuse(shared, StatusCode::INTERNAL_SERVER_ERROR, late());
    };
    let reason = match written {
        Ok(Ok(_)) => return StatusCode::NO_CONTENT.into_response(),
        // Its line is written (or there is none to write) and its key remembered for this
        // process: it was reported, as the retry will be a duplicate.
        Ok(Err(error @ (RecordError::Seen(_) | RecordError::Store(_)))) => {
            format!("{error}; the delivery is kept, answered 500 so the service delivers it again")
        }
        Ok(Err(error)) => format!("{error}; answered 500 so the service delivers it again"),
        Err(error) => {
            tracing::error!(%error, "the webhook record task failed");
            "the delivery could not be recorded".to_owned()
        }
    };
    refuse(shared, StatusCode::INTERNAL_SERVER_ERROR, reason)
}

/// Tells what was kept.
fn report(shared: &Shared, notice: Notice) {
    if let Notice::Unparsed { key, reason } = &notice {
        tracing::warn!(%key, %reason, "kept a signed delivery whose body is not a usable event");
    }
    let _ = shared.notices.send(notice);
}
