//! Middleware: fault injection and statistics (outermost), then authentication and the
//! per-minute rate limit with its headers on every authenticated answer.

use std::io;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::edits;
use super::faults::{FaultKind, Route};
use super::limiter::Decision;
use super::routes::error;
use super::state::SimState;
use super::{DEMO_KEY, STARTER_KEY};

/// Applies armed faults and counts every request with its final status.
pub(crate) async fn faults(
    State(state): State<Arc<SimState>>,
    request: Request,
    next: Next,
) -> Response {
    let route = Route::of(request.uri().path());
    state.arrive();
    let kinds = state.faults.take(route);
    let mut delay = state.latency;
    for kind in &kinds {
        if let FaultKind::Latency(extra) = kind {
            delay += *extra;
        }
    }
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let fault = kinds
        .into_iter()
        .find(|k| !matches!(k, FaultKind::Latency(_)));
    let response = match fault {
        Some(kind) => injected(kind, request, next).await,
        None => next.run(request).await,
    };
    state.record(route, response.status().as_u16());
    response
}

async fn injected(kind: FaultKind, request: Request, next: Next) -> Response {
    match kind {
        FaultKind::Status(code) => error(status(code), "internal_error", "injected failure"),
        FaultKind::HtmlStatus(code) => (
            status(code),
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body><h1>Bad Gateway</h1></body></html>",
        )
            .into_response(),
        FaultKind::RateLimited(after) => {
            let mut response = error(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "rate limit exceeded",
            );
            if let Some(after) = after {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(after));
            }
            response
        }
        FaultKind::Drop => broken_body(StatusCode::OK, Bytes::new()),
        FaultKind::Truncate => {
            let (parts, body) = next.run(request).await.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX)
                .await
                .unwrap_or_default();
            let half = bytes.slice(..bytes.len() / 2);
            let mut response = broken_body(parts.status, half);
            for name in [
                header::CONTENT_TYPE,
                header::HeaderName::from_static("x-ratelimit-remaining"),
            ] {
                if let Some(value) = parts.headers.get(&name) {
                    response.headers_mut().insert(name, value.clone());
                }
            }
            response
        }
        FaultKind::Malformed => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"data": [{"id": "x", "message": "#,
        )
            .into_response(),
        FaultKind::Body { status: code, body } => (
            status(code),
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
        FaultKind::Latency(_) => next.run(request).await,
        FaultKind::RateLimitedRaw(after) => edits::rate_limited_raw(&after),
        FaultKind::Rewrite { find, replace } => {
            edits::rewrite(next.run(request).await, &find, &replace).await
        }
        FaultKind::Headers(headers) => edits::with_headers(next.run(request).await, &headers),
        FaultKind::RepeatCursor => {
            let cursor = edits::request_cursor(request.uri().query());
            edits::set_next_cursor(next.run(request).await, cursor).await
        }
        FaultKind::FreshCursor => {
            let cursor = edits::request_cursor(request.uri().query());
            let fresh = format!("{}.again", cursor.as_deref().unwrap_or("first"));
            let response = next.run(edits::without_cursor(request)).await;
            edits::set_next_cursor(response, Some(fresh)).await
        }
        FaultKind::Endless => edits::endless(),
        FaultKind::EndlessError {
            status: code,
            retry_after,
        } => edits::endless_error(status(code), retry_after),
        FaultKind::DeclaredLength(length) => edits::declared_length(length),
    }
}

fn status(code: u16) -> StatusCode {
    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// A response whose body sends `prefix` and then fails, so the connection is cut mid-answer.
fn broken_body(status: StatusCode, prefix: Bytes) -> Response {
    let chunks: Vec<Result<Bytes, io::Error>> = vec![
        Ok(prefix),
        Err(io::Error::new(
            io::ErrorKind::ConnectionAborted,
            "injected drop",
        )),
    ];
    let mut response = Response::new(Body::from_stream(futures_util::stream::iter(chunks)));
    *response.status_mut() = status;
    response
}

/// Checks the bearer key and the per-minute budget; adds the rate-limit headers.
pub(crate) async fn auth(
    State(state): State<Arc<SimState>>,
    request: Request,
    next: Next,
) -> Response {
    let key = bearer(request.headers()).unwrap_or_default().to_owned();
    if key == STARTER_KEY {
        return error(
            StatusCode::FORBIDDEN,
            "api_access_requires_indie",
            "API access requires the Indie plan",
        );
    }
    if key != DEMO_KEY {
        return error(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "missing or invalid API key",
        );
    }
    let decision = state.limiter.check(&key, state.clock.now());
    let mut response = if decision.allowed {
        next.run(request).await
    } else {
        let mut r = error(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "rate limit exceeded; wait for the reset",
        );
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(decision.retry_after));
        r
    };
    rate_headers(response.headers_mut(), &decision);
    response
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

fn rate_headers(headers: &mut HeaderMap, decision: &Decision) {
    headers.insert("x-ratelimit-limit", HeaderValue::from(decision.limit));
    headers.insert(
        "x-ratelimit-remaining",
        HeaderValue::from(decision.remaining),
    );
    headers.insert("x-ratelimit-reset", HeaderValue::from(decision.reset));
}
