//! The built binary's `stats` against the simulator: a store filled by `sync`, then every
//! format (table plain when piped, JSON, CSV with a day per column and no formula run), every
//! flag (`--app`/`--project` by name, `--status`, `--since`/`--until`, a query, `--sync`),
//! `meta.KEY` after `search --with-detail` stored some details ("based on N of M"), day and
//! week, and the usage errors (exit 2). Counts are checked against the simulator's own items.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use feedback_inbox::api::{FeedbackDetail, FeedbackId, Status};
use feedback_inbox::sim::{self, DEMO_KEY, SimConfig, SimHandle};
use jiff::Timestamp;
use serde_json::Value;

/// The binary with a clean environment (UTC) against `base_url`, `store` as its store.
fn run(base_url: &str, store: Option<&Path>, args: &[&str]) -> Output {
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

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
}

struct Fixture {
    sim: SimHandle,
    _dir: tempfile::TempDir,
    store: std::path::PathBuf,
}

impl Fixture {
    /// A simulator whose newest items are from now (so the last 30 days hold some), one item
    /// tagged like a formula, and a store synced from it.
    async fn new() -> Self {
        let sim = sim::start(SimConfig {
            items: 400,
            rate_per_minute: 100_000,
            anchor: Some(Timestamp::now()),
            seed: 21,
            ..SimConfig::default()
        })
        .await
        .unwrap();
        {
            let mut data = sim.state().write();
            let mut odd: FeedbackDetail = data.items().next().unwrap();
            odd.feedback.id = FeedbackId("odd-formula-item".into());
            odd.feedback.tags = vec!["=HYPERLINK(\"x\")".into()];
            data.insert(odd);
        }
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("store.sqlite3");
        let fixture = Self {
            sim,
            _dir: dir,
            store,
        };
        ok(&fixture.run(&["sync"]));
        fixture
    }

    fn run(&self, args: &[&str]) -> Output {
        run(&self.sim.base_url(), Some(&self.store), args)
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["stats", "--format", "json"];
        all.extend(args);
        serde_json::from_str(&ok(&self.run(&all))).unwrap()
    }

    fn items(&self) -> Vec<FeedbackDetail> {
        self.sim.state().read().items().collect()
    }
}

/// `{key: count}` of a JSON answer (a null key as "(none)").
fn counts(json: &Value) -> BTreeMap<String, u64> {
    json["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let key = g["key"].as_str().unwrap_or("(none)").to_owned();
            (key, g["count"].as_u64().unwrap())
        })
        .collect()
}

/// Counts of `key` over `items`.
fn tally<'a>(
    items: impl IntoIterator<Item = &'a FeedbackDetail>,
    key: impl Fn(&FeedbackDetail) -> Vec<String>,
) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for item in items {
        for k in key(item) {
            *out.entry(k).or_insert(0) += 1;
        }
    }
    out
}

fn tags(d: &FeedbackDetail) -> Vec<String> {
    if d.feedback.tags.is_empty() {
        vec!["(none)".into()]
    } else {
        d.feedback.tags.clone()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn json_counts_every_group_and_its_last_thirty_days() {
    let f = Fixture::new().await;
    let items = f.items();
    let json = f.json(&["--by", "tag"]);
    assert_eq!(json["by"], "tag");
    assert_eq!(json["total"].as_u64().unwrap(), items.len() as u64);
    assert!(json["covered"].is_null());
    assert_eq!(counts(&json), tally(&items, tags));
    // Largest first; the daily series add up to the items of the 30 days from `first_day`.
    let groups = json["groups"].as_array().unwrap();
    let sizes: Vec<u64> = groups
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    let first: jiff::civil::Date = json["first_day"].as_str().unwrap().parse().unwrap();
    let start = first.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp();
    let in_window = |d: &&FeedbackDetail| d.feedback.received_at >= start;
    let want = tally(items.iter().filter(in_window), tags);
    for g in groups {
        let daily: Vec<u64> = g["daily"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(daily.len(), 30);
        let key = g["key"].as_str().unwrap_or("(none)");
        assert_eq!(
            daily.iter().sum::<u64>(),
            want.get(key).copied().unwrap_or(0),
            "{key}"
        );
    }
    assert!(want.values().sum::<u64>() > 0, "the window holds items");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_table_is_plain_when_piped_and_the_summary_goes_to_stderr() {
    let f = Fixture::new().await;
    let items = f.items();
    let out = f.run(&["stats", "--by", "app"]);
    let table = ok(&out);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("APP") && lines[0].ends_with("LAST 30 DAYS"),
        "{table}"
    );
    // One line per app (names shown, not ids), counts as the simulator has them.
    let by_app = tally(&items, |d| {
        vec![
            d.feedback
                .app
                .as_ref()
                .map_or("(none)".into(), |a| a.name.clone()),
        ]
    });
    assert_eq!(lines.len(), 1 + by_app.len(), "{table}");
    for (name, count) in &by_app {
        let line = lines.iter().find(|l| l.starts_with(name.as_str())).unwrap();
        let cells: Vec<&str> = line[name.len()..].split_whitespace().collect();
        assert_eq!(cells[0], count.to_string(), "{line}");
        assert!(cells[1].ends_with('%'), "{line}");
        assert!(
            line.chars()
                .rev()
                .take(30)
                .all(|c| ('▁'..='█').contains(&c)),
            "{line}"
        );
    }
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{} items in {} groups", items.len(), by_app.len())),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn csv_has_a_column_per_day_and_no_cell_runs_as_a_formula() {
    let f = Fixture::new().await;
    let csv = ok(&f.run(&["stats", "--by", "tag", "--format", "csv"]));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[..4], ["key", "label", "count", "share"]);
    assert_eq!(header.len(), 34);
    let today = Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::UTC)
        .date()
        .to_string();
    assert_eq!(header[33], today);
    assert!(csv.contains("\"'=HYPERLINK"), "{csv}");
    assert!(
        !csv.contains("\n\"=HYPERLINK") && !csv.contains("\n=HYPERLINK"),
        "{csv}"
    );
    let raw = ok(&f.run(&["stats", "--by", "tag", "--format", "csv", "--raw-csv"]));
    assert!(raw.contains("\n\"=HYPERLINK"), "{raw}");
}

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
    let today = now.to_zoned(jiff::tz::TimeZone::UTC).date().to_string();
    let json = f.json(&["--by", "day", "--until", &today]);
    let days = counts(&json);
    assert!(!days.contains_key(&today) && !days.is_empty(), "{days:?}");
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
    let json = f.json(&["--by", "version", "tag:bug"]);
    let versions = tally(bugs.iter().copied(), |d| {
        vec![
            d.metadata
                .built_in
                .get("appVersion")
                .cloned()
                .unwrap_or_else(|| "(none)".into()),
        ]
    });
    assert_eq!(counts(&json), versions);
}

#[tokio::test(flavor = "multi_thread")]
async fn days_and_weeks_are_newest_first_and_add_up() {
    let f = Fixture::new().await;
    let total = f.items().len() as u64;
    for by in ["day", "week"] {
        let json = f.json(&["--by", by]);
        let keys: Vec<&str> = json["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["key"].as_str().unwrap())
            .collect();
        assert!(keys.windows(2).all(|w| w[0] > w[1]), "{by}: {keys:?}");
        assert_eq!(counts(&json).values().sum::<u64>(), total);
    }
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

#[test]
fn completions_and_the_man_page_know_stats() {
    let out = run("http://127.0.0.1:9", None, &["completions", "bash"]);
    let script = ok(&out);
    assert!(
        script.contains("stats") && script.contains("--by"),
        "{script}"
    );
    let dir = tempfile::tempdir().unwrap();
    ok(&run(
        "http://127.0.0.1:9",
        None,
        &["man", "--dir", dir.path().to_str().unwrap()],
    ));
    let page = std::fs::read_to_string(dir.path().join("feedback-inbox-stats.1")).unwrap();
    assert!(page.contains("meta.KEY"), "{page}");
}
