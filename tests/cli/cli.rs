//! The built binary against the simulator: exports, sanitized human output, and error exits.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::process::{Command, Output};

use common::{expected_ids, rig};
use feedback_api::{Feedback, Status};
use feedback_sim::{DEMO_KEY, FaultKind, Route};

/// Runs the binary with a clean environment: no user config, logs in a temp folder.
fn run(base_url: &str, key: &str, args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", key)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_all_jsonl_exports_every_item_in_api_order_with_api_field_names() {
    let r = rig(750, 10_000).await;
    let out = run(
        &r.sim.base_url(),
        DEMO_KEY,
        &["list", "--all", "--format", "jsonl"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let items: Vec<Feedback> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<String> = items.into_iter().map(|f| f.id.0).collect();
    assert_eq!(
        ids,
        expected_ids(&r.sim, |it| it.feedback.status == Status::New)
    );
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for field in [
        "id",
        "message",
        "reporter_email",
        "status",
        "received_at",
        "tags",
        "app",
        "project",
    ] {
        assert!(first.get(field).is_some(), "{field}");
    }
    assert_eq!(
        r.sim.stats().route(Route::FeedbackList),
        ids.len().div_ceil(100) as u64
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fatal_error_mid_export_leaves_only_whole_lines_and_one_error_line() {
    let r = rig(750, 10_000).await;
    let body = r#"{"error":"invalid_query","message":"boom"}"#.to_owned();
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        2,
        None,
    );
    let out = run(
        &r.sim.base_url(),
        DEMO_KEY,
        &["list", "--all", "--format", "jsonl"],
    );
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.ends_with('\n'));
    assert_eq!(text.lines().count(), 200);
    assert!(
        text.lines()
            .all(|l| serde_json::from_str::<Feedback>(l).is_ok())
    );
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    // The resume line, the error, and where the log is.
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[2].starts_with("the log (FEEDBACK_LOG=debug for more): ")
            && std::path::Path::new(lines[2])
                .extension()
                .is_some_and(|e| e == "log"),
        "{err}"
    );
    assert!(
        lines[0].starts_with("resume with: feedback-inbox list --all --format jsonl --cursor "),
        "{err}"
    );
    assert!(
        lines[1].starts_with("error: ") && lines[1].contains("invalid_query"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_exits_are_one_clear_line_with_distinct_codes() {
    let r = rig(20, 10_000).await;
    let base = r.sim.base_url();
    let cases: [(&str, &[&str], i32, &str); 5] = [
        ("service_eu_sk_wrong", &["projects"], 3, "unauthorized"),
        (
            feedback_sim::STARTER_KEY,
            &["tags"],
            3,
            "api_access_requires_indie",
        ),
        (DEMO_KEY, &["show", "nosuchid"], 4, "not_found"),
        (DEMO_KEY, &["list", "--limit", "500"], 2, "invalid limit"),
        (
            DEMO_KEY,
            &["list", "--tag", &"t".repeat(33)],
            2,
            "invalid tag",
        ),
    ];
    for (key, args, code, needle) in cases {
        let out = run(&base, key, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
    // The two rejected lists never reached the server.
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_shows_region_and_origin_but_never_the_key() {
    let r = rig(20, 60).await;
    let out = run(&r.sim.base_url(), DEMO_KEY, &["account"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("region eu, from FEEDBACK_API_KEY"), "{text}");
    assert!(
        text.contains("ok: 3 projects readable; rate limit 59/60"),
        "{text}"
    );
    assert!(
        !text.contains(&DEMO_KEY["service_eu_sk_".len()..]),
        "{text}"
    );
}

#[test]
fn missing_or_unsafe_account_settings_are_explained() {
    let out = run("", "", &["projects"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("FEEDBACK_BASE_URL") && stderr(&out).contains("demo"));
    let out = run("http://feedback.example.com", DEMO_KEY, &["projects"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("https"), "{}", stderr(&out));
    let out = run(
        "https://feedback.example.com",
        "sk_wrong_hunter2",
        &["projects"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("service_eu_sk_") && !stderr(&out).contains("hunter2"));
}

const HOSTILE_PAGE: &str = r#"{"data":[{"id":"evil1","message":"\u001b]0;pwned\u0007hi \u001b[2J\u202eplh\u009b31m\nsecond",
  "reporter_email":"a\u001b[31m@x.example","status":"new","received_at":"2026-10-01T00:00:00Z",
  "tags":["t\u0007"],"app":{"id":"a","name":"App\u001b]52;c;eA==\u0007","platform":"ios"},
  "project":{"id":"p","name":"P"}}],"next_cursor":null}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn human_output_never_carries_control_characters_but_json_keeps_the_original() {
    let r = rig(20, 10_000).await;
    for format in ["table", "csv", "json", "jsonl"] {
        r.sim.faults().add(
            Route::FeedbackList,
            FaultKind::Body {
                status: 200,
                body: HOSTILE_PAGE.into(),
            },
            Some(1),
        );
        let out = run(&r.sim.base_url(), DEMO_KEY, &["list", "--format", format]);
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        let text = stdout(&out);
        // A piped table is tab-separated: its tabs are the separators, none from the data.
        let bad = text.chars().find(|c| {
            (c.is_control() && *c != '\n' && !(format == "table" && *c == '\t'))
                || ('\u{202a}'..='\u{202e}').contains(c)
        });
        assert_eq!(bad, None, "{format}: {text:?}");
        if format.starts_with("json") {
            assert!(text.contains("\\u001b]0;pwned\\u0007"), "{format}: {text}");
        } else {
            assert!(text.contains('␛'), "{format}: {text}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_prints_metadata_and_the_issue_tracker_link() {
    let r = rig(100, 10_000).await;
    let (id, link) = {
        let data = r.sim.state().read();
        let item = data
            .items()
            .find(|it| it.issue_tracker_url().is_some())
            .unwrap();
        (
            item.feedback.id.0.clone(),
            item.issue_tracker_url().unwrap().to_owned(),
        )
    };
    let out = run(&r.sim.base_url(), DEMO_KEY, &["show", &id]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Metadata (built-in)") && text.contains(&link),
        "{text}"
    );
    let out = run(
        &r.sim.base_url(),
        DEMO_KEY,
        &["show", &id, "--format", "json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["id"], id.as_str());
    assert!(json["metadata"]["built_in"].is_object());
}

#[test]
fn sim_command_prints_base_url_and_key_first_and_serves() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .args(["sim", "--addr", "127.0.0.1:0", "--items", "50"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let base = lines.next().unwrap().unwrap();
    let key = lines.next().unwrap().unwrap();
    let base = base.strip_prefix("FEEDBACK_BASE_URL=").unwrap().to_owned();
    let key = key.strip_prefix("FEEDBACK_API_KEY=").unwrap().to_owned();
    let out = run(
        &base,
        &key,
        &["list", "--all", "--format", "jsonl", "--status", "archived"],
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).lines().count() > 0);
}
