//! One logical GET: pacing by the known budget, attempts, retries and waits, a body read with a
//! size cap (of an error answer only its start is read), and decoding. Every wait is bounded: a
//! 429's Retry-After, a budget reset far in the future (a server bug or clock skew) and pacing
//! are all capped at
//! [`RetryPolicy::max_rate_limit_wait`](crate::RetryPolicy::max_rate_limit_wait).

use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_LENGTH};
use url::Url;

use super::{Client, ServerDate, root_cause};
use crate::error::ApiError;
use crate::ratelimit::retry_after;
use crate::retry::{Wait, WaitReason};
use feedback_core::mutex::lock;

/// Turns a body into a value, or says why not.
pub(super) type Decoder<T> = fn(&[u8]) -> Result<T, String>;

/// The most of an error answer's body that is read; the size cap applies to successful answers.
const ERROR_BODY_BYTES: usize = 64 * 1024;

/// How one attempt ended.
enum Attempt<T> {
    Done(T),
    RateLimited(Option<Duration>),
}

/// A request the budget counts in flight: its answer is recorded, or (no answer: a failed
/// connection, a cancelled or dropped request) its place is given back.
pub(super) struct InFlight<'c> {
    budget: &'c std::sync::Mutex<crate::ratelimit::Budget>,
    open: bool,
}

impl InFlight<'_> {
    fn answered(&mut self, status: u16, headers: &reqwest::header::HeaderMap) {
        lock(self.budget).record(status, headers);
        self.open = false;
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if self.open {
            lock(self.budget).release();
        }
    }
}

impl Client {
    /// One logical GET: pacing, attempts, retries and waits.
    pub(super) async fn get<T>(
        &self,
        segments: &[&str],
        query: &[(&'static str, String)],
        what: &'static str,
        id: Option<&str>,
        decode: Decoder<T>,
    ) -> Result<T, ApiError> {
        let url = self.url(segments);
        let policy = &self.inner.policy;
        let (mut failures, mut rate_waits) = (0, 0);
        loop {
            let sent = self.pace().await?;
            match self.attempt(&url, query, what, id, decode, sent).await {
                Ok(Attempt::Done(value)) => return Ok(value),
                Ok(Attempt::RateLimited(after)) => {
                    rate_waits += 1;
                    if rate_waits > policy.max_rate_limit_waits {
                        return Err(ApiError::RateLimited { retry_after: after });
                    }
                    let wait = after.unwrap_or_else(|| self.until_reset());
                    self.wait(WaitReason::RateLimited, wait).await?;
                    // The server said when to retry; the next answer tells the new budget.
                    lock(&self.inner.rate).forget_spent();
                }
                Err(error) if error.is_transient() && failures + 1 < policy.max_tries => {
                    failures += 1;
                    tracing::debug!(%error, failures, "transient failure, retrying");
                    let delay = policy.backoff(failures, &mut lock(&self.inner.rng));
                    let reason = WaitReason::Retry {
                        attempt: failures + 1,
                        max_tries: policy.max_tries,
                        error: error.to_string(),
                    };
                    self.wait(reason, delay).await?;
                }
                Err(error) => return Err(error),
            }
        }
    }

    async fn attempt<T>(
        &self,
        url: &Url,
        query: &[(&'static str, String)],
        what: &'static str,
        id: Option<&str>,
        decode: Decoder<T>,
        mut sent: InFlight<'_>,
    ) -> Result<Attempt<T>, ApiError> {
        let request = self
            .inner
            .http
            .get(url.clone())
            .query(query)
            .bearer_auth(self.inner.key.expose())
            .header(ACCEPT, "application/json");
        let response = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return Err(ApiError::Cancelled),
            sent = request.send() => sent.map_err(transport_error)?,
        };
        let status = response.status().as_u16();
        sent.answered(status, response.headers());
        if let Some(date) = ServerDate::from_headers(response.headers(), self.inner.clock.now()) {
            *lock(&self.inner.server_date) = Some(date);
        }
        let after = retry_after(response.headers(), self.inner.clock.now());
        let body = if (200..=299).contains(&status) {
            self.read_body(response, what).await?
        } else {
            self.read_error_body(response).await?
        };
        match status {
            200..=299 => decode(&body)
                .map(Attempt::Done)
                .map_err(|reason| ApiError::Decode { what, reason }),
            429 => Ok(Attempt::RateLimited(after)),
            _ => Err(ApiError::from_response(status, &body, id)),
        }
    }

    /// Reads the body chunk by chunk and stops past the cap, so a runaway body costs at most
    /// the cap in memory; a declared `Content-Length` over the cap is refused unread.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        what: &'static str,
    ) -> Result<Vec<u8>, ApiError> {
        let limit = self.inner.max_body_bytes;
        let too_large = ApiError::TooLarge {
            what,
            limit_bytes: limit,
        };
        let declared = response
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
            .or_else(|| response.content_length());
        if declared.is_some_and(|n| n > limit as u64) {
            return Err(too_large);
        }
        let mut body = Vec::new();
        loop {
            let chunk = tokio::select! {
                biased;
                () = self.cancel.cancelled() => return Err(ApiError::Cancelled),
                chunk = response.chunk() => chunk.map_err(transport_error)?,
            };
            let Some(chunk) = chunk else {
                return Ok(body);
            };
            if body.len().saturating_add(chunk.len()) > limit {
                return Err(too_large);
            }
            body.extend_from_slice(&chunk);
        }
    }

    /// Reads the start of an error answer's body, at most [`ERROR_BODY_BYTES`]: its status says
    /// what happened and the start holds the message. The rest is dropped unread (the
    /// connection is then closed rather than reused), and a body that breaks off is kept as far
    /// as it came, so a 429 or 5xx with an oversize or broken body is still waited out or
    /// retried.
    async fn read_error_body(&self, mut response: reqwest::Response) -> Result<Vec<u8>, ApiError> {
        let mut body = Vec::new();
        while body.len() < ERROR_BODY_BYTES {
            let chunk = tokio::select! {
                biased;
                () = self.cancel.cancelled() => return Err(ApiError::Cancelled),
                chunk = response.chunk() => chunk,
            };
            match chunk {
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(error) => {
                    tracing::debug!(error = %root_cause(&error.without_url()), "error body broke off");
                    break;
                }
            }
        }
        body.truncate(ERROR_BODY_BYTES);
        Ok(body)
    }

    /// Time until the window resets (at least a second; the wait caps it).
    fn until_reset(&self) -> Duration {
        let now = self.inner.clock.now();
        lock(&self.inner.rate)
            .until_reset(now)
            .unwrap_or(Duration::ZERO)
            .max(Duration::from_secs(1))
    }

    /// Holds the request back while the known budget is spent: until the reset, but never
    /// longer than the longest rate-limit wait; then the request is sent and its answer tells
    /// the new budget.
    async fn pace(&self) -> Result<InFlight<'_>, ApiError> {
        let now = self.inner.clock.now();
        let hold = lock(&self.inner.rate).reserve(now);
        if let Some(wait) = hold {
            self.wait(WaitReason::Pacing, wait).await?;
            let mut rate = lock(&self.inner.rate);
            rate.forget_spent();
            rate.sent();
        }
        Ok(InFlight {
            budget: &self.inner.rate,
            open: true,
        })
    }

    /// Waits `requested`, reported first; a rate-limit or pacing wait longer than the longest
    /// allowed is cut to it, and the report says so.
    async fn wait(&self, reason: WaitReason, requested: Duration) -> Result<(), ApiError> {
        let cap = self.inner.policy.max_rate_limit_wait;
        let capped_from =
            (!matches!(reason, WaitReason::Retry { .. }) && requested > cap).then_some(requested);
        let duration = if capped_from.is_some() {
            cap
        } else {
            requested
        };
        let clock = &self.inner.clock;
        let until = clock
            .now()
            .checked_add(
                jiff::SignedDuration::try_from(duration).unwrap_or(jiff::SignedDuration::MAX),
            )
            .unwrap_or(jiff::Timestamp::MAX);
        let wait = Wait {
            reason,
            duration,
            until,
            capped_from,
        };
        tracing::info!(?wait, "waiting");
        if let Some(observer) = &self.inner.observer {
            observer(&wait);
        }
        tokio::select! {
            biased;
            () = self.cancel.cancelled() => Err(ApiError::Cancelled),
            () = clock.sleep(duration) => Ok(()),
        }
    }
}

/// Maps a reqwest failure to `Timeout` or `Network` with its root cause (never the URL, which
/// could carry a cursor, and never headers).
fn transport_error(error: reqwest::Error) -> ApiError {
    if error.is_timeout() {
        ApiError::Timeout
    } else {
        ApiError::Network {
            reason: root_cause(&error.without_url()),
        }
    }
}
