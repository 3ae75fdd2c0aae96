//! Fixed data for the inbox's tests and benches: items, pages and a started state with a
//! fixed clock, so screens and state transitions are deterministic.

use jiff::Timestamp;

use super::action::{Msg, PageKind, PaneData};
use super::state::AppState;
use super::update::{start, update};
use crate::api::{App, Cursor, Feedback, FeedbackDetail, Page, Project, RateLimit, Tag};

/// The service's rate-limit figures as they arrive after a request: `remaining` of `limit`
/// left until `reset`.
#[must_use]
pub fn budget(limit: u32, remaining: u32, reset: Timestamp) -> Msg {
    Msg::RateLimited(RateLimit {
        limit: Some(limit),
        remaining: Some(remaining),
        reset: Some(reset),
    })
}

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
        id: crate::api::FeedbackId(format!("id{n:05}")),
        message: format!("Message number {n}: the sync button does nothing\nsecond line {n}"),
        reporter_email: (!n.is_multiple_of(3)).then(|| format!("user{n}@example.com")),
        status: crate::api::Status::New,
        received_at: now() - jiff::SignedDuration::from_mins(minutes),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        app: (n % 5 != 4).then(|| crate::api::AppRef {
            id: "00000000-0000-4000-8000-000000000001".into(),
            name: "Nimbus Notes for iOS".into(),
            platform: crate::api::Platform::Ios,
        }),
        project: crate::api::ProjectRef {
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

/// The panes' data.
#[must_use]
pub fn panes() -> [PaneData; 3] {
    let project = |id: &str, name: &str| Project {
        id: id.into(),
        name: name.into(),
        slug: None,
        created_at: None,
    };
    let app = |id: &str, name: &str, platform: &str| App {
        id: id.into(),
        project_id: Some("00000000-0000-4000-8000-0000000000a1".into()),
        name: name.into(),
        slug: None,
        platform: Some(platform.into()),
        app_identifier: None,
        region: None,
    };
    [
        PaneData::Projects(vec![
            project("00000000-0000-4000-8000-0000000000a1", "Nimbus Notes"),
            project("00000000-0000-4000-8000-0000000000a2", "Trailhead"),
        ]),
        PaneData::Apps(vec![
            app(
                "00000000-0000-4000-8000-000000000001",
                "Nimbus Notes for iOS",
                "ios",
            ),
            app(
                "00000000-0000-4000-8000-000000000002",
                "Nimbus Notes Web",
                "web",
            ),
        ]),
        PaneData::Tags(vec![
            Tag {
                tag: "bug".into(),
                count: 25,
            },
            Tag {
                tag: "ui".into(),
                count: 25,
            },
            Tag {
                tag: "feature-request".into(),
                count: 25,
            },
        ]),
    ]
}

/// A state of `width`×`height` after start-up, with panes and `items` items loaded (in pages
/// of 100; the last page has no cursor when `complete`).
#[must_use]
pub fn started(width: u16, height: u16, items: usize, complete: bool) -> AppState {
    let mut state = AppState::new(now(), width, height);
    update(&mut state, Msg::Resize { width, height });
    let _ = start(&mut state);
    for (n, data) in panes().into_iter().enumerate() {
        let request_id = u64::try_from(n).unwrap_or(0) + 1;
        update(
            &mut state,
            Msg::PaneLoaded {
                request_id,
                result: Ok(data),
            },
        );
    }
    let first = state.list.request_id;
    let end = items.min(100);
    update(
        &mut state,
        Msg::PageLoaded {
            request_id: first,
            kind: PageKind::First,
            result: Ok(page(0, end, complete && end == items)),
        },
    );
    let mut loaded = end;
    while loaded < items {
        let to = (loaded + 100).min(items);
        state.list.store.append(page(loaded, to, false).data);
        loaded = to;
    }
    if loaded > 100 {
        state.list.end = complete;
        state.list.next_cursor = (!complete).then(|| Cursor(format!("after-{loaded}")));
    }
    state.list.load = super::state::ListLoad::Idle;
    state.in_flight = 0;
    state.note = None;
    state.dirty = true;
    state
}
