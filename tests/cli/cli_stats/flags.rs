//! What narrows `stats` (flags, a query, `--since`/`--until`), the metadata pivots' "based on
//! N of M items", `--sync` into a new store, and the usage errors.

use std::collections::BTreeMap;

use feedback_api::{FeedbackDetail, Status};
use feedback_sim::{self as sim, SimConfig};
use jiff::Timestamp;
use serde_json::Value;

use super::{Fixture, counts, ok, run, tally, text};

#[tokio::test(flavor = "multi_thread")]
async fn flags_and_a_query_narrow_what_is_counted() {
    let f = Fixture::new().await;
    let items = f.items();
    let app = items.iter().find_map(|d| d.feedback.app.clone()).unwrap();
    let platform_count = |keep: &dyn Fn(&FeedbackDetail) -> bool| {
        tally(items.iter().filter(|d| keep(d)), |d| {
            vec![
                d.feedback
                    .app
                    .as_ref()
                    .map_or("(none)".into(), |a| a.platform.as_str().to_owned()),
            ]
        })
    };
    // --app by name, --status, a query.
    let json = f.json(&["--by", "platform", "--app", &app.name]);
    assert_eq!(
        counts(&json),
        platform_count(&|d| d.feedback.app.as_ref().is_some_and(|a| a.id == app.id))
    );
    let json = f.json(&["--by", "platform", "--status", "archived"]);
    assert_eq!(
        counts(&json),
        platform_count(&|d| d.feedback.status == Status::Archived)
    );
    let json = f.json(&["--by", "platform", "tag:bug"]);
    assert_eq!(
        counts(&json),
        platform_count(&|d| d.feedback.tags.iter().any(|t| t == "bug"))
    );
    // --project by name.
    let project = items[0].feedback.project.clone();
    let json = f.json(&["--by", "platform", "--project", &project.name]);
    assert_eq!(
        counts(&json),
        platform_count(&|d| d.feedback.project.id == project.id)
    );
    // --since and --until: an age and a date.
    let now = Timestamp::now();
    let week = now - jiff::SignedDuration::from_hours(24 * 7);
    let json = f.json(&["--by", "day", "--since", "7d"]);
    let recent = items
        .iter()
        .filter(|d| d.feedback.received_at >= week)
        .count() as u64;
    assert!(
        json["total"].as_u64().unwrap().abs_diff(recent) <= 1,
        "{json} {recent}"
    );
    // `--until DATE` keeps what came before that day (UTC here): a date given, so the count
    // does not depend on when the test runs.
    let today = now.to_zoned(jiff::tz::TimeZone::UTC).date();
    let start = today.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp();
    let json = f.json(&["--by", "day", "--until", &today.to_string()]);
    let before = items
        .iter()
        .filter(|d| d.feedback.received_at < start)
        .count() as u64;
    assert_eq!(json["total"].as_u64().unwrap(), before, "{json}");
    let days = counts(&json);
    assert_eq!(days.values().sum::<u64>(), before);
    assert!(
        !days.contains_key(&today.to_string()) && before > 0,
        "{days:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_metadata_pivot_says_how_many_items_it_is_based_on() {
    let f = Fixture::new().await;
    let items = f.items();
    // Nothing has metadata after a list sync: every item is in the `(none)` group.
    let json = f.json(&["--by", "meta.plan"]);
    assert_eq!(json["covered"], 0);
    assert_eq!(
        counts(&json),
        BTreeMap::from([("(none)".to_owned(), items.len() as u64)])
    );
    // Details of the bug reports, then: those are covered, grouped by their plan.
    ok(&f.run(&[
        "search",
        "tag:bug",
        "--with-detail",
        "--fields",
        "id,metadata",
        "--format",
        "jsonl",
    ]));
    let bugs: Vec<&FeedbackDetail> = items
        .iter()
        .filter(|d| d.feedback.tags.iter().any(|t| t == "bug"))
        .collect();
    let out = f.run(&["stats", "--by", "meta.plan", "--format", "json"]);
    let json: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(json["covered"].as_u64().unwrap(), bugs.len() as u64);
    let mut want = tally(bugs.iter().copied(), |d| {
        d.metadata.custom.get("plan").cloned().into_iter().collect()
    });
    let planned: u64 = want.values().sum();
    want.insert("(none)".into(), items.len() as u64 - planned);
    assert_eq!(counts(&json), want);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("based on {} of {} items", bugs.len(), items.len())),
        "{stderr}"
    );
    // The built-in pivots: versions and OS versions of the covered items.
    let json = f.json(&["--by", "os", "tag:bug"]);
    assert_eq!(json["total"].as_u64().unwrap(), bugs.len() as u64);
    let labels: Vec<&str> = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["label"].as_str())
        .collect();
    assert!(
        labels
            .iter()
            .all(|l| l.starts_with("iOS ") || l.starts_with("Android ")),
        "{labels:?}"
    );
    // A version is one app's: grouped by app and version.
    let json = f.json(&["--by", "version", "tag:bug"]);
    let versions = tally(bugs.iter().copied(), |d| {
        let app = d.feedback.app.as_ref().map_or("", |a| a.id.as_str());
        vec![match d.metadata.built_in.get("appVersion") {
            Some(version) => format!("{app} {version}"),
            None => "(none)".into(),
        }]
    });
    let got: BTreeMap<String, u64> = json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let key = match g["key"].as_str() {
                Some(version) => format!("{} {version}", g["app"].as_str().unwrap_or_default()),
                None => "(none)".into(),
            };
            (key, g["count"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(got, versions);
}

#[tokio::test(flavor = "multi_thread")]
async fn stats_sync_fills_a_new_store_first() {
    let sim = sim::start(SimConfig {
        items: 120,
        rate_per_minute: 100_000,
        anchor: Some(Timestamp::now()),
        seed: 3,
        ..SimConfig::default()
    })
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.sqlite3");
    let out = run(
        &sim.base_url(),
        Some(&store),
        &["stats", "--by", "tag", "--sync", "--format", "json"],
    );
    let json: Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(json["total"], 120);
    assert!(
        text(&out.stderr).contains("synced: 120 items added"),
        "{}",
        text(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_pivots_queries_and_names_are_usage_errors() {
    let f = Fixture::new().await;
    let usage = |args: &[&str]| {
        let out = f.run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
        text(&out.stderr)
    };
    assert!(usage(&["stats", "--by", "colour"]).contains("meta.KEY"));
    assert!(usage(&["stats", "--by", "meta."]).contains("needs a key"));
    let stderr = usage(&["stats", "--by", "tag", "colour:red"]);
    assert!(
        stderr.contains("colour:red") && stderr.contains('^'),
        "{stderr}"
    );
    assert!(usage(&["stats", "--by", "tag", "--app", "No Such App"]).contains("No Such App"));
    usage(&["stats", "--by", "tag", "--status", "maybe"]);
    usage(&["stats", "--by", "tag", "--since", "soon"]);
    usage(&["stats"]);
    let out = run(&f.sim.base_url(), None, &["stats", "--by", "tag"]);
    assert_eq!(out.status.code(), Some(2));
    // No store yet: a plain error saying what to run.
    let dir = tempfile::tempdir().unwrap();
    let out = run(
        &f.sim.base_url(),
        Some(&dir.path().join("none.sqlite3")),
        &["stats", "--by", "tag"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("feedback-inbox sync"),
        "{}",
        text(&out.stderr)
    );
}
