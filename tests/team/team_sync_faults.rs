//! The team's syncer killed (kill -9) at random moments of a first mirror, the built binary
//! against the simulator over loopback and a real PostgreSQL: each time a member's `sync` takes
//! the walk over from the team's mirror once the killed one's lease has lapsed; at the end every
//! member's store holds exactly the service's items. On a large account the list pages asked
//! for are within 5% of one walk's; on a small one, each run's requests are read through a proxy
//! and a takeover is found to ask again for nothing but the page the killed run had in hand
//! (asked for, and in neither the team's mirror nor, when the same store takes its walk back,
//! that store) and the lists' tops a run reads at the end of their walk. A store taking its own
//! walk back publishes the page its killed turn stored instead of asking for it again. Five
//! members starting `sync` at once spend one walk's pages too: one walks, the others ask it for
//! the lists' tops and follow.

#![allow(clippy::unwrap_used)]

use crate::common;
use crate::mirror_cli;
use crate::sync_support;
use crate::team_pg;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::Arc;

use feedback_api::Status;
use feedback_store::{Shared, Store, WalkState};
use feedback_sync::{Priority, SyncSettings, Syncer};
use feedback_team::{Lease, Team, TeamUrl};
use feedback_team_sync::mirror::Published;
use feedback_team_sync::syncer::Turn;
use feedback_team_sync::team_walk::{Settled, settle};
use mirror_cli::proxy::{Asked, Proxy};
use mirror_cli::{command, said};
use sync_support::{file_syncer, list_requests, pages, sim_ids, stored_in as stored};
use team_pg as pg;

const N: usize = 50_000;
const KILLS: usize = 20;

/// The small account: about 90 pages for both lists, so that one request more per takeover
/// would show well past any tolerance.
const SMALL: usize = 9_000;

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
        lapse(&teams[who]).await;
    };
    assert_eq!(kills, KILLS, "the walk ended before every kill");
    assert!(
        walked <= one_walk + one_walk / 20,
        "{walked} list requests for one walk of {one_walk}"
    );

    let stores: Vec<_> = (0..3).map(store).collect();
    every_member_syncs_and_holds_the_services_items(&rig, &members, &stores);
    db.drop().await;
}

/// The killed syncer's lease lapses (the time a killed syncer's lease takes, injected), renewed
/// for no time on `team`, a connection of the member that held it.
async fn lapse(team: &Team) {
    let held = team.syncer().await.unwrap().unwrap();
    let lease = Lease {
        generation: held.generation,
        expires_at: held.expires_at,
    };
    team.renew_syncer(&lease, 0).await.unwrap();
}

/// Every member syncs once more: each store holds exactly the service's items.
fn every_member_syncs_and_holds_the_services_items(
    rig: &common::Rig,
    members: &[(String, String)],
    stores: &[std::path::PathBuf],
) {
    for (who, (store, (_, url))) in stores.iter().zip(members).enumerate() {
        let output = command(&rig.sim.base_url(), url, store, &["sync"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", said(&output));
        for status in [Status::New, Status::Archived] {
            let want = sim_ids(&rig.sim, &status);
            let got = stored(store, status.as_str());
            assert_eq!(got.len(), want.len(), "member {who} {status:?}");
            assert_eq!(got, want, "member {who} {status:?}");
        }
    }
}

/// What a walk state (the team's mirror's, or a store's) still waits on: the cursors its open
/// gaps go on from, by list, and the lists whose top it has read.
#[derive(Debug, Default)]
struct Waits {
    cursors: BTreeSet<Asked>,
    topped: BTreeSet<String>,
}

fn waits(walk: &WalkState) -> Waits {
    let mut scratch = Store::open_memory().unwrap();
    scratch.restore_walk_state(walk).unwrap();
    let mut waits = Waits::default();
    for status in [Status::New, Status::Archived] {
        let name = status.as_str();
        for gap in scratch.sync_gaps(name).unwrap() {
            if let Some(cursor) = gap.cursor {
                waits.cursors.insert(Asked {
                    status: name.to_owned(),
                    cursor: Some(cursor.as_str().to_owned()),
                });
            }
        }
        if scratch.sync_status(name).unwrap().synced_at.is_some() {
            waits.topped.insert(name.to_owned());
        }
    }
    waits
}

async fn mirror_waits(team: &Team) -> Waits {
    match team.mirror_walk().await.unwrap() {
        Some(json) => waits(&serde_json::from_value(json).unwrap()),
        None => Waits::default(),
    }
}

/// What the store at `path` waits on, read once its process has ended.
fn store_waits(path: &Path) -> Waits {
    waits(&Store::open(path).unwrap().walk_state().unwrap())
}

/// One member's `sync`: who ran it, the list requests it sent (through its proxy), the lists
/// whose top the team's mirror held when it began, and, when it was killed, what the mirror
/// and its own store then still waited on.
struct Run {
    who: usize,
    asked: Vec<Asked>,
    topped: BTreeSet<String>,
    killed: Option<(Waits, Waits)>,
}

impl Run {
    /// The page this run had in hand when it was killed, as the run `next` takes the walk
    /// over: its last list request, when that page is in neither the team's mirror (its walk
    /// state still waits on the cursor) nor, when `next` runs on the same store, that store.
    fn in_hand(&self, next: &Run) -> Option<&Asked> {
        let last = self.unpublished()?;
        let (_, store) = self.killed.as_ref()?;
        (next.who != self.who || store.cursors.contains(last)).then_some(last)
    }

    /// Whether the run `next` took this killed run's walk back on the same store and went on
    /// from the page that store held and the mirror did not.
    fn handed_over(&self, next: &Run) -> bool {
        self.unpublished().is_some() && self.in_hand(next).is_none()
    }

    /// The killed run's last list request, when the team's mirror still waits on its cursor.
    fn unpublished(&self) -> Option<&Asked> {
        let (mirror, _) = self.killed.as_ref()?;
        self.asked
            .last()
            .filter(|last| mirror.cursors.contains(*last))
    }
}

/// What the runs asked for beyond one walk: pages asked again (each the page the run before
/// had in hand, asked first), and lists' tops read again (each at most once a run, and a top
/// the mirror held only at the end of that list's walk). Panics on any other request asked
/// again.
fn asked_again(runs: &[Run]) -> (BTreeSet<Asked>, u64, u64) {
    let mut seen = BTreeSet::new();
    let (mut in_hand, mut tops_again) = (0, 0);
    for (r, run) in runs.iter().enumerate() {
        let handed = r
            .checked_sub(1)
            .and_then(|before| runs[before].in_hand(run));
        if let Some(handed) = handed {
            assert_eq!(
                run.asked.first(),
                Some(handed),
                "run {r} did not go on from the page the killed run before it had in hand"
            );
        }
        let mut tops = BTreeSet::new();
        for (i, asked) in run.asked.iter().enumerate() {
            if asked.cursor.is_some() {
                if !seen.insert(asked.clone()) {
                    assert!(
                        i == 0 && handed == Some(asked),
                        "run {r} asked again for {asked:?}, not the page the run before it had \
                         in hand"
                    );
                    in_hand += 1;
                }
                continue;
            }
            assert!(
                tops.insert(&asked.status),
                "run {r} asked for the top of {} twice",
                asked.status
            );
            if !seen.insert(asked.clone()) {
                tops_again += 1;
                if run.topped.contains(&asked.status) {
                    assert!(
                        run.asked[i + 1..].iter().all(|a| a.status != asked.status),
                        "run {r} read the top of {} again before the end of its walk",
                        asked.status
                    );
                }
            }
        }
    }
    (seen, in_hand, tops_again)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_asks_again_only_for_the_page_the_killed_syncer_had_in_hand() {
    let Some(db) = pg::Db::new("mirror_in_hand").await else {
        return;
    };
    let rig = common::rig(SMALL, 1_000_000).await;
    let members = db.team(&["ana", "bo", "cy"]).await;
    let dir = tempfile::tempdir().unwrap();
    let stores: Vec<_> = (0..3)
        .map(|i| dir.path().join(format!("member{i}.db")))
        .collect();
    let url = |i: usize| members[i].1.as_str();
    let base = rig.sim.base_url();
    let set = command(
        &base,
        url(0),
        &stores[0],
        &["team", "set", "shared-mirror", "on"],
    )
    .output()
    .unwrap();
    assert!(set.status.success(), "{}", said(&set));
    let mut teams = Vec::new();
    for i in 0..3 {
        teams.push(Team::open(&url(i).parse().unwrap(), None).await.unwrap());
    }
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();

    let mut rng = fastrand::Rng::with_seed(5);
    let mut runs: Vec<Run> = Vec::new();
    let mut who = 0;
    let walked = loop {
        let topped = mirror_waits(&teams[who]).await.topped;
        let proxy = Proxy::start(rig.sim.addr()).await;
        let mut child = command(&proxy.base_url(), url(who), &stores[who], &["sync"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let from = teams[who].mirror_last_seq().await.unwrap();
        // A random moment: between 0 and 50 ms (longer than a page's request, storing and
        // publishing) after between 1 and 300 more items (a page is 100) reached the mirror.
        let moment = (
            rng.i64(1..300),
            std::time::Duration::from_micros(rng.u64(0..50_000)),
        );
        let killed = runs.len() < KILLS && kill_after(&mut child, &teams[who], from, moment).await;
        if !killed {
            let status = child.wait().unwrap();
            assert!(status.success(), "member {who}'s sync failed");
            let asked = proxy.finish().await;
            runs.push(Run {
                who,
                asked,
                topped,
                killed: None,
            });
            break list_requests(&rig.sim);
        }
        let asked = proxy.finish().await;
        // The lapse waits for a publication the killed process had sent (the database runs it
        // to its end, and its write holds the lease's row): what the mirror waits on after it
        // is what the next syncer finds.
        lapse(&teams[who]).await;
        let waits = (mirror_waits(&teams[who]).await, store_waits(&stores[who]));
        runs.push(Run {
            who,
            asked,
            topped,
            killed: Some(waits),
        });
        // The next run is any member's: now and then the killed store takes its walk back.
        who = rng.usize(0..3);
    };
    assert_eq!(runs.len(), KILLS + 1, "the walk ended before every kill");
    let (seen, in_hand, tops_again) = asked_again(&runs);
    assert_eq!(
        u64::try_from(seen.len()).unwrap(),
        one_walk,
        "the pages asked for are not one walk's"
    );
    let handed_over = runs
        .windows(2)
        .filter(|pair| pair[0].handed_over(&pair[1]))
        .count();
    eprintln!(
        "{walked} list requests: one walk of {one_walk}, {in_hand} pages in hand at {KILLS} \
         kills, {tops_again} tops read again at the end of a list's walk; {handed_over} \
         pages stored by a killed run and published by its store's next run"
    );
    assert!(
        walked <= one_walk + in_hand + tops_again,
        "{walked} list requests for one walk of {one_walk}, {in_hand} pages in hand at a kill \
         and {tops_again} tops read again"
    );
    every_member_syncs_and_holds_the_services_items(&rig, &members, &stores);
    db.drop().await;
}

/// The turn of the store `store` as the team's syncer, on a connection of its own to the team
/// at `url` (nobody else walks for the team).
async fn turn_of(url: &str, store: &Shared) -> Arc<Turn> {
    let url: TeamUrl = url.parse().unwrap();
    let team = Team::open(&url, None).await.unwrap();
    match settle(team, &url, store, jiff::Timestamp::now)
        .await
        .unwrap()
    {
        Settled::Walking(turn) => turn,
        Settled::NotShared(_) | Settled::Following { .. } => {
            panic!("the store's process does not walk for the team")
        }
    }
}

/// The walk's next step stored (a list's top, else its next page, `new` first); false when both
/// lists are mirrored to their end (nothing was asked).
async fn stored_step(syncer: &Syncer) -> bool {
    for status in [Status::New, Status::Archived] {
        if syncer.state(&status).unwrap().synced_at.is_none() {
            syncer.head(&status, Priority::User).await.unwrap();
            return true;
        }
        if syncer
            .backfill_page(&status, Priority::User)
            .await
            .unwrap()
            .is_some()
        {
            return true;
        }
    }
    false
}

/// [`stored_step`], then published as the turn's.
async fn published_step(syncer: &Syncer, turn: &Turn) -> bool {
    let walked = stored_step(syncer).await;
    let published = turn.publish(None).await.unwrap();
    assert!(
        matches!(published, Published::Written { .. }),
        "{published:?}"
    );
    walked
}

/// The walk state the team's mirror holds.
async fn mirror_walk(team: &Team) -> WalkState {
    serde_json::from_value(team.mirror_walk().await.unwrap().unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_taking_its_own_walk_back_publishes_the_page_its_killed_turn_stored() {
    let Some(db) = pg::Db::new("mirror_own_walk").await else {
        return;
    };
    let rig = common::rig(2_000, 1_000_000).await;
    let members = db.team(&["ana", "bo"]).await;
    let (ana, bo) = (members[0].1.as_str(), members[1].1.as_str());
    let team = Team::open(&ana.parse().unwrap(), None).await.unwrap();
    team.set_shared_mirror(true).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let settings = SyncSettings::default().walking_for_team();
    let (ana_sync, ana_store) = file_syncer(&rig, &dir.path().join("ana.db"), settings);
    let (_, bo_store) = file_syncer(&rig, &dir.path().join("bo.db"), settings);
    let one_walk: u64 = [Status::New, Status::Archived]
        .iter()
        .map(|s| pages(sim_ids(&rig.sim, s).len()))
        .sum();

    // Ana's turn publishes the top of `new` and the page after it, stores one more page and is
    // killed before publishing it; its lease lapses.
    let turn = turn_of(ana, &ana_store).await;
    for _ in 0..2 {
        assert!(published_step(&ana_sync, &turn).await);
    }
    assert!(stored_step(&ana_sync).await);
    lapse(&team).await;
    drop(turn);
    // Bo's turn comes between: the mirror may have moved on without Ana's page, so her store
    // goes on from the mirror's walk state and asks for that page again.
    let turn = turn_of(bo, &bo_store).await;
    let ended = turn.end(None).await.unwrap();
    assert!(matches!(ended, Published::Written { .. }), "{ended:?}");
    let turn = turn_of(ana, &ana_store).await;
    assert_eq!(
        ana_store.read(Store::walk_state).unwrap(),
        mirror_walk(&team).await,
        "the store walks on from the mirror's walk state"
    );
    let asked = list_requests(&rig.sim);
    assert!(published_step(&ana_sync, &turn).await);
    assert_eq!(list_requests(&rig.sim), asked + 1);

    // Killed again with one more page stored and not published; this time Ana's store takes
    // its walk back in the next turn: the page is published from the store, asked for no more.
    assert!(stored_step(&ana_sync).await);
    let walk = ana_store.read(Store::walk_state).unwrap();
    assert_ne!(
        walk,
        mirror_walk(&team).await,
        "the page is not in the mirror"
    );
    lapse(&team).await;
    drop(turn);
    let asked = list_requests(&rig.sim);
    let turn = turn_of(ana, &ana_store).await;
    assert_eq!(list_requests(&rig.sim), asked);
    assert_eq!(
        mirror_walk(&team).await,
        walk,
        "the store's walk is the mirror's"
    );
    let held: usize = [Status::New, Status::Archived]
        .iter()
        .map(|s| sync_support::stored_ids(&ana_store, s.as_str()).len())
        .sum();
    assert_eq!(
        team.mirror_after(0, 10_000).await.unwrap().len(),
        held,
        "every item the store holds is in the mirror"
    );
    while published_step(&ana_sync, &turn).await {}
    let ended = turn.end(None).await.unwrap();
    assert!(matches!(ended, Published::Written { .. }), "{ended:?}");
    assert_eq!(
        list_requests(&rig.sim),
        one_walk + 1,
        "one walk, and the page asked for again after Bo's turn"
    );

    // Bo follows the mirror: both stores hold exactly the service's items.
    let turn = turn_of(bo, &bo_store).await;
    turn.end(None).await.unwrap();
    for status in [Status::New, Status::Archived] {
        let want = sim_ids(&rig.sim, &status);
        for store in [&ana_store, &bo_store] {
            assert_eq!(
                sync_support::stored_ids(store, status.as_str()),
                want,
                "{status:?}"
            );
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
