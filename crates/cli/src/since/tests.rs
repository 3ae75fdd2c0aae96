//! `--since`/`--until`: the forms they take, read in an injected zone and now, the window they
//! make, and that a search narrowed by them finds what `after:`/`before:`/`age:` find.

use jiff::Timestamp;
use jiff::tz::{TimeZone, offset};

use super::*;
use feedback_api::{Feedback, FeedbackId, ProjectRef, Status};
use feedback_core::query::parse;
use feedback_store::Store;

fn at(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// Five hours behind UTC, at a fixed now.
fn cx() -> Context {
    Context {
        now: at("2026-11-10T12:00:00Z"),
        tz: TimeZone::fixed(offset(-5)),
        views: std::sync::Arc::default(),
    }
}

fn item(id: &str, received: &str) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: format!("message {id}"),
        reporter_email: None,
        status: Status::New,
        received_at: at(received),
        tags: vec![],
        app: None,
        project: ProjectRef {
            id: "prj".into(),
            name: "P".into(),
        },
    }
}

#[test]
fn dates_are_local_midnight_date_times_local_instants_exact_and_ages_from_now() {
    let cases = [
        ("2026-11-01", "2026-11-01T05:00:00Z"),
        ("2026-11-01T09:30", "2026-11-01T14:30:00Z"),
        (" 2026-11-01T09:30:00Z ", "2026-11-01T09:30:00Z"),
        ("2026-11-01T09:30:00+01:00", "2026-11-01T08:30:00Z"),
        ("7d", "2026-11-03T12:00:00Z"),
        ("36h", "2026-11-09T00:00:00Z"),
        ("30m", "2026-11-10T11:30:00Z"),
        ("2w", "2026-10-27T12:00:00Z"),
    ];
    for (value, expected) in cases {
        assert_eq!(
            instant("--since", value, &cx()).unwrap(),
            at(expected),
            "{value}"
        );
    }
}

#[test]
fn a_bad_value_is_a_usage_error_naming_the_flag_and_the_forms() {
    for value in ["yesterday", "7x", "2026-13-01", "<7d", ""] {
        let error = instant("--until", value, &cx()).unwrap_err();
        assert!(matches!(error, CliError::Usage(_)), "{value}");
        let shown = error.to_string();
        assert!(shown.starts_with("--until "), "{shown}");
        assert!(shown.contains("an age (7d, 36h"), "{shown}");
    }
    // Server-style text never reaches the terminal raw.
    let shown = instant("--since", "\u{1b}[31m", &cx())
        .unwrap_err()
        .to_string();
    assert!(!shown.contains('\u{1b}'), "{shown:?}");
}

#[test]
fn since_must_come_before_until() {
    let window = Window::new(Some("2026-11-01"), Some("2026-11-02"), &cx()).unwrap();
    assert_eq!(window.since, Some(at("2026-11-01T05:00:00Z")));
    assert_eq!(window.until, Some(at("2026-11-02T05:00:00Z")));
    for (since, until) in [("2026-11-02", "2026-11-01"), ("7d", "2026-11-03T07:00")] {
        let error = Window::new(Some(since), Some(until), &cx()).unwrap_err();
        assert!(
            error.to_string().contains("is not before --until"),
            "{error}"
        );
    }
    assert!(Window::new(None, None, &cx()).unwrap().is_open());
}

#[test]
fn a_page_is_cut_to_the_window_and_says_how_many_items_were_older() {
    let window = Window {
        since: Some(at("2026-11-01T00:00:00Z")),
        until: Some(at("2026-11-05T00:00:00Z")),
    };
    let page = vec![
        item("a", "2026-11-06T00:00:00Z"),
        item("b", "2026-11-05T00:00:00Z"),
        item("c", "2026-11-04T23:59:59Z"),
        item("d", "2026-11-01T00:00:00Z"),
        item("e", "2026-10-31T23:59:59Z"),
        item("f", "2026-10-30T00:00:00Z"),
    ];
    let (kept, older) = window.cut(page);
    let ids: Vec<&str> = kept.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids, ["c", "d"], "since inclusive, until exclusive");
    assert_eq!(older, 2);
    let (kept, older) = Window::default().cut(vec![item("a", "2026-11-06T00:00:00Z")]);
    assert_eq!((kept.len(), older), (1, 0));
}

#[test]
fn the_stop_line_counts_saved_requests_only_from_a_count_it_has() {
    let stopped = Stopped {
        since: at("2026-11-01T00:00:00Z"),
        requests: 3,
        dropped: 40,
        limit: 100,
        older_stored: Some(1_240),
    };
    assert_eq!(
        stopped.describe(),
        "--since: stopped after 3 requests at the first item older than 2026-11-01T00:00:00Z; \
         about 12 requests saved (the local store holds 1,240 older items of this list)"
    );
    // The store counts fewer than the last page dropped: a next cursor still saved one.
    let few = Stopped {
        older_stored: Some(10),
        requests: 1,
        ..stopped
    };
    assert!(
        few.describe()
            .starts_with("--since: stopped after 1 request at")
    );
    assert!(
        few.describe().contains("about 1 request saved"),
        "{}",
        few.describe()
    );
    let unknown = Stopped {
        older_stored: None,
        ..stopped
    };
    assert!(
        unknown
            .describe()
            .ends_with("; the older pages were not fetched"),
        "{}",
        unknown.describe()
    );
    assert!(!unknown.describe().contains("saved"));
}

/// Ids a compiled search finds in `store`, newest first.
fn found(store: &Store, sql: Sql) -> Vec<String> {
    let view = feedback_store::ViewQuery::default().search(sql);
    let keys = store.view_keys(&view, None).unwrap();
    store
        .items(&keys)
        .unwrap()
        .into_iter()
        .map(|i| i.feedback.id.0)
        .collect()
}

#[test]
fn a_narrowed_search_finds_what_after_before_and_age_find() {
    let mut store = Store::open_memory().unwrap();
    let items: Vec<Feedback> = (0..48)
        .map(|h| {
            let received = at("2026-10-31T00:00:00Z")
                .checked_add(jiff::SignedDuration::from_mins(h * 299))
                .unwrap();
            item(&format!("i{h:02}"), &received.to_string())
        })
        .collect();
    store.put_items(&items, cx().now).unwrap();
    let query = |text: &str| store.compile(&parse(text).unwrap(), &cx()).unwrap();
    let narrowed = |since: Option<&str>, until: Option<&str>| {
        let mut sql = query("");
        Window::new(since, until, &cx()).unwrap().narrow(&mut sql);
        found(&store, sql)
    };
    let pairs = [
        ("after:2026-11-03", narrowed(Some("2026-11-03"), None)),
        ("before:2026-11-03", narrowed(None, Some("2026-11-03"))),
        (
            "after:2026-11-01T09:30 before:2026-11-04",
            narrowed(Some("2026-11-01T09:30"), Some("2026-11-04")),
        ),
        ("age:<=7d", narrowed(Some("7d"), None)),
        ("age:>8d", narrowed(None, Some("8d"))),
    ];
    for (text, flags) in pairs {
        let expected = found(&store, query(text));
        assert!(!expected.is_empty() && expected.len() < 48, "{text}");
        assert_eq!(flags, expected, "{text}");
    }
    // With a query of its own, the window is an AND with it.
    let mut sql = query("i01 OR i40 OR has:tag");
    Window::new(Some("2026-11-03"), None, &cx())
        .unwrap()
        .narrow(&mut sql);
    let expected = found(&store, query("(i01 OR i40 OR has:tag) after:2026-11-03"));
    assert_eq!(found(&store, sql), expected);
}
