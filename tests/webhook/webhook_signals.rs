//! `webhook listen` stops on SIGTERM or SIGINT (exit status 128 + its number) even when its
//! stdout is a pipe nobody reads, and a delivery it cannot record in time (stdout full) is
//! answered 500, not left hanging.
#![cfg(unix)]
#![allow(clippy::unwrap_used)]

use crate::webhook_support;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use feedback_api::webhook::{Secret, sign};
use webhook_support::{BIN, LISTEN, SECRET, in_clean_env, lines, next};

/// Long enough for anything that should happen at once, even on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// `webhook listen` (with `extra` arguments) with a stdout nobody reads: the child (its stdout
/// kept open, never read), its stderr lines and its address.
fn listen_unread(home: &Path, extra: &[&str]) -> (Child, mpsc::Receiver<String>, String) {
    let mut child = in_clean_env(Command::new(BIN), home)
        .args(LISTEN)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = lines(child.stderr.take().unwrap());
    let banner = next(&err, "the listen banner");
    let addr = banner
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    (child, err, addr)
}

/// POSTs a delivery of `id` with long fields; the status, `None` without an answer.
fn post(addr: &str, id: &str) -> Option<u16> {
    let long = "x".repeat(100);
    let body = format!(
        r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"{long}","projectId":"prj_1","projectName":"{long}","message":"{long}","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#
    );
    let ts = jiff::Timestamp::now().as_second();
    let sig = sign(
        &Secret::new(SECRET.as_bytes()).unwrap(),
        ts,
        body.as_bytes(),
    );
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Service-Timestamp: {ts}\r\nX-Service-Signature: {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

/// Sends `signal` and waits (at most [`PATIENCE`]) for the exit status; kills the child and
/// fails when it does not end.
fn stop_with(mut child: Child, signal: &str) -> Option<i32> {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args([signal, &pid])
            .status()
            .unwrap()
            .success()
    );
    let (tx, rx) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait().unwrap();
        let _ = tx.send(status.code());
    });
    match rx.recv_timeout(PATIENCE) {
        Ok(code) => {
            waiter.join().unwrap();
            code
        }
        Err(_) => {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("listen did not stop on {signal}");
        }
    }
}

#[test]
fn with_stdout_as_the_record_unread_a_delivery_is_answered_500_and_sigterm_ends_it_with_143() {
    let home = tempfile::tempdir().unwrap();
    let (child, _err, addr) = listen_unread(home.path(), &[]);
    // Each record line is about 500 bytes: a pipe's 64 KiB fill within a few hundred.
    let statuses: Vec<Option<u16>> = (0..400)
        .map(|i| post(&addr, &format!("fb_{i}")))
        .take_while(|status| *status == Some(204))
        .collect();
    let stuck = post(&addr, "fb_stuck");
    let code = stop_with(child, "-TERM");
    assert_eq!(
        stuck,
        Some(500),
        "after {} deliveries: not recorded in time",
        statuses.len()
    );
    assert_eq!(code, Some(143));
}

#[test]
fn with_summaries_to_an_unread_stdout_sigint_ends_it_with_130() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    let (child, _err, addr) = listen_unread(home.path(), &["--jsonl", jsonl.to_str().unwrap()]);
    // Summaries of about 300 bytes: more than a pipe holds.
    for i in 0..400 {
        assert_eq!(post(&addr, &format!("fb_{i}")), Some(204), "delivery {i}");
    }
    assert_eq!(stop_with(child, "-INT"), Some(130));
    let recorded = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(recorded.lines().count(), 400, "every delivery in the JSONL");
}
