#![allow(clippy::unwrap_used)]

use jiff::Timestamp;

use super::*;
use feedback_api::{
    AppRef, Channel, Delivery, DeliveryStatus, Feedback, FeedbackDetail, FeedbackId, Metadata,
    Platform, Project, ProjectRef, Status,
};

pub(super) fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

pub(super) fn item(id: &str, at: &str, status: Status, tags: &[&str]) -> Feedback {
    Feedback {
        id: FeedbackId(id.to_owned()),
        message: format!("message of {id}: the app crashed"),
        reporter_email: Some(format!("{id}@example.com")),
        status,
        received_at: ts(at),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        app: Some(AppRef {
            id: "app-1".into(),
            name: "Trailhead iOS".into(),
            platform: Platform::Ios,
        }),
        project: ProjectRef {
            id: "proj-1".into(),
            name: "Trailhead".into(),
        },
    }
}

fn project(id: &str) -> Project {
    Project {
        id: id.to_owned(),
        name: format!("Project {id}"),
        slug: Some(id.to_owned()),
        created_at: None,
    }
}

pub(super) fn view(status: Option<&str>) -> ViewQuery {
    ViewQuery {
        status: status.map(str::to_owned),
        ..ViewQuery::default()
    }
}

pub(super) fn ids(store: &Store, query: &ViewQuery) -> Vec<String> {
    let keys = store.view_keys(query, None).unwrap();
    store
        .items(&keys)
        .unwrap()
        .into_iter()
        .map(|i| i.feedback.id.0)
        .collect()
}

pub(super) const T0: &str = "2026-11-01T00:00:00Z";
pub(super) const T1: &str = "2026-11-02T00:00:00Z";

#[test]
fn items_come_back_newest_first_and_a_second_sighting_adds_nothing() {
    let mut store = Store::open_memory().unwrap();
    let page = [
        item("c", "2026-10-03T00:00:00Z", Status::New, &[]),
        item("a", "2026-10-01T00:00:00Z", Status::New, &["bug"]),
        item("b", "2026-10-02T00:00:00Z", Status::Archived, &[]),
    ];
    let written = store.put_items(&page, ts(T0)).unwrap();
    assert_eq!((written.added, written.known), (3, vec![false; 3]));
    assert_eq!(ids(&store, &view(None)), ["c", "b", "a"]);
    assert_eq!(ids(&store, &view(Some("new"))), ["c", "a"]);
    let again = store.put_items(&page, ts(T1)).unwrap();
    assert_eq!(
        (again.added, again.changed, again.known),
        (0, 0, vec![true; 3])
    );
    let stored = store.item("a").unwrap().unwrap();
    assert_eq!(stored.feedback, page[1]);
    assert_eq!(stored.seen, ts(T1));
}

#[test]
fn a_newer_sighting_moves_status_and_tags_and_an_older_one_does_not() {
    let mut store = Store::open_memory().unwrap();
    store
        .put_items(&[item("a", T0, Status::New, &["bug"])], ts(T0))
        .unwrap();
    let moved = store
        .put_items(&[item("a", T0, Status::Archived, &["crash"])], ts(T1))
        .unwrap();
    assert_eq!(moved.changed, 1);
    assert_eq!(ids(&store, &view(Some("archived"))), ["a"]);
    let tag = |t: &str| ViewQuery {
        tag: Some(t.to_owned()),
        ..ViewQuery::default()
    };
    assert_eq!(ids(&store, &tag("crash")), ["a"]);
    assert!(ids(&store, &tag("bug")).is_empty());
    let tag_counts = |status: &str| -> Vec<(String, u64)> {
        let counts = store.counts(Some(status)).unwrap();
        counts.tags.into_iter().map(|t| (t.name, t.count)).collect()
    };
    assert_eq!(tag_counts("archived"), [("crash".to_owned(), 1)]);
    assert!(tag_counts("new").is_empty());
    // A page fetched before the move, written after it, changes nothing.
    let stale = store
        .put_items(&[item("a", T0, Status::New, &["bug"])], ts(T0))
        .unwrap();
    assert_eq!((stale.changed, stale.known), (0, vec![true]));
    assert_eq!(ids(&store, &view(Some("archived"))), ["a"]);
}

#[test]
fn an_unknown_status_is_shown_raw_and_kept_in_the_list_it_was_listed_in() {
    let mut store = Store::open_memory().unwrap();
    let odd = item(
        "a",
        T0,
        Status::Other("Escalated\u{1b}[31m".into()),
        &["bug"],
    );
    store
        .put(&[Sighting::listed(&odd, &Status::New)], ts(T0))
        .unwrap();
    // Shown as the service said it, kept raw.
    assert_eq!(store.item("a").unwrap().unwrap().feedback, odd);
    // In the list it was listed in: its view, the view's tag range, the panes' counts.
    assert_eq!(ids(&store, &view(Some("new"))), ["a"]);
    let tagged = ViewQuery {
        tag: Some("bug".into()),
        ..view(Some("new"))
    };
    assert_eq!(ids(&store, &tagged), ["a"]);
    assert!(ids(&store, &view(Some("archived"))).is_empty());
    assert_eq!(store.counts(Some("new")).unwrap().tags[0].count, 1);
    assert_eq!(store.info().unwrap().by_status["Escalated\u{1b}[31m"], 1);
    // `status:VALUE` finds it (any case); `status:new` names the list it is in.
    let searched = |store: &Store, text: &str| {
        let cx = search::Context {
            now: ts(T1),
            tz: jiff::tz::TimeZone::UTC,
            views: std::sync::Arc::default(),
        };
        let sql = search::compile(
            store.conn(),
            &feedback_core::query::parse(text).unwrap(),
            &cx,
        )
        .unwrap();
        let query = ViewQuery {
            condition: Some((sql.condition, sql.params)),
            ..view(None)
        };
        ids(store, &query)
    };
    assert_eq!(searched(&store, "status:escalated\u{1b}[31m"), ["a"]);
    assert_eq!(searched(&store, "status:ESCALATED\u{1b}[31m"), ["a"]);
    assert_eq!(searched(&store, "status:new"), ["a"]);
    assert!(searched(&store, "status:archived").is_empty());
    // A detail says nothing of lists: the item stays where it is. A page of `archived` moves
    // it there.
    let detail = FeedbackDetail {
        feedback: odd.clone(),
        metadata: Metadata::default(),
        delivery: Vec::new(),
    };
    store.put_detail(&detail, ts(T1)).unwrap();
    assert_eq!(ids(&store, &view(Some("new"))), ["a"]);
    let moved = store
        .put(&[Sighting::listed(&odd, &Status::Archived)], ts(T1))
        .unwrap();
    assert_eq!(moved.changed, 1);
    assert_eq!(ids(&store, &view(Some("archived"))), ["a"]);
    assert!(ids(&store, &view(Some("new"))).is_empty());
    assert_eq!(searched(&store, "status:escalated\u{1b}[31m"), ["a"]);
    // Its status known again: the raw value goes.
    let known = item("a", T0, Status::New, &["bug"]);
    store
        .put_items(std::slice::from_ref(&known), ts(T1))
        .unwrap();
    assert_eq!(store.item("a").unwrap().unwrap().feedback, known);
    assert_eq!(ids(&store, &view(Some("new"))), ["a"]);
    let error = search::compile(
        store.conn(),
        &feedback_core::query::parse("status:escalated").unwrap(),
        &search::Context {
            now: ts(T1),
            tz: jiff::tz::TimeZone::UTC,
            views: std::sync::Arc::default(),
        },
    )
    .unwrap_err();
    assert!(error.message.contains("new"), "{}", error.message);
}

#[test]
fn a_store_that_kept_an_unknown_status_in_place_of_the_list_moves_it_to_new() {
    // Schema 9 kept the service's value in `items.status`, where no view found it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let steps = schema::STEPS;
    for step in &steps[..9] {
        conn.execute_batch(step).unwrap();
    }
    conn.pragma_update(None, "user_version", 9).unwrap();
    conn.execute_batch(
        "INSERT INTO project_refs (k, id, name) VALUES (1, 'p', 'P');
         INSERT INTO items (k, id, received, status, project, app, email, message, tags, seen)
           VALUES (-2, 'odd', 2, 'escalated', 1, NULL, NULL, 'm', '[\"bug\"]', 0),
                  (-1, 'plain', 1, 'new', 1, NULL, NULL, 'm', '[\"bug\"]', 0);
         INSERT INTO item_tags (tag, status, k) VALUES ('bug', 'escalated', -2), ('bug', 'new', -1);",
    )
    .unwrap();
    conn.execute_batch("DELETE FROM pivot_counts").unwrap();
    conn.execute_batch(schema::RECOUNT_PIVOT_COUNTS).unwrap();
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store.item("odd").unwrap().unwrap().feedback.status.as_str(),
        "escalated"
    );
    let tagged = ViewQuery {
        tag: Some("bug".into()),
        ..view(Some("new"))
    };
    assert_eq!(ids(&store, &tagged), ["odd", "plain"]);
    assert_eq!(store.counts(Some("new")).unwrap().tags[0].count, 2);
    let (kept, fresh) = write::tests_counts::kept_and_recounted(&store);
    assert_eq!(kept, fresh);
}

#[test]
fn the_full_text_index_follows_a_changed_message() {
    let mut store = Store::open_memory().unwrap();
    let mut a = item("a", T0, Status::New, &[]);
    store.put_items(&[a.clone()], ts(T0)).unwrap();
    let matches = |store: &Store, word: &str| -> i64 {
        store
            .conn()
            .query_row(
                "SELECT count(*) FROM items_fts WHERE items_fts MATCH ?1",
                [word],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(matches(&store, "crashed"), 1);
    a.message = "a refund, please".into();
    store.put_items(&[a.clone()], ts(T1)).unwrap();
    assert_eq!(matches(&store, "crashed"), 0);
    assert_eq!(matches(&store, "refund"), 1);
    // A new item sighted twice in one write, its message changed between: the last text only.
    let mut b = item("b", T0, Status::New, &[]);
    b.message = "first draft".into();
    let mut b2 = b.clone();
    b2.message = "second thoughts".into();
    store.put_items(&[b, b2], ts(T1)).unwrap();
    assert_eq!(matches(&store, "draft"), 0);
    assert_eq!(matches(&store, "thoughts"), 1);
}

#[test]
fn pages_written_together_keep_each_its_own_sighting_time_and_all_their_words() {
    let mut store = Store::open_memory().unwrap();
    let newer = [
        item("d", "2026-10-04T00:00:00Z", Status::New, &[]),
        item("c", "2026-10-03T00:00:00Z", Status::Archived, &[]),
    ];
    // The older page was asked for before the newer one came back, and still says `c` is new.
    let older = [
        item("c", "2026-10-03T00:00:00Z", Status::New, &[]),
        item("b", "2026-10-02T00:00:00Z", Status::New, &["bug"]),
        item("a", "2026-10-01T00:00:00Z", Status::New, &[]),
    ];
    let (newer_seen, older_seen) = (listed(&newer), listed(&older));
    let written = store
        .write_refetchable(|tx| put_groups_in(tx, &[(&newer_seen, ts(T1)), (&older_seen, ts(T0))]))
        .unwrap();
    assert_eq!(written.added, 4);
    assert_eq!(written.known, [false, false, true, false, false]);
    assert_eq!(ids(&store, &view(None)), ["d", "c", "b", "a"]);
    assert_eq!(store.item("d").unwrap().unwrap().seen, ts(T1));
    assert_eq!(store.item("a").unwrap().unwrap().seen, ts(T0));
    // The stale sighting of `c` in the later group changed nothing.
    assert_eq!(ids(&store, &view(Some("archived"))), ["c"]);
    let words: i64 = store
        .conn()
        .query_row(
            "SELECT count(*) FROM items_fts WHERE items_fts MATCH 'crashed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(words, 4);
    let tags = store.counts(Some("new")).unwrap().tags;
    assert_eq!(tags.len(), 1);
    assert_eq!((tags[0].name.as_str(), tags[0].count), ("bug", 1));
}

#[test]
fn a_write_of_what_can_be_fetched_again_leaves_the_connection_committing_durably() {
    let mut store = Store::open_memory().unwrap();
    let synchronous = |store: &Store| -> i64 {
        store
            .conn()
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(synchronous(&store), 2, "FULL");
    let during = store
        .write_refetchable(|tx| Ok(synchronous_in(tx)))
        .unwrap();
    assert_eq!(during, 1, "NORMAL");
    assert_eq!(synchronous(&store), 2, "FULL again");
    // A failed write puts it back too.
    let failed = store.write_refetchable(|tx| {
        tx.raw()
            .execute_batch("INSERT INTO no_such_table VALUES (1)")?;
        Ok(())
    });
    assert!(failed.is_err());
    assert_eq!(synchronous(&store), 2, "FULL after a failure");
}

fn listed(page: &[Feedback]) -> Vec<Sighting<'_>> {
    page.iter()
        .map(|f| Sighting::listed(f, &f.status))
        .collect()
}

fn synchronous_in(tx: &Tx<'_>) -> i64 {
    tx.raw()
        .query_row("PRAGMA synchronous", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_detail_keeps_metadata_and_delivery() {
    let mut store = Store::open_memory().unwrap();
    let mut metadata = Metadata::default();
    metadata
        .built_in
        .insert("appVersion".into(), "2.1.0".into());
    metadata.custom.insert("plan".into(), "pro".into());
    let detail = FeedbackDetail {
        feedback: item("a", T0, Status::New, &[]),
        metadata,
        delivery: vec![Delivery {
            channel: Channel::IssueTracker,
            status: DeliveryStatus::Delivered,
            external_url: Some("https://tracker/1".into()),
        }],
    };
    store.put_detail(&detail, ts(T1)).unwrap();
    let stored = store.detail("a").unwrap().unwrap();
    assert_eq!(stored.to_detail(), detail);
    assert_eq!(stored.detail_at, Some(ts(T1)));
    // A later list sighting keeps what the detail said.
    store
        .put_items(std::slice::from_ref(&detail.feedback), ts(T1))
        .unwrap();
    assert_eq!(store.detail("a").unwrap().unwrap().to_detail(), detail);
    assert!(store.detail("zz").unwrap().is_none());
}

#[test]
fn a_page_that_fails_halfway_leaves_nothing_of_itself_behind() {
    let mut store = Store::open_memory().unwrap();
    store
        .put_items(&[item("kept", T0, Status::New, &["bug"])], ts(T0))
        .unwrap();
    store
        .conn()
        .execute_batch(
            "CREATE TEMP TRIGGER fail_on_p50 BEFORE INSERT ON items WHEN NEW.id = 'p50'
             BEGIN SELECT RAISE(ABORT, 'disk trouble'); END;",
        )
        .unwrap();
    let mut page: Vec<Feedback> = (0..100)
        .map(|n| item(&format!("p{n}"), T1, Status::New, &["ui"]))
        .collect();
    page[10].project = ProjectRef {
        id: "proj-new".into(),
        name: "New".into(),
    };
    let count = |store: &Store, sql: &str| -> i64 {
        store.conn().query_row(sql, [], |r| r.get(0)).unwrap()
    };
    let tables = [
        "SELECT count(*) FROM items",
        "SELECT count(*) FROM item_tags",
        "SELECT count(*) FROM items_fts",
        "SELECT count(*) FROM project_refs",
    ];
    let before: Vec<i64> = tables.iter().map(|t| count(&store, t)).collect();
    let err = store.put_items(&page, ts(T1)).unwrap_err();
    assert!(err.to_string().contains("disk trouble"), "{err}");
    let after: Vec<i64> = tables.iter().map(|t| count(&store, t)).collect();
    assert_eq!(before, after);
    assert_eq!(ids(&store, &view(None)), ["kept"]);
}

#[test]
fn filters_by_project_app_and_tag_and_counts_them() {
    let mut store = Store::open_memory().unwrap();
    let mut other = item("b", T1, Status::New, &["bug", "ui"]);
    other.app = None;
    other.project = ProjectRef {
        id: "proj-2".into(),
        name: "Beacon".into(),
    };
    store
        .put_items(&[item("a", T0, Status::New, &["bug"]), other], ts(T1))
        .unwrap();
    let q = |project: Option<&str>, app: Option<&str>| ViewQuery {
        project: project.map(str::to_owned),
        app: app.map(str::to_owned),
        ..ViewQuery::default()
    };
    assert_eq!(ids(&store, &q(Some("proj-2"), None)), ["b"]);
    assert_eq!(ids(&store, &q(None, Some("app-1"))), ["a"]);
    assert_eq!(store.view_count(&q(None, None)).unwrap(), 2);
    let counts = store.counts(Some("new")).unwrap();
    let tags: Vec<(&str, u64)> = counts
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.count))
        .collect();
    assert_eq!(tags, [("bug", 2), ("ui", 1)]);
    assert_eq!(counts.apps.len(), 1);
    assert_eq!(counts.projects.len(), 2);
    assert!(store.counts(Some("archived")).unwrap().projects.is_empty());
}

#[test]
fn a_search_condition_is_renumbered_after_the_view_parameters() {
    let mut store = Store::open_memory().unwrap();
    store
        .put_items(
            &[
                item("a", T0, Status::New, &["bug"]),
                item("b", T1, Status::New, &["bug"]),
            ],
            ts(T1),
        )
        .unwrap();
    let query = ViewQuery {
        status: Some("new".into()),
        tag: Some("bug".into()),
        condition: Some((
            "items.id = ?1 OR items.id = ?2".into(),
            vec!["a".to_owned().into(), "zz".to_owned().into()],
        )),
        ..ViewQuery::default()
    };
    assert_eq!(ids(&store, &query), ["a"]);
}

#[test]
fn another_accounts_projects_are_refused() {
    let mut store = Store::open_memory().unwrap();
    store
        .check_account(&[project("p1"), project("p2")])
        .unwrap();
    // Projects come and go: sharing one is the same account.
    store
        .check_account(&[project("p2"), project("p3")])
        .unwrap();
    let err = store.check_account(&[project("x1")]).unwrap_err();
    assert!(matches!(err, StoreError::AccountMismatch { .. }), "{err}");
    assert!(err.to_string().contains("another account"));
    assert_eq!(store.projects().unwrap().len(), 2);
    assert_eq!(store.known_project_ids().unwrap().len(), 3);
}

#[test]
fn retention_drops_old_items_with_their_tags_metadata_and_index() {
    let mut store = Store::open_memory().unwrap();
    let mut old = FeedbackDetail {
        feedback: item("old", "2025-01-01T00:00:00Z", Status::New, &["bug"]),
        metadata: Metadata::default(),
        delivery: Vec::new(),
    };
    old.metadata.custom.insert("plan".into(), "pro".into());
    store.put_detail(&old, ts(T1)).unwrap();
    let many: Vec<Feedback> = (0..2_500)
        .map(|n| {
            item(
                &format!("old{n}"),
                "2025-06-01T00:00:00Z",
                Status::New,
                &["ui"],
            )
        })
        .collect();
    store.put_items(&many, ts(T1)).unwrap();
    store
        .put_items(&[item("kept", T1, Status::New, &["bug"])], ts(T1))
        .unwrap();
    assert_eq!(store.drop_older_than(ts(T0)).unwrap(), 2_501);
    assert_eq!(ids(&store, &view(None)), ["kept"]);
    let count = |sql: &str| -> i64 { store.conn().query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM item_tags"), 1);
    assert_eq!(count("SELECT count(*) FROM item_meta"), 0);
    assert_eq!(
        count("SELECT count(*) FROM items_fts WHERE items_fts MATCH 'crashed'"),
        1
    );
    assert_eq!(store.drop_older_than(ts(T0)).unwrap(), 0);
}

#[test]
fn views_are_read_in_index_order_without_sorting_and_keys_follow_received_times() {
    let mut store = Store::open_memory().unwrap();
    // Stored out of order, two in the same microsecond.
    let page = [
        item("b", "2026-10-02T00:00:00Z", Status::New, &[]),
        item("c", "2026-10-03T00:00:00Z", Status::New, &[]),
        item("a", "2026-10-01T00:00:00Z", Status::New, &[]),
        item("c2", "2026-10-03T00:00:00Z", Status::New, &[]),
    ];
    store.put_items(&page, ts(T0)).unwrap();
    assert_eq!(ids(&store, &view(None)), ["c2", "c", "b", "a"]);
    let c = store.item("c").unwrap().unwrap().key;
    assert_eq!(c, time_key(ts("2026-10-03T00:00:00Z")));
    assert_eq!(store.item("c2").unwrap().unwrap().key, c - 1);
    for query in [
        view(Some("new")),
        ViewQuery {
            status: Some("new".into()),
            project: Some("proj-1".into()),
            ..ViewQuery::default()
        },
        ViewQuery {
            status: Some("archived".into()),
            app: Some("app-1".into()),
            ..ViewQuery::default()
        },
    ] {
        let plan = store.view_plan(&query, Some(60)).unwrap().join(" | ");
        assert!(!plan.contains("TEMP B-TREE"), "{query:?}: {plan}");
    }
}

#[test]
fn more_items_in_one_microsecond_than_the_key_has_room_for_are_all_stored() {
    let mut store = Store::open_memory().unwrap();
    let crowd: Vec<Feedback> = (0..1_100)
        .map(|n| item(&format!("same{n:04}"), T0, Status::New, &[]))
        .collect();
    let before = item("older", "2026-10-31T23:59:59Z", Status::New, &[]);
    store.put_items(&[before], ts(T0)).unwrap();
    for page in crowd.chunks(100) {
        store.put_items(page, ts(T0)).unwrap();
    }
    let all = ids(&store, &view(None));
    assert_eq!(all.len(), 1_101);
    assert_eq!(all.last().map(String::as_str), Some("older"));
}

#[test]
fn the_account_check_counts_items_stored_before_any_list_and_an_empty_list_proves_nothing() {
    let mut store = Store::open_memory().unwrap();
    // A webhook delivery stored before the first sync: its project stands for the account.
    store
        .put_items(&[item("a", T0, Status::New, &[])], ts(T0))
        .unwrap();
    let err = store.check_account(&[project("other")]).unwrap_err();
    assert!(matches!(err, StoreError::AccountMismatch { .. }), "{err}");
    store.check_account(&[project("proj-1")]).unwrap();
    // An empty answer keeps the stored projects and is no proof either way.
    store.check_account(&[]).unwrap();
    assert_eq!(store.projects().unwrap().len(), 1);
    let err = store.check_account(&[project("other")]).unwrap_err();
    assert!(matches!(err, StoreError::AccountMismatch { .. }), "{err}");
}

#[test]
fn an_older_detail_changes_neither_metadata_nor_delivery() {
    let mut store = Store::open_memory().unwrap();
    let detail = |version: &str, url: &str| {
        let mut metadata = Metadata::default();
        metadata
            .built_in
            .insert("appVersion".into(), version.into());
        FeedbackDetail {
            feedback: item("a", T0, Status::New, &[]),
            metadata,
            delivery: vec![Delivery {
                channel: Channel::IssueTracker,
                status: DeliveryStatus::Delivered,
                external_url: Some(url.into()),
            }],
        }
    };
    let newer = detail("2.0", "https://tracker/new");
    store.put_detail(&newer, ts(T1)).unwrap();
    store
        .put_detail(&detail("1.0", "https://tracker/old"), ts(T0))
        .unwrap();
    let stored = store.detail("a").unwrap().unwrap();
    assert_eq!(stored.to_detail(), newer);
    assert_eq!(stored.detail_at, Some(ts(T1)));
    // But what the store lacks, an older sighting fills in.
    store
        .put_items(&[item("b", T0, Status::New, &[])], ts(T1))
        .unwrap();
    let mut late = detail("1.0", "https://tracker/late");
    late.feedback.id = FeedbackId("b".into());
    store.put_detail(&late, ts(T0)).unwrap();
    let filled = store.detail("b").unwrap().unwrap();
    assert_eq!(filled.metadata, late.metadata);
    assert_eq!(filled.delivery, Some(late.delivery));
}

#[test]
fn a_view_streamed_in_batches_is_its_keys_items_in_order() {
    let mut store = Store::open_memory().unwrap();
    let start = ts(T0);
    let items: Vec<Feedback> = (0..53)
        .map(|n| {
            let at = (start + jiff::SignedDuration::from_mins(n)).to_string();
            let status = if n % 4 == 0 {
                Status::Archived
            } else {
                Status::New
            };
            let tags: &[&str] = if n % 3 == 0 { &["bug"] } else { &[] };
            let mut it = item(&format!("i{n:02}"), &at, status, tags);
            if n % 5 == 0 {
                it.app = None;
                it.message = format!("refund {n}");
            }
            it
        })
        .collect();
    store.put_items(&items, ts(T1)).unwrap();
    let cx = search::Context {
        now: ts(T1),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let searched = |text: &str| {
        let query = feedback_core::query::parse(text).unwrap();
        ViewQuery::default().search(store.compile(&query, &cx).unwrap())
    };
    let views = [
        ViewQuery::default(),
        view(Some("new")),
        view(Some("archived")).tagged(Some("bug".into())),
        searched("refund"),
        searched("crashed -tag:bug"),
        searched("nothing-matches-this"),
    ];
    for query in &views {
        for limit in [None, Some(1), Some(10), Some(100)] {
            let keys = store.view_keys(query, limit).unwrap();
            let expected = store.items(&keys).unwrap();
            let mut streamed = Vec::new();
            let mut batches = 0;
            store
                .view_items_each(query, limit, 7, |batch| -> Result<(), StoreError> {
                    assert!(!batch.is_empty() && batch.len() <= 7);
                    batches += 1;
                    streamed.extend(batch);
                    Ok(())
                })
                .unwrap();
            assert_eq!(streamed, expected, "{query:?} limit {limit:?}");
            assert_eq!(batches, expected.len().div_ceil(7));
        }
    }
}
