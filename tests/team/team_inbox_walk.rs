//! The inbox's sync on a team that shares one mirror, against a real PostgreSQL and the
//! simulator over loopback, through the port the inbox's jobs go to: the first member's inbox
//! walks for the team (every page published as stored); the second's follows the mirror and
//! asks the service for no list page of its own accord, while what its user asks for (a
//! detail, `r`) is read from the service and shared with the mirror; a member's ask for the
//! tops is served by the syncer's inbox; when the first inbox quits, the second takes the walk
//! over from the mirror.

#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;
use crate::team_inbox;
use crate::team_pg;

use feedback_api::{Extras, Status};
use feedback_sim::submit::Submitter;
use feedback_store::{Shared, Store};
use feedback_team::Team;
use feedback_team_sync as team_sync;
use feedback_tui::SyncPort;
use feedback_tui::action::SyncJob;
use feedback_tui::testkit::now;
use sync_support::{list_requests, pages, sim_ids, stored_ids};
use team_inbox::inbox;
use team_pg as pg;

const N: usize = 3_000;

/// `inbox` opens the detail of `id`: read from the service, and what it says beyond the list
/// shared with the mirror's copy (by a task of its own: waited for here, with a deadline).
async fn opens_a_detail(inbox: &team_inbox::Inbox, team: &Team, id: &str) -> Extras {
    let opened = SyncPort::detail(&inbox.port, id.to_owned()).await.unwrap();
    let extras = Extras {
        metadata: opened.metadata,
        delivery: opened.delivery,
    };
    assert!(extras.delivery.is_some());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::time::Instant::now() < deadline {
        let mirrored = team.mirror_after(0, 100_000).await.unwrap();
        if mirrored.iter().any(|m| m.id == id && m.extras.is_some()) {
            break;
        }
        tokio::task::yield_now().await;
    }
    extras
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_inbox_walks_for_the_team_and_the_others_follow_it_ask_it_and_take_over() {
    let Some(db) = pg::Db::new("inbox_walk").await else {
        return;
    };
    let rig = common::rig(N, 1_000_000).await;
    let urls = db.team(&["ana", "bo"]).await;
    let admin = Team::open(&urls[0].1.parse().unwrap(), None).await.unwrap();
    admin.set_shared_mirror(true).await.unwrap();
    let dir = tempfile::tempdir().unwrap();

    // Ana's inbox starts first: it walks for the team, the whole account in the background.
    let ana = inbox(&rig, &dir.path().join("ana.db"), &urls[0].1);
    let started = ana.run(SyncJob::Start(Status::New)).await;
    assert!(started.added > 0);
    ana.background().await;
    let walk = list_requests(&rig.sim);
    let new = sim_ids(&rig.sim, &Status::New);
    let archived = sim_ids(&rig.sim, &Status::Archived);
    assert_eq!(stored_ids(&ana.store, "new"), new);
    assert_eq!(stored_ids(&ana.store, "archived"), archived);
    let status = admin.mirror_status().await.unwrap();
    assert_eq!(
        status.syncer.as_ref().map(|s| s.member.ends_with("_ana")),
        Some(true),
        "{status:?}"
    );

    // Bo's inbox follows: every item from the team's database, no list page asked for, and
    // how far each status is mirrored as the syncer published it.
    let bo = inbox(&rig, &dir.path().join("bo.db"), &urls[1].1);
    let followed = bo.run(SyncJob::Start(Status::New)).await;
    assert_eq!(followed.added, new.len() + archived.len());
    assert!(followed.freshness.unwrap().complete);
    bo.background().await;
    assert_eq!(list_requests(&rig.sim), walk, "a follower asked for a page");
    assert_eq!(stored_ids(&bo.store, "new"), new);
    assert_eq!(stored_ids(&bo.store, "archived"), archived);

    // Bo opens a detail: read from the service, and what it says beyond the list (metadata,
    // delivery links) shared with the mirror's copy, so a member following has it too.
    let extras = opens_a_detail(&bo, &admin, &new[0]).await;
    let cy = Shared::new(Store::open_memory().unwrap()).unwrap();
    team_sync::join(&admin, &cy).await.unwrap();
    team_sync::mirror::follow(&admin, &cy, now).await.unwrap();
    let (_, described) = cy.read(|s| s.item_with_extras(&new[0])).unwrap().unwrap();
    assert_eq!(described, Some(extras));

    // New feedback; Bo presses `r`: his inbox reads the head from the service at once (the
    // user asked) and adds what the mirror lacks to it, so it reaches Ana's store by the mirror.
    let mut submitter = Submitter::new(rig.sim.state().clone(), 7, None);
    rig.clock.advance(std::time::Duration::from_secs(1));
    let fresh = submitter.submit().feedback.id.0;
    let headed = bo.run(SyncJob::Head(Status::New)).await;
    assert_eq!(headed.added, 1);
    assert_eq!(stored_ids(&bo.store, "new")[0], fresh);
    assert_eq!(list_requests(&rig.sim), walk + 1, "one page: the head");
    let cy_followed = team_sync::mirror::follow(&admin, &cy, now).await.unwrap();
    assert_eq!(cy_followed.added, 1);
    assert_eq!(stored_ids(&cy, "new")[0], fresh);

    // A member's `sync` asks the syncer for the tops: the hint makes Ana's inbox refresh,
    // which reads them for the team and says the ask served.
    admin.ask_mirror_walk().await.unwrap();
    ana.run(SyncJob::Refresh(Status::New)).await;
    let (asked, served) = admin.mirror_asks().await.unwrap();
    assert!(served.unwrap() >= asked.unwrap(), "the ask was not served");

    // Ana, the syncer, opens a detail: her next publication carries what it said.
    let opened = SyncPort::detail(&ana.port, new[1].clone()).await.unwrap();
    ana.run(SyncJob::Refresh(Status::New)).await;
    let mirrored = admin.mirror_after(0, 100_000).await.unwrap();
    let row = mirrored.iter().find(|m| m.id == new[1]).unwrap();
    assert_eq!(
        row.extras,
        Some(Extras {
            metadata: opened.metadata,
            delivery: opened.delivery,
        })
    );

    // Ana quits: her turn ends (the lease given up), and Bo's next job walks for the team
    // from the mirror's walk state: the tops only, not the account again.
    let before = list_requests(&rig.sim);
    ana.walk.end(&ana.syncer.rate_limit()).await;
    rig.clock.advance(std::time::Duration::from_secs(1));
    let second = submitter.submit().feedback.id.0;
    bo.run(SyncJob::Refresh(Status::New)).await;
    let status = admin.mirror_status().await.unwrap();
    assert_eq!(
        status.syncer.as_ref().map(|s| s.member.ends_with("_bo")),
        Some(true),
        "{status:?}"
    );
    bo.background().await;
    assert_eq!(stored_ids(&bo.store, "new")[0], second);
    let took_over = list_requests(&rig.sim) - before;
    assert!(
        took_over <= 3,
        "{took_over} list requests after the takeover"
    );
    // Ana's inbox now follows Bo's walk.
    let followed = ana.run(SyncJob::Refresh(Status::New)).await;
    assert_eq!(followed.added, 1);
    assert!(stored_ids(&ana.store, "new") == sim_ids(&rig.sim, &Status::New));
    assert!(walk <= pages(N) + 2, "{walk} list requests for one walk");
    stops_sharing(&admin, &bo).await;
    drop((admin, ana, bo));
    db.drop().await;
}

/// The team stops sharing its mirror: the next job of the inbox walking for it (`syncer`)
/// ends its turn (the lease given up, its writes no longer noted) and syncs alone.
async fn stops_sharing(team: &Team, syncer: &team_inbox::Inbox) {
    team.set_shared_mirror(false).await.unwrap();
    syncer.run(SyncJob::Refresh(Status::New)).await;
    assert!(!team.syncer().await.unwrap().unwrap().alive);
    assert_eq!(syncer.store.read(Store::mirror_publishing).unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_team_database_away_the_inbox_syncs_alone() {
    let Some(db) = pg::Db::new("inbox_walk_away").await else {
        return;
    };
    let rig = common::rig(300, 1_000_000).await;
    let urls = db.team(&["ana"]).await;
    let dir = tempfile::tempdir().unwrap();
    let away = pg::Db::away(&urls[0].1);
    let ana = inbox(&rig, &dir.path().join("ana.db"), &away);
    // Each job runs as without a team: the store is mirrored from the service all the same.
    ana.run(SyncJob::Start(Status::New)).await;
    ana.background().await;
    assert!(stored_ids(&ana.store, "new") == sim_ids(&rig.sim, &Status::New));
    assert_eq!(ana.store.read(Store::mirror_publishing).unwrap(), None);
    drop(ana);
    db.drop().await;
}
