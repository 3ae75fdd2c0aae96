//! `stats --by version` over a store with two apps sharing a version number: a group is one
//! version of one app, in version order (3.2.0 before 3.10.0), with the day it was first seen.

use std::path::Path;

use super::webhook_support::text;
use super::{json, run};
use feedback_api::{AppRef, FeedbackDetail, Metadata, Platform, Status};
use feedback_store::Store;
use jiff::Timestamp;

fn fill(path: &Path) {
    let mut store = Store::open(path).unwrap();
    let details = [
        ("fb_1", "2026-11-12", "app_t", "3.10.0"),
        ("fb_2", "2026-11-10", "app_t", "3.10.0"),
        ("fb_3", "2026-11-05", "app_t", "3.2.0"),
        ("fb_4", "2026-11-01", "app_t", "3.2.0"),
        ("fb_5", "2026-11-04", "app_n", "5.10.0"),
        ("fb_6", "2026-11-03", "app_n", "3.10.0"),
    ];
    for (id, day, app, version) in details {
        let mut feedback = super::item(id, &format!("{day}T12:00:00Z"), Status::New);
        let name = if app == "app_t" {
            "Trailhead iOS"
        } else {
            "Nimbus Notes"
        };
        feedback.app = Some(AppRef {
            id: app.into(),
            name: name.into(),
            platform: Platform::Ios,
        });
        let mut metadata = Metadata::default();
        metadata
            .built_in
            .insert("appVersion".into(), version.into());
        let detail = FeedbackDetail {
            feedback,
            metadata,
            delivery: vec![],
        };
        store.put_detail(&detail, Timestamp::now()).unwrap();
    }
}

#[test]
fn stats_by_version_groups_each_apps_versions_in_version_order_with_their_first_day() {
    let home = tempfile::tempdir().unwrap();
    let store = home.path().join("s.sqlite3");
    fill(&store);
    let store = store.to_str().unwrap();
    let out = run(
        home.path(),
        &[
            "--store", store, "stats", "--by", "version", "--format", "json",
        ],
    );
    let groups: Vec<(String, String, u64, String)> = json(&out)["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["label"].as_str().unwrap_or_default().to_owned(),
                g["app"].as_str().unwrap_or_default().to_owned(),
                g["count"].as_u64().unwrap(),
                g["first_seen"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let group = |label: &str, app: &str, count, day: &str| {
        (
            label.to_owned(),
            app.to_owned(),
            count,
            format!("{day}T12:00:00Z"),
        )
    };
    assert_eq!(
        groups,
        [
            group("Nimbus Notes 3.10.0", "app_n", 1, "2026-11-03"),
            group("Nimbus Notes 5.10.0", "app_n", 1, "2026-11-04"),
            group("Trailhead iOS 3.2.0", "app_t", 2, "2026-11-01"),
            group("Trailhead iOS 3.10.0", "app_t", 2, "2026-11-10"),
        ]
    );
    let out = run(home.path(), &["--store", store, "stats", "--by", "version"]);
    let table = text(&out.stdout);
    assert!(
        table.contains("Trailhead iOS 3.2.0 · first 1 Nov"),
        "{table}"
    );
}
