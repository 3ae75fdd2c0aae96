//! A delivery whose record cannot be written in time (the records stuck on a write, such as a
//! stdout nobody reads) is answered 500, and so is each one behind it, instead of hanging;
//! once the write ends, it is reported and its retry acknowledged as a duplicate.

use std::io;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tokio::sync::mpsc::unbounded_channel;

use super::journal::Sink;
use super::journal_tests::{NOW, post};
use super::receiver::{self, Notice, ReceiverConfig};
use super::seen::Seen;
use super::serve::Limits;
use feedback_api::webhook::verify::{DEFAULT_TOLERANCE, Secret};

/// A disk whose writes wait until it is released, as a pipe nobody reads does.
#[derive(Debug, Clone, Default)]
struct Stuck(Arc<(Mutex<bool>, Condvar)>);

impl Stuck {
    fn release(&self) {
        let (released, wake) = &*self.0;
        *released.lock().unwrap() = true;
        wake.notify_all();
    }
}

impl Sink for Stuck {
    fn append(&mut self, _bytes: &[u8]) -> io::Result<()> {
        let (released, wake) = &*self.0;
        let mut released = released.lock().unwrap();
        while !*released {
            released = wake.wait(released).unwrap();
        }
        Ok(())
    }

    fn sync(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn event(id: &str) -> Vec<u8> {
    format!(r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"A","projectId":"prj_1","projectName":"P","message":"m","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#).into_bytes()
}

/// The answer to a delivery, or `None` when there is none within far more than the record
/// timeout (the delivery hangs).
async fn answer(addr: std::net::SocketAddr, body: &[u8]) -> Option<u16> {
    tokio::time::timeout(Duration::from_secs(20), post(addr, body))
        .await
        .ok()
}

#[tokio::test]
async fn a_delivery_that_cannot_be_recorded_in_time_is_answered_500_and_reported_once_written() {
    let stuck = Stuck::default();
    let (tx, mut notices) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: Secret::new(b"whsec_disk").unwrap(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::with_sink(Box::new(stuck.clone())),
        store: None,
        jsonl: None,
        clock: feedback_core::clock::ManualClock::new(jiff::Timestamp::from_second(NOW).unwrap()),
    };
    let limits = Limits {
        record_timeout: Duration::from_millis(200),
        ..Limits::default()
    };
    let handle = receiver::start_with(config, limits, tx).await.unwrap();
    let addr = handle.addr();

    assert_eq!(answer(addr, &event("fb_1")).await, Some(500), "stuck write");
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Rejected { status: 500, .. })
    ));
    assert_eq!(answer(addr, &event("fb_2")).await, Some(500), "behind it");
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Rejected { status: 500, .. })
    ));

    stuck.release();
    match notices.recv().await {
        Some(Notice::Accepted { event, .. }) => {
            assert_eq!(event.idempotency_key().as_deref(), Some("fb_1"));
        }
        other => panic!("the late write is not reported: {other:?}"),
    }
    assert_eq!(answer(addr, &event("fb_1")).await, Some(204));
    assert_eq!(notices.recv().await, Some(Notice::Duplicate("fb_1".into())));
    assert_eq!(answer(addr, &event("fb_2")).await, Some(204));
    assert!(matches!(
        notices.recv().await,
        Some(Notice::Accepted { .. })
    ));
    handle.shutdown().await;
}
