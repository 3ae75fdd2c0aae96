//! The client's waits against a misbehaving server: a budget reset or Retry-After far in the
//! future (cut to the cap, and the cut reported), Retry-After as an HTTP date, and the budget
//! figure after a 429 or a dropped answer.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::rig;
use feedback_api::{ApiError, ScopeQuery, WaitReason};
use feedback_core::clock::Clock;
use feedback_sim::{FaultKind, Route};

const TEN_HOURS: Duration = Duration::from_secs(10 * 3600);

#[tokio::test]
async fn a_budget_reset_far_in_the_future_is_waited_for_at_most_the_cap() {
    let r = rig(10, 10_000).await;
    let far = r.clock.now().as_second() + TEN_HOURS.as_secs().cast_signed();
    r.sim.faults().add(
        Route::Projects,
        FaultKind::Headers(vec![
            ("x-ratelimit-remaining".into(), "0".into()),
            ("x-ratelimit-reset".into(), far.to_string()),
        ]),
        Some(1),
    );
    r.client.list_projects().await.unwrap();
    r.client.list_projects().await.unwrap();
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 1, "{waits:?}");
    assert_eq!(waits[0].reason, WaitReason::Pacing);
    assert_eq!(waits[0].duration, Duration::from_secs(120));
    assert_eq!(waits[0].capped_from, Some(TEN_HOURS), "the cut is reported");
}

#[tokio::test]
async fn a_429_without_retry_after_and_a_far_reset_is_capped() {
    let r = rig(10, 10_000).await;
    let far = r.clock.now().as_second() + TEN_HOURS.as_secs().cast_signed();
    r.sim.faults().add(
        Route::Projects,
        FaultKind::Headers(vec![
            ("x-ratelimit-remaining".into(), "5".into()),
            ("x-ratelimit-reset".into(), far.to_string()),
        ]),
        Some(1),
    );
    r.client.list_projects().await.unwrap();
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::RateLimited(None), Some(1));
    r.client.list_projects().await.unwrap();
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 1, "{waits:?}");
    assert_eq!(waits[0].reason, WaitReason::RateLimited);
    assert_eq!(waits[0].duration, Duration::from_secs(120));
    assert_eq!(waits[0].capped_from, Some(TEN_HOURS), "the cut is reported");
}

#[tokio::test]
async fn a_retry_after_far_in_the_future_is_capped_and_the_cut_reported() {
    let r = rig(10, 10_000).await;
    r.sim.faults().add(
        Route::Projects,
        FaultKind::RateLimited(Some(TEN_HOURS.as_secs())),
        Some(1),
    );
    r.sim
        .faults()
        .add_after(Route::Projects, FaultKind::RateLimited(Some(3)), 1, Some(1));
    r.client.list_projects().await.unwrap();
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 2, "{waits:?}");
    assert_eq!(waits[0].duration, Duration::from_secs(120));
    assert_eq!(waits[0].capped_from, Some(TEN_HOURS));
    assert_eq!(waits[1].duration, Duration::from_secs(3));
    assert_eq!(
        waits[1].capped_from, None,
        "a wait within the cap is not cut"
    );
}

#[tokio::test]
async fn retry_after_as_an_http_date_is_honoured() {
    let r = rig(10, 10_000).await;
    let at = r.clock.now() + jiff::SignedDuration::from_secs(42);
    let date = jiff::fmt::rfc2822::DateTimePrinter::new()
        .timestamp_to_rfc9110_string(&at)
        .unwrap();
    r.sim
        .faults()
        .add(Route::Tags, FaultKind::RateLimitedRaw(date), Some(1));
    r.client.list_tags(&ScopeQuery::default()).await.unwrap();
    let waits = r.waits.lock().unwrap().clone();
    assert_eq!(waits.len(), 1, "{waits:?}");
    assert_eq!(waits[0].duration, Duration::from_secs(42));
}

#[tokio::test]
async fn after_a_429_the_budget_is_the_servers_figure() {
    let r = rig(10, 50).await;
    r.client.list_projects().await.unwrap();
    assert_eq!(r.client.rate_limit().remaining, Some(49));
    r.sim
        .faults()
        .add(Route::Projects, FaultKind::RateLimited(Some(1)), None);
    let err = r.client.list_projects().await.unwrap_err();
    assert!(matches!(err, ApiError::RateLimited { .. }), "{err:?}");
    assert_eq!(r.client.rate_limit().remaining, Some(0));
    // Nothing left until the reset: the next request waits for it, then reads the new figure.
    r.sim.faults().clear();
    r.client.list_projects().await.unwrap();
    assert_eq!(r.client.rate_limit().remaining, Some(49));
    assert_eq!(
        r.waits.lock().unwrap().last().unwrap().reason,
        WaitReason::Pacing
    );
}

#[tokio::test]
async fn a_local_count_never_shows_as_the_servers_figure() {
    let r = rig(10, 50).await;
    r.client.list_projects().await.unwrap();
    // Dropped answers carry no headers: the figure stays the server's last one.
    r.sim.faults().add(Route::Projects, FaultKind::Drop, None);
    let err = r.client.list_projects().await.unwrap_err();
    assert!(matches!(err, ApiError::Network { .. }), "{err:?}");
    assert_eq!(r.client.rate_limit().remaining, Some(49));
}
