//! Snapshots of the team on screen: the OWNER column (yours, a teammate's, one pending, one a
//! teammate has open, a hostile name made inert), the status bar's team part online and
//! offline, the take-over confirmation, the member picker, the labels prompt, the question
//! before an undo over a teammate's change, and the detail's
//! owner, labels and who is looking. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use feedback_core::team_event::{Change, EventChange, TeamEvent};
use feedback_store::{TeamBatch, TeamItemRecord};
use feedback_team::Presence;
use feedback_team_sync::CaughtUp;
use feedback_team_sync::live::News;
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::state::AppState;
use feedback_tui::team::TeamState;
use feedback_tui::testkit::{Harness, now, started_harness};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

/// An inbox of 12 items in team `support` as `ana`: id00000 hers, id00001 bo's (which cy has
/// open), id00002 owned by a hostile name, id00003 with labels and no owner.
fn team(width: u16) -> Harness {
    let mut h = started_harness(width, 18, 12, true);
    h.state.triage.advance = false;
    h.state.team = Some(TeamState::new("ana"));
    h.state.views.add_team_views();
    h.store
        .write(|s| s.team_start_replica("support", "ana"))
        .unwrap();
    let item = |n: usize, owner: Option<&str>, labels: &[&str]| TeamItemRecord {
        item_id: format!("id{n:05}"),
        owner: owner.map(str::to_owned),
        labels: labels.iter().map(|l| (*l).to_owned()).collect(),
        done: false,
        snoozed_until: None,
        last_seq: 1,
    };
    let batch = TeamBatch {
        items: vec![
            item(0, Some("ana"), &[]),
            item(1, Some("bo"), &["crash"]),
            item(2, Some("eve\u{1b}]52;c;x\u{7}"), &[]),
            item(3, None, &["billing", "ios\u{202e}"]),
        ],
        events: vec![
            TeamEvent {
                seq: 1,
                event_id: "e1".to_owned(),
                member: "bo".to_owned(),
                item_id: "id00001".to_owned(),
                change: EventChange::Known(Change::Claim),
                at: now() - jiff::SignedDuration::from_mins(9),
            },
            TeamEvent {
                seq: 2,
                event_id: "e2".to_owned(),
                member: "bo".to_owned(),
                item_id: "id00001".to_owned(),
                change: EventChange::Known(Change::Note {
                    note_id: "bo/id00001".to_owned(),
                    body: "Called them back:\nit is the 2.3 sync bug \u{1b}[31m".to_owned(),
                }),
                at: now() - jiff::SignedDuration::from_mins(5),
            },
        ],
        seq: 2,
        ..TeamBatch::default()
    };
    h.store.write(|s| s.team_apply(&batch, now())).unwrap();
    h.send(Msg::Team(News::Connected {
        team: "support".to_owned(),
        member: "ana".to_owned(),
        members: vec!["ana".to_owned(), "bo".to_owned(), "cy".to_owned()],
    }));
    h.send(Msg::Team(News::Present(vec![
        Presence {
            member: "ana".to_owned(),
            item_id: None,
            replying: false,
        },
        Presence {
            member: "cy".to_owned(),
            item_id: Some("id00001".to_owned()),
            replying: false,
        },
    ])));
    h.send(Msg::Team(News::Changed(CaughtUp {
        events: 1,
        assigned_to_me: Vec::new(),
        rebuilt: None,
    })));
    h
}

#[test]
fn the_list_shows_owners_presence_and_the_team_in_the_status_bar() {
    let mut h = team(140);
    // A claim of id00004 waits to be sent.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Claim);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn offline_the_status_bar_says_so_with_what_waits() {
    let mut h = team(100);
    h.send(Msg::Team(News::Offline {
        why: "connection refused".to_owned(),
        pending: 4,
    }));
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn the_team_prompts() {
    let mut h = team(120);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Claim);
    insta::assert_snapshot!("take_over", draw(&h.state).backend());
    h.send(Msg::TeamInput(KeyEvent::from(KeyCode::Esc)));
    act(&mut h, Action::Assign);
    insta::assert_snapshot!("assign", draw(&h.state).backend());
    h.send(Msg::TeamInput(KeyEvent::from(KeyCode::Esc)));
    act(&mut h, Action::EditLabels);
    h.send(Msg::Paste("+urgent -crash".to_owned()));
    insta::assert_snapshot!("labels", draw(&h.state).backend());
}

#[test]
fn the_detail_shows_the_owner_the_labels_a_teammates_note_and_who_is_looking() {
    let mut h = team(120);
    h.send(Msg::Resize {
        width: 120,
        height: 34,
    });
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn an_undo_over_a_teammates_claim_asks_first() {
    let mut h = team(120);
    for _ in 0..4 {
        act(&mut h, Action::MoveDown);
    }
    act(&mut h, Action::Claim);
    // Sent; then bo took id00004 over.
    h.outbox_sent();
    h.team_changed(TeamItemRecord {
        item_id: "id00004".to_owned(),
        owner: Some("bo".to_owned()),
        labels: Vec::new(),
        done: false,
        snoozed_until: None,
        last_seq: 3,
    });
    act(&mut h, Action::UndoTriage);
    insta::assert_snapshot!("undo", draw(&h.state).backend());
}
