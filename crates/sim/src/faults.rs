//! Fault injection for tests: latency, 5xx, 429, dropped connections, truncated or malformed
//! bodies, canned bodies, edits of the real answer (a text replaced, headers overridden, a
//! repeated cursor, the first page under ever new cursors) and oversize bodies (of errors too), on chosen routes, for a number of requests or until
//! cleared.

use std::sync::Mutex;
use std::time::Duration;

use feedback_core::mutex::lock;

/// Which requests a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Route {
    Any,
    FeedbackList,
    FeedbackItem,
    Projects,
    Apps,
    Tags,
    Other,
}

impl Route {
    /// Classifies a request path.
    #[must_use]
    pub fn of(path: &str) -> Self {
        match path.trim_end_matches('/') {
            "/v1/feedback" => Self::FeedbackList,
            "/v1/projects" => Self::Projects,
            "/v1/apps" => Self::Apps,
            "/v1/tags" => Self::Tags,
            p if p.starts_with("/v1/feedback/") => Self::FeedbackItem,
            _ => Self::Other,
        }
    }

    fn matches(self, route: Self) -> bool {
        self == Self::Any || self == route
    }
}

/// What goes wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultKind {
    /// Answer later by this much.
    Latency(Duration),
    /// Answer with this status and an Error-shaped JSON body.
    Status(u16),
    /// Answer with this status and an HTML body (not the Error shape).
    HtmlStatus(u16),
    /// 429 with this Retry-After (seconds), or none.
    RateLimited(Option<u64>),
    /// Close the connection without a complete response.
    Drop,
    /// Send the real response but cut the body off halfway.
    Truncate,
    /// 200 with a body that is not valid JSON.
    Malformed,
    /// This status and body instead of the real response.
    Body { status: u16, body: String },
    /// 429 with this Retry-After value verbatim (e.g. an HTTP date).
    RateLimitedRaw(String),
    /// The real response with the first occurrence of `find` in its body replaced (e.g. to put
    /// a lone surrogate escape into a real page that still has a working cursor).
    Rewrite { find: String, replace: String },
    /// The real response with these headers set (replacing any of the same name).
    Headers(Vec<(String, String)>),
    /// The real list page, but its `next_cursor` is the cursor the request sent (a server that
    /// repeats a cursor); a request without a cursor gets the real page.
    RepeatCursor,
    /// The first list page whatever cursor the request sent, with a `next_cursor` never sent
    /// before (a server stuck on one page that keeps minting cursors).
    FreshCursor,
    /// 200 with a body that never ends (and no length).
    Endless,
    /// This status (429 with this Retry-After, if any) with an Error-shaped body that never ends.
    EndlessError {
        status: u16,
        retry_after: Option<u64>,
    },
    /// 200 declaring this `Content-Length`, then sending a few bytes and stalling.
    DeclaredLength(u64),
}

#[derive(Debug, Clone)]
struct Fault {
    route: Route,
    kind: FaultKind,
    /// Matching requests to let through before the fault starts.
    skip: u32,
    remaining: Option<u32>,
}

/// The armed faults of a running simulator.
#[derive(Debug, Default)]
pub struct Faults {
    armed: Mutex<Vec<Fault>>,
}

impl Faults {
    /// Arms `kind` on `route` for the next `times` matching requests (`None`: until cleared).
    pub fn add(&self, route: Route, kind: FaultKind, times: Option<u32>) {
        self.add_after(route, kind, 0, times);
    }

    /// Like [`Faults::add`], but lets `skip` matching requests through first.
    pub fn add_after(&self, route: Route, kind: FaultKind, skip: u32, times: Option<u32>) {
        lock(&self.armed).push(Fault {
            route,
            kind,
            skip,
            remaining: times,
        });
    }

    /// Disarms everything.
    pub fn clear(&self) {
        lock(&self.armed).clear();
    }

    /// Takes the faults that apply to one request on `route`, using up one of each's count.
    pub(crate) fn take(&self, route: Route) -> Vec<FaultKind> {
        let mut armed = lock(&self.armed);
        let mut hits = Vec::new();
        for fault in armed.iter_mut().filter(|f| f.route.matches(route)) {
            if fault.skip > 0 {
                fault.skip -= 1;
                continue;
            }
            hits.push(fault.kind.clone());
            if let Some(n) = fault.remaining.as_mut() {
                *n = n.saturating_sub(1);
            }
        }
        armed.retain(|f| f.remaining != Some(0));
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_faults_expire_and_route_filters_apply() {
        let faults = Faults::default();
        faults.add(Route::FeedbackList, FaultKind::Status(500), Some(2));
        faults.add(
            Route::Any,
            FaultKind::Latency(Duration::from_millis(1)),
            None,
        );
        assert_eq!(
            faults.take(Route::Tags),
            vec![FaultKind::Latency(Duration::from_millis(1))]
        );
        assert_eq!(faults.take(Route::FeedbackList).len(), 2);
        assert_eq!(faults.take(Route::FeedbackList).len(), 2);
        assert_eq!(faults.take(Route::FeedbackList).len(), 1);
        faults.clear();
        assert!(faults.take(Route::FeedbackList).is_empty());
        faults.add_after(Route::Tags, FaultKind::Drop, 2, Some(1));
        assert!(faults.take(Route::Tags).is_empty());
        assert!(faults.take(Route::Tags).is_empty());
        assert_eq!(faults.take(Route::Tags), vec![FaultKind::Drop]);
        assert!(faults.take(Route::Tags).is_empty());
    }

    #[test]
    fn paths_classify_to_routes() {
        assert_eq!(Route::of("/v1/feedback"), Route::FeedbackList);
        assert_eq!(Route::of("/v1/feedback/abc"), Route::FeedbackItem);
        assert_eq!(Route::of("/v1/tags"), Route::Tags);
        assert_eq!(Route::of("/llms.txt"), Route::Other);
    }
}
