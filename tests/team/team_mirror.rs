//! The shared mirror's footing against a real PostgreSQL: one process at a time holds the
//! syncer's lease, decided by the database; a takeover happens only once the lease expired (by
//! the server's clock) or was given up, and raises the generation; a syncer that lost the lease
//! has its pages refused, nothing written; members read the mirror in the order written; teams
//! are kept apart.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use team_pg as pg;

use feedback_api::Feedback;
use feedback_team::{self as team, MirrorWrite};

fn page(from: usize, count: usize) -> Vec<Feedback> {
    (from..from + count)
        .map(feedback_tui::testkit::item)
        .collect()
}

#[tokio::test]
async fn the_lease_is_one_holders_until_it_expires_or_is_given_up_and_then_fenced() {
    let Some(db) = pg::Db::new("mirror_lease").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "ben"]).await;
    let mut ben = members.pop().unwrap();
    let mut ana = members.pop().unwrap();
    assert_eq!(ana.syncer().await.unwrap(), None, "never taken");

    let first = ana.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    assert_eq!(first.generation, 1);
    assert_eq!(ben.take_syncer(team::LEASE_SECONDS).await.unwrap(), None);
    let held = ben.syncer().await.unwrap().unwrap();
    assert_eq!((held.member.as_str(), held.generation), (ana.member(), 1));
    assert!(held.alive && held.expires_at > held.since);
    let first = ana
        .renew_syncer(&first, team::LEASE_SECONDS)
        .await
        .unwrap()
        .unwrap();

    // The holder writes; a page as it was is not written again.
    let written = ana.mirror_page(&first, &page(0, 30)).await.unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 30 });
    let again = ana.mirror_page(&first, &page(0, 30)).await.unwrap();
    assert_eq!(again, MirrorWrite::Written { changed: 0 });
    let read = ben.mirror_after(0, 1000).await.unwrap();
    assert_eq!(read.len(), 30);
    assert!(read.windows(2).all(|w| w[0].seq < w[1].seq));
    assert_eq!(
        read[0].item,
        Some(page(0, 1)[0].clone()),
        "the item as written"
    );
    let position = read.last().unwrap().seq;

    // Given up: the next process takes it with the next generation; the old one is fenced.
    ana.release_syncer(&first).await.unwrap();
    let second = ben.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    assert_eq!(second.generation, 2);
    assert_eq!(
        ana.mirror_page(&first, &page(30, 5)).await.unwrap(),
        MirrorWrite::Fenced
    );
    assert_eq!(ana.renew_syncer(&first, 15).await.unwrap(), None);
    assert!(
        ben.mirror_after(position, 1000).await.unwrap().is_empty(),
        "nothing written"
    );

    // Expired (a renewal of no time, as a paused laptop's lease runs out): taken over, and
    // the sleeper's write that comes after is refused.
    let second = ben.renew_syncer(&second, 0).await.unwrap().unwrap();
    let third = ana.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    assert_eq!(third.generation, 3);
    assert_eq!(
        ben.mirror_page(&second, &page(30, 5)).await.unwrap(),
        MirrorWrite::Fenced
    );
    let changed = ana.mirror_page(&third, &page(25, 10)).await.unwrap();
    assert_eq!(changed, MirrorWrite::Written { changed: 5 });
    let after = ben.mirror_after(position, 1000).await.unwrap();
    let ids: Vec<String> = after.iter().map(|m| m.id.clone()).collect();
    let want: Vec<String> = page(30, 5).into_iter().map(|f| f.id.0).collect();
    assert_eq!(ids, want);
    db.drop().await;
}

#[tokio::test]
async fn of_processes_racing_for_the_lease_exactly_one_wins_and_teams_stay_apart() {
    let Some(db) = pg::Db::new("mirror_race").await else {
        return;
    };
    let members = db.connected("support", &["ana", "ben", "cleo"]).await;
    let mut tasks = Vec::new();
    for member in members {
        tasks.push(tokio::spawn(async move {
            let lease = member.take_syncer(team::LEASE_SECONDS).await.unwrap();
            (member, lease)
        }));
    }
    let mut won = Vec::new();
    for task in tasks {
        let (member, lease) = task.await.unwrap();
        if let Some(lease) = lease {
            won.push((member, lease));
        }
    }
    assert_eq!(won.len(), 1, "exactly one holder");
    let (mut holder, lease) = won.pop().unwrap();
    let written = holder.mirror_page(&lease, &page(0, 3)).await.unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 3 });

    // Another team sees neither the lease nor the mirror, and takes its own.
    let mut billing = db.connected("billing", &["zed"]).await;
    let zed = billing.pop().unwrap();
    assert_eq!(zed.syncer().await.unwrap(), None);
    assert!(zed.mirror_after(0, 100).await.unwrap().is_empty());
    let own = zed.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    assert_eq!(own.generation, 1);
    db.drop().await;
}

#[tokio::test]
async fn a_members_store_follows_the_mirror_from_where_it_is() {
    use feedback_store::{Shared, Store};
    use feedback_team_sync as team_sync;
    let Some(db) = pg::Db::new("mirror_follow").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "ben"]).await;
    let ben = members.pop().unwrap();
    let mut ana = members.pop().unwrap();
    let lease = ana.take_syncer(team::LEASE_SECONDS).await.unwrap().unwrap();
    for start in (0..2_500).step_by(100) {
        let written = ana.mirror_page(&lease, &page(start, 100)).await.unwrap();
        assert_eq!(written, MirrorWrite::Written { changed: 100 });
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("ben.db")).unwrap()).unwrap();
    let now = feedback_tui::testkit::now;
    // Not joined yet: nothing is read into a store that is not the team's.
    assert!(matches!(
        team_sync::mirror::follow(&ben, &store, now).await,
        Err(team_sync::TeamSyncError::NotJoined)
    ));
    team_sync::join(&ben, &store).await.unwrap();
    let followed = team_sync::mirror::follow(&ben, &store, now).await.unwrap();
    assert_eq!((followed.items, followed.added), (2_500, 2_500));
    let stored = |store: &Shared| {
        let keys = store
            .read(|s| s.view_keys(&feedback_store::ViewQuery::default(), None))
            .unwrap();
        let mut ids: Vec<String> = store
            .read(|s| s.items(&keys))
            .unwrap()
            .into_iter()
            .map(|i| i.feedback.id.0)
            .collect();
        ids.sort();
        ids
    };
    let mut want: Vec<String> = page(0, 2_500).into_iter().map(|f| f.id.0).collect();
    want.sort();
    assert_eq!(stored(&store), want, "exactly the mirror's items");
    // Nothing new: nothing read. Then a page with changed and new items: those alone.
    let again = team_sync::mirror::follow(&ben, &store, now).await.unwrap();
    assert_eq!((again.items, again.position), (0, followed.position));
    let mut changed = page(2_490, 20);
    for item in &mut changed[..10] {
        item.tags = vec!["reopened".to_owned()];
    }
    let lease = ana
        .renew_syncer(&lease, team::LEASE_SECONDS)
        .await
        .unwrap()
        .unwrap();
    let written = ana.mirror_page(&lease, &changed).await.unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 20 });
    let more = team_sync::mirror::follow(&ben, &store, now).await.unwrap();
    assert_eq!((more.items, more.added, more.changed), (20, 10, 10));
    assert_eq!(stored(&store).len(), 2_510);
    // Reopened by another process from scratch: it resumes from the position kept.
    drop(store);
    let store = Shared::new(Store::open(&dir.path().join("ben.db")).unwrap()).unwrap();
    let resumed = team_sync::mirror::follow(&ben, &store, now).await.unwrap();
    assert_eq!((resumed.items, resumed.position), (0, more.position));
    // A walk state that does not read (damaged in the database) costs only itself: the items
    // are still followed, and the store keeps the walk state it had.
    let walk = serde_json::json!({ "tables": {} });
    let written = ana
        .mirror_write(&lease, (&[], &[]), &[], Some(&walk), None)
        .await
        .unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 0 });
    let admin = team::connect(&db.admin()).await.unwrap();
    admin
        .raw()
        .execute(
            "UPDATE feedback_team.mirror_walk SET walk = 'not json'::bytea",
            &[],
        )
        .await
        .unwrap();
    let walk = ana.mirror_walk().await;
    assert!(walk.is_err(), "{walk:?}");
    let written = ana.mirror_page(&lease, &page(3_000, 5)).await.unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 5 });
    let last = team_sync::mirror::follow(&ben, &store, now).await.unwrap();
    assert_eq!(last.added, 5);
    db.drop().await;
}
