//! A long outbox against a real PostgreSQL: it is sent in chunks, in the order the changes were
//! made per item and each change once; a command's own changes go first however many others
//! wait, and the others wait for the next send once the command's time is up.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::collections::BTreeMap;

use feedback_store::{Shared, Store};
use feedback_team::{self as team, Change, Team};
use feedback_team_sync::{self as team_sync, Sending};
use jiff::Timestamp;

use team_pg as pg;

/// Ana's store (in memory) and her connection to the team `support`.
async fn ana(db: &pg::Db) -> (Shared, Team) {
    let team = db.connected("support", &["ana"]).await.pop().unwrap();
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    team_sync::join(&team, &store).await.unwrap();
    (store, team)
}

/// The `n`th change of a long day: labels added to and taken from 40 items in turn, so each
/// item has many changes whose order matters.
fn change(n: usize) -> (String, Change) {
    let item = format!("fb_{}", n % 40);
    let label = format!("l{}", n % 7);
    let change = if (n / 40).is_multiple_of(2) {
        Change::Labels {
            add: vec![label],
            remove: Vec::new(),
        }
    } else {
        Change::Labels {
            add: Vec::new(),
            remove: vec![label],
        }
    };
    (item, change)
}

/// Each item's labels once `changes` were applied in order, by the rule: an added label is
/// on the item until a later change removes it.
fn labels_after(changes: &[(String, Change)]) -> BTreeMap<String, Vec<String>> {
    let mut labels: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (item, change) in changes {
        let on = labels.entry(item.clone()).or_default();
        if let Change::Labels { add, remove } = change {
            for label in add {
                if !on.contains(label) {
                    on.push(label.clone());
                }
            }
            on.retain(|l| !remove.contains(l));
        }
    }
    for on in labels.values_mut() {
        on.sort();
    }
    labels
}

/// The items' labels as the team's database holds them, and how many events it has.
async fn in_database(db: &pg::Db) -> (BTreeMap<String, Vec<String>>, i64) {
    let client = team::connect(&db.admin()).await.unwrap();
    let mut labels = BTreeMap::new();
    for row in client
        .raw()
        .query("SELECT item_id, labels FROM feedback_team.items", &[])
        .await
        .unwrap()
    {
        let mut on: Vec<String> = row.get(1);
        on.sort();
        labels.insert(row.get::<_, String>(0), on);
    }
    let events: i64 = client
        .raw()
        .query_one("SELECT count(*) FROM feedback_team.events", &[])
        .await
        .unwrap()
        .get(0);
    (labels, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_outbox_is_sent_in_chunks_in_order_and_each_change_once() {
    let Some(db) = pg::Db::new("team_long_outbox").await else {
        return;
    };
    let (store, team) = ana(&db).await;
    // More than a few chunks, and items repeating within each chunk's reach.
    let changes: Vec<(String, Change)> = (0..6 * team_sync::SEND_CHUNK + 17).map(change).collect();
    team_sync::record(&store, team.member(), &changes, Timestamp::now())
        .await
        .unwrap();
    let sent = team_sync::send(&team, &store, Timestamp::now)
        .await
        .unwrap();
    assert_eq!(sent.count, changes.len());
    assert!(sent.settled.is_empty(), "none lost: {:?}", sent.settled);
    assert_eq!(sent.pending, 0);
    assert_eq!(store.read(Store::team_outbox_len).unwrap(), 0);
    let (labels, events) = in_database(&db).await;
    assert_eq!(
        events,
        i64::try_from(changes.len()).unwrap(),
        "each change once"
    );
    assert_eq!(labels, labels_after(&changes), "applied in the order made");
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commands_own_changes_go_first_and_the_rest_waits_once_its_time_is_up() {
    let Some(db) = pg::Db::new("team_own_first").await else {
        return;
    };
    let (store, team) = ana(&db).await;
    let earlier: Vec<(String, Change)> = (0..3 * team_sync::SEND_CHUNK).map(change).collect();
    team_sync::record(&store, team.member(), &earlier, Timestamp::now())
        .await
        .unwrap();
    // The command's own changes: a claim of an item none of the others touch, and a label on
    // one that an earlier change labelled too (both of its changes go, in order).
    let own = vec![
        ("fb_own".to_owned(), Change::Claim),
        (
            "fb_3".to_owned(),
            Change::Labels {
                add: vec!["own".to_owned()],
                remove: Vec::new(),
            },
        ),
    ];
    team_sync::record(&store, team.member(), &own, Timestamp::now())
        .await
        .unwrap();
    let items = vec!["fb_own".to_owned(), "fb_3".to_owned()];
    // The command's time for the others is up at once.
    let sending = Sending::Own(&items, tokio::time::Instant::now());
    let sent = team_sync::send_some(&team, &store, sending, Timestamp::now)
        .await
        .unwrap();
    let fb_3_earlier = earlier.iter().filter(|(item, _)| item == "fb_3").count();
    let sent_items: Vec<&str> = sent
        .settled
        .iter()
        .map(|(_, item, _)| item.as_str())
        .collect();
    assert_eq!(sent_items.len(), 2 + fb_3_earlier, "{sent_items:?}");
    assert!(sent_items.iter().all(|i| *i == "fb_own" || *i == "fb_3"));
    assert_eq!(
        sent.pending,
        earlier.len() - fb_3_earlier,
        "the others wait"
    );
    let states = team.states(&items).await.unwrap();
    assert_eq!(states[0].item_id, "fb_3");
    let mut fb_3 = earlier
        .iter()
        .filter(|(item, _)| item == "fb_3")
        .cloned()
        .collect::<Vec<_>>();
    fb_3.push(own[1].clone());
    assert_eq!(
        {
            let mut on = states[0].labels.clone();
            on.sort();
            on
        },
        labels_after(&fb_3)["fb_3"],
        "fb_3's changes in the order made"
    );
    assert_eq!(states[1].owner.as_deref(), Some(team.member()));
    // The next send takes the rest.
    let sent = team_sync::send(&team, &store, Timestamp::now)
        .await
        .unwrap();
    assert_eq!(sent.count, earlier.len() - fb_3_earlier);
    assert_eq!(sent.pending, 0);
    db.drop().await;
}
