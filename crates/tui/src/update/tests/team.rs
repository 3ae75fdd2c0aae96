//! The team's keys and news: `a` claims (unclaims your own; takes another's over only once
//! confirmed), `A` assigns to a member picked (online first), `L` edits labels; each change
//! recorded in the outbox shows at once, pending, and is sent; the link's news set the status
//! and say what was lost or assigned to you; the rows and the open detail follow them.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::act;
use super::acting::note;
use crate::action::{Action, Msg, SyncJob};
use crate::effect::{Effect, Local, Network};
use crate::team::{Link, Prompt, TeamState};
use crate::testkit::{Harness, now, started_harness};
use feedback_api::Status;
use feedback_store::{TeamBatch, TeamItemRecord};
use feedback_team::{Change, Presence};
use feedback_team_sync::live::News;
use feedback_team_sync::{CaughtUp, Sent, Settled};

/// A started inbox in the team `support` as `ana`, with items owned as `owners` says (by
/// position in the list), as the replica caught up.
pub(super) fn team_harness(owners: &[(usize, &str)]) -> Harness {
    let mut h = started_harness(140, 30, 20, true);
    h.state.team = Some(TeamState::new("ana"));
    h.store
        .write(|s| s.team_start_replica("support", "ana"))
        .unwrap();
    let items = owners
        .iter()
        .map(|(n, owner)| TeamItemRecord {
            item_id: format!("id{n:05}"),
            owner: Some((*owner).to_owned()),
            labels: vec!["crash".to_owned()],
            done: false,
            snoozed_until: None,
            last_seq: 1,
        })
        .collect();
    let batch = TeamBatch {
        items,
        seq: 1,
        ..TeamBatch::default()
    };
    h.store.write(|s| s.team_apply(&batch, now())).unwrap();
    h.send(Msg::Team(News::Connected {
        team: "support".to_owned(),
        member: "ana".to_owned(),
        members: vec!["ana".to_owned(), "bo".to_owned(), "cy".to_owned()],
    }));
    // The replica moved: the view is read again with the owners.
    h.send(Msg::Team(News::Changed(CaughtUp {
        events: 1,
        assigned_to_me: Vec::new(),
        rebuilt: None,
    })));
    h
}

pub(super) fn owner(h: &Harness, id: &str) -> Option<String> {
    h.state
        .triage
        .overlay
        .team(id)
        .and_then(|t| t.owner.clone())
}

fn pending(h: &Harness, id: &str) -> bool {
    h.state.triage.overlay.team(id).is_some_and(|t| t.pending)
}

pub(super) fn key(h: &mut Harness, code: KeyCode) -> Vec<Effect> {
    h.send(Msg::TeamInput(KeyEvent::from(code)))
}

#[test]
fn a_claims_an_unowned_item_shown_pending_at_once_and_sent() {
    let mut h = team_harness(&[]);
    let effects = act(&mut h, Action::Claim);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("ana"));
    assert!(pending(&h, "id00000"));
    assert!(
        effects.contains(&Effect::Local(Local::TeamSend)),
        "{effects:?}"
    );
    assert_eq!(h.state.team.as_ref().unwrap().pending, 1);
    assert_eq!(note(&h), "Claimed id00000; U undoes");
    // Again: it is yours, so `a` unclaims it.
    act(&mut h, Action::Claim);
    assert_eq!(owner(&h, "id00000"), None);
    let outbox = h.store.read(feedback_store::Store::team_outbox).unwrap();
    let changes: Vec<Change> = outbox.iter().map(|e| e.change.clone().unwrap()).collect();
    assert_eq!(changes, [Change::Claim, Change::Unclaim]);
    assert!(outbox.iter().all(|e| e.member == "ana"));
}

#[test]
fn taking_another_members_item_over_asks_first_naming_the_owner() {
    let mut h = team_harness(&[(0, "bo")]);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("bo"));
    let effects = act(&mut h, Action::Claim);
    assert!(effects.is_empty(), "nothing recorded before the answer");
    let Some(Prompt::TakeOver { owners, .. }) = &h.state.team.as_ref().unwrap().prompt else {
        panic!("no confirmation");
    };
    assert_eq!(owners.as_str(), "bo");
    // No: nothing changes.
    key(&mut h, KeyCode::Char('n'));
    assert!(h.state.team.as_ref().unwrap().prompt.is_none());
    assert!(
        h.store
            .read(feedback_store::Store::team_outbox)
            .unwrap()
            .is_empty()
    );
    // Yes: recorded as a take-over from bo.
    act(&mut h, Action::Claim);
    key(&mut h, KeyCode::Char('y'));
    let outbox = h.store.read(feedback_store::Store::team_outbox).unwrap();
    let change: Change = outbox[0].change.clone().unwrap();
    assert_eq!(
        change,
        Change::TakeOver {
            from: "bo".to_owned()
        }
    );
    assert_eq!(owner(&h, "id00000").as_deref(), Some("ana"));
}

#[test]
fn assign_picks_a_member_online_first_and_labels_take_plus_and_minus() {
    let mut h = team_harness(&[(0, "bo")]);
    h.send(Msg::Team(News::Present(vec![Presence {
        member: "cy".to_owned(),
        item_id: None,
        replying: false,
    }])));
    act(&mut h, Action::Assign);
    let Some(Prompt::Assign { choices, .. }) = &h.state.team.as_ref().unwrap().prompt else {
        panic!("no picker");
    };
    let names: Vec<&str> = choices.iter().map(|(m, _, _)| m.as_str()).collect();
    assert_eq!(names, ["cy", "ana", "bo"], "who is online first");
    key(&mut h, KeyCode::Enter);
    let outbox = h.store.read(feedback_store::Store::team_outbox).unwrap();
    let change: Change = outbox[0].change.clone().unwrap();
    assert_eq!(
        change,
        Change::Assign {
            to: "cy".to_owned(),
            from: Some("bo".to_owned())
        }
    );

    act(&mut h, Action::EditLabels);
    for c in "ios".chars() {
        key(&mut h, KeyCode::Char(c));
    }
    key(&mut h, KeyCode::Enter);
    let Some(Prompt::Labels { error, .. }) = &h.state.team.as_ref().unwrap().prompt else {
        panic!("the prompt stays with its error");
    };
    assert!(error.as_ref().unwrap().contains("starts with +"));
    key(&mut h, KeyCode::Esc);
    act(&mut h, Action::EditLabels);
    h.send(Msg::Paste("+ios -crash".to_owned()));
    key(&mut h, KeyCode::Enter);
    let shown = h.state.triage.overlay.team("id00000").unwrap().clone();
    assert_eq!(shown.labels.as_str(), "ios");
    assert!(shown.pending);
}

#[test]
fn the_links_news_set_the_status_and_say_what_was_lost_or_given_to_you() {
    let mut h = team_harness(&[]);
    assert_eq!(h.state.team.as_ref().unwrap().link, Link::Online);
    h.send(Msg::Team(News::Offline {
        why: "connection refused".to_owned(),
        pending: 4,
    }));
    let team = h.state.team.as_ref().unwrap();
    assert!(matches!(team.link, Link::Offline(_)));
    assert_eq!(team.pending, 4);
    h.send(Msg::Team(News::Sent(Sent {
        count: 1,
        settled: vec![(
            "e1".to_owned(),
            "id00003".to_owned(),
            Settled::Lost("bo claimed this 5 s ago".to_owned()),
        )],
        pending: 3,
    })));
    assert_eq!(note(&h), "Not changed, id00003: bo claimed this 5 s ago");
    assert!(h.state.note.as_ref().unwrap().error);
    assert_eq!(h.state.team.as_ref().unwrap().pending, 3);
    // A command sent the rest meanwhile: the count follows the store's outbox.
    h.send(Msg::Team(News::Sent(Sent {
        count: 0,
        settled: Vec::new(),
        pending: 0,
    })));
    assert_eq!(h.state.team.as_ref().unwrap().pending, 0);
    let event = feedback_team::TeamEvent {
        seq: 9,
        event_id: "e9".to_owned(),
        member: "bo".to_owned(),
        item_id: "id00002".to_owned(),
        change: feedback_team::EventChange::Known(Change::Assign {
            to: "ana".to_owned(),
            from: None,
        }),
        at: now(),
    };
    h.send(Msg::Team(News::Changed(CaughtUp {
        events: 1,
        assigned_to_me: vec![event],
        rebuilt: None,
    })));
    assert_eq!(note(&h), "bo assigned id00002 to you (ana)");
}

#[test]
fn without_a_team_the_keys_say_how_to_set_one_up() {
    let mut h = started_harness(120, 30, 5, true);
    let effects = act(&mut h, Action::Claim);
    assert!(effects.is_empty());
    assert!(
        note(&h).starts_with("No team: set [team] url"),
        "{}",
        note(&h)
    );
}

#[test]
fn opening_an_item_tells_the_link_once() {
    let mut h = team_harness(&[]);
    let effects = act(&mut h, Action::Open);
    assert!(
        effects.contains(&Effect::Local(Local::TeamLooking(Some(
            "id00000".to_owned()
        )))),
        "{effects:?}"
    );
    let again = h.send(Msg::Tick(now()));
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, Effect::Local(Local::TeamLooking(_))))
    );
    let back = act(&mut h, Action::Back);
    assert!(
        back.contains(&Effect::Local(Local::TeamLooking(None))),
        "{back:?}"
    );
}

#[test]
fn done_snooze_and_the_note_go_to_the_team_with_the_triage_write() {
    let mut h = team_harness(&[]);
    let effects = act(&mut h, Action::ToggleDone);
    assert!(
        effects.contains(&Effect::Local(Local::TeamSend)),
        "{effects:?}"
    );
    assert_eq!(h.state.team.as_ref().unwrap().pending, 1);
    // Starring is this member's own: nothing more for the team.
    act(&mut h, Action::ToggleStar);
    let outbox = h.store.read(feedback_store::Store::team_outbox).unwrap();
    let changes: Vec<Change> = outbox.iter().map(|e| e.change.clone().unwrap()).collect();
    assert_eq!(changes, [Change::Done(true)]);
    // Undoing the star tells the team nothing; undoing the done tells it.
    act(&mut h, Action::UndoTriage);
    act(&mut h, Action::UndoTriage);
    let outbox = h.store.read(feedback_store::Store::team_outbox).unwrap();
    let changes: Vec<Change> = outbox.iter().map(|e| e.change.clone().unwrap()).collect();
    assert_eq!(changes, [Change::Done(true), Change::Done(false)]);
}

#[test]
fn a_members_ask_for_the_tops_reads_the_head_now_unless_a_job_the_user_waits_for_runs() {
    let mut h = team_harness(&[]);
    let asked = h.send(Msg::Team(News::Asked));
    let syncs: Vec<_> = asked
        .iter()
        .filter(|e| matches!(e, Effect::Network(Network::Sync(SyncJob::Refresh(s))) if *s == Status::New))
        .collect();
    assert_eq!(syncs.len(), 1, "{asked:?}");
    // That refresh runs: another ask waits for it (it serves the ask itself).
    let again = h.send(Msg::Team(News::Asked));
    assert!(
        !again
            .iter()
            .any(|e| matches!(e, Effect::Network(Network::Sync(_)))),
        "{again:?}"
    );
}

#[test]
fn an_open_detail_follows_a_teammates_done_and_claim_after_the_item_left_the_view() {
    let mut h = team_harness(&[]);
    act(&mut h, Action::Open);
    assert_eq!(
        h.state.detail.as_ref().map(|d| d.id.as_str()),
        Some("id00000")
    );
    assert!(h.state.triage.overlay.team("id00000").is_none());
    // cy marks it done and claims it: it leaves the Inbox, and its open detail says so.
    h.team_changed(TeamItemRecord {
        item_id: "id00000".to_owned(),
        owner: Some("cy".to_owned()),
        labels: Vec::new(),
        done: true,
        snoozed_until: None,
        last_seq: 1,
    });
    assert!(
        !h.state.list.window.rows.iter().any(|r| &*r.id == "id00000"),
        "a done item leaves the Inbox"
    );
    assert_eq!(owner(&h, "id00000").as_deref(), Some("cy"));
    assert!(h.state.triage.overlay.shown("id00000").done);
}

#[test]
fn a_replica_read_again_is_said_and_the_rows_follow_it() {
    let mut h = team_harness(&[(0, "bo")]);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("bo"));
    // The team's database went back: the store forgot what it said, and the link says why.
    h.store
        .write(|s| s.team_rebuild_replica("another", now()))
        .unwrap();
    h.send(Msg::Team(News::Rebuilt(
        feedback_store::Rebuilt::WentBack { seq: 7 },
    )));
    assert_eq!(owner(&h, "id00000"), None);
    let said = note(&h);
    assert!(
        said.starts_with("Team: the team's database went back: event 7")
            && said.ends_with("read again from it (your waiting changes are kept)"),
        "{said}"
    );
}
