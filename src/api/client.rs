//! The API client: one async method per operation of the read API, built on reqwest.
//!
//! Every response (success or error) updates the shared [`RateLimit`]; idempotent GETs are
//! retried per [`RetryPolicy`]; every wait is reported to the optional observer and is
//! cancellable through the client's [`CancellationToken`]. The key only ever leaves as
//! `Authorization: Bearer`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::header::{ACCEPT, HeaderMap};
use serde::de::DeserializeOwned;
use tokio_util::sync::CancellationToken;
use url::Url;

use super::error::ApiError;
use super::key::ApiKey;
use super::model::{App, Data, Feedback, FeedbackDetail, Page, Project, Tag};
use super::query::{FeedbackQuery, ScopeQuery};
use super::ratelimit::{RateLimit, retry_after};
use super::retry::{RetryPolicy, Wait, WaitObserver, WaitReason};
use super::walker::FeedbackWalker;
use crate::clock::{self, SharedClock, lock};

/// Connection and read timeouts.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Duration,
    pub read: Duration,
    pub total: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            connect: Duration::from_secs(10),
            read: Duration::from_secs(30),
            total: Duration::from_secs(60),
        }
    }
}

/// Builds a [`Client`].
pub struct ClientBuilder {
    base_url: Url,
    key: ApiKey,
    timeouts: Timeouts,
    policy: RetryPolicy,
    clock: SharedClock,
    observer: Option<WaitObserver>,
}

impl ClientBuilder {
    #[must_use]
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.timeouts = timeouts;
        self
    }

    #[must_use]
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = policy;
        self
    }

    #[must_use]
    pub fn clock(mut self, clock: SharedClock) -> Self {
        self.clock = clock;
        self
    }

    /// Called with every wait (retry backoff, 429, pacing) before it starts.
    #[must_use]
    pub fn on_wait(mut self, observer: WaitObserver) -> Self {
        self.observer = Some(observer);
        self
    }

    pub fn build(self) -> Result<Client, ApiError> {
        install_crypto_provider();
        let http = reqwest::Client::builder()
            .user_agent(concat!("feedback-inbox/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(self.timeouts.connect)
            .read_timeout(self.timeouts.read)
            .timeout(self.timeouts.total)
            .gzip(true)
            .https_only(!super::base_url::is_loopback(&self.base_url))
            .build()
            .map_err(|e| ApiError::Setup(root_cause(&e)))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                base: self.base_url,
                key: self.key,
                policy: self.policy,
                clock: self.clock,
                observer: self.observer,
                rate: Mutex::new(RateLimit::default()),
                rng: Mutex::new(fastrand::Rng::new()),
            }),
            cancel: CancellationToken::new(),
        })
    }
}

/// A handle to the service; cheap to clone, clones share the rate-limit snapshot.
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
    cancel: CancellationToken,
}

struct Inner {
    http: reqwest::Client,
    base: Url,
    key: ApiKey,
    policy: RetryPolicy,
    clock: SharedClock,
    observer: Option<WaitObserver>,
    rate: Mutex<RateLimit>,
    rng: Mutex<fastrand::Rng>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.inner.base.as_str())
            .field("key", &self.inner.key)
            .finish_non_exhaustive()
    }
}

/// How one attempt ended.
enum Attempt<T> {
    Done(T),
    RateLimited(Option<Duration>),
}

impl Client {
    /// Starts a builder; `base_url` is normalised (see [`super::base_url::normalize`]).
    pub fn builder(base_url: &str, key: ApiKey) -> Result<ClientBuilder, ApiError> {
        let base_url =
            super::base_url::normalize(base_url).map_err(|e| ApiError::Setup(e.to_string()))?;
        Ok(ClientBuilder {
            base_url,
            key,
            timeouts: Timeouts::default(),
            policy: RetryPolicy::default(),
            clock: clock::system(),
            observer: None,
        })
    }

    /// The normalised base URL.
    #[must_use]
    pub fn base_url(&self) -> &Url {
        &self.inner.base
    }

    /// The last known rate-limit budget.
    #[must_use]
    pub fn rate_limit(&self) -> RateLimit {
        *lock(&self.inner.rate)
    }

    /// A clone whose requests and waits stop with `Cancelled` when `token` fires.
    #[must_use]
    pub fn with_cancel(&self, token: CancellationToken) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            cancel: token,
        }
    }

    /// `GET /v1/feedback`.
    pub async fn list_feedback(&self, query: &FeedbackQuery) -> Result<Page<Feedback>, ApiError> {
        query.validate()?;
        self.get(&["feedback"], &query.pairs(), "feedback list", None)
            .await
    }

    /// `GET /v1/feedback/{id}`.
    pub async fn get_feedback(&self, id: &str) -> Result<FeedbackDetail, ApiError> {
        if id.trim().is_empty() {
            return Err(ApiError::InvalidParameter {
                name: "id",
                reason: "must not be empty".into(),
            });
        }
        let data: Data<FeedbackDetail> = self
            .get(&["feedback", id], &[], "feedback item", Some(id))
            .await?;
        Ok(data.data)
    }

    /// `GET /v1/projects`.
    pub async fn list_projects(&self) -> Result<Vec<Project>, ApiError> {
        let data: Data<Vec<Project>> = self.get(&["projects"], &[], "project list", None).await?;
        Ok(data.data)
    }

    /// `GET /v1/apps`, optionally limited to one project.
    pub async fn list_apps(&self, project: Option<&str>) -> Result<Vec<App>, ApiError> {
        let scope = ScopeQuery {
            app: None,
            project: project.map(str::to_owned),
        };
        scope.validate()?;
        let data: Data<Vec<App>> = self
            .get(&["apps"], &scope.pairs(), "app list", None)
            .await?;
        Ok(data.data)
    }

    /// `GET /v1/tags`, optionally narrowed to an app and/or project.
    pub async fn list_tags(&self, scope: &ScopeQuery) -> Result<Vec<Tag>, ApiError> {
        scope.validate()?;
        let data: Data<Vec<Tag>> = self
            .get(&["tags"], &scope.pairs(), "tag list", None)
            .await?;
        Ok(data.data)
    }

    /// Walks every page of a query by cursor; see [`FeedbackWalker`].
    #[must_use]
    pub fn walk(&self, query: FeedbackQuery) -> FeedbackWalker {
        FeedbackWalker::new(self.clone(), query)
    }

    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.inner.base.clone();
        if let Ok(mut path) = url.path_segments_mut() {
            path.pop_if_empty().push("v1").extend(segments);
        }
        url
    }

    /// One logical GET: pacing, attempts, retries and waits.
    async fn get<T: DeserializeOwned>(
        &self,
        segments: &[&str],
        query: &[(&'static str, String)],
        what: &'static str,
        id: Option<&str>,
    ) -> Result<T, ApiError> {
        let url = self.url(segments);
        let policy = &self.inner.policy;
        let (mut failures, mut rate_waits) = (0, 0);
        loop {
            self.pace().await?;
            match self.attempt(&url, query, what, id).await {
                Ok(Attempt::Done(value)) => return Ok(value),
                Ok(Attempt::RateLimited(after)) => {
                    rate_waits += 1;
                    if rate_waits > policy.max_rate_limit_waits {
                        return Err(ApiError::RateLimited { retry_after: after });
                    }
                    let wait = after
                        .unwrap_or_else(|| self.until_reset())
                        .min(policy.max_rate_limit_wait);
                    self.wait(WaitReason::RateLimited, wait).await?;
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

    async fn attempt<T: DeserializeOwned>(
        &self,
        url: &Url,
        query: &[(&'static str, String)],
        what: &'static str,
        id: Option<&str>,
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
        self.record_headers(response.headers());
        let after = retry_after(response.headers());
        let body = tokio::select! {
            biased;
            () = self.cancel.cancelled() => return Err(ApiError::Cancelled),
            body = response.bytes() => body.map_err(transport_error)?,
        };
        match status {
            200..=299 => decode(&body, what).map(Attempt::Done),
            429 => Ok(Attempt::RateLimited(after)),
            _ => Err(ApiError::from_response(status, &body, id)),
        }
    }

    fn record_headers(&self, headers: &HeaderMap) {
        lock(&self.inner.rate).merge_headers(headers);
    }

    fn until_reset(&self) -> Duration {
        let now = self.inner.clock.now();
        lock(&self.inner.rate)
            .reset
            .map_or(Duration::from_secs(1), |reset| {
                clock::until(now, reset).max(Duration::from_secs(1))
            })
    }

    /// Holds the request back while the known budget is spent.
    async fn pace(&self) -> Result<(), ApiError> {
        loop {
            let now = self.inner.clock.now();
            let hold = lock(&self.inner.rate).reserve(now);
            match hold {
                Some(wait) => self.wait(WaitReason::Pacing, wait).await?,
                None => return Ok(()),
            }
        }
    }

    async fn wait(&self, reason: WaitReason, duration: Duration) -> Result<(), ApiError> {
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

fn decode<T: DeserializeOwned>(body: &[u8], what: &'static str) -> Result<T, ApiError> {
    crate::json::from_slice(body).map_err(|e| ApiError::Decode {
        what,
        reason: crate::width::excerpt(&e.to_string(), 200),
    })
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

fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(source) = current.source() {
        current = source;
    }
    crate::text::sanitize_line(&current.to_string()).into_owned()
}

/// reqwest is built without a default TLS crypto provider (to avoid a C toolchain dependency);
/// install rustls' ring provider once. A second install attempt is harmless.
pub(crate) fn install_crypto_provider() {
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
}
