//! `ApiError`: one variant per error code of the spec plus transport failures. Each `Display`
//! is a short sentence for a person; server-provided text is sanitized when the error is built.

use std::time::Duration;

use thiserror::Error;

use super::model::ErrorBody;

/// Everything that can go wrong talking to the service.
#[derive(Debug, Error)]
pub enum ApiError {
    /// A query parameter broke a rule; caught before sending.
    #[error("invalid {name}: {reason}")]
    InvalidParameter { name: &'static str, reason: String },
    /// 400 invalid_query.
    #[error("the service rejected the query (invalid_query){}", detail(.message.as_ref()))]
    InvalidQuery { message: Option<String> },
    /// 400 invalid_cursor.
    #[error("the service rejected the page cursor (invalid_cursor){}", detail(.message.as_ref()))]
    InvalidCursor { message: Option<String> },
    /// 401 unauthorized.
    #[error(
        "the API key is missing or invalid (unauthorized); set FEEDBACK_API_KEY, or api_key / api_key_command in config.toml"
    )]
    Unauthorized,
    /// 403 api_access_requires_indie.
    #[error(
        "this account's plan has no API access (api_access_requires_indie); the REST API needs the Indie plan"
    )]
    IndiePlanRequired,
    /// 404 not_found.
    #[error("no feedback item with id {id} (not_found)")]
    NotFound { id: String },
    /// 429 rate_limited, after the allowed waits were used up.
    #[error("rate limited by the service (rate_limited){}", retry_hint(*.retry_after))]
    RateLimited { retry_after: Option<Duration> },
    /// 5xx or 408 after the retries were used up.
    #[error("the service failed with HTTP {status}{}", code_and_detail(.code.as_ref(), .message.as_ref()))]
    Server {
        status: u16,
        code: Option<String>,
        message: Option<String>,
    },
    /// Any other status, or an error body that is not the Error shape.
    #[error("unexpected HTTP {status} from the service{}", code_and_detail(.code.as_ref(), .message.as_ref()))]
    UnexpectedStatus {
        status: u16,
        code: Option<String>,
        message: Option<String>,
    },
    /// Connection refused, reset, dropped, or a body cut short.
    #[error("could not reach the service: {reason}")]
    Network { reason: String },
    /// No answer within the timeout.
    #[error("the service did not answer in time")]
    Timeout,
    /// A 200 whose body is not the documented shape.
    #[error("the service sent a malformed {what} response: {reason}")]
    Decode { what: &'static str, reason: String },
    /// A body over the size cap (declared or counted while reading).
    #[error(
        "the service sent a {what} response over the {} limit; stopped reading it",
        size(*.limit_bytes)
    )]
    TooLarge {
        what: &'static str,
        limit_bytes: usize,
    },
    /// The service's paging went wrong (a repeated cursor, an empty page with a cursor).
    #[error("the service's paging is broken: {reason}; stopped to avoid an endless walk")]
    Paging { reason: &'static str },
    /// The caller cancelled the request or a wait.
    #[error("request cancelled")]
    Cancelled,
    /// The client could not be set up.
    #[error("client setup failed: {0}")]
    Setup(String),
}

impl ApiError {
    /// The API's machine code for this error, when it has one.
    #[must_use]
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::InvalidQuery { .. } => Some("invalid_query"),
            Self::InvalidCursor { .. } => Some("invalid_cursor"),
            Self::Unauthorized => Some("unauthorized"),
            Self::IndiePlanRequired => Some("api_access_requires_indie"),
            Self::NotFound { .. } => Some("not_found"),
            Self::RateLimited { .. } => Some("rate_limited"),
            Self::Server { code, .. } | Self::UnexpectedStatus { code, .. } => code.as_deref(),
            _ => None,
        }
    }

    /// True for failures worth retrying for an idempotent GET: transport trouble, 408 and 5xx.
    #[must_use]
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Network { .. } | Self::Timeout | Self::Server { .. }
        )
    }

    /// Builds the error for a non-2xx, non-429 response from its status and raw body.
    /// `id` names the requested item for 404s.
    #[must_use]
    pub fn from_response(status: u16, body: &[u8], id: Option<&str>) -> Self {
        let parsed = feedback_core::json::from_slice::<ErrorBody>(body).ok();
        let code = parsed.as_ref().map(|b| clean(&b.error));
        let message = parsed.and_then(|b| b.message).map(|m| clean(&m));
        match (status, code.as_deref()) {
            (400, Some("invalid_cursor")) => Self::InvalidCursor { message },
            (400, Some("invalid_query")) => Self::InvalidQuery { message },
            (401, _) => Self::Unauthorized,
            (403, _) => Self::IndiePlanRequired,
            (404, _) if id.is_some() => Self::NotFound {
                id: clean(id.unwrap_or_default()),
            },
            (408 | 500..=599, _) => Self::Server {
                status,
                code,
                message,
            },
            _ => Self::UnexpectedStatus {
                status,
                code,
                message,
            },
        }
    }
}

/// Server text for a message: one short clean line, and never a key (a server may echo one).
fn clean(text: &str) -> String {
    feedback_core::excerpt::excerpt(&super::key::redact_keys(text), 300)
}

fn detail(message: Option<&String>) -> String {
    message.map(|m| format!(": {m}")).unwrap_or_default()
}

fn code_and_detail(code: Option<&String>, message: Option<&String>) -> String {
    let code = code.map(|c| format!(" ({c})")).unwrap_or_default();
    format!("{code}{}", detail(message))
}

fn size(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes}-byte")
    }
}

fn retry_hint(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|d| format!("; try again in {}s", d.as_secs().max(1)))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_codes_map_to_variants_with_sentences() {
        let e =
            ApiError::from_response(400, br#"{"error":"invalid_cursor","message":"bad"}"#, None);
        assert!(matches!(e, ApiError::InvalidCursor { .. }));
        assert_eq!(e.code(), Some("invalid_cursor"));
        let e = ApiError::from_response(401, br#"{"error":"unauthorized"}"#, None);
        assert!(e.to_string().contains("FEEDBACK_API_KEY"));
        let e = ApiError::from_response(403, b"{}", None);
        assert!(e.to_string().contains("Indie plan"));
        let e = ApiError::from_response(404, br#"{"error":"not_found"}"#, Some("abc123"));
        assert!(e.to_string().contains("abc123"));
    }

    #[test]
    fn non_error_shaped_body_still_names_the_status() {
        let e = ApiError::from_response(502, b"<html>Bad gateway</html>", None);
        assert!(e.is_transient());
        assert_eq!(e.to_string(), "the service failed with HTTP 502");
        let e = ApiError::from_response(418, b"teapot", None);
        assert_eq!(e.to_string(), "unexpected HTTP 418 from the service");
    }

    #[test]
    fn server_text_is_sanitized_in_errors() {
        let e = ApiError::from_response(
            400,
            b"{\"error\":\"invalid_query\",\"message\":\"\\u001b]0;pwned\\u0007bad\"}",
            None,
        );
        let shown = e.to_string();
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
            "{shown:?}"
        );
    }
}
