//! Fault knobs that edit the real answer or send an oversize one: a text replaced in the body,
//! headers overridden, the request's own cursor (or one never sent) handed back as `next_cursor`,
//! the first page whatever the cursor, a body that never ends (of a success or of an error), and
//! a `Content-Length` far larger than what is sent.

use std::io;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

/// Bytes per chunk of the endless body.
const CHUNK_BYTES: usize = 64 * 1024;

/// The real body, whole; an unreadable body becomes empty (the edit then has nothing to do).
async fn body_bytes(body: Body) -> Bytes {
    axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default()
}

/// `response` with the first `find` in its body replaced by `replace`.
pub(crate) async fn rewrite(response: Response, find: &str, replace: &str) -> Response {
    let (mut parts, body) = response.into_parts();
    let text = String::from_utf8_lossy(&body_bytes(body).await).into_owned();
    let edited = text.replacen(find, replace, 1);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(edited))
}

/// `response` with `headers` set; names or values that HTTP cannot carry are skipped.
pub(crate) fn with_headers(mut response: Response, headers: &[(String, String)]) -> Response {
    for (name, value) in headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}

/// The real page with `next_cursor` set to `cursor` (e.g. the one the request sent); without
/// one, the real page.
pub(crate) async fn set_next_cursor(response: Response, cursor: Option<String>) -> Response {
    let Some(cursor) = cursor else {
        return response;
    };
    let (mut parts, body) = response.into_parts();
    let bytes = body_bytes(body).await;
    let Ok(mut page) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    page["next_cursor"] = serde_json::Value::String(cursor);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(page.to_string()))
}

/// The `cursor` query parameter of a request.
#[must_use]
pub(crate) fn request_cursor(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .find(|(name, _)| name == "cursor")
        .map(|(_, value)| value.into_owned())
}

/// `request` without its `cursor` query parameter, so it asks for the first page.
#[must_use]
pub(crate) fn without_cursor(mut request: Request) -> Request {
    let uri = request.uri();
    let pairs = url::form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .filter(|(name, _)| name != "cursor");
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    let target = if query.is_empty() {
        uri.path().to_owned()
    } else {
        format!("{}?{query}", uri.path())
    };
    if let Ok(target) = target.parse::<Uri>() {
        *request.uri_mut() = target;
    }
    request
}

/// 200 whose JSON-looking body never ends. `Content-Encoding: identity` keeps the compression
/// layer from touching it.
pub(crate) fn endless() -> Response {
    identity(Response::new(endless_body(b"{\"data\":[")))
}

/// `status` (with `Retry-After` when given) whose Error-shaped body never ends.
pub(crate) fn endless_error(status: StatusCode, retry_after: Option<u64>) -> Response {
    let start: &'static [u8] = if status == StatusCode::TOO_MANY_REQUESTS {
        b"{\"error\":\"rate_limited\",\"message\":\"rate limit exceeded "
    } else {
        b"{\"error\":\"internal_error\",\"message\":\"injected failure "
    };
    let mut response = identity(Response::new(endless_body(start)));
    *response.status_mut() = status;
    if let Some(after) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(after));
    }
    response
}

/// `start`, then spaces forever.
fn endless_body(start: &'static [u8]) -> Body {
    let mut first = true;
    let chunks = futures_util::stream::repeat_with(move || {
        let chunk = if first {
            Bytes::from_static(start)
        } else {
            Bytes::from(vec![b' '; CHUNK_BYTES])
        };
        first = false;
        Ok::<_, io::Error>(chunk)
    });
    Body::from_stream(chunks)
}

/// 200 declaring `length` bytes, sending a few and then stalling (the client must refuse it from
/// the header alone).
pub(crate) fn declared_length(length: u64) -> Response {
    let start =
        futures_util::stream::iter([Ok::<_, io::Error>(Bytes::from_static(b"{\"data\":["))]);
    let stall = futures_util::stream::pending::<Result<Bytes, io::Error>>();
    let mut response = identity(Response::new(Body::from_stream(
        futures_util::StreamExt::chain(start, stall),
    )));
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    response
}

fn identity(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::CONTENT_ENCODING,
        HeaderValue::from_static("identity"),
    );
    response
}

/// 429 with `Retry-After` set verbatim.
pub(crate) fn rate_limited_raw(retry_after: &str) -> Response {
    let mut response = super::routes::error(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        "rate limit exceeded",
    );
    if let Ok(value) = HeaderValue::from_str(retry_after) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response.into_response()
}
