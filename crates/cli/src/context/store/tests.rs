#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};

use super::apply_retention;
use crate::context::Context;
use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};
use feedback_store::{Store, ViewQuery};

fn item(id: &str, at: &str) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: format!("message of {id}"),
        reporter_email: None,
        status: Status::New,
        received_at: at.parse().unwrap(),
        tags: vec![],
        app: None,
        project: ProjectRef {
            id: "proj-1".into(),
            name: "Trailhead".into(),
        },
    }
}

#[test]
fn retention_drops_only_items_received_before_now_minus_the_days() {
    let mut store = Store::open_memory().unwrap();
    let now: Timestamp = "2026-11-22T12:00:00Z".parse().unwrap();
    let items = [
        item("old", "2026-10-01T00:00:00Z"),
        item("edge", "2026-10-23T12:00:00Z"),
        item("recent", "2026-11-20T00:00:00Z"),
    ];
    store.put_items(&items, now).unwrap();
    let thirty_days = SignedDuration::from_hours(30 * 24);
    assert_eq!(apply_retention(&mut store, thirty_days, now).unwrap(), 1);
    let keys = store.view_keys(&ViewQuery::default(), None).unwrap();
    let left: Vec<String> = store
        .items(&keys)
        .unwrap()
        .into_iter()
        .map(|i| i.feedback.id.0)
        .collect();
    assert_eq!(left, ["recent", "edge"]);
    assert_eq!(apply_retention(&mut store, thirty_days, now).unwrap(), 0);
}

fn args(config: &std::path::Path, store: &std::path::Path, extra: &[&str]) -> Context {
    use clap::Parser;
    let mut argv: Vec<std::ffi::OsString> = vec!["feedback-inbox".into(), "--config".into()];
    argv.push(config.into());
    argv.extend(["--store".into(), store.into()]);
    argv.extend(extra.iter().map(Into::into));
    argv.extend(["store".into(), "info".into()]);
    Context::new(crate::Args::try_parse_from(argv).unwrap())
}

#[test]
fn open_store_applies_retention_days_and_sync_settings_carry_them() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let path = dir.path().join("s.sqlite3");
    std::fs::write(
        &config,
        "retention_days = 30\n[profiles.b]\nretention_days = 2\n",
    )
    .unwrap();
    let recent = Timestamp::now() - SignedDuration::from_hours(24 * 10);
    let mut store = Store::open(&path).unwrap();
    store
        .put_items(
            &[
                item("old", "2020-01-01T00:00:00Z"),
                item("recent", &recent.to_string()),
            ],
            Timestamp::now(),
        )
        .unwrap();
    drop(store);
    let plain = args(&config, &path, &[]);
    let settings = super::sync_settings(&plain).unwrap();
    assert_eq!(
        settings.retention,
        Some(std::time::Duration::from_secs(30 * 86_400))
    );
    let store = super::open_store(&plain).unwrap().unwrap();
    assert!(store.item("old").unwrap().is_none() && store.item("recent").unwrap().is_some());
    drop(store);
    let profile_b = args(&config, &path, &["--profile", "b"]);
    let store = super::open_store(&profile_b).unwrap().unwrap();
    assert!(store.item("recent").unwrap().is_none());
}

#[test]
fn first_run_from_now_starts_only_a_new_store_with_its_history_seen() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[triage]\nfirst_run = \"from-now\"\n").unwrap();
    let path = dir.path().join("new.sqlite3");
    let before = Timestamp::now();
    let mut store = super::open_store(&args(&config, &path, &[]))
        .unwrap()
        .unwrap();
    let cutoff = store.seen_before().unwrap().unwrap();
    assert!(cutoff >= before && cutoff <= Timestamp::now());
    let later = (Timestamp::now() + SignedDuration::from_hours(1)).to_string();
    store
        .put_items(
            &[item("old", "2020-01-01T00:00:00Z"), item("new", &later)],
            Timestamp::now(),
        )
        .unwrap();
    assert!(store.triage("old").unwrap().seen);
    assert!(!store.triage("new").unwrap().seen);
    // A store that had items before the setting is left as it is.
    let path = dir.path().join("old.sqlite3");
    let mut old = Store::open(&path).unwrap();
    old.put_items(&[item("a", "2020-01-01T00:00:00Z")], Timestamp::now())
        .unwrap();
    drop(old);
    let old = super::open_store(&args(&config, &path, &[]))
        .unwrap()
        .unwrap();
    assert_eq!(old.seen_before().unwrap(), None);
}

#[test]
fn no_store_opens_nothing_and_a_bad_retention_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let path = dir.path().join("s.sqlite3");
    std::fs::write(&config, "retention_days = 0\n").unwrap();
    let err = super::open_store(&args(&config, &path, &[])).unwrap_err();
    assert!(
        err.to_string().starts_with("retention_days = 0 in "),
        "{err}"
    );
    assert!(!path.exists());
    assert!(super::sync_settings(&args(&config, &path, &[])).is_err());
    let argv = ["feedback-inbox", "--no-store", "store", "info"];
    let no_store = Context::new(<crate::Args as clap::Parser>::try_parse_from(argv).unwrap());
    assert!(super::open_store(&no_store).unwrap().is_none());
}

#[test]
fn sync_settings_carry_the_background_share_of_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    let path = dir.path().join("s.sqlite3");
    std::fs::write(&config, "[sync]\nbackground = false\nfloor_percent = 40\n").unwrap();
    let settings = super::sync_settings(&args(&config, &path, &[])).unwrap();
    assert!(!settings.background);
    assert_eq!(settings.floor_percent, 40);
    std::fs::write(&config, "[sync]\nfloor_percent = 120\n").unwrap();
    let err = super::sync_settings(&args(&config, &path, &[])).unwrap_err();
    assert!(err.to_string().contains("floor_percent = 120"), "{err}");
}
