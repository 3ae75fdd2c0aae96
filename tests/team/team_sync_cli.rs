//! `sync` on a team that shares one mirror of the account, the built binary against the
//! simulator over loopback and a real PostgreSQL: the first member's run walks the service for
//! the team and publishes it; the next takes the walk over from the team's mirror and asks only
//! for what is new; while another member's process walks, a run asks the service for no page.
//! Every store ends with exactly the service's items.

#![allow(clippy::unwrap_used)]

use crate::common;
use crate::mirror_cli;
use crate::sync_support;
use crate::team_pg;

use std::process::{Command, Output, Stdio};

use feedback_api::Status;
use feedback_team::{self as team, Team};
use mirror_cli::{command, run, said};
use sync_support::{list_requests, pages, sim_ids, stored_in as stored};
use team_pg as pg;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_walk_the_account_once_and_every_store_holds_the_services_items() {
    let Some(db) = pg::Db::new("mirror_sync_cli").await else {
        return;
    };
    let rig = common::rig(1_250, 100_000).await;
    let base = rig.sim.base_url();
    let members = db.team(&["ana", "bo", "cy"]).await;
    let [(ana, ana_url), (_, bo_url), (_, cy_url)] = [&members[0], &members[1], &members[2]];
    let dir = tempfile::tempdir().unwrap();
    let store = |name: &str| dir.path().join(format!("{name}.db"));
    let holds_the_services_items = |name: &str| {
        for status in [Status::New, Status::Archived] {
            let want = sim_ids(&rig.sim, &status);
            assert_eq!(
                stored(&store(name), status.as_str()),
                want,
                "{name} {status:?}"
            );
        }
    };
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();

    // A member turns the team's shared mirror on (off, each member syncs alone).
    let set = run(
        &base,
        ana_url,
        &store("ana"),
        &["team", "set", "shared-mirror", "on"],
    );
    assert!(set.status.success(), "{}", said(&set));
    assert!(said(&set).contains("shared mirror on"), "{}", said(&set));

    // Ana's run walks the account for the team.
    let first = run(&base, ana_url, &store("ana"), &["sync"]);
    assert!(first.status.success(), "{}", said(&first));
    assert!(
        said(&first).contains("this process walks the service for the team"),
        "{}",
        said(&first)
    );
    let walked = list_requests(&rig.sim);
    assert!(
        (one_walk..=one_walk + 2).contains(&walked),
        "{walked} list requests for one walk of {one_walk}"
    );
    holds_the_services_items("ana");

    // Bo's run takes the walk over from the team's mirror: only the tops of the lists.
    let second = run(&base, bo_url, &store("bo"), &["sync"]);
    assert!(second.status.success(), "{}", said(&second));
    assert!(
        said(&second).contains("(1250 items from the team's mirror first)"),
        "{}",
        said(&second)
    );
    assert_eq!(
        list_requests(&rig.sim) - walked,
        2,
        "one head page per status"
    );
    holds_the_services_items("bo");

    // While Ana's process walks for the team, Cy's run follows the mirror and asks for nothing.
    let holder = Team::open(&ana_url.parse().unwrap(), None).await.unwrap();
    let lease = holder
        .take_syncer(team::LEASE_SECONDS)
        .await
        .unwrap()
        .unwrap();
    let before = list_requests(&rig.sim);
    let third = run(&base, cy_url, &store("cy"), &["sync", "--no-wait"]);
    assert!(third.status.success(), "{}", said(&third));
    assert!(
        said(&third).contains(&format!("{ana}'s process walks the service for the team")),
        "{}",
        said(&third)
    );
    assert!(said(&third).contains("1250 added"), "{}", said(&third));
    assert_eq!(list_requests(&rig.sim), before, "no page asked for");
    holds_the_services_items("cy");
    an_ask_is_followed_until_a_walk_serves_it(
        &holder,
        command(&base, cy_url, &store("cy"), &["sync"]),
    )
    .await;
    assert_eq!(list_requests(&rig.sim), before, "no page asked for");

    // `team status` says who walks, how far each status is mirrored, the team's budget and how
    // far behind each store is.
    the_text_status_says_who_walks(&run(&base, bo_url, &store("bo"), &["team", "status"]), ana);
    let status = run(
        &base,
        cy_url,
        &store("cy"),
        &["team", "status", "--format", "json"],
    );
    the_json_status_says_the_same(&status, ana);
    holder.release_syncer(&lease).await.unwrap();
    db.drop().await;
}

/// `team status --format json`: the syncer, both statuses mirrored to their end, every store
/// up to date with the mirror's 1,250 writes, the budget.
fn the_json_status_says_the_same(status: &Output, syncer: &str) {
    let json: serde_json::Value = serde_json::from_slice(&status.stdout).unwrap();
    let mirror = &json["mirror"];
    assert_eq!(mirror["shared"], true);
    assert_eq!(mirror["syncer"]["member"], syncer);
    assert_eq!(mirror["last_write"], 1250);
    let statuses = mirror["statuses"].as_array().unwrap();
    assert!(statuses.iter().all(|s| s["complete"] == true), "{mirror}");
    let stores = mirror["stores"].as_array().unwrap();
    assert_eq!(stores.len(), 3, "{mirror}");
    assert!(stores.iter().all(|s| s["behind"] == 0), "{mirror}");
    assert!(mirror["budget"]["limit"].as_u64().is_some(), "{mirror}");
}

/// Without --no-wait, a member's run asks the walk for the lists' tops and follows it until a
/// walk started after the ask is published whole (the test holds the lease and says so).
async fn an_ask_is_followed_until_a_walk_serves_it(holder: &Team, mut sync: Command) {
    let mut fourth = sync.stdout(Stdio::piped()).spawn().unwrap();
    let asked = loop {
        if let (Some(asked), _) = holder.mirror_asks().await.unwrap() {
            break asked;
        }
        assert!(
            fourth.try_wait().unwrap().is_none(),
            "it ended without asking"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    };
    let started = holder.server_now().await.unwrap();
    assert!(started >= asked);
    holder.mirror_served(started).await.unwrap();
    let fourth = fourth.wait_with_output().unwrap();
    assert!(fourth.status.success(), "{}", said(&fourth));
    assert!(
        said(&fourth).contains("asked it for the lists' tops, following its walk"),
        "{}",
        said(&fourth)
    );
}

/// `team status`: who walks, how far the statuses are mirrored, the team's budget.
fn the_text_status_says_who_walks(status: &Output, syncer: &str) {
    assert!(status.status.success(), "{}", said(status));
    let text = said(status);
    assert!(text.contains("shared mirror: on"), "{text}");
    assert!(
        text.contains(&format!("syncer: {syncer}'s process (since")),
        "{text}"
    );
    assert!(
        text.contains("archived: newest") && text.contains("to the end"),
        "{text}"
    );
    assert!(text.contains("budget "), "{text}");
}
