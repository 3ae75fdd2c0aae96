#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};

use super::apply_retention;
use crate::api::{Feedback, FeedbackId, ProjectRef, Status};
use crate::store::{Store, ViewQuery};

fn item(id: &str, at: &str) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: format!("message of {id}"),
        reporter_email: None,
        status: Status::New,
        received_at: at.parse().unwrap(),
        tags: vec![],
        app: None,
        project: ProjectRef {
            id: "proj-1".into(),
            name: "Trailhead".into(),
        },
    }
}

#[test]
fn retention_drops_only_items_received_before_now_minus_the_days() {
    let mut store = Store::open_memory().unwrap();
    let now: Timestamp = "2026-11-22T12:00:00Z".parse().unwrap();
    let items = [
        item("old", "2026-10-01T00:00:00Z"),
        item("edge", "2026-10-23T12:00:00Z"),
        item("recent", "2026-11-20T00:00:00Z"),
    ];
    store.put_items(&items, now).unwrap();
    let thirty_days = SignedDuration::from_hours(30 * 24);
    assert_eq!(apply_retention(&mut store, thirty_days, now).unwrap(), 1);
    let keys = store.view_keys(&ViewQuery::default(), None).unwrap();
    let left: Vec<String> = store
        .items(&keys)
        .unwrap()
        .into_iter()
        .map(|i| i.feedback.id.0)
        .collect();
    assert_eq!(left, ["recent", "edge"]);
    assert_eq!(apply_retention(&mut store, thirty_days, now).unwrap(), 0);
}
