//! The window between a catch-up and a send, against a real PostgreSQL: a teammate's done read
//! while this member's own change of the item waits in the outbox shows once the change is
//! settled, whether the team refused it or had applied it already (a send whose answer a
//! dropped connection or a killed database lost). Afterwards the store equals the database
//! item by item.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use feedback_store::{Shared, Store};
use feedback_team::Change;
use feedback_team_sync::{self as team_sync, Settled};
use jiff::Timestamp;

use team_pg as pg;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_teammates_done_read_while_a_change_waited_shows_once_it_is_settled() {
    let Some(db) = pg::Db::new("team_windows").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "bo"]).await;
    let (bo, ana) = (members.pop().unwrap(), members.pop().unwrap());
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    team_sync::join(&ana, &store).await.unwrap();
    let id = || uuid::Uuid::new_v4().to_string();

    // fb_1: Ana's claim waits; Bo claims the item and marks it done first: hers is refused.
    // fb_2: Ana's claim was applied but the answer never came back (the connection dropped);
    // Bo marks the item done after it.
    let recorded = team_sync::record(
        &store,
        ana.member(),
        &[
            ("fb_1".to_owned(), Change::Claim),
            ("fb_2".to_owned(), Change::Claim),
        ],
        Timestamp::now(),
    )
    .await
    .unwrap();
    bo.apply(&id(), "fb_1", &Change::Claim).await.unwrap();
    bo.apply(&id(), "fb_1", &Change::Done(true)).await.unwrap();
    ana.apply(&recorded[1], "fb_2", &Change::Claim)
        .await
        .unwrap();
    bo.apply(&id(), "fb_2", &Change::Done(true)).await.unwrap();

    // The catch-up runs while both changes wait (a round whose send the dropped connection
    // cut short), then the send.
    team_sync::catch_up(&ana, &store, Timestamp::now)
        .await
        .unwrap();
    let items = ["fb_1", "fb_2"];
    let own: Vec<String> = items.iter().map(|i| (*i).to_owned()).collect();
    let sending = team_sync::Sending::Own(&own, tokio::time::Instant::now());
    let sent = team_sync::send_some(&ana, &store, sending, Timestamp::now)
        .await
        .unwrap();
    let outcomes: Vec<bool> = sent
        .settled
        .iter()
        .map(|(_, _, settled)| *settled == Settled::Applied)
        .collect();
    assert_eq!(
        outcomes,
        [false, true],
        "fb_1 refused, fb_2 applied already"
    );

    let truth = pg::shared_state::in_database(&db, &own).await;
    let (bo_role, ana_role) = (bo.member().to_owned(), ana.member().to_owned());
    assert_eq!(
        truth,
        [
            ("fb_1".to_owned(), Some(bo_role), true, Vec::new()),
            ("fb_2".to_owned(), Some(ana_role), true, Vec::new()),
        ]
    );
    // Before any further read.
    pg::shared_state::assert_store_is_database(&db, &store, &own, "Ana").await;
    // A later catch-up changes nothing.
    team_sync::catch_up(&ana, &store, Timestamp::now)
        .await
        .unwrap();
    pg::shared_state::assert_store_is_database(&db, &store, &own, "Ana").await;
    db.drop().await;
}
