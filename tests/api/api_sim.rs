//! The client against the simulator over real loopback HTTP: endpoints and filters, paging,
//! every error code, retries and recovery, rate limits, and decoding of odd bodies.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use common::{expected_ids, raw_http, rig, rig_with};
use feedback_api::{
    ApiError, Channel, Cursor, DeliveryStatus, FeedbackQuery, Platform, ScopeQuery, Status,
    Timeouts, WaitReason,
};
use feedback_sim::{DEMO_KEY, FaultKind, Route, STARTER_KEY};

type Keep = Box<dyn Fn(&feedback_api::FeedbackDetail) -> bool>;

async fn walk_ids(client: &feedback_api::Client, query: FeedbackQuery) -> Vec<String> {
    let mut walker = client.walk(query);
    let mut ids = Vec::new();
    while let Some(batch) = walker.next_page().await {
        ids.extend(batch.unwrap().into_iter().map(|f| f.id.0));
    }
    ids
}

#[tokio::test]
async fn walking_all_pages_returns_exactly_the_simulators_ordered_ids() {
    let r = rig(1234, 10_000).await;
    let query = FeedbackQuery {
        limit: Some(100),
        ..Default::default()
    };
    let ids = walk_ids(&r.client, query).await;
    let expected = expected_ids(&r.sim, |it| it.feedback.status == Status::New);
    assert_eq!(ids, expected);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
    let pages = expected.len().div_ceil(100) as u64;
    assert_eq!(r.sim.stats().route(Route::FeedbackList), pages);
}

#[tokio::test]
async fn every_filter_narrows_the_list_like_the_dataset() {
    let r = rig(1500, 10_000).await;
    let (app, project) = {
        let data = r.sim.state().read();
        (data.apps[1].id.clone(), data.projects[2].id.clone())
    };
    let cases: Vec<(FeedbackQuery, Keep)> = vec![
        (
            FeedbackQuery {
                status: Some(Status::Archived),
                limit: Some(37),
                ..Default::default()
            },
            Box::new(|it| it.feedback.status == Status::Archived),
        ),
        (
            FeedbackQuery {
                app: Some(app.clone()),
                limit: Some(50),
                ..Default::default()
            },
            Box::new(move |it| {
                it.feedback.status == Status::New
                    && it.feedback.app.as_ref().is_some_and(|a| a.id == app)
            }),
        ),
        (
            FeedbackQuery {
                project: Some(project.to_uppercase()),
                status: Some(Status::New),
                ..Default::default()
            },
            Box::new(move |it| {
                it.feedback.status == Status::New && it.feedback.project.id == project
            }),
        ),
        (
            FeedbackQuery {
                tag: Some("crash".into()),
                limit: Some(100),
                ..Default::default()
            },
            Box::new(|it| {
                it.feedback.status == Status::New && it.feedback.tags.iter().any(|t| t == "crash")
            }),
        ),
    ];
    for (query, keep) in cases {
        let expected = expected_ids(&r.sim, keep);
        assert!(!expected.is_empty(), "{query:?}");
        assert_eq!(
            walk_ids(&r.client, query.clone()).await,
            expected,
            "{query:?}"
        );
    }
}

#[tokio::test]
async fn first_page_has_default_size_and_a_cursor() {
    let r = rig(300, 10_000).await;
    let page = r
        .client
        .list_feedback(&FeedbackQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data.len(), 25);
    assert!(page.next_cursor.is_some());
    assert!(
        page.data
            .windows(2)
            .all(|w| w[0].received_at > w[1].received_at)
    );
}

#[tokio::test]
async fn discovery_endpoints_return_projects_apps_and_tag_counts() {
    let r = rig(800, 10_000).await;
    let projects = r.client.list_projects().await.unwrap();
    assert_eq!(projects.len(), 3);
    let apps = r.client.list_apps(None).await.unwrap();
    assert_eq!(apps.len(), 8);
    assert!(
        apps.iter()
            .any(|a| a.platform == Some(Platform::Other("macos".into())))
    );
    let first = &projects[0].id;
    let scoped = r.client.list_apps(Some(first)).await.unwrap();
    assert!(!scoped.is_empty() && scoped.iter().all(|a| a.project_id.as_ref() == Some(first)));

    let tags = r.client.list_tags(&ScopeQuery::default()).await.unwrap();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for item in r.sim.state().read().items() {
        for tag in &item.feedback.tags {
            *counts.entry(tag.clone()).or_default() += 1;
        }
    }
    let got: BTreeMap<String, u64> = tags.iter().map(|t| (t.tag.clone(), t.count)).collect();
    assert_eq!(got, counts);
    assert!(tags.windows(2).all(|w| w[0].count >= w[1].count));
    let app_tags = r
        .client
        .list_tags(&ScopeQuery {
            app: Some(apps[0].id.clone()),
            project: None,
        })
        .await
        .unwrap();
    assert!(
        app_tags.iter().map(|t| t.count).sum::<u64>() < tags.iter().map(|t| t.count).sum::<u64>()
    );
}

#[tokio::test]
async fn detail_has_metadata_delivery_and_issue_link() {
    let r = rig(200, 10_000).await;
    let id = expected_ids(&r.sim, |it| it.issue_tracker_url().is_some())[0].clone();
    let detail = r.client.get_feedback(&id).await.unwrap();
    assert_eq!(detail.feedback.id.0, id);
    assert!(
        detail
            .issue_tracker_url()
            .unwrap()
            .starts_with("https://issues.example.com/")
    );
    assert!(detail.metadata.built_in.contains_key("locale"));
    assert!(detail.delivery.iter().any(|d| d.channel == Channel::Email));
}

#[tokio::test]
async fn each_error_code_becomes_its_typed_error() {
    let r = rig(100, 10_000).await;
    let err = r.client.get_feedback("doesnotexist").await.unwrap_err();
    assert!(
        matches!(&err, ApiError::NotFound { id } if id == "doesnotexist"),
        "{err:?}"
    );

    let bad_cursor = FeedbackQuery {
        cursor: Some(Cursor("bm90LWEtY3Vyc29y".into())),
        ..Default::default()
    };
    let err = r.client.list_feedback(&bad_cursor).await.unwrap_err();
    assert_eq!(err.code(), Some("invalid_cursor"));

    let unauthorized = rig_with(
        10,
        100,
        "service_eu_sk_not_the_demo_key",
        Timeouts::default(),
    )
    .await;
    let err = unauthorized.client.list_projects().await.unwrap_err();
    assert!(matches!(err, ApiError::Unauthorized));
    assert!(!err.to_string().contains("not_the_demo_key"));

    let starter = rig_with(10, 100, STARTER_KEY, Timeouts::default()).await;
    assert!(matches!(
        starter.client.list_tags(&ScopeQuery::default()).await,
        Err(ApiError::IndiePlanRequired)
    ));
}

#[tokio::test]
async fn simulator_enforces_every_query_rule_server_side() {
    let r = rig(50, 10_000).await;
    let http = raw_http();
    let base = r.sim.base_url();
    let cases = [
        ("/v1/feedback?limit=0", "invalid_query"),
        ("/v1/feedback?limit=101", "invalid_query"),
        ("/v1/feedback?limit=ten", "invalid_query"),
        ("/v1/feedback?status=open", "invalid_query"),
        ("/v1/feedback?app=123", "invalid_query"),
        (
            "/v1/feedback?project=zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
            "invalid_query",
        ),
        (
            "/v1/feedback?tag=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "invalid_query",
        ),
        ("/v1/feedback?cursor=", "invalid_cursor"),
        ("/v1/feedback?cursor=AAAA", "invalid_cursor"),
        ("/v1/apps?project=nope", "invalid_query"),
    ];
    for (path, code) in cases {
        let resp = http
            .get(format!("{base}{path}"))
            .bearer_auth(DEMO_KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 400, "{path}");
        let body: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(body["error"], code, "{path}");
    }
    let ok = http
        .get(format!("{base}/v1/feedback?tag={}", "é".repeat(32)))
        .bearer_auth(DEMO_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
    let missing = http
        .get(format!("{base}/v1/projects"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 401);
    let post = http
        .post(format!("{base}/v1/projects"))
        .bearer_auth(DEMO_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(post.status().as_u16(), 405);
}

#[tokio::test]
async fn cursor_from_other_filters_is_rejected() {
    let r = rig(300, 10_000).await;
    let page = r
        .client
        .list_feedback(&FeedbackQuery::default())
        .await
        .unwrap();
    let reuse = FeedbackQuery {
        status: Some(Status::Archived),
        cursor: page.next_cursor,
        ..Default::default()
    };
    assert!(matches!(
        r.client.list_feedback(&reuse).await,
        Err(ApiError::InvalidCursor { .. })
    ));
}

#[tokio::test]
async fn rate_limit_429_waits_retry_after_then_recovers() {
    let r = rig(100, 10_000).await;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::RateLimited(Some(7)),
        Some(2),
    );
    let page = r
        .client
        .list_feedback(&FeedbackQuery::default())
        .await
        .unwrap();
    assert_eq!(page.data.len(), 25);
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(
        waits
            .iter()
            .filter(|w| w.reason == WaitReason::RateLimited)
            .count(),
        2
    );
    assert!(waits.iter().all(|w| w.duration == Duration::from_secs(7)));
    assert_eq!(r.sim.stats().status(429), 2);
}

#[tokio::test]
async fn persistent_429_gives_up_with_rate_limited() {
    let r = rig(100, 10_000).await;
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::RateLimited(Some(1)), None);
    let err = r.client.list_projects().await.unwrap_err();
    assert!(
        matches!(err, ApiError::RateLimited { retry_after: Some(d) } if d == Duration::from_secs(1)),
        "{err:?}"
    );
    assert_eq!(err.code(), Some("rate_limited"));
}

#[tokio::test]
async fn spent_budget_is_paced_without_any_429() {
    let r = rig(1000, 3).await;
    let ids = walk_ids(
        &r.client,
        FeedbackQuery {
            limit: Some(100),
            ..Default::default()
        },
    )
    .await;
    let stats = r.sim.stats();
    assert_eq!(stats.status(429), 0);
    assert_eq!(
        stats.route(Route::FeedbackList),
        ids.len().div_ceil(100) as u64
    );
    assert!(
        r.waits
            .lock()
            .unwrap()
            .iter()
            .any(|w| w.reason == WaitReason::Pacing)
    );
    let limit = r.client.rate_limit();
    assert_eq!(limit.limit, Some(3));
}

#[tokio::test]
async fn server_errors_are_retried_then_recover() {
    let r = rig(100, 10_000).await;
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Status(503), Some(2));
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::HtmlStatus(502), Some(1));
    assert!(
        r.client
            .list_feedback(&FeedbackQuery::default())
            .await
            .is_ok()
    );
    assert!(r.client.list_projects().await.is_ok());
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 3);
    let retries = r
        .waits
        .lock()
        .unwrap()
        .iter()
        .filter(|w| matches!(w.reason, WaitReason::Retry { .. }))
        .count();
    assert_eq!(retries, 3);
}

#[tokio::test]
async fn persistent_server_error_stops_after_four_tries_with_a_clear_error() {
    let r = rig(100, 10_000).await;
    r.sim
        .faults()
        .add(Route::Tags, FaultKind::HtmlStatus(502), None);
    let err = r
        .client
        .list_tags(&ScopeQuery::default())
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "the service failed with HTTP 502");
    assert_eq!(r.sim.stats().route(Route::Tags), 4);
}

#[tokio::test]
async fn dropped_connection_and_truncated_body_are_retried() {
    let r = rig(100, 10_000).await;
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Drop, Some(1));
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::Truncate, 1, Some(1));
    let page = r
        .client
        .list_feedback(&FeedbackQuery {
            limit: Some(100),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        page.data.len(),
        expected_ids(&r.sim, |it| it.feedback.status == Status::New).len()
    );
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 3);
}

#[tokio::test]
async fn read_timeout_is_retried() {
    let timeouts = Timeouts {
        read: Duration::from_millis(150),
        ..Timeouts::default()
    };
    let r = rig_with(50, 10_000, DEMO_KEY, timeouts).await;
    r.sim.faults().add(
        Route::Projects,
        FaultKind::Latency(Duration::from_millis(600)),
        Some(1),
    );
    assert_eq!(r.client.list_projects().await.unwrap().len(), 3);
    let waits = r.waits.lock().unwrap().clone();
    assert!(
        matches!(&waits[0].reason, WaitReason::Retry { error, .. } if error.contains("in time")),
        "{waits:?}"
    );
}

#[tokio::test]
async fn walker_restarts_after_invalid_cursor_without_duplicates() {
    let r = rig(700, 10_000).await;
    let body = r#"{"error":"invalid_cursor","message":"cursor expired"}"#.to_owned();
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        2,
        Some(1),
    );
    let mut walker = r.client.walk(FeedbackQuery {
        limit: Some(100),
        ..Default::default()
    });
    let mut ids = Vec::new();
    while let Some(batch) = walker.next_page().await {
        ids.extend(batch.unwrap().into_iter().map(|f| f.id.0));
    }
    assert_eq!(walker.restarts(), 1);
    assert_eq!(
        ids,
        expected_ids(&r.sim, |it| it.feedback.status == Status::New)
    );
}

#[tokio::test]
async fn unknown_enum_values_and_nulls_decode() {
    let r = rig(10, 10_000).await;
    let body = r#"{"data":{"id":"x1","message":"m","reporter_email":null,"status":"spam",
        "received_at":"2026-01-01T00:00:00Z","tags":[],"app":{"id":"a","name":"A","platform":"visionos"},
        "project":{"id":"p","name":"P"},"future_field":{"nested":true},
        "metadata":{"built_in":{},"custom":{"count":3}},
        "delivery":[{"channel":"sms","status":"bounced","external_url":null}]}}"#;
    r.sim.faults().add(
        Route::FeedbackItem,
        FaultKind::Body {
            status: 200,
            body: body.into(),
        },
        Some(1),
    );
    let d = r.client.get_feedback("x1").await.unwrap();
    assert_eq!(d.feedback.status, Status::Other("spam".into()));
    assert_eq!(d.feedback.app.unwrap().platform.as_str(), "visionos");
    assert_eq!(d.delivery[0].channel, Channel::Other("sms".into()));
    assert_eq!(
        d.delivery[0].status,
        DeliveryStatus::Other("bounced".into())
    );
    assert_eq!(d.metadata.custom["count"], "3");
    assert!(d.feedback.reporter_email.is_none());
}

#[tokio::test]
async fn malformed_body_is_a_clear_error_and_not_retried() {
    let r = rig(10, 10_000).await;
    r.sim
        .faults()
        .add(Route::FeedbackList, FaultKind::Malformed, Some(1));
    let err = r
        .client
        .list_feedback(&FeedbackQuery::default())
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Decode {
                what: "feedback list",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("the service sent a malformed feedback list response")
    );
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 1);
}

#[tokio::test]
async fn every_response_updates_the_rate_limit_snapshot() {
    let r = rig(10, 50).await;
    r.client.list_projects().await.unwrap();
    assert_eq!(r.client.rate_limit().remaining, Some(49));
    let _ = r.client.get_feedback("missing").await.unwrap_err();
    let snapshot = r.client.rate_limit();
    assert_eq!((snapshot.limit, snapshot.remaining), (Some(50), Some(48)));
    assert_eq!(snapshot.reset.unwrap().as_second() % 60, 0);
}

#[tokio::test]
async fn cancelling_stops_a_rate_limit_wait() {
    let r = rig(10, 10_000).await;
    let token = tokio_util::sync::CancellationToken::new();
    token.cancel();
    let err = r
        .client
        .with_cancel(token)
        .list_projects()
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Cancelled));
}

#[tokio::test]
async fn responses_are_gzipped_and_docs_are_served() {
    let r = rig(200, 10_000).await;
    let http = raw_http();
    let base = r.sim.base_url();
    let resp = http
        .get(format!("{base}/v1/feedback?limit=100"))
        .bearer_auth(DEMO_KEY)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-encoding"], "gzip");
    for name in [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
    ] {
        assert!(resp.headers().contains_key(name), "{name}");
    }
    let doc: serde_json::Value = http
        .get(format!("{base}/v1/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(doc["info"]["version"], "1.0.0");
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    for path in [
        "/v1/feedback",
        "/v1/feedback/{id}",
        "/v1/projects",
        "/v1/apps",
        "/v1/tags",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path}");
    }
    let llms = http
        .get(format!("{base}/llms.txt"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(llms.contains("/v1/feedback"));
}

#[tokio::test]
async fn client_debug_never_shows_the_key() {
    let r = rig(10, 10).await;
    let shown = format!("{:?}", r.client);
    assert!(
        !shown.contains(&DEMO_KEY["service_eu_sk_".len()..]),
        "{shown}"
    );
}
