//! Fixed items for tests and benches: item `n` of a small account received at a fixed "now",
//! pages of them, and a detail with metadata and delivery links, so what tests draw and store
//! is deterministic.

use feedback_api::{Cursor, Feedback, FeedbackDetail, Page};
use jiff::Timestamp;

/// The fixed "now" of tests.
#[must_use]
pub fn now() -> Timestamp {
    Timestamp::from_second(1_793_534_400).unwrap_or(Timestamp::UNIX_EPOCH) // 2026-11-01T12:00:00Z
}

/// Item `n` (0 is newest), received `n * 7` minutes before [`now`].
#[must_use]
pub fn item(n: usize) -> Feedback {
    let tags: &[&str] = match n % 4 {
        0 => &["bug", "crash"],
        1 => &["ui"],
        2 => &[],
        _ => &["feature-request"],
    };
    let minutes = i64::try_from(n).unwrap_or(0) * 7;
    Feedback {
        id: feedback_api::FeedbackId(format!("id{n:05}")),
        message: format!("Message number {n}: the sync button does nothing\nsecond line {n}"),
        reporter_email: (!n.is_multiple_of(3)).then(|| format!("user{n}@example.com")),
        status: feedback_api::Status::New,
        received_at: now() - jiff::SignedDuration::from_mins(minutes),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        app: (n % 5 != 4).then(|| feedback_api::AppRef {
            id: "00000000-0000-4000-8000-000000000001".into(),
            name: "Nimbus Notes for iOS".into(),
            platform: feedback_api::Platform::Ios,
        }),
        project: feedback_api::ProjectRef {
            id: "00000000-0000-4000-8000-0000000000a1".into(),
            name: "Nimbus Notes".into(),
        },
    }
}

/// Items `from..to` as one page, with a cursor unless `last`.
#[must_use]
pub fn page(from: usize, to: usize, last: bool) -> Page<Feedback> {
    Page {
        data: (from..to).map(item).collect(),
        next_cursor: (!last).then(|| Cursor(format!("after-{to}"))),
    }
}

/// A detail for `item(n)` with metadata and an issue-tracker link.
#[must_use]
pub fn detail(n: usize) -> FeedbackDetail {
    let feedback = item(n);
    serde_json::from_value(serde_json::json!({
        "id": feedback.id, "message": feedback.message, "reporter_email": feedback.reporter_email,
        "status": "new", "received_at": feedback.received_at, "tags": feedback.tags,
        "app": feedback.app, "project": feedback.project,
        "metadata": {"built_in": {"appVersion": "2.14.1", "iOSVersion": "18.2", "locale": "de-DE"},
                     "custom": {"plan": "pro"}},
        "delivery": [
            {"channel": "email", "status": "delivered", "external_url": null},
            {"channel": "issue_tracker", "status": "delivered",
             "external_url": format!("https://issues.example.com/nimbus/issues/{}", 1000 + n)}
        ]
    }))
    .unwrap_or_else(|_| unreachable!("the fixture is valid"))
}
