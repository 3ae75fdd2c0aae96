//! Webhook deliveries shared with the team's mirror (`webhook listen --team`), against a real
//! PostgreSQL: two members' receivers deliver overlapping items; each item is in the mirror
//! once, a member's store following the mirror holds them all, and a delivery never undoes what
//! the syncer wrote of the same item (a newer copy, or its removal). Noted items wait in the
//! receiver's store while the database is away.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use feedback_api::{Feedback, Status};
use feedback_store::{Shared, Sighting, Store};
use feedback_team::{self as team, Team};
use feedback_team_sync::{self as team_sync, deliveries::share};
use feedback_tui::testkit::{item, now};
use team_pg as pg;

/// A receiver's store that notes its deliveries for the team.
fn receiver() -> Shared {
    let mut store = Store::open_memory().unwrap();
    store.share_deliveries(true);
    Shared::new(store).unwrap()
}

fn deliver(store: &Shared, feedback: &Feedback) {
    let sighting = Sighting {
        feedback,
        listed: None,
        metadata: None,
        delivery: None,
    };
    let key = format!("delivery {}", feedback.id.as_str());
    store
        .write(|s| s.put_delivery(&key, now(), &[sighting], feedback.received_at))
        .unwrap();
}

fn ids(read: &[team::MirrorItem]) -> Vec<String> {
    let mut ids: Vec<String> = read.iter().map(|m| m.id.clone()).collect();
    ids.sort_unstable();
    ids
}

#[tokio::test]
async fn each_delivered_item_reaches_the_mirror_once_and_never_undoes_the_syncers_copy() {
    let Some(db) = pg::Db::new("team_deliveries").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "bo", "cy"]).await;
    let cy = members.pop().unwrap();
    let mut bo = members.pop().unwrap();
    let mut ana = members.pop().unwrap();
    ana.set_shared_mirror(true).await.unwrap();

    // The syncer already wrote item 0 archived, and item 9 as removed from the service.
    let lease = cy.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    let mut syncer = cy;
    let mut archived = item(0);
    archived.status = Status::Archived;
    let written = syncer
        .mirror_write(
            &lease,
            (&[archived.clone()], &[]),
            &[item(9).id.0],
            None,
            None,
        )
        .await
        .unwrap();
    assert_eq!(written, team::MirrorWrite::Written { changed: 2 });

    // Ana's and Bo's receivers both get items 0–2; Bo's also item 3 and the removed item 9.
    let (ana_store, bo_store) = (receiver(), receiver());
    for n in 0..3 {
        deliver(&ana_store, &item(n));
        deliver(&bo_store, &item(n));
    }
    deliver(&bo_store, &item(3));
    deliver(&bo_store, &item(9));
    assert_eq!(
        share(&mut ana, &ana_store).await.unwrap(),
        2,
        "items 1 and 2"
    );
    assert_eq!(share(&mut bo, &bo_store).await.unwrap(), 1, "item 3 alone");
    assert_eq!(
        share(&mut bo, &bo_store).await.unwrap(),
        0,
        "nothing noted twice"
    );

    let read = ana.mirror_after(0, 1000).await.unwrap();
    assert_eq!(
        ids(&read),
        ["id00000", "id00001", "id00002", "id00003", "id00009"]
    );
    let zero = read.iter().find(|m| m.id == "id00000").unwrap();
    assert_eq!(zero.item.as_ref().unwrap().status, Status::Archived);
    assert!(
        read.iter()
            .find(|m| m.id == "id00009")
            .unwrap()
            .item
            .is_none()
    );

    // A member's store following the mirror holds what the receivers shared.
    let member_store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let team: Team = bo;
    team_sync::join(&team, &member_store).await.unwrap();
    let followed = team_sync::mirror::follow(&team, &member_store, now)
        .await
        .unwrap();
    assert_eq!(followed.added, 4);
    let stored = member_store.read(|s| s.item("id00000")).unwrap().unwrap();
    assert_eq!(stored.feedback.status, Status::Archived);
    assert!(member_store.read(|s| s.item("id00009")).unwrap().is_none());
    drop((ana, team, syncer));
    db.drop().await;
}

#[tokio::test]
async fn items_noted_while_the_database_is_away_are_shared_once_it_answers() {
    let Some(db) = pg::Db::new("team_deliveries_away").await else {
        return;
    };
    let urls = db.team(&["ana"]).await;
    let url: team::TeamUrl = urls[0].1.parse().unwrap();
    let away: team::TeamUrl = pg::Db::away(&urls[0].1).parse().unwrap();
    assert!(Team::open(&away, None).await.is_err());
    let store = receiver();
    deliver(&store, &item(1));
    // Noted in the delivery's own transaction: nothing is lost while nothing could be sent.
    let waiting = store.read(|s| s.deliveries_to_share(10)).unwrap();
    assert_eq!(waiting.ids, ["id00001"]);
    let mut ana = Team::open(&url, None).await.unwrap();
    ana.set_shared_mirror(true).await.unwrap();
    assert_eq!(share(&mut ana, &store).await.unwrap(), 1);
    assert!(
        store
            .read(|s| s.deliveries_to_share(10))
            .unwrap()
            .is_empty()
    );
    drop(ana);
    db.drop().await;
}
