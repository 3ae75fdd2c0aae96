//! The client against a misbehaving simulator: bodies with lone surrogates, odd items, odd ids
//! and oversize bodies (broken paging is in `api_paging.rs`, waits in `api_waits.rs`).
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::{expected_ids, rig};
use feedback_api::{ApiError, ApiKey, Client, FeedbackQuery, ScopeQuery, Status, WaitReason};
use feedback_sim::{DEMO_KEY, FaultKind, Route};

fn rewrite(find: &str, replace: &str) -> FaultKind {
    FaultKind::Rewrite {
        find: find.into(),
        replace: replace.into(),
    }
}

fn all_new() -> FeedbackQuery {
    FeedbackQuery {
        limit: Some(100),
        ..Default::default()
    }
}

#[tokio::test]
async fn walk_passes_a_page_carrying_a_lone_surrogate() {
    let r = rig(450, 10_000).await;
    r.sim.faults().add_after(
        Route::FeedbackList,
        rewrite(r#""message":""#, r#""message":"\ud800 half "#),
        1,
        Some(1),
    );
    let mut walker = r.client.walk(all_new());
    let mut items = Vec::new();
    while let Some(batch) = walker.next_page().await {
        items.extend(batch.unwrap());
    }
    let ids: Vec<String> = items.iter().map(|f| f.id.0.clone()).collect();
    assert_eq!(
        ids,
        expected_ids(&r.sim, |it| it.feedback.status == Status::New)
    );
    assert_eq!(items[100].message.chars().next(), Some('\u{fffd}'));
}

#[tokio::test]
async fn discovery_and_detail_read_lone_surrogates_as_replacement_characters() {
    let r = rig(50, 10_000).await;
    let faults = r.sim.faults();
    faults.add(
        Route::Projects,
        rewrite(r#""name":""#, r#""name":"\udfff"#),
        Some(1),
    );
    faults.add(
        Route::Apps,
        rewrite(r#""name":""#, r#""name":"a\ud83d"#),
        Some(1),
    );
    faults.add(
        Route::Tags,
        rewrite(r#""tag":""#, r#""tag":"\ud83d\ud83d"#),
        Some(1),
    );
    faults.add(
        Route::FeedbackItem,
        rewrite(r#""message":""#, r#""message":"\udc00\ud83d\ude00"#),
        Some(1),
    );
    let projects = r.client.list_projects().await.unwrap();
    assert!(projects[0].name.starts_with('\u{fffd}'), "{projects:?}");
    let apps = r.client.list_apps(None).await.unwrap();
    assert!(apps[0].name.starts_with("a\u{fffd}"), "{apps:?}");
    let tags = r.client.list_tags(&ScopeQuery::default()).await.unwrap();
    assert!(tags[0].tag.starts_with("\u{fffd}\u{fffd}"), "{tags:?}");
    let id = expected_ids(&r.sim, |_| true)[0].clone();
    let detail = r.client.get_feedback(&id).await.unwrap();
    assert!(
        detail.feedback.message.starts_with("\u{fffd}😀"),
        "{detail:?}"
    );
}

const ODD_PAGE: &str = r#"{"data":[
  {"id":"ok1","message":"fine","reporter_email":null,"status":"new","received_at":"2026-10-01T00:00:00Z",
   "tags":["a"],"app":null,"project":{"id":"p","name":"P"}},
  {"id":"noff","message":"no offset","status":"new","received_at":"2026-10-01T00:00:00",
   "project":{"id":"p","name":"P"}},
  {"message":"no id at all"},
  {"id":"types","message":["x"],"status":3,"received_at":null,"tags":null,"app":7,"project":"P"}
],"next_cursor":null}"#;

#[tokio::test]
async fn odd_items_are_kept_and_only_a_hopeless_one_is_skipped() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body {
            status: 200,
            body: ODD_PAGE.into(),
        },
        Some(1),
    );
    let page = r
        .client
        .list_feedback(&FeedbackQuery::default())
        .await
        .unwrap();
    let ids: Vec<&str> = page.data.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["ok1", "noff", "types"]);
    assert_eq!(
        page.data[1].received_at,
        "2026-10-01T00:00:00Z".parse().unwrap()
    );
    assert!(page.data[1].tags.is_empty() && page.data[1].app.is_none());
    assert_eq!(page.data[2].status.as_str(), "3");
}

#[tokio::test]
async fn detail_with_null_metadata_is_shown() {
    let r = rig(10, 10_000).await;
    let body = r#"{"data":{"id":"x1","message":"m","reporter_email":null,"status":"new",
        "received_at":"2026-01-01T00:00:00Z","tags":[],"app":null,"project":{"id":"p","name":"P"},
        "metadata":null,"delivery":null}}"#;
    r.sim.faults().add(
        Route::FeedbackItem,
        FaultKind::Body {
            status: 200,
            body: body.into(),
        },
        Some(1),
    );
    let detail = r.client.get_feedback("x1").await.unwrap();
    assert!(detail.metadata.built_in.is_empty() && detail.delivery.is_empty());
}

#[tokio::test]
async fn dot_and_dot_dot_are_not_found_without_a_request() {
    let r = rig(10, 10_000).await;
    for id in [".", ".."] {
        let err = r.client.get_feedback(id).await.unwrap_err();
        assert!(
            matches!(&err, ApiError::NotFound { id: got } if got == id),
            "{err:?}"
        );
    }
    assert_eq!(r.sim.stats().requests, 0);
}

#[tokio::test]
async fn ids_with_control_characters_are_not_found_without_a_request() {
    let r = rig(10, 10_000).await;
    // The url crate drops tab, newline and carriage return even inside a path segment, so
    // ".\t." would be sent as ".." (leaving /v1/feedback) and "a\tb" as "ab" (another item).
    let real = expected_ids(&r.sim, |_| true)[0].clone();
    let tabbed = format!("{}\t{}", &real[..2], &real[2..]);
    for id in [
        ".\t.", "\t..", ".\n", "\r.\r.\r", &tabbed, "x\u{7}", "a\u{85}",
    ] {
        let err = r.client.get_feedback(id).await.unwrap_err();
        let ApiError::NotFound { id: shown } = &err else {
            panic!("{id:?}: {err:?}");
        };
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }
    assert_eq!(r.sim.stats().requests, 0);
}

fn capped_client(r: &common::Rig, bytes: usize) -> Client {
    Client::builder(&r.sim.base_url(), ApiKey::parse(DEMO_KEY).unwrap())
        .unwrap()
        .max_body_bytes(bytes)
        .build()
        .unwrap()
}

#[tokio::test]
async fn an_endless_body_stops_at_the_cap() {
    let r = rig(10, 10_000).await;
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Endless, Some(1));
    let client = capped_client(&r, 1024 * 1024);
    let result = tokio::time::timeout(
        Duration::from_secs(20),
        client.list_feedback(&FeedbackQuery::default()),
    )
    .await
    .expect("the read stops at the cap");
    let err = result.unwrap_err();
    assert!(matches!(err, ApiError::TooLarge { .. }), "{err:?}");
    assert!(err.to_string().contains("1 MiB limit"), "{err}");
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 1, "not retried");
}

#[tokio::test]
async fn a_declared_length_over_the_cap_is_refused_unread() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::Projects,
        FaultKind::DeclaredLength(600 << 20),
        Some(1),
    );
    // The body stalls after a few bytes: only the header can end this before the timeout.
    let result = tokio::time::timeout(Duration::from_secs(20), r.client.list_projects())
        .await
        .expect("refused from the header");
    let err = result.unwrap_err();
    assert!(err.to_string().contains("32 MiB limit"), "{err}");
}

#[tokio::test]
async fn default_cap_is_32_mib() {
    assert_eq!(feedback_api::client::MAX_BODY_BYTES, 32 * 1024 * 1024);
}

#[tokio::test]
async fn a_429_with_an_endless_body_is_still_waited_out() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::Projects,
        FaultKind::EndlessError {
            status: 429,
            retry_after: Some(3),
        },
        Some(1),
    );
    let result = tokio::time::timeout(Duration::from_secs(20), r.client.list_projects())
        .await
        .expect("only the start of the error body is read");
    assert!(!result.unwrap().is_empty());
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 1, "{waits:?}");
    assert_eq!(waits[0].reason, WaitReason::RateLimited);
    assert_eq!(waits[0].duration, Duration::from_secs(3));
}

#[tokio::test]
async fn a_5xx_with_an_endless_body_is_retried_and_a_404_is_not_found() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::Tags,
        FaultKind::EndlessError {
            status: 503,
            retry_after: None,
        },
        Some(1),
    );
    let tags = tokio::time::timeout(
        Duration::from_secs(20),
        r.client.list_tags(&ScopeQuery::default()),
    )
    .await
    .expect("only the start of the error body is read");
    assert!(!tags.unwrap().is_empty());
    assert_eq!(r.sim.stats().route(Route::Tags), 2, "retried once");
    r.sim.faults().add(
        Route::FeedbackItem,
        FaultKind::EndlessError {
            status: 404,
            retry_after: None,
        },
        Some(1),
    );
    let err = r.client.get_feedback("gone1").await.unwrap_err();
    assert!(matches!(err, ApiError::NotFound { .. }), "{err:?}");
}
