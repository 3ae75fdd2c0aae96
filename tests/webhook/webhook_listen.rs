//! `webhook listen` keeps what it acknowledged: kill -9 in the middle of a burst of deliveries
//! loses no acknowledged id and leaves no line a reader cannot skip, a restart continues on a
//! fresh line, and an unwritable `--jsonl` is reported as that.
#![allow(clippy::unwrap_used)]

use crate::webhook_support;

use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;

use webhook_support::{
    BIN, LISTEN, PATIENCE, bin, delivery, in_clean_env, lines, listening, next, post, start_listen,
    terminate, text,
};

#[test]
fn an_unwritable_jsonl_is_reported_as_such_not_as_an_address_problem() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("no-such-folder").join("events.jsonl");
    let out = bin(home.path())
        .args(["webhook", "listen", "--addr", "127.0.0.1:0"])
        .args(["--secret-env", "HOOK_SECRET", "--jsonl"])
        .arg(&jsonl)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("cannot write {}", jsonl.display())),
        "{err}"
    );
    assert!(!err.contains("cannot listen"), "{err}");
}

/// Ids of the readable lines of the JSONL, and the numbers of the torn ones.
fn recorded(jsonl: &Path) -> (Vec<String>, Vec<usize>) {
    let lines =
        feedback_webhook::journal::read_lines::<serde_json::Value>(&std::fs::read(jsonl).unwrap());
    let ids = lines
        .records
        .iter()
        .filter_map(|r| r["feedback"]["id"].as_str().map(str::to_owned))
        .collect();
    (ids, lines.torn)
}

/// Four senders deliver distinct ids until told to stop; each acknowledged id is sent back.
fn burst(addr: &str, acked: &mpsc::Sender<String>) -> Vec<std::thread::JoinHandle<()>> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    (0..4)
        .map(|sender| {
            let (addr, acked, stop) = (addr.to_owned(), acked.clone(), stop.clone());
            std::thread::spawn(move || {
                for n in 0.. {
                    let id = format!("fb_burst_{sender}_{n}");
                    match post(&addr, &delivery(&id)) {
                        Some(204) => {
                            if acked.send(id).is_err() {
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        }
                        Some(_) => {}
                        None => break,
                    }
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                }
            })
        })
        .collect()
}

#[test]
fn kill_9_mid_burst_loses_no_acknowledged_delivery_and_tears_no_readable_line() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    // An earlier run was killed in the middle of a line.
    std::fs::write(
        &jsonl,
        br#"{"event":"feedback.created","feedback":{"id":"fb_tor"#,
    )
    .unwrap();
    let (mut listen, url) = start_listen(home.path(), &jsonl);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let (tx, acks) = mpsc::channel();
    let senders = burst(&addr, &tx);
    drop(tx);
    let mut acked: Vec<String> = (0..40).map(|_| next(&acks, "an acknowledgement")).collect();
    listen.child.kill().unwrap(); // SIGKILL
    listen.child.wait().unwrap();
    for sender in senders {
        sender.join().unwrap();
    }
    acked.extend(acks.try_iter());
    let (ids, torn) = recorded(&jsonl);
    for id in &acked {
        assert!(
            ids.contains(id),
            "{id} was acknowledged but is not in the JSONL"
        );
    }
    assert_eq!(torn.first(), Some(&1), "the old torn line stays skipped");
    assert!(
        torn.len() <= 2,
        "at most the line being written at the kill: {torn:?}"
    );

    // A restart appends on a fresh line; an acknowledged id delivered again is a duplicate (the
    // store kept its id, in the transaction that stored its item); a signed body that is not an
    // event is kept raw and reported.
    let (mut listen, url) = start_listen(home.path(), &jsonl);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(post(&addr, &delivery("fb_after")), Some(204));
    assert_eq!(post(&addr, &delivery(&acked[0])), Some(204));
    assert_eq!(post(&addr, b"not json at all"), Some(204));
    assert!(next(&listen.out, "the new delivery").contains("fb_after"));
    let mut duplicate = next(&listen.err, "the duplicate notice");
    // Lines journaled but not acknowledged (the kill came before their store write) are
    // stored first.
    if duplicate.starts_with("stored ")
        && duplicate.ends_with(" journaled item(s) the store lacked")
    {
        duplicate = next(&listen.err, "the duplicate notice");
    }
    assert!(duplicate.contains(&acked[0]), "{duplicate}");
    let raw = next(&listen.err, "the unparsed notice");
    assert!(
        raw.contains("kept raw in the JSONL, marked unparsed"),
        "{raw}"
    );
    assert_eq!(
        terminate(&mut listen.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
    let (after, torn_after) = recorded(&jsonl);
    assert_eq!(after.last().map(String::as_str), Some("fb_after"));
    assert_eq!(torn_after, torn, "no new torn line");
    assert_eq!(after.iter().filter(|id| **id == acked[0]).count(), 1);
    // Every acknowledged item is in the store, those the kill kept out of it included.
    let store = feedback_store::Store::open(
        &home
            .path()
            .join("data/feedback-inbox/stores/default.sqlite3"),
    )
    .unwrap();
    let ids: Vec<&str> = acked.iter().map(String::as_str).collect();
    let stored = store.contains_ids(&ids).unwrap();
    let missing: Vec<&&str> = ids
        .iter()
        .zip(stored)
        .filter(|(_, s)| !s)
        .map(|(id, _)| id)
        .collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not stored: {missing:?}"
    );
}

#[test]
fn without_a_store_the_seen_file_survives_a_restart_and_its_torn_line_is_reported() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    let no_store = |home: &Path| {
        let mut command = webhook_support::bin(home);
        command
            .args(webhook_support::LISTEN)
            .arg("--jsonl")
            .arg(&jsonl)
            .arg("--no-store");
        webhook_support::listening(command)
    };
    let (mut listen, url) = no_store(home.path());
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(post(&addr, &delivery("fb_once")), Some(204));
    assert!(next(&listen.out, "the delivery").contains("fb_once"));
    terminate(&mut listen.child);
    let seen = home.path().join("data/feedback-inbox/webhook-seen.txt");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&seen)
        .unwrap()
        .write_all(b"\"fb_torn_id")
        .unwrap();
    let (mut listen, url) = no_store(home.path());
    let skipped = next(&listen.err, "the report of the torn seen line");
    assert!(
        skipped.starts_with("skipped 1 unreadable line"),
        "{skipped}"
    );
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(post(&addr, &delivery("fb_once")), Some(204));
    let duplicate = next(&listen.err, "the duplicate notice");
    assert!(duplicate.contains("fb_once"), "{duplicate}");
    terminate(&mut listen.child);
    assert_eq!(recorded(&jsonl).0, ["fb_once"]);
}

#[test]
fn three_hundred_idle_sockets_do_not_starve_a_delivery_with_256_descriptors() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", "ulimit -n 256 && exec \"$0\" \"$@\"", BIN])
        .args(LISTEN)
        .arg("--jsonl")
        .arg(&jsonl);
    let (mut listen, url) = listening(in_clean_env(command, home.path()));
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    let sock = addr.parse().unwrap();
    let idle: Vec<_> = (0..300)
        .map(|_| std::net::TcpStream::connect_timeout(&sock, PATIENCE).unwrap())
        .collect();
    assert_eq!(post(&addr, &delivery("fb_starved")), Some(204));
    assert!(next(&listen.out, "the delivery").contains("fb_starved"));
    drop(idle);
    assert_eq!(
        terminate(&mut listen.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
}

#[test]
fn without_jsonl_stdout_is_the_record_of_every_kept_delivery() {
    let home = tempfile::tempdir().unwrap();
    let mut command = bin(home.path());
    command.args(LISTEN);
    let (mut listen, url) = listening(command);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(post(&addr, &delivery("fb_stdout")), Some(204));
    assert_eq!(post(&addr, b"not json at all"), Some(204));
    let line: serde_json::Value =
        serde_json::from_str(&next(&listen.out, "the event's line")).unwrap();
    assert_eq!(line["feedback"]["id"], "fb_stdout");
    assert_eq!(line["feedback"]["message"], "burst");
    let raw: serde_json::Value =
        serde_json::from_str(&next(&listen.out, "the unparsed record")).unwrap();
    assert_eq!(raw["unparsed"], true);
    assert_eq!(raw["body"], "not json at all");
    assert!(next(&listen.err, "the event's summary").contains("fb_stdout"));
    let kept = next(&listen.err, "the unparsed notice");
    assert!(
        kept.contains("kept raw on stdout, marked unparsed"),
        "{kept}"
    );
    assert_eq!(
        terminate(&mut listen.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
}

#[test]
fn without_jsonl_a_broken_stdout_acknowledges_nothing() {
    let home = tempfile::tempdir().unwrap();
    let mut child = bin(home.path())
        .args(LISTEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Nobody reads stdout: each write to it fails (EPIPE).
    drop(child.stdout.take());
    let err = lines(child.stderr.take().unwrap());
    let banner = next(&err, "the listen banner");
    assert!(banner.contains("events written to stdout"), "{banner}");
    let addr = banner
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    for _ in 0..2 {
        assert_eq!(post(&addr, &delivery("fb_no_reader")), Some(500), "retried");
        let refused = next(&err, "the refusal");
        assert!(
            refused.starts_with("rejected a delivery (500): cannot write stdout"),
            "{refused}"
        );
    }
    assert_eq!(terminate(&mut child).code(), Some(143), "SIGTERM: 128 + 15");
}
