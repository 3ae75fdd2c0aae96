use super::*;
use crate::model::{App, Channel, Metadata, Project, Status, Tag};
use jiff::Timestamp;

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
    let text = include_str!("../../../../assets/fixtures/feedback_detail.json");
    let strict: crate::Data<FeedbackDetail> = serde_json::from_str(text).unwrap();
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
    let projects = list::<Project>(body, "project list").unwrap();
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
    let tags = list::<Tag>(body, "tag list").unwrap();
    let counts: Vec<(&str, u64)> = tags.iter().map(|t| (t.tag.as_str(), t.count)).collect();
    assert_eq!(counts, [("bug", 3), ("ui", 4), ("x", 0)]);
    let apps = list::<App>(body, "app list").unwrap();
    assert_eq!(apps.len(), 1);
    assert_eq!(
        apps[0].region.as_ref().map(crate::Region::as_str),
        Some("mars")
    );
    assert!(apps[0].platform.is_none());
}

#[test]
fn the_page_shape_itself_must_hold() {
    assert!(feedback_page(br#"{"next_cursor":null}"#).is_err());
    assert!(feedback_page(br#"{"data":{}}"#).is_err());
    assert!(list::<Tag>(b"[]", "tag list").is_err());
}

/// What reading `json` as `T` notes.
fn notes_of<T: DeserializeOwned>(json: &str) -> (Option<T>, Vec<String>) {
    let value: Value = serde_json::from_str(json).unwrap();
    let (item, notes) = notes::collect(|| T::deserialize(Tracked(&value)));
    (item.ok(), notes)
}

#[test]
fn each_replaced_value_is_noted_under_its_place() {
    let (item, notes) = notes_of::<Feedback>(
        r#"{"id":"n1","message":{"x":1},"reporter_email":[],"received_at":"soon",
            "tags":["a",{},[],"b"],"app":{"id":"a","name":null,"platform":3,"extra":{}},
            "project":"P"}"#,
    );
    let item = item.unwrap();
    assert_eq!(item.tags, ["a", "b"]);
    assert_eq!(item.app.unwrap().platform.as_str(), "3");
    assert_eq!(
        notes,
        [
            "message: not text",
            "reporter_email: not text",
            "status: missing",
            "received_at: not a time",
            "tags: some entries are not text",
            "app.name: missing",
            "project: not an object",
        ]
    );
    let (_, notes) = notes_of::<FeedbackDetail>(GOOD);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn a_detail_names_the_fields_of_its_metadata_and_deliveries() {
    let body = r#"{"data":{"id":"d1","message":"m","status":"new","received_at":0,
        "project":{"id":"p","name":"P"},"metadata":{"built_in":[1],"custom":{"k":null}},
        "delivery":[{"status":"failed","external_url":5},7,{"channel":"email","status":{}}]}}"#;
    let value: Value = serde_json::from_str::<Value>(body).unwrap()["data"].clone();
    let (detail, notes) = notes::collect(|| {
        serde_json::Result::Ok(FeedbackDetail::from(DetailParts {
            feedback: Feedback::deserialize(Tracked(&value))?,
            rest: DetailRest::deserialize(Tracked(&value))?,
        }))
    });
    let detail = detail.unwrap();
    assert_eq!(detail.feedback.received_at, Timestamp::UNIX_EPOCH);
    assert_eq!(detail.metadata.custom["k"], "null");
    assert_eq!(detail.delivery.len(), 2);
    assert_eq!(detail.delivery[0].external_url.as_deref(), Some("5"));
    assert_eq!(
        notes,
        [
            "metadata.built_in: not an object",
            "delivery.channel: missing",
            "delivery: an entry is not an object",
            "delivery.status: not text",
        ]
    );
    assert_eq!(feedback_detail(body.as_bytes()).unwrap(), Some(detail));
}

#[test]
fn identities_must_be_usable_and_counts_whole() {
    for id in [r#""  ""#, "1.5", "true", "[]", "null"] {
        let json = format!(r#"{{"id":{id},"name":"n"}}"#);
        assert!(notes_of::<Project>(&json).0.is_none(), "{id}");
    }
    let (tag, notes) = notes_of::<Tag>(r#"{"tag":12,"count":" 7 "}"#);
    assert_eq!(
        tag.unwrap(),
        Tag {
            tag: "12".into(),
            count: 7
        }
    );
    assert!(notes.is_empty());
    let (tag, notes) = notes_of::<Tag>(r#"{"tag":"t","count":2.5}"#);
    assert_eq!(tag.unwrap().count, 0);
    assert_eq!(notes, ["count: not a whole number"]);
}

#[test]
fn notes_stay_with_the_item_that_made_them() {
    let (_, first) = notes_of::<Project>(r#"{"id":"p1","name":[]}"#);
    let (_, second) = notes_of::<Project>(r#"{"id":"p2","name":"two"}"#);
    assert_eq!(first, ["name: not text"]);
    assert!(second.is_empty());
    // Read by plain serde_json, outside a collection, the model is as lenient and notes nothing.
    let plain: Project = serde_json::from_str(r#"{"id":"p1","name":[],"slug":7}"#).unwrap();
    assert_eq!(
        (plain.name.as_str(), plain.slug.as_deref()),
        ("", Some("7"))
    );
    let (_, after) = notes_of::<Project>(r#"{"id":"p3","name":"three"}"#);
    assert!(after.is_empty());
}
