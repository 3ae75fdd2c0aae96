//! The pivot by version: one group per version of one app, ordered by app and by version
//! precedence, each with its first sighting, whichever way the view is counted (kept counts,
//! kept counts less the snoozed, counted from the items).

use jiff::Timestamp;

use super::{By, Group};
use crate::search::Context;
use crate::{Store, ViewQuery};
use feedback_api::Status;
use feedback_api::{AppRef, Feedback, FeedbackDetail, FeedbackId, Metadata, Platform, ProjectRef};

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn item(n: usize, day: u32, app: Option<(&str, &str)>) -> Feedback {
    Feedback {
        id: FeedbackId(format!("fb_{n}")),
        message: format!("message {n}"),
        reporter_email: None,
        status: Status::New,
        received_at: at(&format!("2026-11-{day:02}T12:00:00Z")),
        tags: Vec::new(),
        app: app.map(|(id, name)| AppRef {
            id: id.into(),
            name: name.into(),
            platform: Platform::Ios,
        }),
        project: ProjectRef {
            id: "prj_1".into(),
            name: "Acme".into(),
        },
    }
}

/// Trailhead's 3.2.0 (twice) and 3.10.0 (twice), Nimbus's 5.10.0 and 3.10.0, a 1.0.0 of no
/// app, and an item without its detail.
fn store() -> Store {
    let trailhead = Some(("app_t", "Trailhead iOS"));
    let nimbus = Some(("app_n", "Nimbus Notes"));
    let mut store = Store::open_memory().unwrap();
    let versions = [
        (12, trailhead, "3.10.0"),
        (10, trailhead, "3.10.0"),
        (5, trailhead, "3.2.0"),
        (1, trailhead, "3.2.0"),
        (4, nimbus, "3.10.0"),
        (3, nimbus, "5.10.0"),
        (2, None, "1.0.0"),
    ];
    for (n, (day, app, version)) in versions.into_iter().enumerate() {
        let mut metadata = Metadata::default();
        metadata
            .built_in
            .insert("appVersion".into(), version.into());
        let detail = FeedbackDetail {
            feedback: item(n, day, app),
            metadata,
            delivery: Vec::new(),
        };
        store
            .put_detail(&detail, at("2026-11-20T00:00:00Z"))
            .unwrap();
    }
    store
        .put_items(&[item(9, 15, trailhead)], at("2026-11-20T00:00:00Z"))
        .unwrap();
    store
}

/// (version, app, label, count, first seen) of a group.
type Row<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    u64,
    Option<String>,
);

fn rows(groups: &[Group]) -> Vec<Row<'_>> {
    groups
        .iter()
        .map(|g| {
            (
                g.key.as_deref(),
                g.app.as_deref(),
                g.label.as_deref(),
                g.count,
                g.first_seen.map(|t| t.to_string()),
            )
        })
        .collect()
}

#[test]
fn versions_are_grouped_per_app_in_version_order_with_their_first_sighting() {
    let store = store();
    let cx = Context {
        now: at("2026-11-20T15:00:00Z"),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let first = |day: u32| Some(format!("2026-11-{day:02}T12:00:00Z"));
    let want = vec![
        (
            Some("3.10.0"),
            Some("app_n"),
            Some("Nimbus Notes 3.10.0"),
            1,
            first(4),
        ),
        (
            Some("5.10.0"),
            Some("app_n"),
            Some("Nimbus Notes 5.10.0"),
            1,
            first(3),
        ),
        (
            Some("3.2.0"),
            Some("app_t"),
            Some("Trailhead iOS 3.2.0"),
            2,
            first(1),
        ),
        (
            Some("3.10.0"),
            Some("app_t"),
            Some("Trailhead iOS 3.10.0"),
            2,
            first(10),
        ),
        (Some("1.0.0"), None, None, 1, first(2)),
        (None, None, None, 1, None),
    ];
    let kept = ViewQuery::default();
    let hiding = ViewQuery {
        status: Some("new".into()),
        ..ViewQuery::default()
    }
    .hide_triaged(cx.now);
    let counted = ViewQuery {
        condition: Some(("1".into(), Vec::new())),
        ..ViewQuery::default()
    };
    for view in [kept, hiding, counted] {
        let pivot = store.pivot(&view, &By::Version, &cx).unwrap();
        assert_eq!(rows(&pivot.groups), want, "{view:?}");
        assert_eq!(pivot.total, 8);
        assert_eq!(pivot.covered, Some(7));
    }
}

#[test]
fn the_prompt_completes_from_the_values_stored_under_a_key_most_items_first() {
    let store = store();
    let versions = store.meta_values(&["appVersion"], false, 10).unwrap();
    assert_eq!(versions, ["3.10.0", "3.2.0", "1.0.0", "5.10.0"]);
    assert_eq!(
        store.meta_values(&["appVersion"], false, 1).unwrap(),
        ["3.10.0"]
    );
    assert!(
        store
            .meta_values(&["APPVERSION"], false, 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store.meta_values(&["APPVERSION"], true, 10).unwrap().len(),
        4
    );
    assert!(
        store
            .meta_values(&["locale"], false, 10)
            .unwrap()
            .is_empty()
    );
}

/// A version group names its app as the query does, and that word with the version lists
/// exactly the group's items: the slug where the catalog has one, the name where no other
/// app has it, else the id.
#[test]
fn a_version_group_names_its_app_in_a_word_the_query_resolves_to_it_alone() {
    let mut store = store();
    let app = |id: &str, name: &str, slug: Option<&str>| feedback_api::App {
        id: id.into(),
        project_id: Some("prj_1".into()),
        name: name.into(),
        slug: slug.map(str::to_owned),
        platform: Some(Platform::Ios),
        app_identifier: None,
        region: None,
    };
    store
        .put_apps(
            &[app("app_t", "Trailhead iOS", Some("trailhead-ios"))],
            None,
        )
        .unwrap();
    let cx = Context {
        now: at("2026-11-20T15:00:00Z"),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let words = |store: &Store| -> Vec<(Option<String>, Option<String>)> {
        let pivot = store
            .pivot(&ViewQuery::default(), &By::Version, &cx)
            .unwrap();
        for group in &pivot.groups {
            let (Some(word), Some(version)) = (&group.app_word, &group.key) else {
                continue;
            };
            let query = format!("app:\"{word}\" version:{version}");
            let sql = crate::search::compile(
                store.conn(),
                &feedback_core::query::parse(&query).unwrap(),
                &cx,
            )
            .unwrap();
            let listed: i64 = store
                .conn()
                .query_row(
                    &format!("SELECT count(*) FROM items WHERE {}", sql.condition),
                    rusqlite::params_from_iter(&sql.params),
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(u64::try_from(listed).unwrap(), group.count, "{query}");
        }
        pivot
            .groups
            .iter()
            .map(|g| (g.app.clone(), g.app_word.clone()))
            .collect()
    };
    let owned = |a: &str, w: &str| (Some(a.to_owned()), Some(w.to_owned()));
    let before = words(&store);
    assert!(
        before.contains(&owned("app_t", "trailhead-ios")),
        "{before:?}"
    );
    assert!(
        before.contains(&owned("app_n", "Nimbus Notes")),
        "{before:?}"
    );
    // Another app of the same name: the name no longer names app_n alone.
    store
        .put_apps(
            &[
                app("app_t", "Trailhead iOS", Some("trailhead-ios")),
                app("app_other", "Nimbus Notes", None),
            ],
            None,
        )
        .unwrap();
    let after = words(&store);
    assert!(after.contains(&owned("app_n", "app_n")), "{after:?}");
}
