//! The built binary against the simulator: `--app`/`--project` by name, slug, id and in any
//! case (the service asked once, or the store's catalog and no request), a shared name and an
//! unknown one as usage errors, `apps` naming projects, and `--since`/`--until` on `list` (the
//! walk stopping early, its requests counted) and on `search` (as `after:`/`before:`).
#![allow(clippy::unwrap_used)]

use crate::common;
mod since;

use std::path::Path;
use std::process::{Command, Output};

use common::{expected_ids, rig};
use feedback_api::{App, Feedback, FeedbackDetail, Status};
use feedback_sim::{DEMO_KEY, Route, SimHandle};

/// The binary with a clean environment against `base_url`; `store` as its store, or none.
pub(crate) fn run(base_url: &str, store: Option<&Path>, args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("TZ", "UTC")
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_STATE_HOME", home.path().join("state"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("FEEDBACK_BASE_URL", base_url)
        .env("FEEDBACK_API_KEY", DEMO_KEY);
    match store {
        Some(path) => command.arg("--store").arg(path),
        None => command.arg("--no-store"),
    };
    command.args(args).output().unwrap()
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

pub(crate) fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Ids of a jsonl export, in order.
pub(crate) fn ids(out: &Output) -> Vec<String> {
    ok(out)
        .lines()
        .map(|l| serde_json::from_str::<Feedback>(l).unwrap().id.0)
        .collect()
}

pub(crate) fn requests(sim: &SimHandle, route: Route) -> u64 {
    sim.stats().route(route)
}

pub(crate) fn app_named(sim: &SimHandle, name: &str) -> App {
    let data = sim.state().read();
    data.apps.iter().find(|a| a.name == name).unwrap().clone()
}

pub(crate) fn new_of_app(app: &str) -> impl Fn(&FeedbackDetail) -> bool + '_ {
    move |it| {
        it.feedback.status == Status::New && it.feedback.app.as_ref().is_some_and(|a| a.id == app)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_takes_an_app_by_name_in_any_case_by_slug_or_by_id() {
    let r = rig(300, 100_000).await;
    let base = r.sim.base_url();
    let android = app_named(&r.sim, "Trailhead Android");
    let expected = expected_ids(&r.sim, new_of_app(&android.id));
    assert!(!expected.is_empty());
    let mut apps_asked = 0;
    for value in [
        "Trailhead Android",
        "trailhead ANDROID",
        "trailhead-android",
        android.id.as_str(),
    ] {
        let args = ["list", "--all", "--format", "jsonl", "--app", value];
        assert_eq!(ids(&run(&base, None, &args)), expected, "{value}");
        // Without a store, a name costs one /v1/apps request; an id none.
        apps_asked += u64::from(value != android.id);
        assert_eq!(requests(&r.sim, Route::Apps), apps_asked, "{value}");
    }
    assert_eq!(requests(&r.sim, Route::Projects), 0);
    // A project by name, on list and on tags, means what its id means.
    let trailhead = r.sim.state().read().projects[1].clone();
    let by_name = ok(&run(&base, None, &["tags", "--project", "Trailhead"]));
    let by_id = ok(&run(&base, None, &["tags", "--project", &trailhead.id]));
    assert_eq!(by_name, by_id);
    let both = [
        "list",
        "--format",
        "jsonl",
        "--project",
        "trailhead",
        "--app",
        "trailhead-android",
    ];
    assert_eq!(
        ids(&run(&base, None, &both)),
        expected[..expected.len().min(25)]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_name_lists_the_candidates_and_an_unknown_one_the_known_names() {
    let r = rig(50, 100_000).await;
    let base = r.sim.base_url();
    // A second "Trailhead Android", in another project (it has no items).
    let ledgerly = r.sim.state().read().projects[2].clone();
    let twin = App {
        id: "0b5e2f0c-7a31-4c4e-9d1a-5f6e7a8b9c0d".to_owned(),
        project_id: Some(ledgerly.id.clone()),
        name: "Trailhead Android".to_owned(),
        slug: Some("trailhead-android-legacy".to_owned()),
        ..app_named(&r.sim, "Trailhead Android")
    };
    r.sim.state().write().apps.push(twin.clone());
    let out = run(&base, None, &["list", "--app", "trailhead android"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert!(
        err.contains("--app \"trailhead android\" matches 2 apps; give a slug or an id:"),
        "{err}"
    );
    assert!(err.contains("slug trailhead-android  id "), "{err}");
    assert!(err.contains("  project Trailhead"), "{err}");
    assert!(
        err.contains(&format!(
            "slug trailhead-android-legacy  id {}  project Ledgerly",
            twin.id
        )),
        "{err}"
    );
    assert_eq!(requests(&r.sim, Route::FeedbackList), 0);
    // The slug, or the project, picks one.
    for args in [
        [
            "list",
            "--format",
            "jsonl",
            "--app",
            "trailhead-android-legacy",
            "",
            "",
        ],
        [
            "list",
            "--format",
            "jsonl",
            "--project",
            "ledgerly",
            "--app",
            "Trailhead Android",
        ],
    ] {
        let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
        assert!(ids(&run(&base, None, &args)).is_empty());
    }
    let out = run(&base, None, &["tags", "--project", "Zephyr"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "error: no project named \"Zephyr\"; known: \"Ledgerly\", \"Nimbus Notes\", \"Trailhead\" (name, slug or id)"
    );
    // The beginning of one name is that one.
    let out = run(&base, None, &["tags", "--project", "Nimbus"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apps_name_their_projects_and_a_synced_store_answers_names_without_requests() {
    let r = rig(120, 100_000).await;
    let base = r.sim.base_url();
    let projects = r.sim.state().read().projects.clone();
    let table = ok(&run(&base, None, &["apps"]));
    let header = table.lines().next().unwrap();
    assert!(header.ends_with("\tproject"), "{header}");
    let android = table
        .lines()
        .find(|l| l.contains("Trailhead Android"))
        .unwrap();
    assert!(android.trim_end().ends_with("Trailhead"), "{android}");
    assert!(projects.iter().all(|p| !table.contains(&p.id)), "{table}");
    assert_eq!(requests(&r.sim, Route::Projects), 1);
    let csv = ok(&run(
        &base,
        None,
        &["apps", "--format", "csv", "--project", "nimbus-notes"],
    ));
    assert!(
        csv.starts_with("id,name,platform,region,identifier,project,project_id\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(
        csv.contains(&format!(",Nimbus Notes,{}\n", projects[0].id)),
        "{csv}"
    );

    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite3");
    ok(&run(&base, Some(&store), &["sync", "--status", "new"]));
    let before = r.sim.stats();
    let android = app_named(&r.sim, "Trailhead Android");
    let args = [
        "list",
        "--all",
        "--format",
        "jsonl",
        "--app",
        "TRAILHEAD android",
    ];
    assert_eq!(
        ids(&run(&base, Some(&store), &args)),
        expected_ids(&r.sim, new_of_app(&android.id))
    );
    ok(&run(
        &base,
        Some(&store),
        &["apps", "--project", "Trailhead"],
    ));
    let after = r.sim.stats();
    for route in [Route::Apps, Route::Projects] {
        assert_eq!(
            after.route(route) - before.route(route),
            u64::from(route == Route::Apps)
        );
    }
    // Before a command, the inbox's flags are refused rather than ignored.
    let out = run(&base, None, &["--app", "x", "list"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// The `new` items as the simulator lists them, newest first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_flags_are_an_and_with_the_query_as_its_own_qualifiers() {
    let r = rig(400, 100_000).await;
    let base = r.sim.base_url();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite3");
    ok(&run(&base, Some(&store), &["sync"]));
    let before = r.sim.stats().requests;
    let search = |flags: &[&str], query: &str| {
        let mut all = vec!["search", "--format", "jsonl"];
        all.extend_from_slice(flags);
        all.extend(["--", query]);
        ids(&run(&base, Some(&store), &all))
    };
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["--app", "Trailhead iOS", "--since", "2026-10-01"],
            "has:email",
            "has:email app:trailhead-ios after:2026-10-01",
        ),
        (
            &["--project", "NIMBUS NOTES", "--until", "2026-09-15T12:00"],
            "-crash",
            "-crash project:nimbus-notes before:2026-09-15T12:00",
        ),
        (
            &["--since", "2026-10-20", "--until", "2026-10-25"],
            "-has:tag",
            "-has:tag after:2026-10-20 before:2026-10-25",
        ),
        (
            &["--since", "2026-10-20T06:00:00Z"],
            "status:archived",
            "status:archived after:2026-10-20T06:00",
        ),
    ];
    for (flags, query, qualified) in cases {
        let expected = search(&[], qualified);
        assert!(!expected.is_empty(), "{qualified}");
        assert_eq!(search(flags, query), expected, "{flags:?}");
    }
    // Offline: names come from the store, and an unknown one is refused.
    assert_eq!(r.sim.stats().requests, before);
    let out = run(&base, Some(&store), &["search", "--app", "Zephyr", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no app named \"Zephyr\"; known: "));
    // The beginning of several names lists them.
    let out = run(&base, Some(&store), &["search", "--app", "Nimbus", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--app \"Nimbus\" matches "),
        "{}",
        text(&out.stderr)
    );
}
