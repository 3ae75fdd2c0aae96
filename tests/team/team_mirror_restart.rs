//! The team's PostgreSQL server restarted under the inbox that walks for the team (a cluster
//! of the test's own, so every other test keeps its server): the turn is found lost with its
//! connections, and the inbox's next job takes a new turn on a new connection at once (its old
//! lease given up, not waited out), walking on from the walk state the mirror holds. Nothing is
//! lost or doubled: every store ends with exactly the service's items, and the pages asked for
//! are one walk's and the few the mirror had not yet been told of.

#![allow(clippy::unwrap_used)]

use crate::common;
use crate::sync_support;
use crate::team_inbox;
use crate::team_pg;

use std::sync::Arc;

use feedback_api::Status;
use feedback_team::Team;
use feedback_tui::action::SyncJob;
use sync_support::{list_requests, pages, sim_ids, stored_ids};
use team_inbox::inbox;
use team_pg as pg;
use team_pg::cluster::Cluster;

const N: usize = 3_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_restarted_mid_walk_the_inbox_walks_on_from_the_mirror() {
    let Some(cluster) = tokio::task::spawn_blocking(Cluster::start).await.unwrap() else {
        return;
    };
    let cluster = Arc::new(cluster);
    let db = pg::Db::on(cluster.admin_text(), "mirror_restart")
        .await
        .expect("the test's own cluster answers");
    let rig = common::rig(N, 1_000_000).await;
    let urls = db.team(&["ana", "bo"]).await;
    Team::open(&urls[0].1.parse().unwrap(), None)
        .await
        .unwrap()
        .set_shared_mirror(true)
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();

    // Ana's inbox walks for the team, a few pages published.
    let ana = inbox(&rig, &dir.path().join("ana.db"), &urls[0].1);
    ana.run(SyncJob::Start(Status::New)).await;
    for _ in 0..5 {
        ana.run(SyncJob::Background {
            listed: Status::New,
        })
        .await;
    }

    // The server restarts mid-walk; the inbox goes on to the end of the account.
    let restart = Arc::clone(&cluster);
    tokio::task::spawn_blocking(move || restart.restart())
        .await
        .unwrap();
    ana.background().await;
    let new = sim_ids(&rig.sim, &Status::New);
    let archived = sim_ids(&rig.sim, &Status::Archived);
    assert!(stored_ids(&ana.store, "new") == new);
    assert!(stored_ids(&ana.store, "archived") == archived);
    let team = Team::open(&urls[1].1.parse().unwrap(), None).await.unwrap();
    let syncer = team.syncer().await.unwrap().unwrap();
    assert!(syncer.member.ends_with("_ana"), "{syncer:?}");
    assert_eq!(syncer.generation, 2, "a second turn, taken at once");

    // Bo's store, from the mirror alone, holds exactly the service's items.
    let bo = inbox(&rig, &dir.path().join("bo.db"), &urls[1].1);
    let walked = list_requests(&rig.sim);
    bo.run(SyncJob::Start(Status::New)).await;
    assert_eq!(
        list_requests(&rig.sim),
        walked,
        "a follower asked for a page"
    );
    assert!(stored_ids(&bo.store, "new") == new);
    assert!(stored_ids(&bo.store, "archived") == archived);
    assert!(
        walked <= pages(N) + 2 + 3,
        "{walked} list requests: one walk is {}",
        pages(N) + 2
    );
    drop((ana, bo, team));
    db.drop().await;
}
