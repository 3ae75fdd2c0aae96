//! The team walks the account once, against a real PostgreSQL and the simulator over loopback:
//! the syncer walks the API into its store and publishes what that stored, with its walk
//! state, fenced by its lease; when its lease runs out another member's process follows the
//! mirror, takes the walk state over and walks on from it, never from zero; a member joining
//! after holds exactly the service's items, and the pages asked for are one walk's.

#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;
use crate::team_pg;

use feedback_api::Status;
use feedback_store::{Shared, Store};
use feedback_sync::{Priority, SyncSettings, Syncer};
use feedback_team::{self as team, Team};
use feedback_team_sync::{self as team_sync, mirror::Published};
use feedback_tui::testkit::now;
use sync_support::{file_syncer, list_requests, pages, sim_ids, stored_ids};
use team_pg as pg;

const N: usize = 5_000;

fn settings() -> SyncSettings {
    SyncSettings {
        head_page_cap: 2,
        ..SyncSettings::default()
    }
}

/// One backfill page of `status` stored and published; false when the status is mirrored to
/// its end (nothing was asked).
async fn step(syncer: &Syncer, team: &mut Team, store: &Shared, lease: &team::Lease) -> bool {
    let mut walked = false;
    for status in [Status::New, Status::Archived] {
        if syncer.state(&status).unwrap().synced_at.is_none() {
            syncer.head(&status, Priority::User).await.unwrap();
            walked = true;
            break;
        }
        if syncer
            .backfill_page(&status, Priority::User)
            .await
            .unwrap()
            .is_some()
        {
            walked = true;
            break;
        }
    }
    let published = team_sync::mirror::publish(team, store, lease, None)
        .await
        .unwrap();
    assert!(
        matches!(published, Published::Written { .. }),
        "{published:?}"
    );
    walked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_walks_on_from_the_mirror_and_every_store_ends_with_the_services_items() {
    let Some(db) = pg::Db::new("mirror_walk").await else {
        return;
    };
    let rig = common::rig(N, 1_000_000).await;
    let mut members = db.connected("support", &["ana", "ben", "cleo"]).await;
    let cleo = members.pop().unwrap();
    let mut ben = members.pop().unwrap();
    let mut ana = members.pop().unwrap();
    let dir = tempfile::tempdir().unwrap();

    // Ana's store mirrored the top of `new` on its own before the team shared a mirror.
    let (ana_sync, ana_store) = file_syncer(&rig, &dir.path().join("ana.db"), settings());
    ana_sync.head(&Status::New, Priority::User).await.unwrap();
    team_sync::join(&ana, &ana_store).await.unwrap();
    let lease = ana.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    team_sync::mirror::take_over(&ana, &ana_store, lease.generation, now)
        .await
        .unwrap();
    // The first syncer publishes what its store holds with its walk state: no page again.
    let seeded = team_sync::mirror::publish(&mut ana, &ana_store, &lease, None)
        .await
        .unwrap();
    assert_eq!(
        seeded,
        Published::Written {
            items: 200,
            removed: 0
        }
    );
    for _ in 0..5 {
        assert!(step(&ana_sync, &mut ana, &ana_store, &lease).await);
    }
    // One more page stored and never published: the process is killed between the two.
    ana_sync
        .backfill_page(&Status::New, Priority::User)
        .await
        .unwrap()
        .unwrap();
    let ana_walk = ana_store.read(Store::walk_state).unwrap();
    // Its lease runs out (a kill, or a laptop closed).
    let lease = ana.renew_syncer(&lease, 0).await.unwrap().unwrap();

    // Ben's process takes over: it follows the mirror, then walks on from the walk state the
    // mirror holds, which is one page behind Ana's store.
    let ben_lease = ben.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    assert_eq!(ben_lease.generation, lease.generation + 1);
    let (ben_sync, ben_store) = file_syncer(&rig, &dir.path().join("ben.db"), settings());
    team_sync::join(&ben, &ben_store).await.unwrap();
    let followed = team_sync::mirror::take_over(&ben, &ben_store, ben_lease.generation, now)
        .await
        .unwrap();
    assert_eq!(followed.items, 700, "the seed and five pages");
    let ben_walk = ben_store.read(Store::walk_state).unwrap();
    assert!(!ben_walk.is_empty());
    assert_ne!(
        ben_walk, ana_walk,
        "the unpublished page is not in the mirror's walk"
    );
    while step(&ben_sync, &mut ben, &ben_store, &ben_lease).await {}

    // Ana wakes up and publishes what she noted: refused, nothing written.
    assert_eq!(
        team_sync::mirror::publish(&mut ana, &ana_store, &lease, None)
            .await
            .unwrap(),
        Published::Fenced
    );

    // Cleo joins afterwards: her store comes from the team's database alone.
    let requests = list_requests(&rig.sim);
    let cleo_store = Shared::new(Store::open(&dir.path().join("cleo.db")).unwrap()).unwrap();
    team_sync::join(&cleo, &cleo_store).await.unwrap();
    team_sync::mirror::follow(&cleo, &cleo_store, now)
        .await
        .unwrap();
    assert_eq!(
        list_requests(&rig.sim),
        requests,
        "no request to the service"
    );
    for status in [Status::New, Status::Archived] {
        let want = sim_ids(&rig.sim, &status);
        assert_eq!(stored_ids(&ben_store, status.as_str()), want, "{status:?}");
        assert_eq!(stored_ids(&cleo_store, status.as_str()), want, "{status:?}");
    }
    // One walk's pages, and the one page the killed syncer never published.
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();
    assert!(
        (one_walk..=one_walk + 1).contains(&requests),
        "{requests} list requests for one walk of {one_walk}"
    );

    removal_reaches_every_store(
        &rig,
        (&mut ben, &ben_store, &ben_lease),
        (&cleo, &cleo_store),
    )
    .await;
    db.drop().await;
}

/// The service no longer has an item (a detail answered 404 in the syncer's store): the
/// syncer publishes its removal and a member's store follows.
async fn removal_reaches_every_store(
    rig: &common::Rig,
    (syncer, syncer_store, lease): (&mut Team, &Shared, &team::Lease),
    (member, member_store): (&Team, &Shared),
) {
    let gone = sim_ids(&rig.sim, &Status::New)[3].clone();
    let id = gone.clone();
    syncer_store
        .write(move |s| s.write(|tx| feedback_store::forget_id(tx, &id)))
        .unwrap();
    let published = team_sync::mirror::publish(syncer, syncer_store, lease, None)
        .await
        .unwrap();
    assert_eq!(
        published,
        Published::Written {
            items: 0,
            removed: 1
        }
    );
    let followed = team_sync::mirror::follow(member, member_store, now)
        .await
        .unwrap();
    assert_eq!((followed.items, followed.removed), (1, 1));
    assert!(member_store.read(|s| s.item(&gone)).unwrap().is_none());
}
