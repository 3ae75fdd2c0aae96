//! The webhook receiver, the simulator's sender with its retry schedule, and new submissions,
//! over real loopback HTTP. Sender and receiver share a manual clock, so the two-hour schedule
//! runs at once and its waits can be asserted exactly.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use feedback_api::webhook::{
    DEFAULT_TOLERANCE, Delivery, Event, MAX_BODY, Secret, Submission, sign, verify,
};
use feedback_core::clock::{ManualClock, SharedClock};
use feedback_sim::submit::Submitter;
use feedback_sim::webhooks::{AttemptResult, Plan, Sender, WebhookTarget};
use feedback_webhook::receiver::{self, Jsonl, Notice, ReceiverConfig, ReceiverHandle};
use feedback_webhook::seen::Seen;
use jiff::Timestamp;
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

const SECRET: &str = "whsec_integration_secret";

fn secret() -> Secret {
    Secret::new(SECRET.as_bytes()).unwrap()
}

fn clock() -> Arc<ManualClock> {
    ManualClock::new(common::ANCHOR.parse().unwrap())
}

async fn receiver_at(
    dir: &Path,
    clock: SharedClock,
) -> (ReceiverHandle, UnboundedReceiver<Notice>) {
    let (tx, rx) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: secret(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::open(&dir.join("seen.txt")).unwrap(),
        store: None,
        jsonl: Some(Jsonl::File(dir.join("events.jsonl"))),
        clock,
    };
    (receiver::start(config, tx).await.unwrap(), rx)
}

fn submission(id: &str) -> Submission {
    let body = format!(
        r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"Crash on start","email":"a@example.com","metadata":{{"builtin":{{"appVersion":"2.4.1"}},"custom":{{"plan":"pro"}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#
    );
    match Event::parse(body.as_bytes()).unwrap() {
        Event::FeedbackCreated(s) => s,
        other @ Event::Other { .. } => panic!("{other:?}"),
    }
}

async fn post_raw(url: &str, headers: &[(&str, String)], body: Vec<u8>) -> u16 {
    let mut request = common::raw_http().post(url).body(body);
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    request.send().await.unwrap().status().as_u16()
}

type Headers = Vec<(&'static str, String)>;

fn signed_headers(ts: i64, body: &[u8]) -> Headers {
    vec![
        ("X-Service-Event", "feedback.created".to_owned()),
        ("X-Service-Timestamp", ts.to_string()),
        ("X-Service-Signature", sign(&secret(), ts, body)),
        ("Content-Type", "application/json".to_owned()),
    ]
}

fn jsonl_lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn duplicates_are_acknowledged_but_recorded_once_even_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let now = clock.now_seconds();
    let body = submission("fb_dup1").to_body();
    let (handle, mut notices) = receiver_at(dir.path(), clock.clone()).await;
    let url = handle.url();
    assert_eq!(
        post_raw(&url, &signed_headers(now, &body), body.clone()).await,
        204
    );
    assert!(
        matches!(notices.recv().await, Some(Notice::Accepted { event: e, .. }) if e.feedback_id() == Some("fb_dup1"))
    );
    let webhook_path = format!("{url}webhook");
    assert_eq!(
        post_raw(&webhook_path, &signed_headers(now + 5, &body), body.clone()).await,
        204
    );
    assert_eq!(
        notices.recv().await,
        Some(Notice::Duplicate("fb_dup1".into()))
    );
    handle.shutdown().await;

    let (handle, mut notices) = receiver_at(dir.path(), clock.clone()).await;
    assert_eq!(
        post_raw(&handle.url(), &signed_headers(now, &body), body.clone()).await,
        204
    );
    assert_eq!(
        notices.recv().await,
        Some(Notice::Duplicate("fb_dup1".into()))
    );
    let other = submission("fb_new2").to_body();
    assert_eq!(
        post_raw(&handle.url(), &signed_headers(now, &other), other).await,
        204
    );
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    let lines = jsonl_lines(dir.path());
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["feedback"]["id"], "fb_dup1");
    assert_eq!(
        lines[0]["feedback"]["metadata"]["builtin"]["appVersion"],
        "2.4.1"
    );
    assert_eq!(lines[1]["feedback"]["id"], "fb_new2");
}

#[tokio::test]
async fn bad_deliveries_get_401_413_or_405_and_record_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let clock = clock();
    let now = clock.now_seconds();
    let (handle, mut notices) = receiver_at(dir.path(), clock.clone()).await;
    let url = handle.url();
    let body = submission("fb_bad").to_body();
    let mut tampered = body.clone();
    tampered[40] ^= 1;
    let without = |name: &str| {
        signed_headers(now, &body)
            .into_iter()
            .filter(|(n, _)| *n != name)
            .collect::<Vec<_>>()
    };
    let cases: Vec<(Headers, Vec<u8>, u16)> = vec![
        (signed_headers(now, &body), tampered, 401),
        (without("X-Service-Signature"), body.clone(), 401),
        (without("X-Service-Timestamp"), body.clone(), 401),
        (signed_headers(now - 301, &body), body.clone(), 401),
        (signed_headers(now + 301, &body), body.clone(), 401),
        (
            signed_headers(now, &[b' '; MAX_BODY + 1]),
            vec![b' '; MAX_BODY + 1],
            413,
        ),
    ];
    for (headers, body, expected) in cases {
        assert_eq!(post_raw(&url, &headers, body).await, expected);
        let Some(Notice::Rejected { status, reason }) = notices.recv().await else {
            panic!()
        };
        assert_eq!(status, expected);
        assert!(
            !reason.contains("SECRET") && !reason.contains(SECRET),
            "{reason}"
        );
    }
    let get = common::raw_http().get(&url).send().await.unwrap();
    assert_eq!(get.status().as_u16(), 405);
    let put = common::raw_http()
        .put(format!("{url}webhook"))
        .send()
        .await
        .unwrap();
    assert_eq!(put.status().as_u16(), 405);
    assert!(jsonl_lines(dir.path()).is_empty());
    assert!(Seen::open(&dir.path().join("seen.txt")).unwrap().is_empty());
}

type Request = (HeaderMap, Vec<u8>);

/// A receiver that answers from a script of statuses (then 204), recording what it got.
#[derive(Clone, Default)]
struct Scripted {
    statuses: Arc<Mutex<Vec<u16>>>,
    got: Arc<Mutex<Vec<Request>>>,
}

async fn answer(
    State(s): State<Scripted>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> StatusCode {
    s.got.lock().unwrap().push((headers, body.to_vec()));
    let next = s.statuses.lock().unwrap().pop().unwrap_or(204);
    StatusCode::from_u16(next).unwrap()
}

async fn scripted(statuses: &[u16]) -> (String, Scripted) {
    let script = Scripted {
        statuses: Arc::new(Mutex::new(statuses.iter().rev().copied().collect())),
        ..Scripted::default()
    };
    let app = Router::new()
        .route("/hook", post(answer))
        .with_state(script.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, script)
}

fn sender(url: &str, plan: Plan, scale: f64, duplicates: bool, clock: &Arc<ManualClock>) -> Sender {
    let target = WebhookTarget {
        url: url.to_owned(),
        secret: secret(),
        plan,
        time_scale: scale,
        duplicates,
        timeout: Duration::from_secs(5),
    };
    Sender::new(target, clock.clone()).unwrap()
}

const MIN: u64 = 60;

#[tokio::test]
async fn failures_are_retried_on_the_indie_schedule_until_acknowledged() {
    let clock = clock();
    let (url, script) = scripted(&[503, 408, 429, 500]).await;
    let outcome = sender(&url, Plan::Indie, 1.0, false, &clock)
        .deliver(&submission("fb_retry"))
        .await;
    assert!(outcome.acknowledged);
    let statuses: Vec<_> = outcome.attempts.iter().map(|a| a.result.clone()).collect();
    assert_eq!(
        statuses,
        [503, 408, 429, 500, 204]
            .map(AttemptResult::Status)
            .to_vec()
    );
    let secs: Vec<u64> = clock.sleeps().iter().map(Duration::as_secs).collect();
    assert_eq!(secs, [MIN, 5 * MIN, 30 * MIN, 120 * MIN]);
    // Each attempt is signed at its own time, and every one verifies at that time.
    let got = script.got.lock().unwrap().clone();
    assert_eq!(got.len(), 5);
    for ((headers, body), attempt) in got.iter().zip(&outcome.attempts) {
        let ts = headers["x-service-timestamp"].to_str().unwrap();
        assert_eq!(ts, attempt.at.as_second().to_string());
        assert_eq!(headers["x-service-event"], "feedback.created");
        assert_eq!(headers["content-type"], "application/json");
        let delivery = Delivery {
            timestamp: Some(ts),
            signature: Some(headers["x-service-signature"].to_str().unwrap()),
            body,
        };
        assert!(verify(&secret(), delivery, attempt.at, DEFAULT_TOLERANCE).is_ok());
    }
}

#[tokio::test]
async fn five_failures_give_up_and_the_time_scale_shrinks_the_waits() {
    let clock = clock();
    let (url, script) = scripted(&[502; 9]).await;
    let outcome = sender(&url, Plan::Indie, 0.001, false, &clock)
        .deliver(&submission("fb_down"))
        .await;
    assert!(!outcome.acknowledged);
    assert_eq!(outcome.attempts.len(), 5);
    assert_eq!(script.got.lock().unwrap().len(), 5);
    let millis: Vec<u128> = clock.sleeps().iter().map(Duration::as_millis).collect();
    assert_eq!(millis, [60, 300, 1800, 7200]);
}

#[tokio::test]
async fn other_4xx_is_permanent_and_starter_delivers_once() {
    let clock = clock();
    let (url, script) = scripted(&[400]).await;
    let outcome = sender(&url, Plan::Indie, 1.0, false, &clock)
        .deliver(&submission("fb_400"))
        .await;
    assert!(!outcome.acknowledged);
    assert_eq!(outcome.attempts.len(), 1);
    assert_eq!(script.got.lock().unwrap().len(), 1);
    let (url, script) = scripted(&[503]).await;
    let outcome = sender(&url, Plan::Starter, 1.0, false, &clock)
        .deliver(&submission("fb_starter"))
        .await;
    assert_eq!(outcome.attempts.len(), 1);
    assert_eq!(script.got.lock().unwrap().len(), 1);
    assert!(clock.sleeps().is_empty(), "{:?}", clock.sleeps());
}

#[tokio::test]
async fn network_errors_are_retried() {
    let clock = clock();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    let outcome = sender(&url, Plan::Indie, 1.0, false, &clock)
        .deliver(&submission("fb_net"))
        .await;
    assert_eq!(outcome.attempts.len(), 5);
    assert!(
        outcome
            .attempts
            .iter()
            .all(|a| matches!(a.result, AttemptResult::Network(_)))
    );
}

#[tokio::test]
async fn submissions_appear_in_the_list_api_and_reach_the_receiver_once_despite_duplicates() {
    let r = common::rig(50, 10_000).await;
    let dir = tempfile::tempdir().unwrap();
    let (handle, mut notices) = receiver_at(dir.path(), r.clock.clone()).await;
    let sender = sender(&handle.url(), Plan::Indie, 1.0, true, &r.clock);
    let mut submitter = Submitter::new(Arc::clone(r.sim.state()), 3, Some(sender));
    let (tx, mut outcomes) = unbounded_channel();
    let item = submitter.submit_and_deliver(Some(&tx));
    let (submission, outcome) = outcomes.recv().await.unwrap();
    assert_eq!(submission.id, item.feedback.id);
    assert!(outcome.acknowledged);
    assert_eq!(outcome.attempts.len(), 2, "the duplicate is sent too");
    let Some(Notice::Accepted { event, .. }) = notices.recv().await else {
        panic!()
    };
    assert_eq!(event.feedback_id(), Some(item.feedback.id.as_str()));
    assert_eq!(
        notices.recv().await,
        Some(Notice::Duplicate(item.feedback.id.0.clone()))
    );
    assert_eq!(jsonl_lines(dir.path()).len(), 1);
    let page = r
        .client
        .list_feedback(&feedback_api::FeedbackQuery::default())
        .await
        .unwrap();
    assert_eq!(
        page.data[0].id, item.feedback.id,
        "the newest item is the new submission"
    );
    assert_eq!(
        page.data[0].received_at,
        Timestamp::from_second(r.clock.now_seconds()).unwrap()
    );
    let detail = r
        .client
        .get_feedback(item.feedback.id.as_str())
        .await
        .unwrap();
    assert_eq!(detail.metadata, submission.rest_metadata());
}

trait NowSeconds {
    fn now_seconds(&self) -> i64;
}

impl NowSeconds for ManualClock {
    fn now_seconds(&self) -> i64 {
        feedback_core::clock::Clock::now(self).as_second()
    }
}
