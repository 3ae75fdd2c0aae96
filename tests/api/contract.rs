//! Contract between the wire models, the simulator and the OpenAPI document in `assets/`: a
//! field renamed in one place cannot slip past the others.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeSet;

use feedback_api::{App, Data, FeedbackDetail, Project, Tag};
use serde_json::Value;

fn openapi() -> Value {
    serde_json::from_str(include_str!("../../assets/openapi.json")).unwrap()
}

fn schema_properties(doc: &Value, name: &str) -> BTreeSet<String> {
    doc["components"]["schemas"][name]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("schema {name} has properties"))
        .keys()
        .cloned()
        .collect()
}

fn keys(value: &Value) -> BTreeSet<String> {
    value.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn fixture_round_trips_through_the_model_unchanged() {
    let text = include_str!("../../assets/fixtures/feedback_detail.json");
    let original: Value = serde_json::from_str(text).unwrap();
    let decoded: Data<FeedbackDetail> = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_value(&decoded).unwrap(), original);
}

#[test]
fn model_fields_match_the_openapi_schemas() {
    let doc = openapi();
    let fixture: Value =
        serde_json::from_str(include_str!("../../assets/fixtures/feedback_detail.json")).unwrap();
    let detail = &fixture["data"];
    let mut feedback_keys = keys(detail);
    feedback_keys.remove("metadata");
    feedback_keys.remove("delivery");
    assert_eq!(feedback_keys, schema_properties(&doc, "Feedback"));
    assert_eq!(
        keys(&detail["metadata"]),
        schema_properties(&doc, "FeedbackMetadata")
    );
    assert_eq!(
        keys(&detail["delivery"][0]),
        schema_properties(&doc, "Delivery")
    );
    assert_eq!(keys(&detail["app"]), schema_properties(&doc, "AppRef"));
    assert_eq!(
        keys(&detail["project"]),
        schema_properties(&doc, "ProjectRef")
    );
}

#[tokio::test]
async fn simulator_answers_have_exactly_the_documented_fields() {
    let r = common::rig(50, 10_000).await;
    let doc = openapi();
    let http = common::raw_http();
    let get = |path: &str| {
        let url = format!("{}{path}", r.sim.base_url());
        let request = http.get(url).bearer_auth(feedback_sim::DEMO_KEY);
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    let page = get("/v1/feedback?limit=1").await;
    assert_eq!(keys(&page), schema_properties(&doc, "FeedbackPage"));
    assert_eq!(keys(&page["data"][0]), schema_properties(&doc, "Feedback"));
    let id = page["data"][0]["id"].as_str().unwrap().to_owned();
    let detail = get(&format!("/v1/feedback/{id}")).await;
    let mut detail_keys = keys(&detail["data"]);
    assert!(detail_keys.remove("metadata") && detail_keys.remove("delivery"));
    assert_eq!(detail_keys, schema_properties(&doc, "Feedback"));
    for (path, schema) in [
        ("/v1/projects", "Project"),
        ("/v1/apps", "App"),
        ("/v1/tags", "Tag"),
    ] {
        let list = get(path).await;
        assert_eq!(
            keys(&list["data"][0]),
            schema_properties(&doc, schema),
            "{path}"
        );
    }
    let error = get("/v1/feedback/nope").await;
    assert!(keys(&error).is_subset(&schema_properties(&doc, "Error")));
    // And the client's models decode them.
    let _: Data<Vec<Project>> = serde_json::from_value(get("/v1/projects").await).unwrap();
    let _: Data<Vec<App>> = serde_json::from_value(get("/v1/apps").await).unwrap();
    let _: Data<Vec<Tag>> = serde_json::from_value(get("/v1/tags").await).unwrap();
}
