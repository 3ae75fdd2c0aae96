//! The network checks over made-up outcomes: each fails in turn.

use super::super::Verdict;
use super::*;

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn probe(outcome: Result<usize, ApiError>) -> Probe {
    Probe {
        https: true,
        outcome,
        rate: RateLimit {
            limit: Some(120),
            remaining: Some(119),
            reset: Some(at("2026-11-01T12:00:40Z")),
        },
        server_date: Some(ServerDate {
            server: at("2026-11-01T12:00:00Z"),
            local: at("2026-11-01T12:00:01Z"),
        }),
    }
}

fn verdicts(checks: &[Check]) -> Vec<Verdict> {
    checks.iter().map(|c| c.verdict).collect()
}

#[test]
fn a_good_answer_passes_all_four() {
    let lines = checks(&probe(Ok(3)), at("2026-11-01T12:00:01Z"));
    assert_eq!(verdicts(&lines), [Verdict::Ok; 4]);
    assert_eq!(lines[0].detail, "reachable; TLS certificate valid");
    assert_eq!(lines[1].detail, "yes: 3 projects readable");
    assert_eq!(
        lines[2].detail,
        "119/120 requests left this minute; the window resets in 39s"
    );
    assert!(lines[3].detail.contains("within 1s"), "{}", lines[3].detail);
}

#[test]
fn no_answer_fails_the_first_and_skips_the_rest() {
    let refused = ApiError::Network {
        reason: "Connection refused (os error 111)".into(),
    };
    let lines = checks(&probe(Err(refused)), Timestamp::UNIX_EPOCH);
    assert_eq!(
        verdicts(&lines),
        [Verdict::Fail, Verdict::Skip, Verdict::Skip, Verdict::Skip]
    );
    assert!(lines[0].detail.starts_with("connection refused"));
    assert_eq!(lines[1].detail, "the service did not answer");
}

#[test]
fn transport_failures_are_named_plainly() {
    let cases = [
        (
            "failed to lookup address information: Name or service not known",
            "DNS",
        ),
        ("invalid peer certificate: UnknownIssuer", "TLS"),
        ("received corrupt message of type InvalidContentType", "TLS"),
        ("Connection refused (os error 111)", "connection refused"),
        (
            "Network is unreachable (os error 101)",
            "network unreachable",
        ),
        (
            "Connection reset by peer (os error 104)",
            "the connection was cut",
        ),
        ("something odd", "could not connect"),
    ];
    for (reason, named) in cases {
        assert!(network_failure(reason).0.starts_with(named), "{reason}");
    }
    let timeout = checks(&probe(Err(ApiError::Timeout)), Timestamp::UNIX_EPOCH);
    assert_eq!(timeout[0].verdict, Verdict::Fail);
}

#[test]
fn rejected_keys_are_explained_by_the_specs_codes() {
    let unauthorized = key_accepted(&Err(ApiError::Unauthorized));
    assert_eq!(unauthorized.verdict, Verdict::Fail);
    assert!(unauthorized.detail.starts_with("401 unauthorized"));
    assert!(unauthorized.fix.unwrap().contains("/account/api-keys"));
    let starter = key_accepted(&Err(ApiError::IndiePlanRequired));
    assert_eq!(starter.verdict, Verdict::Fail);
    assert!(starter.detail.starts_with("403 api_access_requires_indie"));
    assert!(starter.fix.unwrap().contains("Indie plan"));
    let limited = key_accepted(&Err(ApiError::RateLimited { retry_after: None }));
    assert_eq!(limited.verdict, Verdict::Warn);
    let lines = checks(&probe(Err(ApiError::Unauthorized)), Timestamp::UNIX_EPOCH);
    assert_eq!(
        lines[0].verdict,
        Verdict::Ok,
        "a 401 is an answer: reachable"
    );
}

#[test]
fn a_spent_or_missing_budget_is_a_warning() {
    let now = at("2026-11-01T12:00:00Z");
    let spent = RateLimit {
        limit: Some(120),
        remaining: Some(0),
        reset: Some(at("2026-11-01T12:00:30Z")),
    };
    let check = budget(&spent, now);
    assert_eq!(check.verdict, Verdict::Warn);
    assert_eq!(
        check.detail,
        "0/120 requests left this minute; the window resets in 30s: spent"
    );
    let low = RateLimit {
        remaining: Some(5),
        ..spent
    };
    assert_eq!(budget(&low, now).verdict, Verdict::Warn);
    assert_eq!(budget(&RateLimit::default(), now).verdict, Verdict::Warn);
}

#[test]
fn clock_skew_is_judged_against_the_webhook_window() {
    let date = |local: &str| ServerDate {
        server: at("2026-11-01T12:00:00Z"),
        local: at(local),
    };
    let ok = clock(Some(&date("2026-11-01T11:59:58Z")));
    assert_eq!(ok.verdict, Verdict::Ok);
    assert!(ok.detail.starts_with("within 2s of"), "{}", ok.detail);
    let same = clock(Some(&date("2026-11-01T12:00:00Z")));
    assert_eq!(
        same.detail,
        "in step with the server's (signed webhooks allow 5m)"
    );
    let warn = clock(Some(&date("2026-11-01T12:01:30Z")));
    assert_eq!(warn.verdict, Verdict::Warn);
    assert!(warn.detail.contains("1m 30s ahead of"), "{}", warn.detail);
    let fail = clock(Some(&date("2026-11-01T11:53:00Z")));
    assert_eq!(fail.verdict, Verdict::Fail);
    assert!(fail.detail.contains("7m behind"), "{}", fail.detail);
    assert!(fail.detail.contains("5m window"), "{}", fail.detail);
    assert_eq!(clock(None).verdict, Verdict::Warn);
}
