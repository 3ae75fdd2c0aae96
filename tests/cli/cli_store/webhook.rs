//! `webhook listen` writes accepted deliveries into the store (or not, with `--no-store`); the
//! store it creates is private; `retention_days` applies when it opens the store.

use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use feedback_api::Status;
use feedback_api::webhook::{Secret, sign};
use feedback_store::Store;
use jiff::Timestamp;

use super::webhook_support::{self, LISTEN, SECRET, bin, listening, next, terminate, text};
use super::{PATIENCE, default_store, item, json, run};

/// POSTs `body`, signed now; the status.
fn post(url: &str, body: &[u8]) -> u16 {
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let ts = Timestamp::now().as_second();
    let sig = sign(&Secret::new(SECRET.as_bytes()).unwrap(), ts, body);
    let mut stream =
        std::net::TcpStream::connect_timeout(&addr.parse().unwrap(), PATIENCE).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Service-Timestamp: {ts}\r\nX-Service-Signature: {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn delivery(id: &str) -> Vec<u8> {
    format!(r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"export crashes","email":"a@example.com","metadata":{{"builtin":{{"appVersion":"2.1"}},"custom":{{"plan":"pro"}}}},"receivedAt":"{}"}}}}"#, Timestamp::now()).into_bytes()
}

/// Waits until `check` holds (the store is written after the delivery is reported).
fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn listen(home: &Path, extra: &[&str]) -> (webhook_support::Running, String) {
    let mut command: Command = bin(home);
    command
        .args(LISTEN)
        .arg("--jsonl")
        .arg(home.join("events.jsonl"))
        .args(extra);
    listening(command)
}

#[test]
fn webhook_listen_stores_accepted_deliveries_with_their_metadata_once() {
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    let (mut running, url) = listen(home.path(), &[]);
    assert_eq!(post(&url, &delivery("fb_hook")), 204);
    assert!(next(&running.out, "the accepted line").contains("fb_hook"));
    assert_eq!(post(&url, &delivery("fb_hook")), 204);
    eventually("the delivery in the store", || {
        Store::open(&path)
            .unwrap()
            .item("fb_hook")
            .unwrap()
            .is_some()
    });
    assert_eq!(
        terminate(&mut running.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    let store = Store::open(&path).unwrap();
    let detail = store.detail("fb_hook").unwrap().unwrap();
    assert_eq!(detail.item.feedback.message, "export crashes");
    assert_eq!(detail.metadata.built_in["appVersion"], "2.1");
    assert_eq!(detail.metadata.custom["plan"], "pro");
    assert_eq!(store.info().unwrap().by_status["new"], 1);
}

#[test]
fn webhook_listen_with_no_store_creates_no_store() {
    let home = tempfile::tempdir().unwrap();
    let (mut running, url) = listen(home.path(), &["--no-store"]);
    assert_eq!(post(&url, &delivery("fb_mem")), 204);
    assert!(next(&running.out, "the accepted line").contains("fb_mem"));
    assert_eq!(
        terminate(&mut running.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    assert!(!default_store(home.path()).exists());
}

#[test]
fn a_store_is_created_0600_in_a_0700_folder_and_retention_days_drops_old_items() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let (mut running, url) = listen(home.path(), &[]);
    assert_eq!(post(&url, &delivery("fb_new")), 204);
    eventually("the delivery in the store", || {
        path.exists()
            && Store::open(&path)
                .unwrap()
                .item("fb_new")
                .unwrap()
                .is_some()
    });
    assert_eq!(
        terminate(&mut running.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);

    // Opened again with a retention of 30 days: the item of 2020 goes, today's stays.
    Store::open(&path)
        .unwrap()
        .put_items(
            &[item("fb_old", "2020-01-01T00:00:00Z", Status::New)],
            Timestamp::now(),
        )
        .unwrap();
    let config = home.path().join("config/feedback-inbox/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "retention_days = 30\n").unwrap();
    let (mut running, _) = listen(home.path(), &[]);
    assert_eq!(
        terminate(&mut running.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    let store = Store::open(&path).unwrap();
    assert!(store.item("fb_old").unwrap().is_none());
    assert!(store.item("fb_new").unwrap().is_some());
    let report = json(&run(home.path(), &["store", "info", "--format", "json"]));
    assert_eq!(report["retention_days"], 30);

    std::fs::write(&config, "retention_days = 0\n").unwrap();
    let out = run(home.path(), &["store", "info"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("retention_days = 0"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_delivery_of_another_account_is_journaled_but_not_stored() {
    let home = tempfile::tempdir().unwrap();
    let path = default_store(home.path());
    let other = feedback_api::Project {
        id: "prj_of_another_account".into(),
        name: "Other".into(),
        slug: None,
        created_at: None,
    };
    Store::open(&path).unwrap().check_account(&[other]).unwrap();
    let (mut running, url) = listen(home.path(), &[]);
    assert_eq!(post(&url, &delivery("fb_foreign")), 204);
    assert!(next(&running.out, "the accepted line").contains("fb_foreign"));
    let said = next(&running.err, "the not-stored line");
    assert!(
        said.starts_with("fb_foreign is in the journal but not stored: its project is not among"),
        "{said}"
    );
    assert_eq!(
        terminate(&mut running.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    assert!(
        Store::open(&path)
            .unwrap()
            .item("fb_foreign")
            .unwrap()
            .is_none()
    );
    let journal = std::fs::read_to_string(home.path().join("events.jsonl")).unwrap();
    assert!(journal.contains("fb_foreign"));
}
