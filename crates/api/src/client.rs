//! The API client: one async method per operation of the read API, built on reqwest.
//!
//! Every response (success or error) updates the shared [`RateLimit`]; idempotent GETs are
//! retried per [`RetryPolicy`]; every wait is reported to the optional observer, bounded and
//! cancellable through the client's [`CancellationToken`]. Bodies are read up to a size cap and
//! decoded item by item ([`super::lenient`]). The key only ever leaves as
//! `Authorization: Bearer`.

mod exchange;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use url::Url;

use super::error::ApiError;
use super::key::ApiKey;
use super::lenient;
use super::model::{App, Feedback, FeedbackDetail, Page, Project, Tag};
use super::query::{FeedbackQuery, ScopeQuery};
use super::ratelimit::{Budget, RateLimit};
use super::retry::{RetryPolicy, WaitObserver};
use super::walker::FeedbackWalker;
use feedback_core::clock::{self, SharedClock};
use feedback_core::mutex::lock;

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

/// The largest response body read (32 MiB); a larger one is an error, not memory.
pub const MAX_BODY_BYTES: usize = 32 * 1024 * 1024;

/// Builds a [`Client`].
pub struct ClientBuilder {
    base_url: Url,
    key: ApiKey,
    timeouts: Timeouts,
    max_body_bytes: usize,
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

    /// The largest response body to read (default [`MAX_BODY_BYTES`]).
    #[must_use]
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.max_body_bytes = bytes;
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
                max_body_bytes: self.max_body_bytes,
                policy: self.policy,
                clock: self.clock,
                observer: self.observer,
                rate: Mutex::new(Budget::default()),
                server_date: Mutex::new(None),
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
    max_body_bytes: usize,
    policy: RetryPolicy,
    clock: SharedClock,
    observer: Option<WaitObserver>,
    rate: Mutex<Budget>,
    /// The last answer's `Date` header, for `doctor`'s clock-skew check.
    server_date: Mutex<Option<ServerDate>>,
    rng: Mutex<fastrand::Rng>,
}

/// The server's clock as an answer's `Date` header gave it (whole seconds), beside this side's
/// clock when the answer came: `feedback-inbox doctor` compares them, since webhook
/// timestamps are judged by the local clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerDate {
    pub server: jiff::Timestamp,
    pub local: jiff::Timestamp,
}

impl ServerDate {
    /// The `Date` header of `headers` (an HTTP date), read at `local`; `None` when absent or
    /// unreadable.
    #[must_use]
    pub(crate) fn from_headers(
        headers: &reqwest::header::HeaderMap,
        local: jiff::Timestamp,
    ) -> Option<Self> {
        let text = headers.get(reqwest::header::DATE)?.to_str().ok()?.trim();
        let server = jiff::fmt::rfc2822::DateTimeParser::new()
            .parse_timestamp(text)
            .ok()?;
        Some(Self { server, local })
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base", &self.inner.base.as_str())
            .field("key", &self.inner.key)
            .finish_non_exhaustive()
    }
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
            max_body_bytes: MAX_BODY_BYTES,
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

    /// The rate-limit budget as the service last reported it.
    #[must_use]
    pub fn rate_limit(&self) -> RateLimit {
        lock(&self.inner.rate).reported()
    }

    /// The server's date from the last answer that carried a readable `Date` header.
    #[must_use]
    pub fn server_date(&self) -> Option<ServerDate> {
        *lock(&self.inner.server_date)
    }

    /// A clone whose requests and waits stop with `Cancelled` when `token` fires.
    #[must_use]
    pub fn with_cancel(&self, token: CancellationToken) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
            cancel: token,
        }
    }

    /// `GET /v1/feedback`. Items are read one by one: an odd one is kept with what is readable,
    /// a hopeless one (no id) is skipped; neither costs the page.
    pub async fn list_feedback(&self, query: &FeedbackQuery) -> Result<Page<Feedback>, ApiError> {
        Ok(self.list_feedback_counted(query).await?.page)
    }

    /// [`Client::list_feedback`], with the number of items the body held (skipped ones
    /// included).
    pub async fn list_feedback_counted(
        &self,
        query: &FeedbackQuery,
    ) -> Result<lenient::CountedPage, ApiError> {
        query.validate()?;
        self.get(
            &["feedback"],
            &query.pairs(),
            "feedback list",
            None,
            |body| lenient::feedback_page_counted(body).map_err(|e| json_reason(&e)),
        )
        .await
    }

    /// `GET /v1/feedback/{id}`. `.` and `..` name no item (URL handling would turn them into
    /// another path), nor does an id with a control character (URL handling drops tab, newline
    /// and carriage return even inside a path segment, so `.\t.` would become `..` and `a\tb`
    /// would ask for `ab`): those are not found without asking.
    pub async fn get_feedback(&self, id: &str) -> Result<FeedbackDetail, ApiError> {
        if id.trim().is_empty() {
            return Err(ApiError::InvalidParameter {
                name: "id",
                reason: "must not be empty".into(),
            });
        }
        if matches!(id, "." | "..") || id.chars().any(char::is_control) {
            return Err(ApiError::NotFound {
                id: feedback_core::text::sanitize_line(id).into_owned(),
            });
        }
        self.get(&["feedback", id], &[], "feedback item", Some(id), |body| {
            lenient::feedback_detail(body)
                .map_err(|e| json_reason(&e))?
                .ok_or_else(|| "the item has no id".to_owned())
        })
        .await
    }

    /// `GET /v1/projects`.
    pub async fn list_projects(&self) -> Result<Vec<Project>, ApiError> {
        self.get(&["projects"], &[], "project list", None, |body| {
            lenient::list::<Project>(body, "project list").map_err(|e| json_reason(&e))
        })
        .await
    }

    /// `GET /v1/apps`, optionally limited to one project.
    pub async fn list_apps(&self, project: Option<&str>) -> Result<Vec<App>, ApiError> {
        let scope = ScopeQuery {
            app: None,
            project: project.map(str::to_owned),
        };
        scope.validate()?;
        self.get(&["apps"], &scope.pairs(), "app list", None, |body| {
            lenient::list::<App>(body, "app list").map_err(|e| json_reason(&e))
        })
        .await
    }

    /// `GET /v1/tags`, optionally narrowed to an app and/or project.
    pub async fn list_tags(&self, scope: &ScopeQuery) -> Result<Vec<Tag>, ApiError> {
        scope.validate()?;
        self.get(&["tags"], &scope.pairs(), "tag list", None, |body| {
            lenient::list::<Tag>(body, "tag list").map_err(|e| json_reason(&e))
        })
        .await
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
}

/// The service's text of a JSON error, short enough for one line.
fn json_reason(error: &serde_json::Error) -> String {
    feedback_core::excerpt::excerpt(&error.to_string(), 200)
}

pub(crate) fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut current = error;
    while let Some(source) = current.source() {
        current = source;
    }
    let shown = feedback_core::text::sanitize_line(&current.to_string()).into_owned();
    super::key::redact_keys(&shown).into_owned()
}

/// reqwest is built without a default TLS crypto provider (to avoid a C toolchain dependency);
/// install rustls' ring provider once. A second install attempt is harmless.
pub fn install_crypto_provider() {
    let _already_installed = rustls::crypto::ring::default_provider().install_default();
}
