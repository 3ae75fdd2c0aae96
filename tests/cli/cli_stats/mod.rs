//! The built binary's `stats` against the simulator: a store filled by `sync`, then every
//! format (table plain when piped, JSON, CSV with a day per column and no formula run), every
//! flag (`--app`/`--project` by name, `--status`, `--since`/`--until`, a query, `--sync`),
//! `meta.KEY` after `search --with-detail` stored some details ("based on N of M"), day and
//! week, and the usage errors (exit 2). Counts are checked against the simulator's own items.
//! The shared fixture and helpers are here; `formats` checks the outputs, `flags` what
//! narrows them, metadata coverage and errors.
#![allow(clippy::unwrap_used)]

mod flags;
mod formats;
use crate::shell_completion;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use feedback_api::{FeedbackDetail, FeedbackId};
use feedback_sim::{self as sim, DEMO_KEY, SimConfig, SimHandle};
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
