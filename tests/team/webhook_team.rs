//! `webhook listen --team` against a real PostgreSQL: two members' receivers get the same
//! delivery (and one of them another); each item reaches the team's shared mirror once, said on
//! the receivers' stderr; a team that shares no mirror, or a receiver with no store, is refused
//! with a usage error before anything is received.

#![allow(clippy::unwrap_used)]

use crate::team_pg;
use crate::webhook_support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use feedback_team::{Team, TeamUrl};
use team_pg as pg;
use webhook_support::{LISTEN, Running, bin, delivery, listening, next, post, terminate, text};

/// `webhook listen --team` of the member whose team URL is `url`, at home in `home`.
fn command(home: &Path, url: &str) -> Command {
    let mut command = bin(home);
    command
        .env("FEEDBACK_TEAM_URL", url)
        .args(LISTEN)
        .arg("--team")
        .arg("--jsonl")
        .arg(home.join("events.jsonl"));
    command
}

/// A receiver sharing with the team, and its address.
fn receiver(home: &Path, url: &str) -> (Running, String) {
    let (listen, url) = listening(command(home, url));
    let sharing = next(&listen.err, "the sharing line");
    assert_eq!(
        sharing,
        "sharing each delivered item with the team support's mirror"
    );
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    (listen, addr)
}

/// The items the receivers say they shared, read from their stderr until `expected` or a
/// deadline.
fn shared_said(receivers: &[&Running], expected: u64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut total = 0;
    while total < expected && Instant::now() < deadline {
        for receiver in receivers {
            if let Ok(line) = receiver.err.recv_timeout(Duration::from_millis(50)) {
                if let Some(n) = line
                    .strip_prefix("shared ")
                    .and_then(|rest| rest.strip_suffix(" item(s) with the team's mirror"))
                {
                    total += n.parse::<u64>().unwrap();
                } else {
                    assert!(line.starts_with("accepted"), "{line}");
                }
            }
        }
    }
    total
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_receivers_share_each_delivered_item_with_the_mirror_once() {
    let Some(db) = pg::Db::new("webhook_team").await else {
        return;
    };
    let urls = db.team(&["ana", "bo"]).await;
    let url: TeamUrl = urls[0].1.parse().unwrap();
    let admin = Team::open(&url, None).await.unwrap();
    let (ana_home, bo_home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());

    // Refused before receiving: a team that shares no mirror, and a receiver with no store.
    let refused = command(ana_home.path(), &urls[0].1).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        text(&refused.stderr).contains("does not share one mirror"),
        "{}",
        text(&refused.stderr)
    );
    admin.set_shared_mirror(true).await.unwrap();
    let no_store = command(ana_home.path(), &urls[0].1)
        .arg("--no-store")
        .output()
        .unwrap();
    assert_eq!(no_store.status.code(), Some(2));
    assert!(text(&no_store.stderr).contains("--team needs the store"));

    let (mut ana, ana_addr) = receiver(ana_home.path(), &urls[0].1);
    let (mut bo, bo_addr) = receiver(bo_home.path(), &urls[1].1);
    assert_eq!(post(&ana_addr, &delivery("fb_both")), Some(204));
    assert_eq!(post(&bo_addr, &delivery("fb_both")), Some(204));
    assert_eq!(post(&ana_addr, &delivery("fb_ana")), Some(204));
    assert_eq!(shared_said(&[&ana, &bo], 2), 2);
    let mirrored = admin.mirror_after(0, 100).await.unwrap();
    let mut ids: Vec<&str> = mirrored.iter().map(|m| m.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["fb_ana", "fb_both"]);
    assert_eq!(
        mirrored[0].item.as_ref().unwrap().message,
        "burst",
        "the delivery's item as stored"
    );
    terminate(&mut ana.child);
    terminate(&mut bo.child);
    drop(admin);
    db.drop().await;
}
