//! The team's syncer killed (kill -9) at random moments of a first mirror, the built binary
//! against the simulator over loopback and a real PostgreSQL: each time another member's `sync`
//! takes the walk over from the team's mirror once the killed one's lease has lapsed; at the
//! end every member's store holds exactly the service's items, and the list pages asked for are
//! within 5% of one walk's. Five members starting `sync` at once spend one walk's pages too:
//! one walks, the others ask it for the lists' tops and follow.

#![allow(clippy::unwrap_used)]

mod common;
mod mirror_cli;
mod sync_support;
mod team_pg;

use std::process::{Child, Stdio};

use feedback_inbox::api::Status;
use feedback_inbox::team::{Lease, Team};
use mirror_cli::{command, said};
use sync_support::{list_requests, pages, sim_ids, stored_in as stored};
use team_pg as pg;

const N: usize = 50_000;
const KILLS: usize = 20;

/// Kills `child` (SIGKILL) `then` after the team's mirror holds `writes` more writes than
/// `from` (anywhere in the cycle of asking for a page, storing and publishing it), or lets it
/// end; whether it was killed.
async fn kill_after(
    child: &mut Child,
    team: &Team,
    from: i64,
    (writes, then): (i64, std::time::Duration),
) -> bool {
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        if team.mirror_last_seq().await.unwrap() >= from + writes {
            tokio::time::sleep(then).await;
            if child.try_wait().unwrap().is_some() {
                return false;
            }
            child.kill().unwrap();
            child.wait().unwrap();
            return true;
        }
        // Watching the mirror grow; the moment of the kill is the random number of writes.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_syncer_killed_twenty_times_loses_nothing_and_costs_about_one_walk() {
    let Some(db) = pg::Db::new("mirror_faults").await else {
        return;
    };
    let rig = common::rig(N, 1_000_000).await;
    let base = rig.sim.base_url();
    let members = db.team(&["ana", "bo", "cy"]).await;
    let dir = tempfile::tempdir().unwrap();
    let store = |i: usize| dir.path().join(format!("member{i}.db"));
    let url = |i: usize| members[i].1.as_str();
    let set = command(
        &base,
        url(0),
        &store(0),
        &["team", "set", "shared-mirror", "on"],
    )
    .output()
    .unwrap();
    assert!(set.status.success(), "{}", said(&set));
    let teams: Vec<Team> = {
        let mut teams = Vec::new();
        for i in 0..3 {
            teams.push(Team::open(&url(i).parse().unwrap(), None).await.unwrap());
        }
        teams
    };
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();

    let mut rng = fastrand::Rng::with_seed(24);
    let mut kills = 0;
    let mut turn = 0;
    let walked = loop {
        let who = turn % 3;
        turn += 1;
        let mut child = command(&base, url(who), &store(who), &["sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let from = teams[who].mirror_last_seq().await.unwrap();
        // A random moment: between 0 and 20 ms after between 1 and 4,000 more items reached
        // the mirror.
        let moment = (
            rng.i64(1..4_000),
            std::time::Duration::from_micros(rng.u64(0..20_000)),
        );
        let killed = kills < KILLS && kill_after(&mut child, &teams[who], from, moment).await;
        if !killed {
            let status = child.wait().unwrap();
            assert!(status.success(), "member {who}'s sync failed");
            break list_requests(&rig.sim);
        }
        kills += 1;
        // Its lease lapses (the time a killed syncer's lease takes, injected).
        let held = teams[who].syncer().await.unwrap().unwrap();
        let lease = Lease {
            generation: held.generation,
            expires_at: held.expires_at,
        };
        teams[who].renew_syncer(&lease, 0).await.unwrap();
    };
    assert_eq!(kills, KILLS, "the walk ended before every kill");
    assert!(
        walked <= one_walk + one_walk / 20,
        "{walked} list requests for one walk of {one_walk}"
    );

    // Every member syncs once more: each store holds exactly the service's items.
    for who in 0..3 {
        let output = command(&base, url(who), &store(who), &["sync"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", said(&output));
        for status in [Status::New, Status::Archived] {
            let want = sim_ids(&rig.sim, &status);
            let got = stored(&store(who), status.as_str());
            assert_eq!(got.len(), want.len(), "member {who} {status:?}");
            assert_eq!(got, want, "member {who} {status:?}");
        }
    }
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_members_starting_at_once_spend_one_walks_pages() {
    let Some(db) = pg::Db::new("mirror_budget").await else {
        return;
    };
    let rig = common::rig(10_000, 1_000_000).await;
    let base = rig.sim.base_url();
    let members = db.team(&["ana", "bo", "cy", "dee", "eli"]).await;
    let dir = tempfile::tempdir().unwrap();
    let store = |i: usize| dir.path().join(format!("member{i}.db"));
    let set = command(
        &base,
        &members[0].1,
        &store(0),
        &["team", "set", "shared-mirror", "on"],
    )
    .output()
    .unwrap();
    assert!(set.status.success(), "{}", said(&set));
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();
    let runs: Vec<Child> = (0..5)
        .map(|i| {
            command(&base, &members[i].1, &store(i), &["sync"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut walked = 0;
    for run in runs {
        let output = run.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", said(&output));
        walked += usize::from(said(&output).contains("this process walks the service"));
    }
    // One walked the account; one that asked just as it ended may have read the tops after it.
    assert!(walked >= 1, "no member's process walked");
    let requests = list_requests(&rig.sim);
    assert!(
        requests <= one_walk + one_walk / 20,
        "{requests} list requests for one walk of {one_walk}"
    );
    for who in 0..5 {
        for status in [Status::New, Status::Archived] {
            let want = sim_ids(&rig.sim, &status);
            assert_eq!(
                stored(&store(who), status.as_str()),
                want,
                "member {who} {status:?}"
            );
        }
    }
    db.drop().await;
}
