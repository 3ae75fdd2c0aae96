//! The built binary: `webhook verify` on stdin, and an end-to-end run of `sim` delivering new
//! submissions to `webhook listen` over loopback (duplicates on, so each id arrives twice).
#![allow(clippy::unwrap_used)]

use crate::webhook_support;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

use feedback_api::webhook::{Secret, sign};
use webhook_support::{Running, SECRET, bin, next, spawn, start_listen, terminate, text};

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
    assert_eq!(
        terminate(&mut listen.child).code(),
        Some(143),
        "SIGTERM: 128 + 15"
    );
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
    // With a store, the seen ids are kept in it, one per delivery recorded.
    let store = feedback_store::Store::open(
        &home
            .path()
            .join("data/feedback-inbox/stores/default.sqlite3"),
    )
    .unwrap();
    assert_eq!(store.deliveries_seen().unwrap(), total);
    assert!(
        !home
            .path()
            .join("data/feedback-inbox/webhook-seen.txt")
            .exists()
    );
}
