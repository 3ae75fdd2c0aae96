//! The store's file: where it is, who may read it, its schema over versions, and several
//! connections (processes) sharing it.
#![allow(clippy::unwrap_used)]

use super::tests::{T0, T1, ids, item, ts, view};
use super::*;
use feedback_api::Status;

#[test]
fn a_store_file_is_private_survives_reopening_and_uses_wal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir
        .path()
        .join("stores")
        .join(store_file_name(Some("work")));
    {
        let mut store = Store::open(&path).unwrap();
        store
            .put_items(&[item("a", T0, Status::New, &[])], ts(T0))
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(ids(&store, &view(None)), ["a"]);
    let mode: String = store
        .conn()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
    }
}

#[test]
fn profile_names_make_plain_distinct_file_names() {
    assert_eq!(store_file_name(None), "default.sqlite3");
    assert_eq!(store_file_name(Some("work")), "work.sqlite3");
    let odd = store_file_name(Some("../etc"));
    assert!(!odd.contains('/') && !odd.contains(".."), "{odd}");
    assert_ne!(store_file_name(Some("default")), store_file_name(None));
}

#[test]
fn an_older_schema_is_migrated_and_a_newer_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite3");
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        schema::migrations().to_version(&mut conn, 1).unwrap();
        conn.execute("INSERT INTO meta (key, value) VALUES ('kept', 'yes')", [])
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let kept: String = store
        .conn()
        .query_row("SELECT value FROM meta WHERE key = 'kept'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(kept, "yes");
    let version: i64 = store
        .conn()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(usize::try_from(version).unwrap(), schema::latest());
    store
        .conn()
        .pragma_update(None, "user_version", 999)
        .unwrap();
    drop(store);
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(&err, StoreError::TooNew { found: 999, by: Some(by), .. } if by == feedback_core::release::VERSION),
        "{err}"
    );
    // The error names the version that wrote it and where releases are.
    let store = rusqlite::Connection::open(&path).unwrap();
    store
        .execute(
            "UPDATE meta SET value = '9.1.0' WHERE key = 'schema_written_by'",
            [],
        )
        .unwrap();
    drop(store);
    let said = Store::open(&path).unwrap_err().to_string();
    assert!(
        said.contains("written by feedback-inbox 9.1.0 (schema 999; this one, ")
            && said.contains(&format!(
                "install feedback-inbox 9.1.0 or newer from {}",
                feedback_core::release::RELEASES
            )),
        "{said}"
    );
}

#[test]
fn processes_opening_a_new_store_at_the_same_moment_all_get_it() {
    let dir = tempfile::tempdir().unwrap();
    for round in 0..8 {
        let path = dir.path().join(format!("race{round}.sqlite3"));
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(4));
        let openers: Vec<_> = (0..4)
            .map(|_| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&path).map(|_| ())
                })
            })
            .collect();
        for opener in openers {
            opener.join().unwrap().unwrap();
        }
    }
}

#[test]
fn a_second_connection_reads_during_a_write_and_writes_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.sqlite3");
    let mut writer = Store::open(&path).unwrap();
    let mut other = Store::open(&path).unwrap();
    writer
        .put_items(&[item("a", T0, Status::New, &[])], ts(T0))
        .unwrap();
    writer
        .conn()
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('held', '1');")
        .unwrap();
    // WAL: the other connection reads what was committed while the write is open.
    assert_eq!(ids(&other, &view(None)), ["a"]);
    let released = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        writer.conn().execute_batch("COMMIT").unwrap();
        writer
    });
    // Its own write waits for the lock (busy timeout) instead of failing.
    other
        .put_items(&[item("b", T1, Status::New, &[])], ts(T1))
        .unwrap();
    let _writer = released.join().unwrap();
    assert_eq!(ids(&other, &view(None)), ["b", "a"]);
}

#[test]
fn a_schema_2_store_gets_keys_newest_first_with_its_tags_metadata_and_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite3");
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        schema::migrations().to_version(&mut conn, 2).unwrap();
        // Schema 2's keys: received microseconds × 1024 (+ a tie-breaker), newest largest.
        conn.execute_batch(
            "INSERT INTO project_refs (k, id, name) VALUES (1, 'proj-1', 'Trailhead');
             INSERT INTO items (k, id, received, status, project, message, tags, seen)
               VALUES (1024000, 'old', 1000, 'new', 1, 'the export crashed', '[\"bug\"]', 0),
                      (2048000, 'mid', 2000, 'archived', 1, 'thanks', '[]', 0),
                      (3072000, 'top', 3000, 'new', 1, 'export is slow', '[\"bug\"]', 0),
                      (3072001, 'tie', 3000, 'new', 1, 'a tie, stored later', '[]', 0);
             INSERT INTO item_tags (tag, status, k) VALUES ('bug', 'new', 1024000), ('bug', 'new', 3072000);
             INSERT INTO item_meta (k, custom, key, value) VALUES (3072000, 0, 'appVersion', '2.1');
             INSERT INTO items_fts (rowid, message) SELECT k, message FROM items;",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(ids(&store, &view(None)), ["tie", "top", "mid", "old"]);
    assert_eq!(ids(&store, &view(Some("new"))), ["tie", "top", "old"]);
    let tagged = ViewQuery {
        status: Some("new".into()),
        tag: Some("bug".into()),
        ..ViewQuery::default()
    };
    assert_eq!(ids(&store, &tagged), ["top", "old"]);
    let words = |text: &str| {
        let context = search::Context {
            now: ts(T1),
            tz: jiff::tz::TimeZone::UTC,
            views: std::sync::Arc::default(),
        };
        let query = feedback_core::query::parse(text).unwrap();
        let sql = search::compile(store.conn(), &query, &context).unwrap();
        ids(&store, &ViewQuery::default().search(sql))
    };
    assert_eq!(words("export"), ["top", "old"]);
    assert_eq!(words("export -crashed"), ["top"]);
    // The index was filled again with the messages' stems: a word finds its inflections.
    assert_eq!(words("crash"), ["old"]);
    assert_eq!(words("=crash"), Vec::<String>::new());
    assert_eq!(words("=crashed slow*"), Vec::<String>::new());
    assert_eq!(words("\"export crashes\""), ["old"]);
    let top = store.detail("top").unwrap().unwrap();
    assert_eq!(top.metadata.built_in["appVersion"], "2.1");
    assert_eq!(top.item.key, micros_key(3000));
    assert_eq!(
        store.item("tie").unwrap().unwrap().key,
        micros_key(3000) - 1
    );
    // A second run (another process that read the old version) fails and changes nothing.
    let mut store = store;
    let again = store.transact(|tx| tx.execute_batch(schema::STEPS[2]));
    assert!(again.is_err());
    assert_eq!(ids(&store, &view(None)), ["tie", "top", "mid", "old"]);
    assert_eq!(store.item("top").unwrap().unwrap().key, micros_key(3000));
}
