//! The counts kept as items are written (`counts`) against the same counts made afresh from the
//! tables (schema 8's statements), after random sequences of writes: new items, newer sightings
//! that move an item to another status, tag set or app, details and webhook deliveries (with
//! and without metadata, both OS keys), older sightings that only fill in metadata, forgetting,
//! and retention.
#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;

use crate::schema::RECOUNT_PIVOT_COUNTS;
use crate::{Sighting, Store, Triage, TriageChange, forget_id};
use feedback_api::{AppRef, FeedbackDetail, Metadata, Status};
use feedback_sim::data::generate;

fn t0() -> Timestamp {
    "2026-11-20T15:00:00Z".parse().unwrap()
}

/// One write of the sequence, on item `item % pool`.
#[derive(Debug, Clone)]
enum Op {
    /// A list sighting, with the item changed by `change` (0 none, 1 status, 2 tags, 3 app,
    /// 4 no app, 5 no tags, 6 a status this version does not know listed under `archived`, 7
    /// the same listed under `new`).
    Listed {
        item: usize,
        change: u8,
    },
    /// A detail, its metadata `meta` (0 as generated, 1 none, 2 both OS keys, 3 a custom key).
    Detail {
        item: usize,
        meta: u8,
    },
    /// A webhook delivery: metadata, no delivery list.
    Webhook {
        item: usize,
        meta: u8,
    },
    /// A sighting older than the stored one (fills in only what is missing).
    Older {
        item: usize,
        meta: u8,
    },
    Forget {
        item: usize,
    },
    /// Retention: items received more than `days` before `t0` are dropped.
    Retain {
        days: u8,
    },
    /// The user marks the item done or not (or snoozes it), stored or not yet.
    Triage {
        item: usize,
        done: bool,
        snoozed: bool,
    },
    /// An undo: each item's own state put back (`restore_triage`).
    Undo {
        item: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (any::<usize>(), 0u8..8).prop_map(|(item, change)| Op::Listed { item, change }),
        2 => (any::<usize>(), 0u8..4).prop_map(|(item, meta)| Op::Detail { item, meta }),
        2 => (any::<usize>(), 0u8..4).prop_map(|(item, meta)| Op::Webhook { item, meta }),
        1 => (any::<usize>(), 0u8..4).prop_map(|(item, meta)| Op::Older { item, meta }),
        1 => any::<usize>().prop_map(|item| Op::Forget { item }),
        1 => (20u8..200).prop_map(|days| Op::Retain { days }),
        2 => (any::<usize>(), any::<bool>(), any::<bool>())
            .prop_map(|(item, done, snoozed)| Op::Triage { item, done, snoozed }),
        1 => any::<usize>().prop_map(|item| Op::Undo { item }),
    ]
}

fn metadata(base: &Metadata, meta: u8) -> Metadata {
    let mut m = base.clone();
    match meta {
        1 => m = Metadata::default(),
        2 => {
            m.built_in.insert("iOSVersion".into(), "17.2".into());
            m.built_in.insert("androidVersion".into(), "14".into());
        }
        3 => {
            m.custom.insert("plan".into(), "team".into());
        }
        _ => {}
    }
    m
}

fn changed(item: &FeedbackDetail, change: u8, other_app: &AppRef) -> FeedbackDetail {
    let mut d = item.clone();
    match change {
        1 => {
            d.feedback.status = match d.feedback.status {
                Status::New => Status::Archived,
                _ => Status::New,
            };
        }
        2 => d.feedback.tags.push("regression".into()),
        3 => d.feedback.app = Some(other_app.clone()),
        4 => d.feedback.app = None,
        5 => d.feedback.tags.clear(),
        6 | 7 => d.feedback.status = Status::Other("escalated".into()),
        _ => {}
    }
    d
}

/// The kept counts (non-zero) and the counts made afresh, as sorted rows: (dim, key, status,
/// project, app, done, value, n).
pub(crate) type Rows = Vec<(i64, String, String, i64, i64, bool, String, i64)>;

pub(crate) fn kept_and_recounted(store: &Store) -> (Rows, Rows) {
    let conn = store.conn();
    let rows = |sql: &str| -> Rows {
        conn.prepare(sql)
            .unwrap()
            .query_map([], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                ))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let order = "ORDER BY dim, key, status, project, app, done, value";
    let kept = rows(&format!(
        "SELECT dim, key, status, project, app, done, value, n FROM pivot_counts \
         WHERE n != 0 {order}"
    ));
    conn.execute_batch(
        "DROP TABLE IF EXISTS temp.recount;
         CREATE TEMP TABLE recount AS SELECT * FROM pivot_counts WHERE 0;",
    )
    .unwrap();
    conn.execute_batch(&RECOUNT_PIVOT_COUNTS.replace("INTO pivot_counts", "INTO temp.recount"))
        .unwrap();
    let fresh = rows(&format!(
        "SELECT dim, key, status, project, app, done, value, n FROM temp.recount {order}"
    ));
    (kept, fresh)
}

fn run(ops: &[Op]) {
    let data = generate(7, 40, t0());
    let pool: Vec<FeedbackDetail> = data.items().collect();
    let other_app = pool
        .iter()
        .rev()
        .find_map(|d| d.feedback.app.clone())
        .unwrap();
    let mut store = Store::open_memory().unwrap();
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let mut undo: Vec<(String, Triage)> = Vec::new();
    for (step, op) in ops.iter().enumerate() {
        // Each write is seen later than the one before, except the older sightings.
        let at = t0() + SignedDuration::from_secs(i64::try_from(step).unwrap() + 10);
        match op {
            Op::Listed { item, change } => {
                let d = changed(&pool[item % pool.len()], *change, &other_app);
                let listed = match change {
                    6 => Status::Archived,
                    7 => Status::New,
                    _ => d.feedback.status.clone(),
                };
                store
                    .put(&[Sighting::listed(&d.feedback, &listed)], at)
                    .unwrap();
            }
            Op::Detail { item, meta } => {
                let mut d = pool[item % pool.len()].clone();
                d.metadata = metadata(&d.metadata, *meta);
                store.put(&[Sighting::detail(&d)], at).unwrap();
            }
            Op::Webhook { item, meta } => {
                let d = &pool[item % pool.len()];
                let m = metadata(&d.metadata, *meta);
                let sighting = Sighting {
                    listed: None,
                    feedback: &d.feedback,
                    metadata: Some(&m),
                    delivery: None,
                };
                store.put(&[sighting], at).unwrap();
            }
            Op::Older { item, meta } => {
                let mut d = pool[item % pool.len()].clone();
                d.metadata = metadata(&d.metadata, *meta);
                store.put(&[Sighting::detail(&d)], t0()).unwrap();
            }
            Op::Forget { item } => {
                let id = pool[item % pool.len()].feedback.id.as_str().to_owned();
                store.write(|tx| forget_id(tx, &id)).unwrap();
            }
            Op::Retain { days } => {
                let cutoff = t0() - SignedDuration::from_hours(24 * i64::from(*days));
                store.drop_older_than(cutoff).unwrap();
            }
            Op::Triage {
                item,
                done,
                snoozed,
            } => {
                let id = pool[item % pool.len()].feedback.id.as_str().to_owned();
                let change = TriageChange::Done(*done);
                let before = store
                    .set_triage(std::slice::from_ref(&id), &change, at)
                    .unwrap();
                if *snoozed {
                    let until = Some(at + SignedDuration::from_hours(24));
                    let change = TriageChange::Snooze(until);
                    store.set_triage_each(&[(id, change)], at).unwrap();
                }
                undo = before;
            }
            Op::Undo { item } => {
                let id = pool[item % pool.len()].feedback.id.as_str().to_owned();
                let mut states = std::mem::take(&mut undo);
                states.push((id, Triage::default()));
                store.restore_triage(&states, at).unwrap();
            }
        }
    }
    let (kept, fresh) = kept_and_recounted(&store);
    assert_eq!(kept, fresh, "after {ops:?}");
    let stray: i64 = store
        .conn()
        .query_row(
            "SELECT count(*) FROM triage t LEFT JOIN items i ON i.id = t.id WHERE t.k IS NOT i.k",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stray, 0, "triage keys after {ops:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn kept_counts_equal_a_recount(ops in proptest::collection::vec(op(), 1..40)) {
        run(&ops);
    }
}

/// A page of many items at once (the first sync's shape), some seen twice in the page.
#[test]
fn a_page_with_repeats_keeps_exact_counts() {
    let data = generate(3, 300, t0());
    let items: Vec<FeedbackDetail> = data.items().collect();
    let mut store = Store::open_memory().unwrap();
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    let mut page: Vec<Sighting<'_>> = items
        .iter()
        .enumerate()
        .map(|(i, d)| {
            if i % 3 == 0 {
                Sighting::detail(d)
            } else {
                Sighting::listed(&d.feedback, &d.feedback.status)
            }
        })
        .collect();
    page.extend(items.iter().take(50).map(Sighting::detail));
    store.put(&page, t0()).unwrap();
    let (kept, fresh) = kept_and_recounted(&store);
    assert!(!kept.is_empty());
    assert_eq!(kept, fresh);
}

/// A schema 7 store: schema 8 marks the items whose metadata is known (stored metadata, or a
/// detail without any) and counts what is stored.
#[test]
fn schema_8_counts_a_schema_7_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite3");
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        crate::schema::migrations()
            .to_version(&mut conn, 7)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO project_refs (k, id, name) VALUES (1, 'proj-1', 'Trailhead');
             INSERT INTO app_refs (k, id, name, platform) VALUES (1, 'app-1', 'Trailhead iOS', 'ios');
             INSERT INTO items (k, id, received, status, project, app, message, tags, seen, detail_at)
               VALUES (-3, 'webhook', 3, 'new', 1, 1, 'a', '[\"bug\"]', 30, NULL),
                      (-2, 'detail', 2, 'new', 1, NULL, 'b', '[]', 20, 25),
                      (-1, 'listed', 1, 'archived', 1, 1, 'c', '[]', 10, NULL);
             INSERT INTO item_tags (tag, status, k) VALUES ('bug', 'new', -3);
             INSERT INTO item_meta (k, custom, key, value) VALUES (-3, 0, 'appVersion', '2.1');
             INSERT INTO triage (id, done, changed) VALUES ('detail', 1, 0), ('gone', 1, 0);",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    let meta_at: Vec<(String, Option<i64>)> = store
        .conn()
        .prepare("SELECT id, meta_at FROM items ORDER BY k")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        meta_at,
        [
            ("webhook".to_owned(), Some(30)),
            ("detail".to_owned(), Some(25)),
            ("listed".to_owned(), None)
        ]
    );
    let (kept, fresh) = kept_and_recounted(&store);
    assert_eq!(kept, fresh);
    let n = |dim: i64, value: &str| -> i64 {
        kept.iter()
            .filter(|r| r.0 == dim && r.6 == value)
            .map(|r| r.7)
            .sum()
    };
    assert_eq!(
        (n(0, ""), n(1, ""), n(2, "bug"), n(3, ""), n(4, "2.1")),
        (3, 2, 1, 2, 1)
    );
    let done: i64 = kept.iter().filter(|r| r.0 == 0 && r.5).map(|r| r.7).sum();
    assert_eq!(done, 1);
    let keys: Vec<(String, Option<i64>)> = store
        .conn()
        .prepare("SELECT id, k FROM triage ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        keys,
        [("detail".to_owned(), Some(-2)), ("gone".to_owned(), None)]
    );
}
