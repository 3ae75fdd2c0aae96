//! The team's PostgreSQL server itself restarted and stopped under its members (a cluster of the
//! test's own, so every other test keeps its server): restarted in the middle of a burst of
//! changes, then stopped for a whole minute while changes go on being made, and started again.
//! The outbox goes out once the server is back, without anybody acting; nothing is lost or
//! doubled; the link never takes the restart for a refusal; the other member ends with every
//! change.
#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::sync::Arc;
use std::time::Duration;

use feedback_team_sync::live::News;
use team_pg as pg;
use team_pg::burst::{self, bos_turn, item, label, labels_after};
use team_pg::cluster::Cluster;
use team_pg::member::{How, Member};

/// Changes Ana makes in the burst.
const BURST: usize = 60;
/// Items the burst changes.
const ITEMS: usize = 10;
/// How long the server stays stopped.
const STOPPED: Duration = Duration::from_secs(60);

fn member(url: &str) -> Member {
    // The poll never comes during the test: only the link's retries and hints bring things.
    let how = How {
        poll: Duration::from_secs(3600),
        ..How::default()
    };
    Member::in_memory(url, how)
}

/// The minute the server is away: what Ana and Bo say meanwhile, never a refusal; whether each
/// said it was offline.
async fn away(ana: &mut Member, bo: &mut Member) -> [bool; 2] {
    let back_at = tokio::time::Instant::now() + STOPPED;
    let mut offline = [false, false];
    loop {
        let (who, news) = tokio::select! {
            () = tokio::time::sleep_until(back_at) => return offline,
            news = ana.news.recv() => (0, news.unwrap()),
            news = bo.news.recv() => (1, news.unwrap()),
        };
        match news {
            News::Offline { .. } => offline[who] = true,
            News::Refused(why) => panic!("the stopped server was taken for a refusal: {why}"),
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_restarted_mid_burst_then_stopped_a_minute_loses_and_doubles_nothing() {
    let Some(cluster) = tokio::task::spawn_blocking(Cluster::start).await.unwrap() else {
        return;
    };
    let cluster = Arc::new(cluster);
    let db = pg::Db::on(cluster.admin_text(), "team_restart")
        .await
        .expect("the test's own cluster answers");
    let members = db.team(&["ana", "bo"]).await;
    let mut ana = member(&members[0].1);
    let mut bo = member(&members[1].1);
    for m in [&mut ana, &mut bo] {
        m.until("connected", |n, _| matches!(n, News::Connected { .. }))
            .await;
    }

    let mut restart = None;
    for n in 0..BURST {
        if n == 20 {
            // The server restarts while the burst goes on.
            let cluster = Arc::clone(&cluster);
            restart = Some(tokio::task::spawn_blocking(move || cluster.restart()));
        }
        if n == 40 {
            // Back from the restart, then stopped for maintenance.
            restart.take().unwrap().await.unwrap();
            let cluster = Arc::clone(&cluster);
            tokio::task::spawn_blocking(move || cluster.stop())
                .await
                .unwrap();
        }
        ana.record(&item(n, ITEMS), label(n)).await;
        if bos_turn(n) {
            bo.record(&item(n, ITEMS), label(1000 + n)).await;
        }
    }

    // The minute the server is away: both keep their changes and keep trying, offline, never
    // refused.
    assert_eq!(
        away(&mut ana, &mut bo).await,
        [true, true],
        "both said they were offline"
    );
    assert!(
        ana.waiting() >= BURST - 40,
        "Ana's changes made while stopped wait"
    );
    assert!(bo.waiting() >= 1, "Bo's change made while stopped waits");

    let cluster_again = Arc::clone(&cluster);
    tokio::task::spawn_blocking(move || cluster_again.start_again())
        .await
        .unwrap();
    // Nobody acts: the links' own retries send what waits.
    for m in [&mut ana, &mut bo] {
        m.until_sent().await;
        assert!(m.store.read(|s| s.team_lost().unwrap().is_empty()));
    }

    // The truth: each change once.
    burst::assert_each_change_once(&db, BURST).await;

    // Both replicas end with every label on its item.
    let expected = labels_after(BURST, ITEMS);
    for m in [&mut ana, &mut bo] {
        if burst::labels_now(&m.store, ITEMS) != expected {
            m.until("caught up", |_, store| {
                burst::labels_now(store, ITEMS) == expected
            })
            .await;
        }
    }
    db.drop().await;
}
