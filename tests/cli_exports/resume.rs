//! The resumable `list --all`: an interrupted walk (an error, Ctrl-C) prints the cursor, the
//! resumed one completes it without duplicates; a rejected cursor exits 2.

use std::collections::HashSet;

use feedback_inbox::sim::{FaultKind, Route};

use crate::common::rig;
use crate::{bin, jsonl_ids, new_ids, ok, resume_cursor, run, stderr, stdout};

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
    assert!(
        err.contains("--status new") && err.contains("--format jsonl"),
        "{err}"
    );
    assert!(err.contains("error: unexpected HTTP 418"), "{err}");
    let cursor = resume_cursor(&err);
    let out = run(
        home.path(),
        &url,
        &[
            "list", "--all", "--status", "new", "--format", "jsonl", "--cursor", &cursor,
        ],
    );
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
    let cursor = resume_cursor(&stderr(&out));
    assert_eq!(json["next_cursor"], cursor.as_str());
    assert_eq!(json["data"].as_array().unwrap().len(), 100);
    let rest: serde_json::Value = serde_json::from_str(&ok(&run(
        home.path(),
        &url,
        &["list", "--all", "--format", "json", "--cursor", &cursor],
    )))
    .unwrap();
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
    let cursor = resume_cursor(&stderr(&out));
    r.sim.faults().clear();
    let out = run(
        home.path(),
        &url,
        &["list", "--all", "--format", "jsonl", "--cursor", &cursor],
    );
    ids.extend(jsonl_ids(&ok(&out)));
    assert_eq!(ids, new_ids(&r.sim));
}
