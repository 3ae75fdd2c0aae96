//! Compiled SQL: its shape, its errors, and that no input reaches FTS5 as syntax.

use proptest::prelude::*;
use rusqlite::types::Value;

use super::super::*;
use super::brute::{Fixture, anchor};
use crate::Store;
use feedback_core::query::*;

fn cx() -> Context {
    Context {
        now: anchor(),
        tz: jiff::tz::TimeZone::fixed(jiff::tz::offset(-5)),
        views: std::sync::Arc::default(),
    }
}

fn sql(store: &Store, input: &str) -> Sql {
    compile(store.conn(), &parse(input).unwrap(), &cx()).unwrap()
}

fn compile_error(fixture: &Fixture, input: &str) -> (String, String) {
    let e = compile(fixture.store.conn(), &parse(input).unwrap(), &cx()).expect_err(input);
    (e.message.to_string(), input[e.span].to_owned())
}

#[test]
fn empty_query_compiles_to_true() {
    let store = Store::open_memory().unwrap();
    assert_eq!(sql(&store, "  ").condition, "1");
    assert!(sql(&store, "").params.is_empty());
}

#[test]
fn text_groups_share_one_match_and_lone_negatives_use_not_in() {
    let store = Store::open_memory().unwrap();
    // Text at the top drives the query: it is the `fts` match, not part of the condition.
    // Plain words and phrases look up their stems, exact words and prefixes the words.
    let s = sql(&store, "crashes sync* -\"dark modes\" =Crashed");
    assert_eq!((s.condition.as_str(), s.params.len()), ("1", 0));
    assert_eq!(
        s.fts.as_deref(),
        Some(
            r#"((stems : "crash" AND message : "sync" * AND message : "Crashed") NOT stems : "dark mode")"#
        )
    );
    let s = sql(&store, "crash has:email");
    assert_eq!(s.fts.as_deref(), Some(r#"(stems : "crash")"#));
    assert!(!s.condition.contains("MATCH"), "{}", s.condition);
    let s = sql(&store, "-crash -sync");
    assert!(s.condition.starts_with("items.k NOT IN"), "{}", s.condition);
    assert_eq!(
        s.params,
        [Value::Text(r#"(stems : "crash" OR stems : "sync")"#.into())]
    );
    let s = sql(&store, "crash OR sync OR has:email");
    assert_eq!(s.condition.matches("MATCH").count(), 1, "{}", s.condition);
    assert!(s.condition.contains(" OR ((items.email"), "{}", s.condition);
}

#[test]
fn dates_are_read_in_the_users_zone_and_ages_from_now() {
    let store = Store::open_memory().unwrap();
    let s = sql(&store, "after:2026-11-01");
    let midnight_at_minus_5: jiff::Timestamp = "2026-11-01T05:00:00Z".parse().unwrap();
    assert_eq!(
        s.params,
        [Value::Integer(crate::time_key(midnight_at_minus_5))]
    );
    // Keys run newest first: "at or after" is every key up to the day's first.
    assert!(s.condition.contains("items.k <= "), "{}", s.condition);
    let s = sql(&store, "age:<2h");
    let two_hours_ago = anchor() - jiff::SignedDuration::from_hours(2);
    // Younger than 2h: received after the cutoff, so from the key of the next microsecond.
    let next = two_hours_ago + jiff::SignedDuration::from_micros(1);
    assert_eq!(s.params, [Value::Integer(crate::time_key(next))]);
}

#[test]
fn unknown_app_or_project_is_an_error_at_its_value_naming_the_known_ones() {
    let fixture = Fixture::new(30);
    let (message, at) = compile_error(&fixture, "crash app:\"Trailhead Windows\"");
    assert_eq!(at, "Trailhead Windows");
    assert!(
        message.contains("no app named \"Trailhead Windows\""),
        "{message}"
    );
    assert!(message.contains("\"Trailhead iOS\""), "{message}");
    let (message, at) = compile_error(&fixture, "project:zephyr");
    assert_eq!(at, "zephyr");
    assert!(message.contains("\"Nimbus Notes\""), "{message}");
    let empty = Store::open_memory().unwrap();
    let e = compile(empty.conn(), &parse("app:x").unwrap(), &cx()).unwrap_err();
    assert!(e.message.contains("no apps are stored yet"), "{e}");
}

/// The rule: a value that is no name, slug or id but begins exactly one app's (or project's)
/// name means that one; beginning several is an error at the value that lists them.
#[test]
fn a_unique_beginning_of_a_name_names_it_and_an_ambiguous_one_lists_the_candidates() {
    let fixture = Fixture::new(30);
    let store = &fixture.store;
    let whole = sql(store, "project:\"Nimbus Notes\"");
    assert_eq!(sql(store, "project:nimbus"), whole);
    assert_eq!(sql(store, "project:NIMB"), whole, "case-insensitive");
    let apps: Vec<&str> = fixture.data.apps.iter().map(|a| a.name.as_str()).collect();
    let web = apps
        .iter()
        .find(|n| n.starts_with("Nimbus Notes W"))
        .unwrap();
    assert_eq!(
        sql(store, "app:\"nimbus notes w\""),
        sql(store, &format!("app:\"{web}\""))
    );
    let (message, at) = compile_error(&fixture, "crash app:nimbus");
    assert_eq!(at, "nimbus");
    assert!(
        message.contains("app \"nimbus\" begins more than one name:"),
        "{message}"
    );
    let nimbus: Vec<&&str> = apps.iter().filter(|n| n.starts_with("Nimbus")).collect();
    assert!(nimbus.len() > 1, "{apps:?}");
    for name in nimbus.iter().take(8) {
        assert!(message.contains(&format!("\"{name}\"")), "{message}");
    }
    assert!(!message.contains("Trailhead"), "{message}");
}

#[test]
fn names_are_escaped_in_errors() {
    let mut store = Store::open_memory().unwrap();
    let evil = feedback_api::Project {
        id: "p1".into(),
        name: "\u{1b}]0;pwned\u{7}Evil".into(),
        slug: None,
        created_at: None,
    };
    store.put_projects(&[evil]).unwrap();
    let e = compile(store.conn(), &parse("project:x").unwrap(), &cx()).unwrap_err();
    assert!(!e.message.contains('\u{1b}'), "{e:?}");
    assert!(e.message.contains("Evil"), "{e}");
}

#[test]
fn known_names_without_items_just_match_nothing() {
    let fixture = Fixture::new(30);
    let mut store = Store::open_memory().unwrap();
    store.put_apps(&fixture.data.apps, None).unwrap();
    assert_eq!(sql(&store, "app:trailhead-ios").condition, "0");
    // Values the service names but no stored item has: no result, and no error.
    store
        .put_server_tags(&[feedback_api::Tag {
            tag: "Listed".into(),
            count: 3,
        }])
        .unwrap();
    for query in ["tag:listed", "status:archived", "platform:web"] {
        assert!(sql(&store, query).condition.contains('0'), "{query}");
    }
    for query in ["version:0.0.0", "meta.x:y"] {
        assert!(fixture.search(query).unwrap().is_empty(), "{query}");
    }
}

#[test]
fn values_nothing_stored_has_and_the_service_does_not_name_are_errors_at_the_value() {
    let fixture = Fixture::new(60);
    for (query, what, value) in [
        ("crash tag:crsh", "tag", "crsh"),
        ("status:archvied", "status", "archvied"),
        ("-platform:andriod", "platform", "andriod"),
    ] {
        let e = fixture.search(query).unwrap_err();
        assert_eq!(&query[e.span.clone()], value, "{query}: {e}");
        assert!(
            e.message.starts_with(&format!(
                "no stored feedback has {what} \"{value}\"; known: "
            )),
            "{e}"
        );
    }
}

#[test]
fn metadata_with_many_distinct_values_falls_back_to_nocase() {
    let fixture = Fixture::new(300);
    // Many more distinct values than a walk lists (rows of keys no item has: they match nothing).
    let mut insert = fixture
        .store
        .conn()
        .prepare("INSERT INTO item_meta (k, custom, key, value) VALUES (?1, 1, 'userId', ?2)")
        .unwrap();
    for i in 0..=super::super::resolve::MAX_DISTINCT {
        let k = i64::try_from(i).unwrap() + 1_000_000;
        insert
            .execute(rusqlite::params![k, format!("z_{i:06}")])
            .unwrap();
    }
    // An item stored with its detail (a third are stored as list sightings, without metadata).
    let user = fixture
        .items
        .iter()
        .filter(|d| fixture.keys[d.feedback.id.as_str()].1)
        .find_map(|d| d.metadata.custom.get("userId"))
        .expect("some item stored with its detail has a userId");
    let distinct: i64 = fixture
        .store
        .conn()
        .query_row(
            "SELECT count(DISTINCT value) FROM item_meta WHERE key = 'userId'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        usize::try_from(distinct).unwrap() > super::super::resolve::MAX_DISTINCT,
        "{distinct}"
    );
    let query = format!("meta.USERID:{}", user.to_uppercase());
    let s = sql(&fixture.store, &query);
    assert!(s.condition.contains("COLLATE NOCASE"), "{}", s.condition);
    let got = fixture.search(&query).unwrap();
    assert!(!got.is_empty());
    assert_eq!(got, fixture.brute(&query));
}

#[test]
fn fts_operators_in_user_text_are_just_words() {
    let fixture = Fixture::new(200);
    for query in [
        "NEAR(crash sync)",
        "crash^",
        "+crash",
        "message",
        "\"a\"\"b\"",
        "{message}",
        "sync AND",
    ] {
        if let Ok(q) = parse(query) {
            let s = compile(fixture.store.conn(), &q, &cx()).unwrap();
            assert!(fixture.search(query).is_ok(), "{query}: {}", s.condition);
            assert_eq!(
                fixture.search(query).unwrap(),
                fixture.brute(query),
                "{query}"
            );
        }
    }
}

thread_local! {
    static SMALL: Fixture = Fixture::new(60);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Whatever parses also compiles and runs: no FTS5 or SQL syntax error is reachable. The only
    /// errors left are the ones about values (a tag no stored item has and the service does not
    /// list), which point into the query.
    #[test]
    fn anything_that_parses_runs(words in prop::collection::vec("[\\PC]{1,5}|[\\x00-\\x1f\\u{2028}]{1,3}|[\"*():a-z-]{1,4}|NOT|OR|tag:[a-z]{1,3}", 1..8)) {
        let input = words.join(" ");
        SMALL.with(|fixture| {
            if parse(&input).is_ok() {
                let got = fixture.search(&input);
                let about_a_value = got.as_ref().err().is_some_and(|e| {
                    e.message.starts_with("no stored feedback has") && e.span.end <= input.len()
                });
                prop_assert!(got.is_ok() || about_a_value, "{input:?}: {got:?}");
            }
            Ok(())
        })?;
    }
}

#[test]
fn a_nul_inside_a_phrase_is_a_word_break_not_the_end_of_the_fts_string() {
    let fixture = Fixture::new(60);
    for input in ["\"\0 a\"", "\"the\0app\"", "crash\0*"] {
        let got = fixture.search(input);
        assert!(got.is_ok() || parse(input).is_err(), "{input:?}: {got:?}");
    }
}

#[test]
fn a_text_search_walks_its_matches_newest_first_without_sorting_them() {
    let fixture = Fixture::new(200);
    for input in ["crash", "crash tag:bug", "sync* -crash", "status:new crash"] {
        let sql = compile(fixture.store.conn(), &parse(input).unwrap(), &cx()).unwrap();
        let view = crate::ViewQuery {
            status: Some("new".into()),
            ..crate::ViewQuery::default()
        }
        .search(sql);
        let plan = fixture
            .store
            .view_plan(&view, Some(60))
            .unwrap()
            .join(" | ");
        assert!(plan.contains("items_fts VIRTUAL TABLE"), "{input}: {plan}");
        assert!(!plan.contains("TEMP B-TREE"), "{input}: {plan}");
    }
}

#[test]
fn a_view_named_by_view_is_found_once_and_its_faults_are_told_at_the_qualifier() {
    use feedback_config::views::ViewDef;
    let fixture = Fixture::new(200);
    let def = |name: &str, query: &str| {
        crate::saved_views::from_def(&ViewDef {
            name: name.into(),
            query: query.into(),
            status: "new".into(),
            ..ViewDef::default()
        })
    };
    let mut views = fixture.cx.views.to_vec();
    views.push(def("Nested", "crash view:Inbox"));
    views.push(def("Gone app", "app:\"Nowhere App\""));
    views.push(def("Broken", "tag:"));
    let cx = Context {
        views: views.into(),
        ..fixture.cx.clone()
    };
    let error = |input: &str| {
        let e = compile(fixture.store.conn(), &parse(input).unwrap(), &cx).expect_err(input);
        (e.message.to_string(), input[e.span].to_owned())
    };
    let (message, at) = error("crash view:zzz");
    assert_eq!(at, "view:zzz");
    assert!(
        message.starts_with("no view named \"zzz\"; known: Inbox, Starred"),
        "{message}"
    );
    let (message, at) = error("view:do");
    assert_eq!(at, "view:do");
    assert_eq!(
        message,
        "\"do\" begins several views: Done, \"Done or sync\""
    );
    let (message, _) = error("view:nested");
    assert_eq!(
        message,
        "view Nested: its search names a view, and views do not nest"
    );
    let (message, at) = error("-view:\"gone app\"");
    assert_eq!(at, "view:\"gone app\"");
    assert!(
        message.starts_with("view \"Gone app\": no app named \"Nowhere App\"; known:"),
        "{message}"
    );
    let (message, _) = error("view:broken");
    assert_eq!(message, "view Broken: `tag:` needs a value");
    // Without views (a caller that knows none), every name is unknown.
    let e = compile(
        fixture.store.conn(),
        &parse("view:Inbox").unwrap(),
        &self::cx(),
    )
    .unwrap_err();
    assert_eq!(
        e.message.to_string(),
        "no view named \"Inbox\": no views are known here"
    );
}
