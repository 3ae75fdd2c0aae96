//! Exports of the built binary against the simulator: `--fields` (every format with `all`,
//! from the store at no request, `--with-detail`, errors), the resumable `list --all` (an
//! interrupted walk prints the cursor, the resumed one completes it without duplicates), and a
//! rejected cursor (exit 2).
#![allow(clippy::unwrap_used)]

use crate::common;
mod resume;
mod search;
mod usage;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{expected_ids, rig};
use feedback_api::Status;
use feedback_sim::{DEMO_KEY, Route};
use feedback_store::Store;

/// The binary in a clean environment under `home`, pointed at `base_url`.
pub(crate) fn bin(home: &Path, base_url: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("TZ", "UTC")
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", DEMO_KEY);
    command
}

pub(crate) fn run(home: &Path, base_url: &str, args: &[&str]) -> Output {
    bin(home, base_url).args(args).output().unwrap()
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub(crate) fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", stderr(output));
    stdout(output)
}

pub(crate) fn jsonl_ids(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            let value: serde_json::Value = serde_json::from_str(l).unwrap();
            value["id"].as_str().unwrap().to_owned()
        })
        .collect()
}

pub(crate) fn new_ids(sim: &feedback_sim::SimHandle) -> Vec<String> {
    expected_ids(sim, |it| it.feedback.status == Status::New)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_format_with_fields_all_and_with_detail_has_metadata_and_links() {
    let r = rig(40, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let (first, first_meta, link) = {
        let data = r.sim.state().read();
        let item = data
            .items()
            .find(|it| it.feedback.status == Status::New)
            .unwrap();
        let link = item.issue_tracker_url().map(str::to_owned);
        (item.feedback.id.0.clone(), item.metadata.clone(), link)
    };
    let args = |format: &'static str| {
        vec![
            "--no-store",
            "list",
            "--limit",
            "5",
            "--fields",
            "all",
            "--with-detail",
            "--format",
            format,
        ]
    };
    let before = r.sim.stats().route(Route::FeedbackItem);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&run(home.path(), &url, &args("json")))).unwrap();
    assert_eq!(
        r.sim.stats().route(Route::FeedbackItem) - before,
        5,
        "one detail request per item"
    );
    let data = json["data"].as_array().unwrap();
    assert_eq!(data.len(), 5);
    assert_eq!(data[0]["id"], first.as_str());
    assert_eq!(
        data[0]["metadata"]["built_in"]["locale"],
        first_meta.built_in["locale"].as_str()
    );
    assert!(
        data[0]["delivery"]
            .as_array()
            .is_some_and(|d| !d.is_empty())
    );
    assert!(json["next_cursor"].is_string());

    let jsonl = ok(&run(home.path(), &url, &args("jsonl")));
    let first_line: serde_json::Value =
        serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first_line["metadata"], data[0]["metadata"]);
    assert_eq!(jsonl.lines().count(), 5);

    let csv = ok(&run(home.path(), &url, &args("csv")));
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 5);
    let at = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("{name}: {header:?}"))
    };
    assert_eq!(&rows[0][at("id")], first.as_str());
    assert_eq!(
        &rows[0][at("meta.locale")],
        first_meta.built_in["locale"].as_str()
    );
    assert_eq!(
        &rows[0][at("link.issue_tracker")],
        link.as_deref().unwrap_or("")
    );
    assert_eq!(header.last().unwrap(), "extra");

    let table = ok(&run(home.path(), &url, &args("table")));
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 6, "{table}");
    assert!(
        lines[0].starts_with("id\t") && lines[0].contains("\tmeta.locale\t"),
        "{table}"
    );
    // Piped: tab-separated, nothing cut (the whole first line of every message is there).
    let message = r
        .sim
        .state()
        .read()
        .items()
        .find(|it| it.feedback.id.0 == first)
        .unwrap()
        .feedback
        .message
        .clone();
    let first_line = feedback_cli::output::first_line(&message);
    assert!(
        lines[1].contains(&*feedback_core::text::sanitize_line(first_line)),
        "{table}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_fields_come_from_the_store_at_no_request_and_keep_the_named_order() {
    let r = rig(30, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let path = home.path().join("store.sqlite3");
    let detail = r
        .sim
        .state()
        .read()
        .items()
        .find(|it| it.feedback.status == Status::New)
        .unwrap()
        .clone();
    Store::open(&path)
        .unwrap()
        .put_detail(&detail, jiff::Timestamp::now())
        .unwrap();
    let store = path.to_str().unwrap();
    let before = r.sim.stats().route(Route::FeedbackItem);
    let out = run(
        home.path(),
        &url,
        &[
            "--store",
            store,
            "list",
            "--limit",
            "3",
            "--format",
            "jsonl",
            "--fields",
            "meta.locale,id,metadata",
        ],
    );
    let text = ok(&out);
    assert_eq!(
        r.sim.stats().route(Route::FeedbackItem),
        before,
        "no detail request"
    );
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The named order (the raw text: a parsed object sorts its keys).
    assert!(text.starts_with("{\"meta.locale\":\""), "{text}");
    assert!(
        text.lines()
            .all(|l| l.contains(",\"id\":\"") && l.contains(",\"metadata\":")),
        "{text}"
    );
    assert_eq!(lines[0]["id"], detail.feedback.id.0.as_str());
    assert_eq!(
        lines[0]["meta.locale"],
        detail.metadata.built_in["locale"].as_str()
    );
    // Not stored, not fetched: unknown, not empty.
    assert!(
        lines[1]["metadata"].is_null() && lines[1]["meta.locale"].is_null(),
        "{text}"
    );
    // --with-detail fetches the two missing ones and keeps them in the store.
    let out = run(
        home.path(),
        &url,
        &[
            "--store",
            store,
            "list",
            "--limit",
            "3",
            "--format",
            "jsonl",
            "--fields",
            "id,metadata",
            "--with-detail",
        ],
    );
    ok(&out);
    assert_eq!(r.sim.stats().route(Route::FeedbackItem), before + 2);
    let second = text
        .lines()
        .nth(1)
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .unwrap();
    let stored = Store::open(&path)
        .unwrap()
        .detail(second["id"].as_str().unwrap())
        .unwrap()
        .unwrap();
    assert!(stored.detail_at.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_fields_are_a_usage_error_before_any_request() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let before = r.sim.stats().requests;
    let out = run(home.path(), &url, &["list", "--fields", "id,colour"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("unknown field `colour`") && err.contains("reporter_email"),
        "{err}"
    );
    let out = run(home.path(), &url, &["list", "--fields", "all,id"]);
    assert_eq!(out.status.code(), Some(2));
    let store: PathBuf = home.path().join("s.sqlite3");
    Store::open(&store).unwrap();
    let out = run(
        home.path(),
        &url,
        &[
            "--store",
            store.to_str().unwrap(),
            "search",
            "--fields",
            "nope",
            "x",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(r.sim.stats().requests, before);
}
