use super::*;
use crate::api::model::{Channel, Metadata, Status};

const GOOD: &str = r#"{"id":"good1","message":"hi","reporter_email":null,"status":"new",
    "received_at":"2026-11-01T12:00:00Z","tags":["bug"],
    "app":{"id":"a","name":"A","platform":"ios"},"project":{"id":"p","name":"P"}}"#;

fn page_of(items: &[&str]) -> Vec<u8> {
    format!(r#"{{"data":[{}],"next_cursor":"c2"}}"#, items.join(",")).into_bytes()
}

#[test]
fn odd_fields_keep_the_item_with_what_is_readable() {
    let odd = [
        GOOD,
        // timestamp without offset, tags missing, app missing
        r#"{"id":"nooffset","message":"m","status":"new","received_at":"2026-11-01T12:00:00",
            "project":{"id":"p","name":"P"}}"#,
        // wrong types everywhere
        r#"{"id":7,"message":5,"reporter_email":["x"],"status":null,"received_at":"yesterday",
            "tags":"bug","app":"A","project":null}"#,
        // tags with a non-text entry, unknown platform
        r#"{"id":"mixed","message":"m","status":"spam","received_at":"2026-11-01T12:00:00+02:00",
            "tags":["a",{"b":1},3],"app":{"id":"a","platform":"visionos"},"project":{"id":"p"}}"#,
        // hopeless: no id, or not an object
        r#"{"message":"no id"}"#,
        r#"{"id":"","message":"empty id"}"#,
        "42",
    ];
    let page = feedback_page(&page_of(&odd)).unwrap();
    let ids: Vec<&str> = page.data.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["good1", "nooffset", "7", "mixed"]);
    assert_eq!(page.next_cursor, Some(Cursor("c2".into())));
    let no_offset = &page.data[1];
    assert_eq!(
        no_offset.received_at,
        "2026-11-01T12:00:00Z".parse().unwrap()
    );
    assert!(no_offset.tags.is_empty() && no_offset.app.is_none());
    let wrong = &page.data[2];
    assert_eq!(wrong.message, "5");
    assert_eq!(wrong.reporter_email, None);
    assert_eq!(wrong.status, Status::Other(String::new()));
    assert_eq!(wrong.received_at, Timestamp::UNIX_EPOCH);
    assert!(wrong.tags.is_empty() && wrong.app.is_none());
    assert_eq!(wrong.project.id, "");
    let mixed = &page.data[3];
    assert_eq!(mixed.tags, ["a", "3"]);
    assert_eq!(mixed.status, Status::Other("spam".into()));
    assert_eq!(mixed.app.as_ref().unwrap().platform.as_str(), "visionos");
    assert_eq!(mixed.received_at, "2026-11-01T10:00:00Z".parse().unwrap());
}

#[test]
fn a_good_item_reads_exactly_as_the_strict_model_does() {
    let strict: Feedback = serde_json::from_str(GOOD).unwrap();
    let page = feedback_page(&page_of(&[GOOD])).unwrap();
    assert_eq!(page.data, [strict]);
    let text = include_str!("../../../assets/fixtures/feedback_detail.json");
    let strict: crate::api::Data<FeedbackDetail> = serde_json::from_str(text).unwrap();
    assert_eq!(feedback_detail(text.as_bytes()).unwrap(), Some(strict.data));
}

#[test]
fn detail_with_null_metadata_and_odd_delivery_is_kept() {
    let body = r#"{"data":{"id":"d1","message":"m","status":"new","received_at":"2026-11-01T12:00:00Z",
        "tags":[],"app":null,"project":{"id":"p","name":"P"},"metadata":null,
        "delivery":[{"channel":"issue_tracker","status":"delivered","external_url":"https://x/1"},
                    "junk",{"channel":null}]}}"#;
    let detail = feedback_detail(body.as_bytes()).unwrap().unwrap();
    assert_eq!(detail.metadata, Metadata::default());
    assert_eq!(detail.delivery.len(), 2);
    assert_eq!(detail.issue_tracker_url(), Some("https://x/1"));
    assert_eq!(detail.delivery[1].channel, Channel::Other(String::new()));
    let body = r#"{"data":{"id":"d1","metadata":{"built_in":null,"custom":{"n":3,"o":{"k":1}}}}}"#;
    let detail = feedback_detail(body.as_bytes()).unwrap().unwrap();
    assert_eq!(detail.metadata.custom["n"], "3");
    assert_eq!(detail.metadata.custom["o"], r#"{"k":1}"#);
    assert_eq!(
        feedback_detail(br#"{"data":{"message":"x"}}"#).unwrap(),
        None
    );
}

#[test]
fn discovery_lists_skip_only_hopeless_items() {
    let body = br#"{"data":[{"id":"p1","name":"One","created_at":"2026-01-01T00:00:00"},
        {"name":"no id"},{"id":"p2","name":null,"slug":3,"created_at":"never"}]}"#;
    let projects = list(body, "project list", project).unwrap();
    assert_eq!(projects.len(), 2);
    assert_eq!(
        projects[0].created_at,
        Some("2026-01-01T00:00:00Z".parse().unwrap())
    );
    assert_eq!(
        (projects[1].name.as_str(), projects[1].slug.as_deref()),
        ("", Some("3"))
    );
    assert_eq!(projects[1].created_at, None);
    let body =
        br#"{"data":[{"tag":"bug","count":3},{"tag":"ui","count":"4"},{"tag":"x","count":-1},
        {"count":9},{"id":"a1","name":"A","platform":null,"region":"mars"}]}"#;
    let tags = list(body, "tag list", tag).unwrap();
    let counts: Vec<(&str, u64)> = tags.iter().map(|t| (t.tag.as_str(), t.count)).collect();
    assert_eq!(counts, [("bug", 3), ("ui", 4), ("x", 0)]);
    let apps = list(body, "app list", app).unwrap();
    assert_eq!(apps.len(), 1);
    assert_eq!(
        apps[0].region.as_ref().map(crate::api::Region::as_str),
        Some("mars")
    );
    assert!(apps[0].platform.is_none());
}

#[test]
fn the_page_shape_itself_must_hold() {
    assert!(feedback_page(br#"{"next_cursor":null}"#).is_err());
    assert!(feedback_page(br#"{"data":{}}"#).is_err());
    assert!(list(b"[]", "tag list", tag).is_err());
}
