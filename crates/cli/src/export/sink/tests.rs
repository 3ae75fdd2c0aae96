#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use super::*;
use feedback_api::{
    AppRef, Channel, Delivery, DeliveryStatus, Feedback, FeedbackId, Metadata, Page, Platform,
    ProjectRef, Status,
};

fn item(n: u32) -> Feedback {
    Feedback {
        id: FeedbackId(format!("fb_{n}")),
        message: format!("=SUM(A{n})\nsecond line"),
        reporter_email: n.is_multiple_of(2).then(|| format!("u{n}@example.com")),
        status: Status::New,
        received_at: jiff::Timestamp::from_second(1_790_000_000 - i64::from(n)).unwrap(),
        tags: vec!["bug".into(), "ui".into()],
        app: Some(AppRef {
            id: "app_1".into(),
            name: "Trail\u{1b}[31mhead".into(),
            platform: Platform::Ios,
        }),
        project: ProjectRef {
            id: "prj_1".into(),
            name: "Acme".into(),
        },
    }
}

fn record(n: u32, custom: &[(&str, &str)]) -> Record {
    let custom: BTreeMap<String, String> = custom
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    Record {
        feedback: item(n),
        metadata: Some(Metadata {
            built_in: BTreeMap::from([("appVersion".to_owned(), "2.3.1".to_owned())]),
            custom,
        }),
        delivery: Some(vec![Delivery {
            channel: Channel::IssueTracker,
            status: DeliveryStatus::Delivered,
            external_url: Some(format!("https://issues.example/{n}")),
        }]),
        triage: None,
        links: None,
    }
}

fn export(options: Options, pages: &[Vec<Record>], next: Option<&Cursor>) -> String {
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options);
    for page in pages {
        sink.page(page).unwrap();
    }
    sink.finish(next).unwrap();
    String::from_utf8(out).unwrap()
}

fn options(format: ListFormat, fields: Selection) -> Options {
    Options {
        fields,
        ..Options::plain(format, false)
    }
}

#[test]
fn streamed_json_is_the_page_document_as_before() {
    let pages = vec![vec![record(1, &[]), record(2, &[])], vec![record(3, &[])]];
    let cursor = Cursor("c_next".into());
    let text = export(
        options(ListFormat::Json, Selection::Default),
        &pages,
        Some(&cursor),
    );
    let page = Page {
        data: pages.iter().flatten().map(|r| r.feedback.clone()).collect(),
        next_cursor: Some(cursor),
    };
    let expected = terminal_safe_json(serde_json::to_string_pretty(&page).unwrap()) + "\n";
    assert_eq!(text, expected);
    let empty = export(options(ListFormat::Json, Selection::Default), &[], None);
    let page: Page<Feedback> = Page {
        data: vec![],
        next_cursor: None,
    };
    assert_eq!(empty, serde_json::to_string_pretty(&page).unwrap() + "\n");
}

#[test]
fn fields_give_the_named_columns_in_order_in_every_format() {
    let fields = Selection::parse(Some("message,id,custom.plan,link.issue_tracker")).unwrap();
    let pages = vec![vec![record(1, &[("plan", "pro")])]];
    let jsonl = export(options(ListFormat::Jsonl, fields.clone()), &pages, None);
    assert_eq!(
        jsonl,
        "{\"message\":\"=SUM(A1)\\nsecond line\",\"id\":\"fb_1\",\"custom.plan\":\"pro\",\
         \"link.issue_tracker\":\"https://issues.example/1\"}\n"
    );
    let csv = export(options(ListFormat::Csv, fields.clone()), &pages, None);
    assert_eq!(
        csv,
        "message,id,custom.plan,link.issue_tracker\n\"'=SUM(A1)\nsecond line\",fb_1,pro,https://issues.example/1\n"
    );
    // Piped, the table is tab-separated: the field names, every cell whole on one line,
    // guarded against formulas as CSV is.
    let table = export(options(ListFormat::Table, fields), &pages, None);
    assert_eq!(
        table,
        "message\tid\tcustom.plan\tlink.issue_tracker\n\
         '=SUM(A1) second line\tfb_1\tpro\thttps://issues.example/1\n"
    );
}

#[test]
fn all_in_csv_fixes_columns_on_the_first_page_and_puts_later_keys_in_extra() {
    let pages = vec![
        vec![record(1, &[("plan", "pro")])],
        vec![record(2, &[("plan", "free"), ("seats", "=3")])],
    ];
    let csv = export(options(ListFormat::Csv, Selection::All), &pages, None);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(&header[..3], ["id", "received_at", "status"]);
    for column in [
        "meta.appVersion",
        "meta.locale",
        "custom.plan",
        "link.issue_tracker",
        "link.email",
    ] {
        assert!(header.contains(&column.to_owned()), "{header:?}");
    }
    assert_eq!(header.last().unwrap(), "extra");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[0][at("custom.plan")], "pro");
    assert_eq!(&rows[0][at("extra")], "");
    assert_eq!(&rows[1][at("extra")], r#"{"custom.seats":"=3"}"#);
    assert_eq!(&rows[1][at("meta.appVersion")], "2.3.1");
    // Sanitized: the app's escape is shown, not sent.
    assert_eq!(&rows[1][at("app_name")], "Trail␛head");

    // Keys known up front (search): exactly those columns, no extra.
    let mut keys = Keys::default();
    keys.custom.insert("seats".into());
    let known = Options {
        keys: Some(keys),
        ..options(ListFormat::Csv, Selection::All)
    };
    let csv = export(known, &pages, None);
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with("message,custom.seats"), "{header}");
}

#[test]
fn all_in_json_is_the_detail_shape_with_null_for_what_is_not_known() {
    let pages = vec![vec![record(1, &[("plan", "pro")]), Record::bare(item(2))]];
    let text = export(options(ListFormat::Json, Selection::All), &pages, None);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let data = value["data"].as_array().unwrap();
    assert_eq!(data[0]["metadata"]["custom"]["plan"], "pro");
    assert_eq!(data[0]["delivery"][0]["channel"], "issue_tracker");
    assert_eq!(data[0]["app"]["name"], "Trail\u{1b}[31mhead");
    assert!(data[1]["metadata"].is_null() && data[1]["delivery"].is_null());
    let keys: Vec<&String> = data[0].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 10);
}

#[test]
fn unknown_fields_are_a_usage_error_naming_the_valid_ones() {
    let error = Selection::parse(Some("id,colour")).unwrap_err();
    let shown = error.to_string();
    assert!(matches!(error, CliError::Usage(_)));
    assert!(
        shown.contains("`colour`")
            && shown.contains("reporter_email")
            && shown.contains("meta.KEY"),
        "{shown}"
    );
    assert!(Selection::parse(Some("all,id")).is_err());
    assert!(Selection::parse(Some(",")).is_err());
    assert!(Selection::parse(Some("meta.")).is_err());
}

#[test]
fn header_names_from_the_server_are_sanitized_and_guarded_in_csv_and_tables() {
    let pages = vec![vec![record(
        1,
        &[("=cmd\u{1b}[2J", "x"), ("ok\u{202e}", "y")],
    )]];
    let csv = export(options(ListFormat::Csv, Selection::All), &pages, None);
    let header = csv.lines().next().unwrap();
    assert!(!header.chars().any(char::is_control), "{header:?}");
    assert!(!header.contains('\u{202e}'), "{header:?}");
    assert!(header.contains("custom.=cmd␛,custom.ok�"), "{header:?}");
    let table = export(options(ListFormat::Table, Selection::All), &pages, None);
    let header = table.lines().next().unwrap();
    let cells: Vec<&str> = header.split('\t').collect();
    assert!(
        cells.iter().all(|c| !c.chars().any(char::is_control)),
        "{header:?}"
    );
    assert!(cells.contains(&"custom.=cmd␛"), "{header:?}");
    assert!(
        cells.contains(&"meta.androidVersion"),
        "as sent: {header:?}"
    );
}
