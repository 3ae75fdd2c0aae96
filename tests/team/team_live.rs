//! The inbox's live link to the team against a real PostgreSQL: a change recorded by one member
//! reaches the other's store through `NOTIFY` (or, without it, the poll); presence shows who
//! has which item open; a claim lost in a race is reported; a store of another account is
//! refused.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::time::Duration;

use feedback_api::Project;
use feedback_store::{Shared, Store};
use feedback_team::{Change, TeamUrl};
use feedback_team_sync::Settled;
use feedback_team_sync::live::{Ask, News};
use team_pg as pg;
use team_pg::member::{How, Member};

/// The team `support` with these members; each member's URL.
async fn urls_of(db: &pg::Db, members: &[&str]) -> Vec<TeamUrl> {
    db.team(members)
        .await
        .into_iter()
        .map(|(_, url)| url.parse().unwrap())
        .collect()
}

/// A store of the account with project `project`.
fn store_of(project: &str) -> Shared {
    let mut store = Store::open_memory().unwrap();
    store
        .check_account(&[Project {
            id: project.to_owned(),
            name: "Acme".to_owned(),
            slug: None,
            created_at: None,
        }])
        .unwrap();
    Shared::new(store).unwrap()
}

/// A member's link running on `store`.
fn link(url: TeamUrl, store: Shared, poll: Duration, listen: bool) -> Member {
    let how = How {
        poll,
        listen,
        retry: Duration::from_millis(100),
        ..How::default()
    };
    Member::link(url, store, how)
}

#[tokio::test]
async fn a_claim_reaches_the_other_member_through_notify_and_presence_shows_who_looks() {
    let Some(db) = pg::Db::new("team_live").await else {
        return;
    };
    let urls = urls_of(&db, &["ana", "bo"]).await;
    // A poll of an hour: only NOTIFY can bring the change in time.
    let hour = Duration::from_secs(3600);
    let mut ana = link(urls[0].clone(), store_of("prj_1"), hour, true);
    let mut bo = link(urls[1].clone(), store_of("prj_1"), hour, true);
    for member in [&mut ana, &mut bo] {
        member
            .next("news", |n, _| {
                matches!(n, News::Connected { .. }).then_some(())
            })
            .await;
    }
    ana.record("fb_1", Change::Claim).await;
    bo.next("news", |n, _| match n {
        News::Changed(caught_up) => Some(caught_up.events),
        _ => None,
    })
    .await;
    assert_eq!(bo.owner("fb_1"), Some(db.role("ana")));

    // Done is the team's: Ana's reaches Bo's triage state, where his views read it.
    ana.record("fb_2", Change::Done(true)).await;
    bo.next("news", |n, _| matches!(n, News::Changed(_)).then_some(()))
        .await;
    assert!(bo.store.read(|s| s.triage("fb_2")).unwrap().done);

    // Bo opens fb_1: Ana sees him there.
    bo.asks.send(Ask::Looking(Some("fb_1".to_owned()))).unwrap();
    let bo_role = db.role("bo");
    ana.next("news", |n, _| match n {
        News::Present(present) => present
            .iter()
            .any(|p| p.member == bo_role && p.item_id.as_deref() == Some("fb_1"))
            .then_some(()),
        _ => None,
    })
    .await;

    // Bo's claim of Ana's item is lost, and reported.
    bo.record("fb_1", Change::Claim).await;
    let why = bo
        .next("news", |n, _| match n {
            News::Sent(sent) => sent.settled.iter().find_map(|(_, _, s)| match s {
                Settled::Lost(why) => Some(why.clone()),
                Settled::Applied => None,
            }),
            _ => None,
        })
        .await;
    assert!(why.contains("claimed this"), "{why}");
    assert_eq!(bo.store.read(Store::team_lost).unwrap().len(), 1);
    db.drop().await;
}

#[tokio::test]
async fn without_notify_the_poll_brings_changes() {
    let Some(db) = pg::Db::new("team_poll").await else {
        return;
    };
    let urls = urls_of(&db, &["ana", "bo"]).await;
    let mut ana = link(
        urls[0].clone(),
        store_of("prj_1"),
        Duration::from_secs(3600),
        false,
    );
    let mut bo = link(
        urls[1].clone(),
        store_of("prj_1"),
        Duration::from_millis(200),
        false,
    );
    ana.next("news", |n, _| {
        matches!(n, News::Connected { .. }).then_some(())
    })
    .await;
    ana.record(
        "fb_7",
        Change::Labels {
            add: vec!["billing".to_owned()],
            remove: vec![],
        },
    )
    .await;
    ana.next("news", |n, _| matches!(n, News::Sent(_)).then_some(()))
        .await;
    bo.next("news", |n, _| match n {
        News::Changed(_) => Some(()),
        _ => None,
    })
    .await;
    let labels = bo
        .store
        .read(|s| s.team_items(&["fb_7".to_owned()]))
        .unwrap();
    assert_eq!(labels[0].labels, ["billing"]);
    db.drop().await;
}

#[tokio::test]
async fn a_store_of_another_account_is_refused() {
    let Some(db) = pg::Db::new("team_account").await else {
        return;
    };
    let urls = urls_of(&db, &["ana", "bo"]).await;
    let mut ana = link(
        urls[0].clone(),
        store_of("prj_1"),
        Duration::from_secs(3600),
        true,
    );
    ana.next("news", |n, _| {
        matches!(n, News::Connected { .. }).then_some(())
    })
    .await;
    let mut bo = link(
        urls[1].clone(),
        store_of("prj_other"),
        Duration::from_secs(3600),
        true,
    );
    let why = bo
        .next("news", |n, _| match n {
            News::Refused(why) => Some(why.clone()),
            _ => None,
        })
        .await;
    assert!(why.contains("another feedback account"), "{why}");
    db.drop().await;
}

#[tokio::test]
async fn a_members_live_link_follows_the_shared_mirror_through_notify() {
    use feedback_team::{LEASE_SECONDS, MirrorWrite, Team};
    let Some(db) = pg::Db::new("team_live_mirror").await else {
        return;
    };
    let urls = urls_of(&db, &["ana", "bo"]).await;
    let mut syncer = Team::open(&urls[0], None).await.unwrap();
    syncer.set_shared_mirror(true).await.unwrap();
    // A poll of an hour: only NOTIFY can bring the items in time.
    let mut bo = link(
        urls[1].clone(),
        store_of("prj_1"),
        Duration::from_secs(3600),
        true,
    );
    bo.until("connected", |news, _| {
        matches!(news, News::Connected { .. })
    })
    .await;
    let lease = syncer.take_syncer(LEASE_SECONDS).await.unwrap().unwrap();
    let items: Vec<_> = (0..3).map(feedback_tui::testkit::item).collect();
    let written = syncer.mirror_page(&lease, &items).await.unwrap();
    assert_eq!(written, MirrorWrite::Written { changed: 3 });
    let first = items[0].id.as_str().to_owned();
    bo.until("the mirror's items", |news, store| {
        matches!(news, News::Mirrored(followed) if followed.added == 3)
            && store.read(|s| s.item(&first)).unwrap().is_some()
    })
    .await;
    // A member's ask for the lists' tops reaches every live link (the syncer's serves it).
    let asker = Team::open(&urls[0], None).await.unwrap();
    asker.ask_mirror_walk().await.unwrap();
    bo.until("the ask", |news, _| matches!(news, News::Asked))
        .await;
    db.drop().await;
}

#[tokio::test]
async fn a_template_a_member_shares_reaches_the_others_inbox_through_notify_and_stays_offline() {
    let Some(db) = pg::Db::new("team_live_templates").await else {
        return;
    };
    let urls = urls_of(&db, &["ana", "bo"]).await;
    let hour = Duration::from_secs(3600);
    let mut bo = link(urls[1].clone(), store_of("prj_1"), hour, true);
    bo.next("news", |n, _| {
        matches!(n, News::Connected { .. }).then_some(())
    })
    .await;
    let ana = feedback_team::Team::open(&urls[0], None).await.unwrap();
    ana.put_template("logs", Some("Logs for {id}"), "Send us the logs.")
        .await
        .unwrap();
    let got = bo
        .next("news", |n, _| match n {
            News::Templates(templates) => Some(templates.clone()),
            _ => None,
        })
        .await;
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].name.as_str(), got[0].shared_by.clone()),
        ("logs", db.role("ana"))
    );
    // Kept in Bo's store, for an inbox started offline.
    assert_eq!(bo.store.read(Store::team_templates).unwrap(), got);
    assert!(ana.remove_template("LOGS").await.unwrap());
    bo.next("news", |n, _| match n {
        News::Templates(templates) => templates.is_empty().then_some(()),
        _ => None,
    })
    .await;
    assert!(bo.store.read(Store::team_templates).unwrap().is_empty());
    db.drop().await;
}
