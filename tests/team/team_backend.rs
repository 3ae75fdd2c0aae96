//! The team backend against a real PostgreSQL: set up, claims raced by several members, the
//! same event sent twice, the order a reader sees events in, teams kept apart by row-level
//! security, and a schema newer than this version refused.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use team_pg as pg;

use std::collections::HashMap;

use feedback_team::{self as team, Change, Claimed, Outcome, Position, Team};

/// A database with the team `name` and members `members` (their login roles), connected.
async fn team_of(db: &pg::Db, name: &str, members: &[&str]) -> Vec<Team> {
    db.connected(name, members).await
}

/// The events after `after` (every committed one is readable at once), checked to be `want`.
async fn events(team: &Team, after: &Position, want: usize) -> Vec<feedback_team::TeamEvent> {
    let seen = team.events_after(after, 1000).await.unwrap();
    assert_eq!(seen.len(), want, "{seen:?}");
    seen
}

fn id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[tokio::test]
async fn members_racing_for_the_same_items_leave_each_with_exactly_one_owner() {
    let Some(db) = pg::Db::new("race").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana", "ben", "cleo"]).await;
    let items: Vec<String> = (0..200).map(|n| format!("fb_{n}")).collect();
    let mut tasks = Vec::new();
    for member in members {
        let items = items.clone();
        tasks.push(tokio::spawn(async move {
            let mut won = Vec::new();
            let mut lost = 0;
            for item in &items {
                match member.apply(&id(), item, &Change::Claim).await.unwrap() {
                    Outcome::Applied { .. } => won.push(item.clone()),
                    Outcome::Claimed(Claimed { owner: Some(_), .. }) => lost += 1,
                    other => panic!("{other:?}"),
                }
            }
            (member, won, lost)
        }));
    }
    let mut owners: HashMap<String, String> = HashMap::new();
    let mut teams = Vec::new();
    for task in tasks {
        let (member, won, lost) = task.await.unwrap();
        assert_eq!(won.len() + lost, items.len());
        for item in won {
            let before = owners.insert(item.clone(), member.member().to_owned());
            assert!(before.is_none(), "{item} won twice");
        }
        teams.push(member);
    }
    assert_eq!(owners.len(), items.len(), "every item has an owner");
    // Every member reads the same owner for every item.
    for member in &teams {
        let states = member.states(&items).await.unwrap();
        assert_eq!(states.len(), items.len());
        for state in states {
            assert_eq!(state.owner.as_ref(), owners.get(&state.item_id));
        }
    }
    drop(teams);
    db.drop().await;
}

#[tokio::test]
async fn a_lost_claim_names_the_owner_and_a_take_over_is_explicit() {
    let Some(db) = pg::Db::new("claims").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana", "ben"]).await;
    let (ana, ben) = (
        members[0].member().to_owned(),
        members[1].member().to_owned(),
    );
    let applied = members[0]
        .apply(&id(), "fb_1", &Change::Claim)
        .await
        .unwrap();
    assert!(matches!(applied, Outcome::Applied { .. }));
    match members[1]
        .apply(&id(), "fb_1", &Change::Claim)
        .await
        .unwrap()
    {
        Outcome::Claimed(Claimed { owner, seconds }) => {
            assert_eq!(owner.as_deref(), Some(ana.as_str()));
            assert!((0..60).contains(&seconds), "{seconds}");
        }
        other => panic!("{other:?}"),
    }
    // Ben's unclaim of Ana's item changes nothing; a take-over naming Ana does.
    let lost = members[1]
        .apply(&id(), "fb_1", &Change::Unclaim)
        .await
        .unwrap();
    assert!(matches!(lost, Outcome::Claimed(_)), "{lost:?}");
    let from = Change::TakeOver { from: ana.clone() };
    let taken = members[1].apply(&id(), "fb_1", &from).await.unwrap();
    assert!(matches!(taken, Outcome::Applied { .. }), "{taken:?}");
    let state = &members[0].states(&["fb_1".to_owned()]).await.unwrap()[0];
    assert_eq!(state.owner.as_deref(), Some(ben.as_str()));
    // Assigning from an owner who is no longer the owner is lost too.
    let outdated = Change::Assign {
        to: ana.clone(),
        from: Some(ana.clone()),
    };
    let assigned = members[0].apply(&id(), "fb_1", &outdated).await.unwrap();
    assert!(matches!(assigned, Outcome::Claimed(_)), "{assigned:?}");
    let history = members[0].history("fb_1").await.unwrap();
    let kinds: Vec<(&str, &str)> = history
        .iter()
        .map(|e| (e.change.kind(), e.member.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [("claim", ana.as_str()), ("take-over", ben.as_str())]
    );
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn the_same_event_sent_twice_is_stored_once_and_last_writes_win_in_server_order() {
    let Some(db) = pg::Db::new("twice").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana", "ben"]).await;
    let event = id();
    let labels = Change::Labels {
        add: vec!["crash".into(), "ios".into()],
        remove: vec![],
    };
    assert!(matches!(
        members[0].apply(&event, "fb_1", &labels).await.unwrap(),
        Outcome::Applied { .. }
    ));
    assert_eq!(
        members[0].apply(&event, "fb_1", &labels).await.unwrap(),
        Outcome::AlreadyApplied
    );
    let drop_ios = Change::Labels {
        add: vec!["billing".into()],
        remove: vec!["ios".into()],
    };
    members[1].apply(&id(), "fb_1", &drop_ios).await.unwrap();
    members[1]
        .apply(&id(), "fb_1", &Change::Done(true))
        .await
        .unwrap();
    members[0]
        .apply(&id(), "fb_1", &Change::Done(false))
        .await
        .unwrap();
    let note = |body: &str| Change::Note {
        note_id: "n1".into(),
        body: body.into(),
    };
    members[0]
        .apply(&id(), "fb_1", &note("first"))
        .await
        .unwrap();
    members[0]
        .apply(&id(), "fb_1", &note("edited"))
        .await
        .unwrap();
    let state = &members[1].states(&["fb_1".to_owned()]).await.unwrap()[0];
    assert_eq!(state.labels, ["billing", "crash"]);
    assert!(!state.done, "the last write as the server ordered them");
    let events = events(&members[1], &Position::start(), 6).await;
    assert_eq!(events.len(), 6, "{events:?}");
    assert!(
        events.windows(2).all(|w| w[0].seq < w[1].seq),
        "one connection's events come in their order"
    );
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn a_reader_never_skips_an_event_whose_transaction_commits_late() {
    let Some(db) = pg::Db::new("late").await else {
        return;
    };
    let mut members = team_of(&db, "support", &["ana", "ben"]).await;
    // Ana's raw connection holds a transaction open with an event in it.
    let role = db.role("ana");
    let url = db.as_member(&role, None);
    let mut raw = team::connect(&url).await.unwrap();
    let slow = raw.raw_mut().transaction().await.unwrap();
    slow.execute(
        "SELECT feedback_team.apply_change(
             (SELECT team_id FROM feedback_team.teams), 'slow', 'fb_1', 'done', '{\"done\": true}')",
        &[],
    )
    .await
    .unwrap();
    // Ben's event waits for the team's number until Ana's transaction ends: it cannot commit
    // with a higher number while hers is still open.
    let ben = members.pop().unwrap();
    let ben_done = tokio::spawn(async move {
        ben.apply(&id(), "fb_2", &Change::Done(true)).await.unwrap();
        ben
    });
    let admin = team::connect(&db.admin()).await.unwrap();
    let ben_role = db.role("ben");
    for _ in 0..500 {
        let waiting: i64 = admin
            .raw()
            .query_one(
                "SELECT count(*) FROM pg_stat_activity
                 WHERE usename = $1 AND wait_event_type = 'Lock'",
                &[&ben_role],
            )
            .await
            .unwrap()
            .get(0);
        if waiting == 1 {
            break;
        }
        tokio::task::yield_now().await;
    }
    let seen = members[0]
        .events_after(&Position::start(), 100)
        .await
        .unwrap();
    assert!(seen.is_empty(), "nothing is committed yet: {seen:?}");
    slow.commit().await.unwrap();
    members.push(ben_done.await.unwrap());
    let seen = members[0]
        .events_after(&Position::start(), 100)
        .await
        .unwrap();
    let ids: Vec<&str> = seen.iter().map(|e| e.item_id.as_str()).collect();
    assert_eq!(ids, ["fb_1", "fb_2"], "in the order they committed");
    assert!(seen[0].seq < seen[1].seq);
    let after = members[0]
        .events_after(&Position { seq: seen[0].seq }, 100)
        .await
        .unwrap();
    assert_eq!(after.len(), 1);
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn a_member_cannot_choose_an_events_number() {
    let Some(db) = pg::Db::new("numbered").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana"]).await;
    let url = db.as_member(&db.role("ana"), None);
    let raw = team::connect(&url).await.unwrap();
    // A number far ahead would make readers skip the events numbered below it: a member
    // writes no event but through the team's function, which takes no number.
    let ahead = raw
        .raw()
        .execute(
            "INSERT INTO feedback_team.events (team_id, seq, event_id, item_id, kind)
             SELECT team_id, 1000000, 'ahead', 'fb_1', 'done' FROM feedback_team.teams",
            &[],
        )
        .await;
    assert!(ahead.is_err(), "a member inserts no event");
    members[0]
        .apply(&id(), "fb_1", &Change::Done(true))
        .await
        .unwrap();
    members[0]
        .apply(&id(), "fb_2", &Change::Done(true))
        .await
        .unwrap();
    let seen = members[0]
        .events_after(&Position::start(), 100)
        .await
        .unwrap();
    let numbers: Vec<i64> = seen.iter().map(|e| e.seq).collect();
    assert_eq!(numbers, [1, 2], "the team's counter numbered both");
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn links_are_the_teams_with_their_author_and_an_unlink_removes_one() {
    let Some(db) = pg::Db::new("links").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana", "ben"]).await;
    let ticket =
        feedback_core::link::Link::new("https://t.example/TICKET-26944", Some("Crash")).unwrap();
    let doc = feedback_core::link::Link::new("https://docs.example/crash", None).unwrap();
    for (member, link) in [(0, &ticket), (1, &doc)] {
        let outcome = members[member]
            .apply(&id(), "fb_1", &Change::Link(link.clone()))
            .await
            .unwrap();
        assert!(matches!(outcome, Outcome::Applied { .. }), "{outcome:?}");
    }
    members[1]
        .apply(
            &id(),
            "fb_1",
            &Change::Unlink {
                url: doc.url().to_owned(),
            },
        )
        .await
        .unwrap();
    let seen = events(&members[1], &Position::start(), 3).await;
    let changes: Vec<(&str, Option<&Change>)> = seen
        .iter()
        .map(|e| (e.member.as_str(), e.change.known()))
        .collect();
    let (ana, ben) = (db.role("ana"), db.role("ben"));
    assert_eq!(
        changes,
        [
            (ana.as_str(), Some(&Change::Link(ticket.clone()))),
            (ben.as_str(), Some(&Change::Link(doc.clone()))),
            (
                ben.as_str(),
                Some(&Change::Unlink {
                    url: doc.url().to_owned()
                })
            ),
        ]
    );
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn a_member_composing_a_reply_shows_as_replying_to_that_item_and_stops() {
    let Some(db) = pg::Db::new("replying").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana", "ben"]).await;
    let ana = db.role("ana");
    let of_ana = |present: &[team::Presence]| {
        present
            .iter()
            .find(|p| p.member == ana)
            .map(|p| (p.item_id.clone(), p.replying))
    };
    members[0].heartbeat(Some("fb_1"), true).await.unwrap();
    let present = members[1].presence().await.unwrap();
    assert_eq!(of_ana(&present), Some((Some("fb_1".to_owned()), true)));
    members[0].heartbeat(Some("fb_1"), false).await.unwrap();
    let present = members[1].presence().await.unwrap();
    assert_eq!(of_ana(&present), Some((Some("fb_1".to_owned()), false)));
    // Replying to no item is not replying.
    members[0].heartbeat(None, true).await.unwrap();
    let present = members[1].presence().await.unwrap();
    assert_eq!(of_ana(&present), Some((None, false)));
    drop(members);
    db.drop().await;
}

#[tokio::test]
async fn teams_are_kept_apart_and_no_member_writes_as_another() {
    let Some(db) = pg::Db::new("apart").await else {
        return;
    };
    let support = team_of(&db, "support", &["ana"]).await;
    let billing = team_of(&db, "billing", &["bo"]).await;
    support[0]
        .apply(&id(), "fb_1", &Change::Claim)
        .await
        .unwrap();
    billing[0]
        .apply(
            &id(),
            "fb_1",
            &Change::Labels {
                add: vec!["refund".into()],
                remove: vec![],
            },
        )
        .await
        .unwrap();
    // Each sees only its own team's state and events.
    let mine = support[0].states(&["fb_1".to_owned()]).await.unwrap();
    assert_eq!(mine[0].labels, Vec::<String>::new());
    assert_eq!(mine[0].owner.as_deref(), Some(support[0].member()));
    let theirs = events(&billing[0], &Position::start(), 1).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0].change.kind(), "labels");
    // Through a raw connection, Bo can neither read nor write support's rows, nor sign as Ana.
    let bo = team::connect(&db.as_member(&db.role("bo"), None))
        .await
        .unwrap();
    let rows = bo
        .raw()
        .query(
            "SELECT count(*) FROM feedback_team.events WHERE kind = 'claim'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(rows[0].get::<_, i64>(0), 0);
    let visible = bo
        .raw()
        .query("SELECT name FROM feedback_team.teams", &[])
        .await
        .unwrap();
    assert_eq!(visible.len(), 1, "only billing");
    let support_id: i64 = team::connect(&db.admin())
        .await
        .unwrap()
        .raw()
        .query_one(
            "SELECT team_id FROM feedback_team.teams WHERE name = 'support'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let foreign = bo
        .raw().execute(
            "INSERT INTO feedback_team.events (team_id, event_id, item_id, kind) VALUES ($1, 'x', 'fb_1', 'done')",
            &[&support_id],
        )
        .await;
    assert!(foreign.is_err(), "another team's events refused");
    let forged = bo
        .raw()
        .execute(
            "INSERT INTO feedback_team.events (team_id, event_id, item_id, kind, member)
             SELECT team_id, 'y', 'fb_1', 'done', $1::text::name FROM feedback_team.teams",
            &[&support[0].member()],
        )
        .await;
    assert!(forged.is_err(), "an event signed as another member refused");
    let rewrite = bo
        .raw()
        .execute("UPDATE feedback_team.events SET kind = 'claim'", &[])
        .await;
    assert!(rewrite.is_err(), "events are append-only");
    let crossed = bo
        .raw()
        .execute("UPDATE feedback_team.items SET owner = current_user", &[])
        .await;
    assert!(
        crossed.is_err(),
        "no member writes the state but through an event"
    );
    drop((support, billing, bo));
    db.drop().await;
}

#[tokio::test]
async fn a_schema_newer_than_this_version_and_another_account_are_refused() {
    let Some(db) = pg::Db::new("newer").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana"]).await;
    let projects = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect();
    members[0].bind_account(&projects(&[])).await.unwrap();
    members[0]
        .bind_account(&projects(&["prj_1", "prj_2"]))
        .await
        .unwrap();
    // A project added to the account since, or one of its projects: the same account.
    members[0]
        .bind_account(&projects(&["prj_2", "prj_3"]))
        .await
        .unwrap();
    let other = members[0]
        .bind_account(&projects(&["prj_9"]))
        .await
        .unwrap_err();
    assert!(
        matches!(other, team::TeamError::OtherAccount { .. }),
        "{other}"
    );
    let mut admin = team::connect(&db.admin()).await.unwrap();
    // The version that made the schema named itself.
    let by: Option<String> = admin
        .raw()
        .query_one("SELECT app_version FROM feedback_team.version", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(by.as_deref(), Some(feedback_core::release::VERSION));
    admin
        .raw()
        .batch_execute("UPDATE feedback_team.version SET version = 99, app_version = '7.2.0'")
        .await
        .unwrap();
    let url = db.as_member(&db.role("ana"), None);
    let refused = Team::open(&url, None).await.err().unwrap();
    assert!(
        matches!(&refused, team::TeamError::NewerSchema { found: 99, by: Some(by), .. } if by == "7.2.0"),
        "{refused}"
    );
    // It says which version to install, and where.
    assert!(
        refused.to_string().contains(&format!(
            "from feedback-inbox 7.2.0; this feedback-inbox ({}) knows up to",
            feedback_core::release::VERSION
        )) && refused
            .to_string()
            .contains(feedback_core::release::RELEASES),
        "{refused}"
    );
    let again = team::schema::migrate(&mut admin).await.unwrap_err();
    assert!(
        matches!(again, team::TeamError::NewerSchema { .. }),
        "{again}"
    );
    drop((members, admin));
    db.drop().await;
}

#[tokio::test]
async fn one_event_sent_by_two_connections_at_once_is_stored_once() {
    let Some(db) = pg::Db::new("resend").await else {
        return;
    };
    let members = team_of(&db, "support", &["ana"]).await;
    // The outbox's resend racing the first send: the same member on a second connection.
    let url = db.as_member(&db.role("ana"), None);
    let again = Team::open(&url, None).await.unwrap();
    let ids: Vec<String> = (0..50).map(|_| id()).collect();
    for (n, event) in ids.iter().enumerate() {
        let item = format!("fb_{n}");
        let change = Change::Done(true);
        let (first, second) = tokio::join!(
            members[0].apply(event, &item, &change),
            again.apply(event, &item, &change)
        );
        let outcomes = [first.unwrap(), second.unwrap()];
        let applied = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Applied { .. }))
            .count();
        assert_eq!(applied, 1, "{outcomes:?}");
        assert!(outcomes.contains(&Outcome::AlreadyApplied), "{outcomes:?}");
    }
    let stored = events(&members[0], &Position::start(), 50).await;
    assert_eq!(stored.len(), 50);
    drop((members, again));
    db.drop().await;
}
