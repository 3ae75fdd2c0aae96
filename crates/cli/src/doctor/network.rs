//! The checks that need the service: reachable (DNS, connect, TLS named plainly), the key
//! accepted (401/403 per the spec's error codes), the rate budget, and the clock against the
//! server's `Date` header. One request (`GET /v1/projects`, no retries, no waits) gives all
//! four; its outcome is the input of pure checks.

use std::time::Duration;

use jiff::Timestamp;

use super::Check;
use crate::rough_duration;
use feedback_api::webhook::DEFAULT_TOLERANCE;
use feedback_api::{ApiError, Client, RateLimit, RetryPolicy, ServerDate, Timeouts};
use feedback_config::Resolved;

/// Skew below this is the `Date` header's one-second grain and the trip; above, worth a word.
const SKEW_NOTICE: Duration = Duration::from_secs(30);

/// What the one request found.
#[derive(Debug)]
pub(super) struct Probe {
    /// The base URL is `https://` (else plain HTTP on loopback).
    pub https: bool,
    /// Projects readable, or why not.
    pub outcome: Result<usize, ApiError>,
    pub rate: RateLimit,
    pub server_date: Option<ServerDate>,
}

/// Sends the one request: no retry and no rate-limit wait, short timeouts, so a broken setup
/// answers in seconds.
pub(super) async fn probe(resolved: &Resolved) -> Probe {
    let https = resolved.base_url.scheme() == "https";
    let client = Client::builder(resolved.base_url.as_str(), resolved.key.clone()).and_then(|b| {
        b.retry_policy(RetryPolicy {
            max_tries: 1,
            max_rate_limit_waits: 0,
            ..RetryPolicy::default()
        })
        .timeouts(Timeouts {
            connect: Duration::from_secs(5),
            read: Duration::from_secs(10),
            total: Duration::from_secs(15),
        })
        .build()
    });
    let client = match client {
        Ok(client) => client,
        Err(error) => {
            return Probe {
                https,
                outcome: Err(error),
                rate: RateLimit::default(),
                server_date: None,
            };
        }
    };
    let outcome = client.list_projects().await.map(|p| p.len());
    Probe {
        https,
        outcome,
        rate: client.rate_limit(),
        server_date: client.server_date(),
    }
}

/// The four lines, skipped with a reason when no request could be made.
#[must_use]
pub(super) fn skipped(why: &str) -> Vec<Check> {
    ["service", "key accepted", "rate budget", "clock"]
        .into_iter()
        .map(|name| Check::skip(name, why))
        .collect()
}

/// The four lines from the request's outcome, `now` being this side's clock.
#[must_use]
pub(super) fn checks(probe: &Probe, now: Timestamp) -> Vec<Check> {
    let reach = reachable(probe);
    if let Err(error) = &probe.outcome
        && no_answer(error)
    {
        let mut lines = vec![reach];
        lines.extend(skipped("the service did not answer").into_iter().skip(1));
        return lines;
    }
    vec![
        reach,
        key_accepted(&probe.outcome),
        budget(&probe.rate, now),
        clock(probe.server_date.as_ref()),
    ]
}

/// True when the request got no HTTP answer at all.
fn no_answer(error: &ApiError) -> bool {
    matches!(
        error,
        ApiError::Network { .. } | ApiError::Timeout | ApiError::Setup(_) | ApiError::Cancelled
    )
}

/// Reachable, and over valid TLS; a failure says whether DNS, connect or TLS broke.
#[must_use]
pub(super) fn reachable(probe: &Probe) -> Check {
    const NAME: &str = "service";
    match &probe.outcome {
        Err(ApiError::Network { reason }) => {
            let (what, fix) = network_failure(reason);
            Check::fail(NAME, format!("{what} ({reason})"), fix)
        }
        Err(ApiError::Timeout) => Check::fail(
            NAME,
            "no answer within the timeout",
            "check the base URL's host and port, and any proxy or firewall on the way",
        ),
        Err(error @ (ApiError::Setup(_) | ApiError::Cancelled)) => {
            Check::fail(NAME, error.to_string(), "check the base URL")
        }
        _ if probe.https => Check::ok(NAME, "reachable; TLS certificate valid"),
        _ => Check::ok(NAME, "reachable (plain HTTP on loopback: no TLS to check)"),
    }
}

/// Names a transport failure from its root cause: DNS, TLS, refused, unreachable, reset.
#[must_use]
pub(crate) fn network_failure(reason: &str) -> (&'static str, &'static str) {
    let lower = reason.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&[
        "lookup address",
        "dns",
        "name or service",
        "name resolution",
        "nodename",
    ]) {
        (
            "DNS: the host name does not resolve",
            "check the host in the base URL, and this machine's network and DNS",
        )
    } else if has(&[
        "certificate",
        "tls",
        "handshake",
        "corrupt message",
        "alert",
    ]) {
        (
            "TLS: the secure connection failed",
            "check the base URL is the service's own https address; a proxy that intercepts TLS needs its certificate trusted; an expired or not-yet-valid certificate can mean this machine's clock is wrong",
        )
    } else if has(&["refused"]) {
        (
            "connection refused: nothing listens at that address",
            "check the port in the base URL, and that the service is up",
        )
    } else if has(&["unreachable", "no route"]) {
        (
            "network unreachable",
            "check this machine's network connection",
        )
    } else if has(&["reset", "broken pipe", "closed"]) {
        (
            "the connection was cut",
            "try again; if it persists, a proxy or firewall may be in the way",
        )
    } else {
        ("could not connect", "check the base URL and the network")
    }
}

/// The key accepted, or the spec's reason it was not.
#[must_use]
pub(crate) fn key_accepted(outcome: &Result<usize, ApiError>) -> Check {
    const NAME: &str = "key accepted";
    const KEYS: &str = "Account settings → API keys (/account/api-keys)";
    match outcome {
        Ok(projects) => Check::ok(NAME, format!("yes: {projects} projects readable")),
        Err(ApiError::Unauthorized) => Check::fail(
            NAME,
            "401 unauthorized: the service does not know this key (revoked, mistyped, or of the other region)",
            format!("make a new key under {KEYS} and set it"),
        ),
        Err(ApiError::IndiePlanRequired) => Check::fail(
            NAME,
            "403 api_access_requires_indie: the key is valid but its account's plan has no API access",
            "move the account to the Indie plan (the REST API is Indie only)",
        ),
        Err(error @ ApiError::RateLimited { .. }) => Check::warn(
            NAME,
            format!("not known yet: {error}"),
            Some("run doctor again after the rate-limit window resets".to_owned()),
        ),
        Err(error) => Check::fail(
            NAME,
            format!("not known: {error}"),
            "try again later; if it persists, the service (or the base URL) is wrong",
        ),
    }
}

/// The budget the answer reported: remaining of the limit, and when the window resets.
#[must_use]
pub(super) fn budget(rate: &RateLimit, now: Timestamp) -> Check {
    const NAME: &str = "rate budget";
    let (Some(remaining), Some(limit)) = (rate.remaining, rate.limit) else {
        return Check::warn(NAME, "the answer carried no X-RateLimit headers", None);
    };
    let reset = rate
        .seconds_to_reset(now)
        .map(|s| format!("; the window resets in {s}s"))
        .unwrap_or_default();
    let detail = format!("{remaining}/{limit} requests left this minute{reset}");
    if remaining == 0 {
        Check::warn(
            NAME,
            format!("{detail}: spent"),
            Some("wait for the reset (the inbox and sync pace themselves); something else may be using the key".to_owned()),
        )
    } else if u64::from(remaining) * 10 < u64::from(limit) {
        Check::warn(
            NAME,
            format!("{detail}: nearly spent"),
            Some("another program may be using the same key".to_owned()),
        )
    } else {
        Check::ok(NAME, detail)
    }
}

/// This side's clock against the server's `Date`: webhook timestamps are judged by the local
/// clock, within the reference verifier's tolerance (the spec's 5 minutes).
#[must_use]
pub(super) fn clock(date: Option<&ServerDate>) -> Check {
    const NAME: &str = "clock";
    let Some(date) = date else {
        return Check::warn(
            NAME,
            "the answer carried no Date header: clock not compared",
            None,
        );
    };
    let skew = date.local.duration_since(date.server);
    let size = skew.unsigned_abs();
    let tolerance = rough_duration(DEFAULT_TOLERANCE);
    let direction = if skew.is_negative() {
        "behind"
    } else {
        "ahead of"
    };
    let shown = rough_duration(Duration::from_secs(size.as_secs()));
    if size >= DEFAULT_TOLERANCE {
        Check::fail(
            NAME,
            format!(
                "this machine's clock is {shown} {direction} the server's: signed webhooks are refused outside the {tolerance} window"
            ),
            "turn on network time (timedatectl set-ntp true, or the system's date settings)",
        )
    } else if size >= SKEW_NOTICE {
        Check::warn(
            NAME,
            format!(
                "this machine's clock is {shown} {direction} the server's: it eats into the {tolerance} window of signed webhooks"
            ),
            Some("turn on network time (timedatectl set-ntp true)".to_owned()),
        )
    } else {
        let within = if size.as_secs() == 0 {
            "in step with the server's".to_owned()
        } else {
            format!("within {shown} of the server's")
        };
        Check::ok(
            NAME,
            format!("{within} (signed webhooks allow {tolerance})"),
        )
    }
}

#[cfg(test)]
mod tests;
