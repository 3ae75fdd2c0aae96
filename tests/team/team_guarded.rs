//! A member connected with psql as their own role, attacking the team's state in plain SQL:
//! every change must go through the schema's functions, which check the member, bound the
//! values and append the event. Each attack below is one a member could make before members
//! lost their direct writes; each is refused here, and the team's state is as it was.

#![allow(clippy::unwrap_used)]

use crate::team_pg;

use team_pg as pg;

use feedback_team::{self as team, Change, Outcome, Position, Team, TeamError};
use tokio_postgres::Client;

fn id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Runs `sql` as `client` and says whether the server refused it, and why (a transaction it
/// began is ended).
async fn refused(client: &Client, sql: &str) -> Option<String> {
    let outcome = client.batch_execute(sql).await;
    client.batch_execute("ROLLBACK").await.unwrap();
    match outcome {
        Ok(()) => None,
        Err(error) => Some(
            error
                .as_db_error()
                .map_or_else(|| error.to_string(), |db| db.message().to_owned()),
        ),
    }
}

/// Each attack, as SQL a member might type, refused: plain writes to every table of the
/// team's state, the lease, presence and the shared mirror, and row locks on them.
const WRITES: &[&str] = &[
    "UPDATE feedback_team.items SET owner = session_user",
    "UPDATE feedback_team.items SET last_seq = 9000000000000000000",
    "INSERT INTO feedback_team.items (team_id, item_id, owner)
         SELECT team_id, 'fb_9', session_user FROM feedback_team.teams",
    "INSERT INTO feedback_team.events (team_id, event_id, item_id, kind, at)
         SELECT team_id, 'far', 'fb_1', 'done', 'infinity' FROM feedback_team.teams",
    "INSERT INTO feedback_team.notes (team_id, item_id, note_id, version, body)
         SELECT team_id, 'fb_1', 'n1', 99, 'replaced' FROM feedback_team.notes",
    "UPDATE feedback_team.syncer SET expires_at = 'infinity'",
    "INSERT INTO feedback_team.syncer (team_id, generation, since, expires_at)
         SELECT team_id, 1, now(), 'infinity' FROM feedback_team.teams",
    "INSERT INTO feedback_team.presence (team_id, item_id, seen_at)
         SELECT team_id, 'fb_1', 'infinity' FROM feedback_team.teams",
    "INSERT INTO feedback_team.mirror_items (team_id, item_id, seq, item)
         SELECT team_id, 'phish'::bytea, 0, '{}'::bytea FROM feedback_team.teams",
    "UPDATE feedback_team.mirror_items SET removed = true",
    "DELETE FROM feedback_team.mirror_items",
    "UPDATE feedback_team.mirror_walk SET walk = '{\"not\":\"a walk\"}'::bytea",
    "UPDATE feedback_team.mirror_asks SET asked_at = now()",
    "UPDATE feedback_team.teams SET account = 'elsewhere'",
    "BEGIN; LOCK TABLE feedback_team.items IN SHARE ROW EXCLUSIVE MODE; ROLLBACK",
    "BEGIN; LOCK TABLE feedback_team.events IN EXCLUSIVE MODE; ROLLBACK",
    "SELECT * FROM feedback_team.items FOR UPDATE",
    "SELECT * FROM feedback_team.syncer FOR SHARE",
    "INSERT INTO feedback_team.links (team_id, item_id, url, added_by)
         SELECT team_id, 'fb_1', 'javascript:alert(1)', session_user FROM feedback_team.teams",
    "DELETE FROM feedback_team.links",
    "SELECT * FROM feedback_team.apply_state_change((SELECT team_id FROM feedback_team.teams),
         'inner', 'fb_2', 'claim', '{}')",
];

/// Calls of the team's functions with values out of their bounds, each refused: a lease until
/// the end of time, a snooze past 20 years, a label of a page's length, a change of an unknown
/// kind, a link that is no http(s) address or too long, a title too long or on two lines, a
/// reply's subject on two lines, a reply without an id or of a book's length.
const OUT_OF_BOUNDS: &[&str] = &[
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'r-lines', 'fb_2', 'reply', jsonb_build_object('reply_id', 'r', 'to', 'a@example.org',
         'subject', E'Hi\\r\\nBcc: x@example.org', 'body', 'b'))",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'r-noid', 'fb_2', 'reply', jsonb_build_object('to', 'a@example.org', 'subject', 's',
         'body', 'b'))",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'r-long', 'fb_2', 'reply', jsonb_build_object('reply_id', 'r', 'to', 'a@example.org',
         'subject', 's', 'body', repeat('b', 65537)))",
    "SELECT feedback_team.take_syncer((SELECT team_id FROM feedback_team.teams), 2147483647)",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'far', 'fb_2', 'snooze', '{\"until\": \"infinity\"}')",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'long', 'fb_2', 'labels', jsonb_build_object('add', jsonb_build_array(repeat('x', 65)), 'remove', '[]'::jsonb))",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'odd', 'fb_2', 'own-everything', '{}')",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'js', 'fb_2', 'link', '{\"url\": \"javascript:alert(1)\"}')",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'nohost', 'fb_2', 'link', '{\"url\": \"https:///x\"}')",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'spaced', 'fb_2', 'link', '{\"url\": \"https://x.example/a b\"}')",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'huge', 'fb_2', 'link', jsonb_build_object('url', 'https://x.example/' || repeat('a', 2048)))",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'title', 'fb_2', 'link', jsonb_build_object('url', 'https://x.example/', 'title', repeat('t', 201)))",
    "SELECT feedback_team.apply_change((SELECT team_id FROM feedback_team.teams),
         'lines', 'fb_2', 'link', jsonb_build_object('url', 'https://x.example/', 'title', E'a\\nb'))",
];

/// Ana claims fb_1, writes a note on it, has it open, and holds the syncer's lease; the mirror
/// has one item. The lease, the note, and the events so far.
async fn ana_sets_the_scene(ana: &mut Team) -> (team::Lease, Change, Vec<team::TeamEvent>) {
    ana.apply(&id(), "fb_1", &Change::Claim).await.unwrap();
    let note = Change::Note {
        note_id: "n1".into(),
        body: "called the customer".into(),
    };
    ana.apply(&id(), "fb_1", &note).await.unwrap();
    ana.heartbeat(Some("fb_1"), false).await.unwrap();
    let lease = ana.take_syncer(15).await.unwrap().unwrap();
    let item = |n: u32| feedback_api::Feedback {
        id: feedback_api::FeedbackId(format!("fb_{n}")),
        message: format!("item {n}"),
        reporter_email: None,
        status: feedback_api::Status::New,
        received_at: "2026-12-01T10:00:00Z".parse().unwrap(),
        tags: Vec::new(),
        app: None,
        project: feedback_api::ProjectRef {
            id: "prj_1".into(),
            name: "Acme".into(),
        },
    };
    let written = ana.mirror_page(&lease, &[item(1)]).await.unwrap();
    assert_eq!(written, team::MirrorWrite::Written { changed: 1 });
    let before = ana.events_after(&Position::start(), 100).await.unwrap();
    (lease, note, before)
}

#[tokio::test]
async fn a_member_in_plain_sql_changes_nothing_but_through_the_teams_functions() {
    let Some(db) = pg::Db::new("guarded").await else {
        return;
    };
    let mut members = db.connected("support", &["ana", "bo"]).await;
    let (ana, bo) = (db.role("ana"), db.role("bo"));
    let (lease, note, before) = ana_sets_the_scene(&mut members[0]).await;

    // Bo, with psql as their own role.
    let raw = team::connect(&db.as_member(&bo, None)).await.unwrap();
    for sql in WRITES {
        let why = refused(raw.raw(), sql).await;
        assert!(
            why.as_deref()
                .is_some_and(|w| w.contains("permission denied")),
            "{sql}: {why:?}"
        );
    }
    // Nor through the shared role: acting as it, Bo is still Bo.
    raw.raw()
        .batch_execute("SET ROLE feedback_team_member")
        .await
        .unwrap();
    let claim = raw
        .raw()
        .query_one(
            "SELECT outcome FROM feedback_team.apply_change(
                 (SELECT team_id FROM feedback_team.teams), 'anon', 'fb_2', 'claim', '{}')",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(claim.get::<_, String>(0), "applied");
    raw.raw().batch_execute("RESET ROLE").await.unwrap();
    let signed: String = raw
        .raw()
        .query_one(
            "SELECT member::text FROM feedback_team.events WHERE event_id = 'anon'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(signed, bo, "the event is the session's role's");
    // The functions bound what they take.
    for sql in OUT_OF_BOUNDS {
        let why = refused(raw.raw(), sql).await;
        assert!(why.is_some(), "{sql}");
    }
    // Without the lease, Bo's write of the mirror is fenced: nothing written.
    let fenced: Option<i64> = raw
        .raw()
        .query_one(
            "SELECT feedback_team.mirror_write((SELECT team_id FROM feedback_team.teams), $1,
                 ARRAY['phish'::bytea], ARRAY['{}'::bytea], ARRAY[NULL::bytea],
                 ARRAY['fb_1'::bytea], NULL, NULL)",
            &[&lease.generation],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(fenced, None);
    // Bo cannot write a new version of Ana's note, through the team's own API either.
    let replaced = members[1].apply(&id(), "fb_1", &note).await;
    assert!(
        matches!(&replaced, Err(TeamError::Name(why)) if why.contains("only by its author")),
        "{replaced:?}"
    );

    // The team's state is as Ana left it, with one event more (Bo's claim of fb_2).
    let after = members[0]
        .events_after(&Position::start(), 100)
        .await
        .unwrap();
    assert_eq!(after.len(), before.len() + 1, "{after:?}");
    assert_eq!(after[..before.len()], before[..]);
    let states = members[0]
        .states(&["fb_1".to_owned(), "fb_2".to_owned()])
        .await
        .unwrap();
    assert_eq!(states[0].owner.as_deref(), Some(ana.as_str()));
    assert_eq!(states[0].last_seq, before.last().unwrap().seq);
    assert_eq!(states[1].owner.as_deref(), Some(bo.as_str()));
    let syncer = members[0].syncer().await.unwrap().unwrap();
    assert_eq!(
        (syncer.member.as_str(), syncer.generation),
        (ana.as_str(), 1)
    );
    let mirror = members[0].mirror_after(0, 100).await.unwrap();
    assert_eq!(mirror.len(), 1);
    assert!(mirror[0].item.is_some(), "fb_1 is not removed");
    let presence = members[0].presence().await.unwrap();
    assert_eq!(presence.len(), 1, "only Ana's heartbeat: {presence:?}");
    drop((members, raw));
    db.drop().await;
}

#[tokio::test]
async fn teams_hear_only_their_own_channel_and_a_flood_of_asks_is_one_ask() {
    let Some(db) = pg::Db::new("channels").await else {
        return;
    };
    let support = db.connected("support", &["ana"]).await;
    let billing = db.connected("billing", &["bo"]).await;
    // Each team's channel is a secret of its own: Bo's connection sees only billing's.
    let raw = team::connect(&db.as_member(&db.role("bo"), None))
        .await
        .unwrap();
    let channels: Vec<String> = raw
        .raw()
        .query("SELECT channel FROM feedback_team.teams", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(channels.len(), 1);
    let admin = team::connect(&db.admin()).await.unwrap();
    let all: Vec<String> = admin
        .raw()
        .query("SELECT channel FROM feedback_team.teams ORDER BY name", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(all.len(), 2);
    assert_ne!(all[0], all[1]);
    assert!(all.contains(&channels[0]));
    assert!(all.iter().all(|c| c.len() >= 40), "{all:?}");
    // A hint on billing's channel is not support's.
    let (hints, mut heard) = tokio::sync::mpsc::unbounded_channel();
    let url = db.as_member(&db.role("ana"), None);
    let listening = Team::open_listening(&url, None, hints).await.unwrap();
    raw.raw()
        .execute("SELECT pg_notify($1, $2)", &[&channels[0], &"1 ask"])
        .await
        .unwrap();
    let other = support;
    other[0]
        .apply(&id(), "fb_1", &Change::Done(true))
        .await
        .unwrap();
    let first = heard.recv().await.unwrap();
    assert!(listening.hint(&first).is_some(), "its own team's event");
    assert_ne!(first.channel(), channels[0]);
    // Fifty asks in a row are one ask: one time answered, one hint.
    let times: std::collections::BTreeSet<jiff::Timestamp> = {
        let mut times = std::collections::BTreeSet::new();
        for _ in 0..50 {
            times.insert(billing[0].ask_mirror_walk().await.unwrap());
        }
        times
    };
    assert_eq!(times.len(), 1, "{times:?}");
    let outcome = other[0].apply(&id(), "fb_2", &Change::Done(true)).await;
    assert!(matches!(outcome, Ok(Outcome::Applied { .. })));
    drop((other, billing, listening, raw, admin));
    db.drop().await;
}

/// The team's functions run as the schema's owner, held to row-level security like anyone: a
/// lead who is no superuser (a role that may create roles, and schemas in the database) sets
/// the team up, and the members' every kind of write works through the functions.
#[tokio::test]
async fn a_lead_who_is_no_superuser_sets_the_team_up_and_members_write_through_it() {
    let Some(db) = pg::Db::new("lead").await else {
        return;
    };
    let lead = db.role("lead");
    let admin = team::connect(&db.admin()).await.unwrap();
    admin
        .raw()
        .batch_execute(&format!(
            "CREATE ROLE {lead} LOGIN CREATEROLE NOSUPERUSER;
             GRANT CREATE ON DATABASE {} TO {lead};",
            db.name
        ))
        .await
        .unwrap();
    let mut as_lead = team::connect(&db.as_member(&lead, None)).await.unwrap();
    team::create_team(&mut as_lead, "support").await.unwrap();
    let ana = db.role("ana");
    let team::AddedMember::Created { password } = team::add_member(&mut as_lead, "support", &ana)
        .await
        .unwrap()
    else {
        panic!("{ana} existed");
    };
    let url = db.as_member(&ana, Some(&password));
    let mut member = Team::open(&url, None).await.unwrap();
    let claimed = member.apply(&id(), "fb_1", &Change::Claim).await.unwrap();
    assert!(
        matches!(claimed, Outcome::Applied { seq: 1 }),
        "{claimed:?}"
    );
    let note = Change::Note {
        note_id: "n1".into(),
        body: "first".into(),
    };
    member.apply(&id(), "fb_1", &note).await.unwrap();
    member.heartbeat(Some("fb_1"), false).await.unwrap();
    assert_eq!(member.presence().await.unwrap().len(), 1);
    let lease = member.take_syncer(15).await.unwrap().unwrap();
    let written = member
        .mirror_write(&lease, (&[], &[]), &["fb_1".to_owned()], None, None)
        .await
        .unwrap();
    assert_eq!(written, team::MirrorWrite::Written { changed: 1 });
    member.ask_mirror_walk().await.unwrap();
    member
        .mirror_served(member.server_now().await.unwrap())
        .await
        .unwrap();
    member.record_mirror_position(1).await.unwrap();
    member.set_shared_mirror(true).await.unwrap();
    assert!(member.shared_mirror().await.unwrap());
    let seen = member.events_after(&Position::start(), 10).await.unwrap();
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|e| e.member == ana));
    drop((member, as_lead, admin));
    db.drop().await;
}

/// A session holding a lock on the team's tables (a psql session left open, a stuck
/// process) stalls a member's change for the lock timeout, not for as long as it holds it:
/// the change fails saying what it waited for, is retryable (the outbox keeps it), and goes
/// through once the lock is gone. The server ends a transaction its client left idle.
#[tokio::test]
async fn a_held_lock_stalls_a_member_for_seconds_and_the_wait_says_why() {
    let Some(db) = pg::Db::new("stuck").await else {
        return;
    };
    let members = db.connected("support", &["ana"]).await;
    let mut holder = team::connect(&db.admin()).await.unwrap();
    let held = holder.raw_mut().transaction().await.unwrap();
    held.batch_execute("LOCK TABLE feedback_team.items IN ACCESS EXCLUSIVE MODE")
        .await
        .unwrap();
    let event = id();
    let started = std::time::Instant::now();
    let stalled = members[0].apply(&event, "fb_1", &Change::Claim).await;
    let waited = started.elapsed();
    let Err(error) = stalled else {
        panic!("the claim went through a held lock: {stalled:?}");
    };
    assert!(error.is_retryable(), "{error}");
    assert!(
        error.to_string().contains("waited 5 s for a lock"),
        "{error}"
    );
    assert!(waited < std::time::Duration::from_secs(20), "{waited:?}");
    held.rollback().await.unwrap();
    let applied = members[0]
        .apply(&event, "fb_1", &Change::Claim)
        .await
        .unwrap();
    assert!(matches!(applied, Outcome::Applied { .. }), "{applied:?}");
    // Every team connection carries the timeouts.
    let own = team::connect(&db.as_member(&db.role("ana"), None))
        .await
        .unwrap();
    for (setting, want) in [
        ("lock_timeout", "5s"),
        ("statement_timeout", "30s"),
        ("idle_in_transaction_session_timeout", "20s"),
    ] {
        let shown: String = own
            .raw()
            .query_one(&format!("SHOW {setting}"), &[])
            .await
            .unwrap()
            .get(0);
        assert_eq!(shown, want, "{setting}");
    }
    drop((members, holder, own));
    db.drop().await;
}

/// A walk state the team's mirror holds that is no walk state (written by hand, or by a
/// newer version) stops no one: the member taking the lease over walks on from its own store.
#[tokio::test]
async fn a_walk_state_that_does_not_read_does_not_stop_the_shared_mirror() {
    let Some(db) = pg::Db::new("bad_walk").await else {
        return;
    };
    let members = db.connected("support", &["ana"]).await;
    let admin = team::connect(&db.admin()).await.unwrap();
    admin
        .raw()
        .batch_execute(
            "INSERT INTO feedback_team.mirror_walk (team_id, walk, generation)
                 SELECT team_id, '{\"not\":\"a walk\"}'::bytea, 1 FROM feedback_team.teams",
        )
        .await
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = feedback_store::Shared::new(
        feedback_store::Store::open(&dir.path().join("ana.db")).unwrap(),
    )
    .unwrap();
    feedback_team_sync::join(&members[0], &store).await.unwrap();
    let lease = members[0].take_syncer(15).await.unwrap().unwrap();
    feedback_team_sync::mirror::take_over(&members[0], &store, lease.generation, || {
        jiff::Timestamp::now()
    })
    .await
    .unwrap();
    // `team status` still shows the team's mirror, the odd state as it is.
    let status = members[0].mirror_status().await.unwrap();
    assert_eq!(status.syncer.map(|s| s.generation), Some(lease.generation));
    drop((members, admin));
    db.drop().await;
}
