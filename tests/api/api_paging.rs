//! The cursor walker against a server whose paging is broken: a repeated cursor, an empty page
//! with a cursor, pages of items already listed under ever new cursors, pages whose items are
//! all unreadable; and the legitimate re-reading after `invalid_cursor`.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::{expected_ids, rig};
use feedback_api::{ApiError, FeedbackQuery, Status};
use feedback_sim::{FaultKind, Route};

fn all_new() -> FeedbackQuery {
    FeedbackQuery {
        limit: Some(100),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_repeated_cursor_stops_the_walk_with_a_clear_error() {
    let r = rig(450, 10_000).await;
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::RepeatCursor, 1, None);
    let mut walker = r.client.walk(all_new());
    let mut outcomes = Vec::new();
    let walk = async {
        while let Some(batch) = walker.next_page().await {
            let failed = batch.is_err();
            outcomes.push(batch.map(|b| b.len()));
            if failed {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), walk)
        .await
        .expect("the walk ends");
    let last = outcomes.pop().unwrap().unwrap_err();
    assert!(matches!(last, ApiError::Paging { .. }), "{last:?}");
    assert!(last.to_string().contains("already sent"), "{last}");
    // The second page handed back its own cursor: one page was yielded, then the error.
    assert_eq!(
        outcomes.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
        [100]
    );
}

#[tokio::test]
async fn an_empty_page_with_a_cursor_stops_the_walk() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body {
            status: 200,
            body: r#"{"data":[],"next_cursor":"again"}"#.into(),
        },
        None,
    );
    let mut walker = r.client.walk(all_new());
    let first = tokio::time::timeout(Duration::from_secs(20), walker.next_page())
        .await
        .expect("the walk ends");
    let err = first.unwrap().unwrap_err();
    assert!(err.to_string().contains("empty page"), "{err}");
    assert_eq!(r.sim.stats().route(Route::FeedbackList), 1);
}

/// Walks to the end or the first error (bounded, so an endless walk fails the test); the sizes
/// of the batches, and the error if one ended the walk.
async fn walk(walker: &mut feedback_api::FeedbackWalker) -> (Vec<String>, Option<ApiError>) {
    let mut ids = Vec::new();
    let run = async {
        while let Some(batch) = walker.next_page().await {
            match batch {
                Ok(items) => ids.extend(items.into_iter().map(|f| f.id.0)),
                Err(error) => return Some(error),
            }
        }
        None
    };
    let error = tokio::time::timeout(Duration::from_secs(20), run)
        .await
        .expect("the walk ends");
    (ids, error)
}

#[tokio::test]
async fn a_page_whose_items_were_all_skipped_is_not_an_empty_page() {
    let r = rig(450, 10_000).await;
    let first = r.client.list_feedback(&all_new()).await.unwrap();
    let cursor = first.next_cursor.unwrap();
    let body = format!(
        r#"{{"data":[{{"message":"no id"}},{{"id":null,"message":"null id"}}],"next_cursor":"{}"}}"#,
        cursor.0
    );
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Body { status: 200, body },
        Some(1),
    );
    let mut walker = r.client.walk(all_new());
    let (ids, error) = walk(&mut walker).await;
    assert!(error.is_none(), "{error:?}");
    let expected = expected_ids(&r.sim, |it| it.feedback.status == Status::New);
    assert_eq!(ids, expected[100..]);
}

#[tokio::test]
async fn new_cursors_over_items_already_listed_stop_the_walk() {
    let r = rig(450, 10_000).await;
    r.sim
        .faults()
        .add_after(Route::FeedbackList, FaultKind::FreshCursor, 1, None);
    let mut walker = r.client.walk(all_new());
    let (ids, error) = walk(&mut walker).await;
    let error = error.expect("the walk stops with an error");
    assert!(matches!(error, ApiError::Paging { .. }), "{error:?}");
    assert!(
        error.to_string().contains("items already listed"),
        "{error}"
    );
    let expected = expected_ids(&r.sim, |it| it.feedback.status == Status::New);
    assert_eq!(ids, expected[..100]);
    // One page with new items, then 1 + STALE_SLACK pages without are tolerated; the next stops.
    let tolerated = 1 + feedback_api::walker::STALE_SLACK;
    assert_eq!(walker.requests(), 1 + tolerated + 1);
    assert_eq!(
        r.sim.stats().route(Route::FeedbackList),
        u64::from(1 + tolerated + 1)
    );
}

#[tokio::test]
async fn a_restart_rereads_every_page_it_had_walked() {
    let r = rig(1500, 10_000).await;
    let expected = expected_ids(&r.sim, |it| it.feedback.status == Status::New);
    let pages_before: u32 = 6;
    assert!(expected.len() > 600, "{}", expected.len());
    let body = r#"{"error":"invalid_cursor","message":"cursor keys rotated"}"#.to_owned();
    r.sim.faults().add_after(
        Route::FeedbackList,
        FaultKind::Body { status: 400, body },
        pages_before,
        Some(1),
    );
    let mut walker = r.client.walk(all_new());
    let (ids, error) = walk(&mut walker).await;
    assert!(error.is_none(), "{error:?}");
    assert_eq!(walker.restarts(), 1);
    assert_eq!(ids, expected);
}
