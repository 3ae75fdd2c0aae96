//! The receiver's hardening over real loopback HTTP: a signed body is never refused for its
//! content, lone surrogates are kept as U+FFFD, records are terminal-safe, and slow, idle or
//! oversized connections are bounded (with short limits, so no test waits real seconds).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine as _;
use feedback_api::webhook::{DEFAULT_TOLERANCE, Event, Secret, sign};
use feedback_core::clock::ManualClock;
use feedback_webhook::journal::read_lines;
use feedback_webhook::receiver::{self, Jsonl, Notice, ReceiverConfig, ReceiverHandle};
use feedback_webhook::seen::Seen;
use feedback_webhook::serve::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

const SECRET: &str = "whsec_hardening_secret";
const SHORT: Duration = Duration::from_millis(300);
/// Long enough for anything that should happen at once, even on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(10);

fn secret() -> Secret {
    Secret::new(SECRET.as_bytes()).unwrap()
}

fn now() -> i64 {
    common::ANCHOR
        .parse::<jiff::Timestamp>()
        .unwrap()
        .as_second()
}

async fn receiver(dir: &Path, limits: Limits) -> (ReceiverHandle, UnboundedReceiver<Notice>) {
    let (tx, rx) = unbounded_channel();
    let clock = ManualClock::new(common::ANCHOR.parse().unwrap());
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: secret(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::open(&dir.join("seen.txt")).unwrap(),
        store: None,
        jsonl: Some(Jsonl::File(dir.join("events.jsonl"))),
        clock,
    };
    (receiver::start_with(config, limits, tx).await.unwrap(), rx)
}

fn short_limits() -> Limits {
    Limits {
        header_timeout: SHORT,
        body_timeout: SHORT,
        ..Limits::default()
    }
}

async fn post(url: &str, body: &[u8]) -> u16 {
    let ts = now();
    common::raw_http()
        .post(url)
        .header("X-Service-Timestamp", ts.to_string())
        .header("X-Service-Signature", sign(&secret(), ts, body))
        .header("Content-Type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn created(id: &str, message: &str, app_id: &str) -> Vec<u8> {
    format!(
        r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":{app_id},"appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"{message}","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#
    )
    .into_bytes()
}

fn jsonl(dir: &Path) -> Vec<serde_json::Value> {
    let lines = read_lines(&std::fs::read(dir.join("events.jsonl")).unwrap());
    assert!(lines.torn.is_empty(), "torn lines {:?}", lines.torn);
    lines.records
}

#[tokio::test]
async fn a_signed_delivery_with_a_lone_surrogate_is_kept_with_a_replacement_character() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), Limits::default()).await;
    let body = created("fb_half", r"half an emoji \ud83d here", r#""app_1""#);
    assert_eq!(post(&handle.url(), &body).await, 204);
    let Some(Notice::Accepted { event, .. }) = notices.recv().await else {
        panic!("not accepted")
    };
    let Event::FeedbackCreated(submission) = *event else {
        panic!("not a creation")
    };
    assert_eq!(submission.message, "half an emoji \u{FFFD} here");
    let lines = jsonl(dir.path());
    assert_eq!(
        lines[0]["feedback"]["message"],
        "half an emoji \u{FFFD} here"
    );
}

#[tokio::test]
async fn a_signed_body_of_the_wrong_shape_is_acknowledged_kept_raw_and_recorded_once() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), Limits::default()).await;
    let null_app = created("fb_null", "hi", "null");
    let missing = br#"{"event":"feedback.created","feedback":{"id":"fb_missing"}}"#.to_vec();
    let not_json = b"SECRET-BODY not json \\ud800".to_vec();
    let not_utf8 = b"{\"event\":\"feedback.created\",\"x\":\"\xff\xfe\"".to_vec();
    let bodies = [&null_app, &missing, &not_json, &not_utf8];
    for body in bodies {
        assert_eq!(post(&handle.url(), body).await, 204);
        let Some(Notice::Unparsed { key, reason }) = notices.recv().await else {
            panic!("not reported as kept raw")
        };
        assert!(key.starts_with("unparsed sha256:"), "{key}");
        assert!(!reason.contains("SECRET") && !reason.is_empty(), "{reason}");
    }
    // The service delivers again (a new timestamp and signature, the same body).
    assert_eq!(post(&handle.url(), &not_json).await, 204);
    assert!(matches!(notices.recv().await, Some(Notice::Duplicate(_))));
    let lines = jsonl(dir.path());
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (line, body) in lines.iter().zip(bodies) {
        assert_eq!(line["unparsed"], true);
        assert!(line["reason"].is_string() && line["received_at"].is_string());
        let kept = match line["body"].as_str() {
            Some(text) => text.as_bytes().to_vec(),
            None => base64::engine::general_purpose::STANDARD
                .decode(line["body_base64"].as_str().unwrap())
                .unwrap(),
        };
        assert_eq!(&kept, body, "the original bytes are kept");
    }
    assert!(lines[3]["body"].is_null(), "not UTF-8: base64");
    handle.shutdown().await;
}

#[tokio::test]
async fn nothing_is_acknowledged_when_the_jsonl_cannot_be_written() {
    let Ok(full) = std::fs::OpenOptions::new().append(true).open("/dev/full") else {
        return; // No /dev/full here; the injected-writer tests cover the logic.
    };
    drop(full);
    let dir = tempfile::tempdir().unwrap();
    let (tx, mut notices) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: secret(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::open(&dir.path().join("seen.txt")).unwrap(),
        store: None,
        jsonl: Some(Jsonl::File("/dev/full".into())),
        clock: ManualClock::new(common::ANCHOR.parse().unwrap()),
    };
    let handle = receiver::start(config, tx).await.unwrap();
    let body = created("fb_full", "disk full", r#""app_1""#);
    for _ in 0..2 {
        assert_eq!(post(&handle.url(), &body).await, 500, "retried, not lost");
        let Some(Notice::Rejected { status, reason }) = notices.recv().await else {
            panic!()
        };
        assert_eq!(status, 500);
        assert!(reason.contains("/dev/full"), "{reason}");
    }
    handle.shutdown().await;
    assert!(Seen::open(&dir.path().join("seen.txt")).unwrap().is_empty());
}

#[tokio::test]
async fn records_escape_c1_bidi_and_invisible_characters() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), Limits::default()).await;
    let body = created(
        "fb_\u{202e}gnp\u{200b}",
        "a\u{9b}31m\u{2066}b",
        r#""app_1""#,
    );
    assert_eq!(post(&handle.url(), &body).await, 204);
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    handle.shutdown().await;
    for file in ["events.jsonl", "seen.txt"] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(
            !text.contains(['\u{202e}', '\u{200b}', '\u{9b}', '\u{2066}']),
            "{file}: {text:?}"
        );
        assert!(
            text.contains("\\u202e") && text.contains("\\u200b"),
            "{file}: {text}"
        );
    }
    assert_eq!(
        jsonl(dir.path())[0]["feedback"]["message"],
        "a\u{9b}31m\u{2066}b",
        "the escapes mean the same text"
    );
    let seen = Seen::open(&dir.path().join("seen.txt")).unwrap();
    assert!(seen.contains("fb_\u{202e}gnp\u{200b}"));
}

/// `n` connections that send nothing; each must be connected within `PATIENCE`.
async fn idle_sockets(handle: &ReceiverHandle, n: usize) -> Vec<TcpStream> {
    let mut idle = Vec::new();
    for i in 0..n {
        let connect = TcpStream::connect(handle.addr());
        match tokio::time::timeout(PATIENCE, connect).await {
            Ok(Ok(stream)) => idle.push(stream),
            _ => panic!("idle socket {i} could not connect: the backlog is full"),
        }
    }
    idle
}

/// True when the server closes `stream` (end of file or reset) within `PATIENCE`.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 512];
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test]
async fn idle_connections_are_timed_out_and_do_not_starve_a_delivery() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), short_limits()).await;
    let mut idle = idle_sockets(&handle, 300).await;
    let body = created("fb_through", "still delivered", r#""app_1""#);
    let status = tokio::time::timeout(PATIENCE, post(&handle.url(), &body)).await;
    assert_eq!(status.ok(), Some(204), "the delivery got through");
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    for stream in &mut idle {
        assert!(closed_by_server(stream).await, "an idle socket stays open");
    }
}

#[tokio::test]
async fn open_connections_are_bounded_by_closing_the_oldest_idle_one() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        header_timeout: Duration::from_secs(600),
        ..Limits::default()
    };
    let (handle, mut notices) = receiver(dir.path(), limits).await;
    let mut idle = idle_sockets(&handle, 300).await;
    let started = Instant::now();
    let body = created("fb_bounded", "no waiting", r#""app_1""#);
    let status = tokio::time::timeout(PATIENCE, post(&handle.url(), &body)).await;
    assert_eq!(status.ok(), Some(204), "the delivery got through");
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    assert!(started.elapsed() < PATIENCE, "{:?}", started.elapsed());
    // No timeout applies yet: only the bound of 128 can have closed the oldest 172.
    for (n, stream) in idle[..300 - limits.max_connections].iter_mut().enumerate() {
        assert!(
            closed_by_server(stream).await,
            "idle socket {n} is still open"
        );
    }
}

#[tokio::test]
async fn when_every_connection_is_serving_a_request_a_newcomer_waits_for_one_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        max_connections: 2,
        body_timeout: Duration::from_secs(600),
        ..Limits::default()
    };
    let (handle, _notices) = receiver(dir.path(), limits).await;
    let mut busy = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(handle.addr()).await.unwrap();
        let head =
            "POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
        stream.write_all(head.as_bytes()).await.unwrap();
        // "100 Continue" comes once the handler reads the body: the request is being served.
        let mut answer = vec![0u8; 12];
        stream.read_exact(&mut answer).await.unwrap();
        assert_eq!(&answer, b"HTTP/1.1 100");
        busy.push(stream);
    }
    let body = created("fb_patient", "waits its turn", r#""app_1""#);
    let url = handle.url();
    let delivery = tokio::spawn(async move { post(&url, &body).await });
    tokio::time::sleep(SHORT).await;
    assert!(!delivery.is_finished(), "a third connection was served");
    busy[0].write_all(b"{}").await.unwrap();
    let status = tokio::time::timeout(PATIENCE, delivery)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status, 204);
}

#[tokio::test]
async fn a_slow_loris_is_closed_after_the_header_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, _notices) = receiver(dir.path(), short_limits()).await;
    let mut stream = TcpStream::connect(handle.addr()).await.unwrap();
    let head = b"POST / HTTP/1.1\r\nHost: x\r\nX-Padding: ";
    let started = Instant::now();
    let mut closed = false;
    for byte in head.iter().chain(std::iter::repeat(&b'a')) {
        if stream.write_all(&[*byte]).await.is_err() {
            closed = true;
            break;
        }
        let mut buf = [0u8; 64];
        if let Ok(Ok(0) | Err(_)) =
            tokio::time::timeout(Duration::from_millis(50), stream.read(&mut buf)).await
        {
            closed = true;
            break;
        }
        if started.elapsed() > PATIENCE {
            break;
        }
    }
    assert!(closed, "still open after {:?}", started.elapsed());
}

#[tokio::test]
async fn a_declared_body_over_the_cap_gets_413_before_it_is_sent() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), Limits::default()).await;
    let mut stream = TcpStream::connect(handle.addr()).await.unwrap();
    let head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 12];
    tokio::time::timeout(PATIENCE, stream.read_exact(&mut answer))
        .await
        .expect("answered without waiting for the body")
        .unwrap();
    assert_eq!(&answer, b"HTTP/1.1 413");
    let Some(Notice::Rejected { status, .. }) = notices.recv().await else {
        panic!()
    };
    assert_eq!(status, 413);
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_gets_408() {
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver(dir.path(), short_limits()).await;
    let mut stream = TcpStream::connect(handle.addr()).await.unwrap();
    let head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"event\"";
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut answer = vec![0u8; 12];
    tokio::time::timeout(PATIENCE, stream.read_exact(&mut answer))
        .await
        .expect("answered within the body timeout")
        .unwrap();
    assert_eq!(&answer, b"HTTP/1.1 408");
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Rejected { status: 408, .. })
    ));
    assert!(closed_by_server(&mut stream).await);
}
