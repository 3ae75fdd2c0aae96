//! Known-answer vectors and every rejection cause.
//!
//! The vectors were computed independently of this crate's `hmac`, with Python 3.11's standard
//! library:
//!
//! ```text
//! import hmac, hashlib
//! hmac.new(secret, timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
//! ```
//!
//! over the exact secrets, timestamps and bodies below (the third with a UTF-8 secret and body;
//! its `\n` is the two JSON characters backslash and n, written as `r"..."` in Python).

use std::time::Duration;

use jiff::Timestamp;

use super::seen::Seen;
use feedback_api::webhook::event::{BodyError, Event};
use feedback_api::webhook::verify::{
    DEFAULT_TOLERANCE, Delivery, MAX_BODY, Secret, VerifyError, sign, verify,
};

const BODY_1: &str = r#"{"event":"feedback.created","feedback":{"id":"fb_abc123","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"The sync button does nothing","email":null,"metadata":{"builtin":{"appVersion":"2.4.1","locale":"de-DE"},"custom":{"plan":"pro"}},"receivedAt":"2023-11-14T22:13:20Z"}}"#;
const SIG_1: &str = "1781c23cb67c464f1f0fc55d7ee39b977c85164f6add3fafefa8f46a528fe3dd";
const SIG_2: &str = "288037d2649083a1b8f451dbf5dc67d7db195c8c95d8af63c6d1c5362ac5aba1";
const BODY_3: &str = "{\"event\":\"feedback.created\",\"feedback\":{\"id\":\"fb_ü\",\"appId\":\"a\",\"appName\":\"Приложение\",\"projectId\":\"p\",\"projectName\":\"项目\",\"message\":\"line one\\nline two 👍\",\"email\":\"a@example.com\",\"metadata\":{\"custom\":{}},\"receivedAt\":\"2027-01-15T08:00:00Z\"}}";
const SIG_3: &str = "ac16a1f57da2ed4052c1ddd2acd3fa9cdedebce335128d074e8e5e5f789ae2ac";

fn secret(s: &str) -> Secret {
    Secret::new(s.as_bytes()).unwrap()
}

fn at(seconds: i64) -> Timestamp {
    Timestamp::from_second(seconds).unwrap()
}

/// `body` signed with `key` at 1700000000 and verified at that time.
fn signed_now(key: &Secret, body: &[u8]) -> Result<Event, VerifyError> {
    let sig = sign(key, 1_700_000_000, body);
    let delivery = Delivery {
        timestamp: Some("1700000000"),
        signature: Some(&sig),
        body,
    };
    verify(key, delivery, at(1_700_000_000), DEFAULT_TOLERANCE)
}

fn check(
    key: &str,
    ts: Option<&str>,
    sig: Option<&str>,
    body: &[u8],
    now: i64,
) -> Result<Event, VerifyError> {
    let delivery = Delivery {
        timestamp: ts,
        signature: sig,
        body,
    };
    verify(&secret(key), delivery, at(now), DEFAULT_TOLERANCE)
}

#[test]
fn known_answer_vectors_sign_and_verify() {
    let cases: [(&str, i64, &[u8], &str); 3] = [
        ("whsec_test_secret", 1_700_000_000, BODY_1.as_bytes(), SIG_1),
        ("s3cr3t", 1_700_000_300, b"", SIG_2),
        ("ключ-🔑", 1_800_000_000, BODY_3.as_bytes(), SIG_3),
    ];
    for (key, ts, body, expected) in cases {
        assert_eq!(sign(&secret(key), ts, body), expected, "{key}");
    }
    let event = check(
        "whsec_test_secret",
        Some("1700000000"),
        Some(SIG_1),
        BODY_1.as_bytes(),
        1_700_000_010,
    )
    .unwrap();
    let Event::FeedbackCreated(s) = &event else {
        panic!("{event:?}")
    };
    assert_eq!(s.id.as_str(), "fb_abc123");
    assert_eq!(s.app_name, "Acme iOS");
    assert_eq!(s.email, None);
    assert_eq!(s.metadata.builtin["appVersion"], "2.4.1");
    assert_eq!(s.metadata.custom["plan"], "pro");
    assert_eq!(s.received_at, at(1_700_000_000));
    let uppercase = SIG_3.to_ascii_uppercase();
    let event = check(
        "ключ-🔑",
        Some("1800000000"),
        Some(&uppercase),
        BODY_3.as_bytes(),
        1_800_000_000,
    )
    .unwrap();
    assert_eq!(event.feedback_id(), Some("fb_ü"));
}

#[test]
fn any_change_to_body_timestamp_signature_or_secret_is_a_mismatch() {
    let mut body = BODY_1.as_bytes().to_vec();
    body[60] ^= 1;
    let now = 1_700_000_000;
    let cases = [
        check(
            "whsec_test_secret",
            Some("1700000000"),
            Some(SIG_1),
            &body,
            now,
        ),
        check(
            "whsec_test_secret",
            Some("1700000001"),
            Some(SIG_1),
            BODY_1.as_bytes(),
            now,
        ),
        check(
            "whsec_test_secret",
            Some("1700000000"),
            Some(SIG_2),
            BODY_1.as_bytes(),
            now,
        ),
        check(
            "whsec_test_secreT",
            Some("1700000000"),
            Some(SIG_1),
            BODY_1.as_bytes(),
            now,
        ),
        check(
            "whsec_test_secret",
            Some("1700000000"),
            Some(SIG_1),
            format!("{BODY_1} ").as_bytes(),
            now,
        ),
    ];
    for result in cases {
        assert_eq!(result, Err(VerifyError::Mismatch));
    }
    let mut flipped = SIG_1.to_owned();
    flipped.replace_range(63.., "c");
    assert_eq!(
        check(
            "whsec_test_secret",
            Some("1700000000"),
            Some(&flipped),
            BODY_1.as_bytes(),
            now
        ),
        Err(VerifyError::Mismatch)
    );
}

#[test]
fn stale_and_future_timestamps_are_refused_beyond_the_tolerance_only() {
    let ok = |now| {
        check(
            "whsec_test_secret",
            Some("1700000000"),
            Some(SIG_1),
            BODY_1.as_bytes(),
            now,
        )
    };
    assert!(ok(1_700_000_300).is_ok());
    assert!(ok(1_699_999_700).is_ok());
    assert_eq!(ok(1_700_000_301), Err(VerifyError::TooOld(301, 300)));
    assert_eq!(ok(1_699_999_699), Err(VerifyError::TooNew(301, 300)));
    let strict = verify(
        &secret("whsec_test_secret"),
        Delivery {
            timestamp: Some("1700000000"),
            signature: Some(SIG_1),
            body: BODY_1.as_bytes(),
        },
        at(1_700_000_031),
        Duration::from_secs(30),
    );
    assert_eq!(strict, Err(VerifyError::TooOld(31, 30)));
}

#[test]
fn each_malformed_input_has_its_own_error() {
    let body = BODY_1.as_bytes();
    let now = 1_700_000_000;
    let key = "whsec_test_secret";
    assert_eq!(
        check(key, None, Some(SIG_1), body, now),
        Err(VerifyError::MissingTimestamp)
    );
    assert_eq!(
        check(key, Some("1700000000"), None, body, now),
        Err(VerifyError::MissingSignature)
    );
    for bad in [
        "",
        "17e8",
        "-1700000000",
        "1700000000.5",
        "now",
        "99999999999999999999999",
    ] {
        assert_eq!(
            check(key, Some(bad), Some(SIG_1), body, now),
            Err(VerifyError::BadTimestamp),
            "{bad:?}"
        );
    }
    for bad in ["", "zz", &SIG_1[..62], &format!("{SIG_1}00"), "sha256=abc"] {
        assert_eq!(
            check(key, Some("1700000000"), Some(bad), body, now),
            Err(VerifyError::BadSignatureHex),
            "{bad:?}"
        );
    }
    let huge = vec![b' '; MAX_BODY + 1];
    assert_eq!(
        check(key, Some("1700000000"), Some(SIG_1), &huge, now),
        Err(VerifyError::TooLarge(MAX_BODY + 1))
    );
    assert!(!VerifyError::TooLarge(1).is_authentication());
    assert!(VerifyError::Mismatch.is_authentication());
}

#[test]
fn body_is_parsed_only_after_the_signature_holds() {
    let key = secret("k");
    let now = 1_700_000_000;
    let signed = |body: &[u8]| signed_now(&key, body);
    // Unsigned garbage is a signature failure, not a JSON error.
    assert_eq!(
        check("k", Some("1700000000"), Some(SIG_1), b"not json", now),
        Err(VerifyError::Mismatch)
    );
    assert!(matches!(
        signed(b"not json"),
        Err(VerifyError::Body(BodyError::NotJson(_)))
    ));
    assert_eq!(
        signed(b"{}"),
        Err(VerifyError::Body(BodyError::NoEventName))
    );
    let Err(VerifyError::Body(BodyError::BadFeedback(why))) =
        signed(br#"{"event":"feedback.created","feedback":{"id":"x","appId":7}}"#)
    else {
        panic!()
    };
    assert!(!why.contains('7') || why.contains("column"), "{why}");
    // REST names are not webhook names.
    let rest = BODY_1.replace("receivedAt", "received_at");
    assert!(matches!(
        signed(rest.as_bytes()),
        Err(VerifyError::Body(BodyError::BadFeedback(_)))
    ));
}

#[test]
fn a_rejected_body_is_never_quoted_in_the_error() {
    let key = secret("k");
    let body = br#"{"event":"feedback.created","feedback":{"id":"SECRET-CONTENT","appId":"a","appName":"b","projectId":"c","projectName":"d","message":["SECRET-CONTENT"],"email":null,"receivedAt":"2023-11-14T22:13:20Z"}}"#;
    let error = signed_now(&key, body).unwrap_err();
    assert!(!error.to_string().contains("SECRET"), "{error}");
}

#[test]
fn unknown_event_names_are_kept_and_reported() {
    let key = secret("k");
    let body = br#"{"event":"feedback.deleted","feedback":{"id":"fb_9"},"extra":[1,2]}"#;
    let event = signed_now(&key, body).unwrap();
    assert_eq!(event.name(), "feedback.deleted");
    assert_eq!(event.feedback_id(), Some("fb_9"));
    assert_eq!(
        event.idempotency_key().as_deref(),
        Some("feedback.deleted fb_9"),
        "not a repeat of fb_9's creation"
    );
    assert_eq!(event.to_json()["extra"][1], 2);
    assert!(event.to_string().contains("feedback.deleted"), "{event}");
}

#[test]
fn the_summary_line_is_sanitized() {
    let body = BODY_1.replace("The sync button", "\\u001b]0;pwned\\u0007The sync button");
    let Ok(event) = Event::parse(body.as_bytes()) else {
        panic!()
    };
    let line = event.to_string();
    assert!(
        !line.contains('\u{1b}') && !line.contains('\u{7}'),
        "{line:?}"
    );
    assert!(
        line.contains("fb_abc123") && line.contains("Acme / Acme iOS"),
        "{line}"
    );
}

#[test]
fn the_secret_is_redacted_and_read_from_the_environment_only_when_set() {
    let s = secret("whsec_very_private");
    assert!(!format!("{s:?}").contains("private"));
    assert!(Secret::new(Vec::new()).is_err());
    assert!(Secret::from_env("FEEDBACK_TEST_SURELY_UNSET_VARIABLE").is_err());
}

#[test]
fn the_seen_record_survives_a_restart_and_ignores_a_torn_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("seen.txt");
    let mut seen = Seen::open(&path).unwrap();
    assert!(seen.insert("fb_1").unwrap());
    assert!(!seen.insert("fb_1").unwrap());
    assert!(seen.insert("fb_\n\"2").unwrap());
    drop(seen);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    std::fs::write(&path, format!("{text}\"fb_tor")).unwrap();
    let mut seen = Seen::open(&path).unwrap();
    assert!(seen.contains("fb_1") && seen.contains("fb_\n\"2"));
    assert_eq!(seen.len(), 2);
    assert!(seen.insert("fb_3").unwrap());
    drop(seen);
    let seen = Seen::open(&path).unwrap();
    assert!(seen.contains("fb_3"), "the line after a torn one is whole");
    assert_eq!(seen.len(), 3);
}
