//! The built binary: `webhook verify` on stdin, and an end-to-end run of `sim` delivering new
//! submissions to `webhook listen` over loopback (duplicates on, so each id arrives twice).
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use feedback_inbox::webhook::{Secret, sign};

const SECRET: &str = "whsec_cli_secret";

/// The binary with a clean environment: no user config; data, state and config in `home`.
fn bin(home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("HOOK_SECRET", SECRET);
    command
}

fn verify(home: &Path, timestamp: &str, signature: &str, body: &[u8], extra: &[&str]) -> Output {
    let mut child = bin(home)
        .args(["webhook", "verify", "--secret-env", "HOOK_SECRET"])
        .args(["--timestamp", timestamp, "--signature", signature])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(body).unwrap();
    child.wait_with_output().unwrap()
}

fn body() -> Vec<u8> {
    br#"{"event":"feedback.created","feedback":{"id":"fb_cli1","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"Export \u001b[2Jfails","email":null,"metadata":{"builtin":{},"custom":{}},"receivedAt":"2026-11-01T11:59:00Z"}}"#.to_vec()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn verify_prints_the_event_or_the_reason_with_distinct_exits() {
    let home = tempfile::tempdir().unwrap();
    let now = jiff::Timestamp::now().as_second();
    let secret = Secret::new(SECRET.as_bytes()).unwrap();
    let sig = sign(&secret, now, &body());
    let ts = now.to_string();

    let ok = verify(home.path(), &ts, &sig, &body(), &[]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let out = text(&ok.stdout);
    assert!(out.starts_with("valid: feedback.created"), "{out}");
    assert!(
        out.contains("fb_cli1") && out.contains("Acme / Acme iOS"),
        "{out}"
    );
    assert!(!out.contains('\u{1b}'), "the message is sanitized: {out:?}");

    let mut tampered = body();
    tampered[30] ^= 1;
    let bad = verify(home.path(), &ts, &sig, &tampered, &[]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("does not match"),
        "{}",
        text(&bad.stderr)
    );

    let old = (now - 600).to_string();
    let old_sig = sign(&secret, now - 600, &body());
    let stale = verify(home.path(), &old, &old_sig, &body(), &[]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        text(&stale.stderr).contains("old"),
        "{}",
        text(&stale.stderr)
    );
    let tolerated = verify(
        home.path(),
        &old,
        &old_sig,
        &body(),
        &["--tolerance", "900"],
    );
    assert!(tolerated.status.success(), "{}", text(&tolerated.stderr));

    let hex = verify(home.path(), &ts, "not-hex", &body(), &[]);
    assert_eq!(hex.status.code(), Some(1));
    assert!(text(&hex.stderr).contains("hexadecimal"));

    let unset = bin(home.path())
        .env_remove("HOOK_SECRET")
        .args(["webhook", "verify", "--secret-env", "HOOK_SECRET"])
        .args(["--timestamp", &ts, "--signature", &sig])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(unset.status.code(), Some(2));
    assert!(text(&unset.stderr).contains("HOOK_SECRET is not set"));
    assert!(!text(&unset.stderr).contains(SECRET));
}

/// Lines of a child's pipe, delivered over a channel so a test can wait with a deadline.
fn lines(pipe: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn next(rx: &mpsc::Receiver<String>, what: &str) -> String {
    rx.recv_timeout(Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

fn terminate(child: &mut Child) -> std::process::ExitStatus {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    child.wait().unwrap()
}

struct Running {
    child: Child,
    out: mpsc::Receiver<String>,
    err: mpsc::Receiver<String>,
}

fn spawn(mut command: Command) -> Running {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    let err = lines(child.stderr.take().unwrap());
    Running { child, out, err }
}

/// `webhook listen` on a free port; returns it with its URL.
fn start_listen(home: &Path, jsonl: &Path) -> (Running, String) {
    let mut command = bin(home);
    command
        .args([
            "webhook",
            "listen",
            "--addr",
            "127.0.0.1:0",
            "--secret-env",
            "HOOK_SECRET",
        ])
        .arg("--jsonl")
        .arg(jsonl);
    let listen = spawn(command);
    let banner = next(&listen.err, "the listen banner");
    assert!(banner.contains("webhook-seen.txt"), "{banner}");
    let url = banner
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_owned();
    (listen, url)
}

/// `sim` submitting every 50 ms and delivering (twice) to `url`; returns it with base URL and key.
fn start_sim(home: &Path, url: &str) -> (Running, String, String) {
    let mut command = bin(home);
    command
        .args([
            "sim",
            "--addr",
            "127.0.0.1:0",
            "--items",
            "40",
            "--submit-every",
            "0.05",
        ])
        .args(["--webhook-url", url, "--webhook-secret-env", "HOOK_SECRET"])
        .arg("--webhook-duplicates");
    let sim = spawn(command);
    let base = next(&sim.out, "the base URL");
    let key = next(&sim.out, "the key");
    let base = base.strip_prefix("FEEDBACK_BASE_URL=").unwrap().to_owned();
    let key = key.strip_prefix("FEEDBACK_API_KEY=").unwrap().to_owned();
    (sim, base, key)
}

#[test]
fn sim_delivers_new_submissions_to_listen_which_records_each_once() {
    let home = tempfile::tempdir().unwrap();
    let jsonl = home.path().join("events.jsonl");
    let (mut listen, url) = start_listen(home.path(), &jsonl);
    let (mut sim, base, key) = start_sim(home.path(), &url);

    let received: Vec<String> = (0..3).map(|_| next(&listen.out, "a delivery")).collect();
    for line in &received {
        assert!(line.starts_with("feedback.created "), "{line}");
    }
    let ids: Vec<String> = received
        .iter()
        .map(|l| l.split_whitespace().nth(2).unwrap().to_owned())
        .collect();
    let duplicate = next(&listen.err, "a duplicate notice");
    assert!(
        duplicate.starts_with("duplicate delivery of "),
        "{duplicate}"
    );

    // The received submissions are in the list API too.
    let listing = bin(home.path())
        .env("FEEDBACK_BASE_URL", &base)
        .env("FEEDBACK_API_KEY", &key)
        .args(["list", "--format", "jsonl", "--limit", "100"])
        .output()
        .unwrap();
    assert!(listing.status.success(), "{}", text(&listing.stderr));
    let listing = text(&listing.stdout);
    for id in &ids {
        assert!(
            listing.contains(&format!("\"id\":\"{id}\"")),
            "{id} not listed"
        );
    }

    assert!(terminate(&mut sim.child).success());
    assert!(terminate(&mut listen.child).success());
    let recorded: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut recorded_ids: Vec<&str> = recorded
        .iter()
        .map(|e| e["feedback"]["id"].as_str().unwrap())
        .collect();
    assert!(recorded_ids.len() >= 3);
    assert_eq!(
        &recorded_ids[..3],
        ids.iter().map(String::as_str).collect::<Vec<_>>()
    );
    let total = recorded_ids.len();
    recorded_ids.sort_unstable();
    recorded_ids.dedup();
    assert_eq!(
        recorded_ids.len(),
        total,
        "every id recorded once despite duplicates"
    );
    let seen =
        std::fs::read_to_string(home.path().join("data/feedback-inbox/webhook-seen.txt")).unwrap();
    assert_eq!(seen.lines().count(), total);
}

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

/// POSTs `body`, signed now, over a fresh connection; the status, or `None` when the receiver
/// is gone.
fn post(addr: &str, body: &[u8]) -> Option<u16> {
    use std::io::Read;
    let ts = jiff::Timestamp::now().as_second();
    let sig = sign(&Secret::new(SECRET.as_bytes()).unwrap(), ts, body);
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Service-Timestamp: {ts}\r\nX-Service-Signature: {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

fn delivery(id: &str) -> Vec<u8> {
    format!(r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"burst","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#).into_bytes()
}

/// Ids of the readable lines of the JSONL, and the numbers of the torn ones.
fn recorded(jsonl: &Path) -> (Vec<String>, Vec<usize>) {
    let lines = feedback_inbox::webhook::journal::read_lines::<serde_json::Value>(
        &std::fs::read(jsonl).unwrap(),
    );
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

    // A restart appends on a fresh line; an acknowledged id delivered again is a duplicate;
    // a signed body that is not an event is kept raw and reported.
    let (mut listen, url) = start_listen(home.path(), &jsonl);
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    assert_eq!(post(&addr, &delivery("fb_after")), Some(204));
    assert_eq!(post(&addr, &delivery(&acked[0])), Some(204));
    assert_eq!(post(&addr, b"not json at all"), Some(204));
    assert!(next(&listen.out, "the new delivery").contains("fb_after"));
    let duplicate = next(&listen.err, "the duplicate notice");
    assert!(duplicate.contains(&acked[0]), "{duplicate}");
    let raw = next(&listen.err, "the unparsed notice");
    assert!(raw.contains("recorded raw as unparsed"), "{raw}");
    assert!(terminate(&mut listen.child).success());
    let (after, torn_after) = recorded(&jsonl);
    assert_eq!(after.last().map(String::as_str), Some("fb_after"));
    assert_eq!(torn_after, torn, "no new torn line");
    assert_eq!(after.iter().filter(|id| **id == acked[0]).count(), 1);
}
