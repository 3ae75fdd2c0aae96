//! Decoding never panics: arbitrary bytes and arbitrary JSON through every wire type and through
//! the error-body path give a value or an error, nothing else. And a string escaped as UTF-16
//! units, with any units cut out (lone surrogates), always decodes.
#![allow(clippy::unwrap_used)]

use feedback_api::{
    ApiError, App, Data, ErrorBody, Feedback, FeedbackDetail, Page, Project, Tag, lenient,
};
use proptest::prelude::*;
use serde_json::Value;

fn decode_all(bytes: &[u8]) {
    let _ = serde_json::from_slice::<Page<Feedback>>(bytes);
    let _ = serde_json::from_slice::<Data<FeedbackDetail>>(bytes);
    let _ = serde_json::from_slice::<Data<Vec<Project>>>(bytes);
    let _ = serde_json::from_slice::<Data<Vec<App>>>(bytes);
    let _ = serde_json::from_slice::<Data<Vec<Tag>>>(bytes);
    let _ = serde_json::from_slice::<ErrorBody>(bytes);
    let _ = lenient::feedback_page(bytes);
    let _ = lenient::feedback_detail(bytes);
    let _ = lenient::list::<Project>(bytes, "project list");
    let _ = lenient::list::<App>(bytes, "app list");
    let _ = lenient::list::<Tag>(bytes, "tag list");
    for status in [400, 401, 404, 418, 503] {
        let err = ApiError::from_response(status, bytes, Some("id"));
        let shown = err.to_string();
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("new"),
            Just("2026-01-01T00:00:00Z"),
            Just("issue_tracker"),
            Just("id")
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        let keys = prop_oneof![
            Just("data".to_owned()),
            Just("next_cursor".to_owned()),
            Just("id".to_owned()),
            Just("message".to_owned()),
            Just("status".to_owned()),
            Just("received_at".to_owned()),
            Just("tags".to_owned()),
            Just("app".to_owned()),
            Just("project".to_owned()),
            Just("metadata".to_owned()),
            Just("built_in".to_owned()),
            Just("delivery".to_owned()),
            Just("count".to_owned()),
            Just("tag".to_owned()),
            Just("custom".to_owned()),
            Just("error".to_owned()),
            ".{0,6}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// `text` as JSON string content, every UTF-16 unit escaped, the units at `cut` left out.
fn escaped_units(text: &str, cut: &[bool]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (i, unit) in text.encode_utf16().enumerate() {
        if !cut.get(i).copied().unwrap_or(false) {
            let _ = write!(out, "\\u{unit:04x}");
        }
    }
    out
}

fn page_with_message(message: &str) -> Vec<u8> {
    format!(
        r#"{{"data":[{{"id":"a1","message":"{message}","reporter_email":null,"status":"new",
        "received_at":"2026-11-01T12:00:00Z","tags":["{message}"],"app":null,
        "project":{{"id":"p","name":"{message}"}}}}],"next_cursor":null}}"#
    )
    .into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        decode_all(&bytes);
    }

    #[test]
    fn arbitrary_json_never_panics(value in json_value()) {
        decode_all(&serde_json::to_vec(&value).unwrap());
        decode_all(&serde_json::to_vec(&serde_json::json!({ "data": value })).unwrap());
    }

    #[test]
    fn utf16_escapes_with_units_cut_out_always_decode(
        text in any::<String>(),
        cut in prop::collection::vec(any::<bool>(), 0..64),
    ) {
        let body = page_with_message(&escaped_units(&text, &cut));
        let page = feedback_api::lenient::feedback_page(&body).unwrap();
        prop_assert_eq!(page.data.len(), 1);
        let message = &page.data[0].message;
        prop_assert_eq!(&page.data[0].project.name, message);
        if !cut.iter().any(|c| *c) {
            prop_assert_eq!(message, &text);
        }
        let strict: Page<Feedback> = feedback_core::json::from_slice(&body).unwrap();
        prop_assert_eq!(&strict.data[0].message, message);
    }
}
