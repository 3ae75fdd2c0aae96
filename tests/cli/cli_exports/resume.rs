//! The resumable `list --all`: an interrupted walk (an error, Ctrl-C) prints the cursor, the
//! resumed one completes it without duplicates; a rejected cursor exits 2.

use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output};

use feedback_sim::{FaultKind, Route};

use super::{bin, jsonl_ids, new_ids, ok, run, stderr, stdout};
use crate::common::rig;

/// The words of the "resume with: …" line on stderr, as a POSIX shell splits them.
pub(crate) fn resume_words(stderr: &str) -> Vec<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("resume with: "))
        .unwrap_or_else(|| panic!("no resume line in {stderr}"));
    let split = Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\0' {line}"))
        .output()
        .unwrap();
    assert!(split.status.success(), "{line}");
    String::from_utf8(split.stdout)
        .unwrap()
        .split_terminator('\0')
        .map(str::to_owned)
        .collect()
}

/// Runs the resume line's command (its words after the program's name).
pub(crate) fn run_hint(home: &Path, base_url: &str, stderr: &str) -> Output {
    let words = resume_words(stderr);
    assert_eq!(words[0], "feedback-inbox", "{words:?}");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    run(home, base_url, &args)
}

/// The value after `flag` among `words`.
pub(crate) fn word_after<'w>(words: &'w [String], flag: &str) -> &'w str {
    let at = words.iter().position(|w| w == flag).unwrap();
    &words[at + 1]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_list_all_says_where_to_resume_and_the_resumed_walk_completes_it() {
    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    // The third page fails (not a transient error: no retry).
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::HtmlStatus(418), 2, Some(1));
    let out = run(
        home.path(),
        &url,
        &["list", "--all", "--status", "new", "--format", "jsonl"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut ids = jsonl_ids(&stdout(&out));
    assert_eq!(ids.len(), 200, "two whole pages");
    let err = stderr(&out);
    assert!(err.contains("error: unexpected HTTP 418"), "{err}");
    let out = run_hint(home.path(), &url, &err);
    ids.extend(jsonl_ids(&ok(&out)));
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "no duplicates");
    assert_eq!(ids, new_ids(&r.sim));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupted_json_export_is_still_one_valid_document_with_the_resume_cursor() {
    let r = rig(250, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::HtmlStatus(418), 1, Some(1));
    let out = run(home.path(), &url, &["list", "--all", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let err = stderr(&out);
    assert_eq!(
        json["next_cursor"],
        word_after(&resume_words(&err), "--cursor")
    );
    assert_eq!(json["data"].as_array().unwrap().len(), 100);
    let rest: serde_json::Value =
        serde_json::from_str(&ok(&run_hint(home.path(), &url, &err))).unwrap();
    let ids: Vec<&str> = json["data"]
        .as_array()
        .unwrap()
        .iter()
        .chain(rest["data"].as_array().unwrap())
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, new_ids(&r.sim));
    assert!(rest["next_cursor"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_cursor_exits_2_and_exports_nothing_again() {
    let r = rig(150, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    for args in [
        &["list", "--all", "--format", "jsonl", "--cursor", "bogus"][..],
        &["list", "--format", "jsonl", "--cursor", "bogus"][..],
    ] {
        let before = r.sim.stats().route(Route::FeedbackList);
        let out = run(home.path(), &url, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(stderr(&out).contains("invalid_cursor"), "{}", stderr(&out));
        assert_eq!(
            r.sim.stats().route(Route::FeedbackList) - before,
            1,
            "no restart from the top"
        );
    }
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_during_list_all_prints_the_resume_cursor_and_exits_130() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    // Pages after the first answer slowly, so the signal comes mid-walk.
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::Latency(std::time::Duration::from_secs(30)),
        1,
        None,
    );
    let mut child = bin(home.path(), &url)
        .args(["list", "--all", "--format", "jsonl"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut ids = Vec::new();
    let mut line = String::new();
    while ids.len() < 100 {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "output ended early"
        );
        ids.extend(jsonl_ids(&line));
    }
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut reader, &mut rest).unwrap();
    assert_eq!(rest, "", "nothing after the first page");
    assert_eq!(out.status.code(), Some(130));
    r.sim.faults().clear();
    let out = run_hint(home.path(), &url, &stderr(&out));
    ids.extend(jsonl_ids(&ok(&out)));
    assert_eq!(ids, new_ids(&r.sim));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_resume_line_carries_the_instants_this_run_computed_for_since_and_until() {
    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::HtmlStatus(418), 2, Some(1));
    let started = jiff::Timestamp::now();
    let args = [
        "list",
        "--all",
        "--format",
        "jsonl",
        "--since",
        "3000d",
        "--until",
        "2026-10-31",
    ];
    let out = run(home.path(), &url, &args);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut ids = jsonl_ids(&stdout(&out));
    let err = stderr(&out);
    let words = resume_words(&err);
    // Instants, not the words typed: an age read again later would move the window.
    let since: jiff::Timestamp = word_after(&words, "--since").parse().unwrap();
    let until = word_after(&words, "--until");
    assert_eq!(until, "2026-10-31T00:00:00Z");
    assert!(word_after(&words, "--since").ends_with('Z'));
    let ninety = jiff::SignedDuration::from_hours(3000 * 24);
    assert!(since >= started - ninety && since <= jiff::Timestamp::now() - ninety);
    ids.extend(jsonl_ids(&ok(&run_hint(home.path(), &url, &err))));
    let until: jiff::Timestamp = until.parse().unwrap();
    let expected = crate::common::expected_ids(&r.sim, |it| {
        it.feedback.status == feedback_api::Status::New
            && it.feedback.received_at >= since
            && it.feedback.received_at < until
    });
    assert!(!expected.is_empty() && expected.len() < new_ids(&r.sim).len());
    assert_eq!(ids, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_csv_export_appended_to_the_first_part_has_one_header_and_every_id_once() {
    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::HtmlStatus(418), 2, Some(1));
    let out = run(home.path(), &url, &["list", "--all", "--format", "csv"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let mut file = stdout(&out);
    file.push_str(&ok(&run_hint(home.path(), &url, &stderr(&out))));
    let mut reader = csv::Reader::from_reader(file.as_bytes());
    let header = reader.headers().unwrap().clone();
    assert_eq!(&header[0], "id");
    let ids: Vec<String> = reader.records().map(|r| r.unwrap()[0].to_owned()).collect();
    assert!(!ids.iter().any(|id| id == "id"), "a second header");
    assert_eq!(ids, new_ids(&r.sim));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_rejected_mid_walk_closes_the_output_and_exits_1_with_the_resume_line() {
    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let first: serde_json::Value = serde_json::from_str(&ok(&run(
        home.path(),
        &url,
        &["list", "--limit", "100", "--format", "json"],
    )))
    .unwrap();
    let cursor = first["next_cursor"].as_str().unwrap().to_owned();
    let rejected = FaultKind::Body {
        status: 400,
        body: r#"{"error":"invalid_cursor","message":"cursor is not acceptable"}"#.into(),
    };
    // The user's cursor is taken, the walk's next one is rejected; then a walk from the top
    // whose cursors are rejected after two pages (its restarts from the top too).
    let cases = [
        (vec!["--cursor", cursor.as_str()], 1, 100),
        (vec![], 2, 200),
    ];
    for (extra, skip, items) in cases {
        r.sim.faults().clear();
        r.sim
            .faults()
            .add_after(Route::FeedbackList, rejected.clone(), skip, None);
        let mut args = vec!["list", "--all", "--format", "json"];
        args.extend(extra.iter().copied());
        let out = run(home.path(), &url, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json["data"].as_array().unwrap().len(), items, "{args:?}");
        let words = resume_words(&err);
        assert_eq!(json["next_cursor"], word_after(&words, "--cursor"));
        assert!(err.contains("invalid_cursor"), "{err}");
    }
}

/// The simulator's items of every status, newest first as the lists order them.
fn all_ids(sim: &feedback_sim::SimHandle) -> Vec<String> {
    crate::common::expected_ids(sim, |_| true)
}

fn archived_ids(sim: &feedback_sim::SimHandle) -> Vec<String> {
    crate::common::expected_ids(sim, |it| {
        it.feedback.status == feedback_api::Status::Archived
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_status_all_shows_the_newest_of_both_and_walks_new_then_archived() {
    let r = rig(450, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    // One page: the newest of both lists, merged.
    let out = run(
        home.path(),
        &url,
        &[
            "list", "--status", "all", "--limit", "30", "--format", "jsonl",
        ],
    );
    assert_eq!(jsonl_ids(&ok(&out)), all_ids(&r.sim)[..30]);
    assert!(
        stderr(&out).contains("more items: --all"),
        "{}",
        stderr(&out)
    );
    // Every page: `new` to its end, then `archived`; one output.
    let out = run(
        home.path(),
        &url,
        &["list", "--all", "--status", "all", "--format", "jsonl"],
    );
    let mut expected = new_ids(&r.sim);
    expected.extend(archived_ids(&r.sim));
    assert_eq!(jsonl_ids(&ok(&out)), expected);
    // A cursor belongs to one list: without --all it is refused before any request.
    let before = r.sim.stats().requests;
    let out = run(
        home.path(),
        &url,
        &["list", "--status", "all", "--cursor", "abc"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--all"), "{}", stderr(&out));
    assert_eq!(r.sim.stats().requests, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_status_all_interrupted_in_either_list_resumes_with_nothing_lost_or_doubled() {
    let r = rig(450, 10_000).await;
    let url = r.sim.base_url();
    let mut expected = new_ids(&r.sim);
    expected.extend(archived_ids(&r.sim));
    let new_pages = new_ids(&r.sim).len().div_ceil(100);
    // Interrupted on the second page of `new`, then on the second page of `archived`.
    for (skip, status) in [(1, "all"), (new_pages + 1, "archived")] {
        let home = tempfile::tempdir().unwrap();
        r.sim.faults().add_after(
            Route::FeedbackList,
            FaultKind::HtmlStatus(418),
            u32::try_from(skip).unwrap(),
            Some(1),
        );
        let out = run(
            home.path(),
            &url,
            &["list", "--all", "--status", "all", "--format", "jsonl"],
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let words = resume_words(&stderr(&out));
        assert_eq!(word_after(&words, "--status"), status, "{words:?}");
        let resumed = run_hint(home.path(), &url, &stderr(&out));
        let mut ids = jsonl_ids(&stdout(&out));
        ids.extend(jsonl_ids(&ok(&resumed)));
        assert_eq!(ids, expected, "interrupted after {skip} pages");
        // Every list request of the sim was counted; clear for the next round.
        r.sim.faults().clear();
    }
}
