//! `U` undoes the last action whichever key took it (team keys included), says what it undid
//! and on which item, and asks first when a teammate changed the item since; the selection
//! moves on only after an action that takes the item out of the view.

use ratatui::crossterm::event::KeyCode;

use super::act;
use super::acting::note;
use super::team::{key, owner, team_harness};
use super::triage::stored;
use crate::action::{Action, Msg};
use crate::failure::Failure;
use crate::team::Prompt;
use crate::testkit::{Harness, started_harness};
use feedback_store::{Store, TeamItemRecord};
use feedback_team::Change;

fn outbox(h: &Harness) -> Vec<(String, Change)> {
    h.store
        .read(Store::team_outbox)
        .unwrap()
        .iter()
        .map(|e| (e.item_id.clone(), e.change.clone().unwrap()))
        .collect()
}

/// After this member's changes were sent, a teammate's change to `id` reached the replica (as
/// the live link catches up).
fn teammate_owns(h: &mut Harness, id: &str, owner: &str, seq: i64) {
    h.outbox_sent();
    h.team_changed(TeamItemRecord {
        item_id: id.to_owned(),
        owner: Some(owner.to_owned()),
        labels: vec!["crash".to_owned()],
        done: false,
        snoozed_until: None,
        last_seq: seq,
    });
}

fn prompt(h: &Harness) -> Option<&Prompt> {
    h.state.team.as_ref().unwrap().prompt.as_ref()
}

#[test]
fn u_after_a_claim_unclaims_it_and_leaves_the_older_triage_alone() {
    let mut h = team_harness(&[]);
    act(&mut h, Action::ToggleStar);
    assert!(stored(&h, "id00000").starred);
    assert_eq!(h.selected_id(), "id00000", "a star keeps the selection");
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Claim);
    assert_eq!(owner(&h, "id00001").as_deref(), Some("ana"));
    assert_eq!(note(&h), "Claimed id00001; U undoes");

    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: claim of id00001");
    assert_eq!(owner(&h, "id00001"), None);
    assert!(
        stored(&h, "id00000").starred,
        "the older star is not what U undid"
    );
    assert_eq!(
        outbox(&h),
        [
            ("id00001".to_owned(), Change::Claim),
            ("id00001".to_owned(), Change::Unclaim)
        ]
    );
    // The next U is the star's.
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: star of id00000");
    assert!(!stored(&h, "id00000").starred);
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Nothing to undo");
}

#[test]
fn undoing_an_unclaim_an_assignment_and_labels_puts_each_back() {
    let mut h = team_harness(&[(0, "ana"), (1, "bo")]);
    // Unclaim of your own item: undone by claiming it again.
    act(&mut h, Action::Claim);
    assert_eq!(owner(&h, "id00000"), None);
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: unclaim of id00000");
    assert_eq!(owner(&h, "id00000").as_deref(), Some("ana"));

    // bo's item assigned to cy: undone by giving it back to bo.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Assign);
    let Some(Prompt::Assign { choices, .. }) = prompt(&h) else {
        panic!("no picker");
    };
    let cy = choices.iter().position(|(m, _, _)| m == "cy").unwrap();
    for _ in 0..cy {
        key(&mut h, KeyCode::Down);
    }
    key(&mut h, KeyCode::Enter);
    assert_eq!(owner(&h, "id00001").as_deref(), Some("cy"));
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: assignment to cy of id00001");
    assert_eq!(owner(&h, "id00001").as_deref(), Some("bo"));

    // +crash (there already) +ios: the undo removes ios only.
    act(&mut h, Action::EditLabels);
    h.send(Msg::Paste("+crash +ios".to_owned()));
    key(&mut h, KeyCode::Enter);
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: labels of id00001");
    let shown = h.state.triage.overlay.team("id00001").unwrap();
    assert_eq!(shown.label_names, ["crash"]);

    let changes: Vec<Change> = outbox(&h).into_iter().map(|(_, c)| c).collect();
    assert_eq!(
        changes,
        [
            Change::Unclaim,
            Change::Claim,
            Change::Assign {
                to: "cy".to_owned(),
                from: Some("bo".to_owned())
            },
            Change::Assign {
                to: "bo".to_owned(),
                from: Some("cy".to_owned())
            },
            Change::Labels {
                add: vec!["crash".to_owned(), "ios".to_owned()],
                remove: Vec::new()
            },
            Change::Labels {
                add: Vec::new(),
                remove: vec!["ios".to_owned()]
            },
        ]
    );
}

#[test]
fn an_undo_over_a_teammates_change_since_asks_first() {
    let mut h = team_harness(&[]);
    act(&mut h, Action::Claim);
    // bo took it over after ana's claim.
    teammate_owns(&mut h, "id00000", "bo", 2);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("bo"));
    let sent = outbox(&h).len();

    let effects = act(&mut h, Action::UndoTriage);
    assert!(effects.is_empty(), "nothing sent before the answer");
    let Some(Prompt::Undo { since, .. }) = prompt(&h) else {
        panic!("no question: {:?}", prompt(&h));
    };
    assert_eq!(since.as_str(), "id00000 is bo's now");
    // No: nothing changes, and the step is still there.
    key(&mut h, KeyCode::Char('n'));
    assert!(prompt(&h).is_none());
    assert_eq!(outbox(&h).len(), sent);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("bo"));

    // Yes: taken back from bo (so the history says so) and left unowned.
    act(&mut h, Action::UndoTriage);
    assert!(matches!(prompt(&h), Some(Prompt::Undo { .. })));
    key(&mut h, KeyCode::Char('y'));
    assert_eq!(note(&h), "Undone: claim of id00000");
    let changes: Vec<Change> = outbox(&h)[sent..].iter().map(|(_, c)| c.clone()).collect();
    assert_eq!(
        changes,
        [
            Change::TakeOver {
                from: "bo".to_owned()
            },
            Change::Unclaim
        ]
    );
    assert_eq!(owner(&h, "id00000"), None);
}

#[test]
fn an_undo_of_done_a_teammate_reverted_asks_first_but_not_alone() {
    let mut h = team_harness(&[]);
    h.state.triage.advance = false;
    act(&mut h, Action::ToggleDone);
    assert!(stored(&h, "id00000").done);
    // The done was sent; then a teammate marked it not done again.
    h.outbox_sent();
    h.team_changed(TeamItemRecord {
        item_id: "id00000".to_owned(),
        owner: None,
        labels: Vec::new(),
        done: false,
        snoozed_until: None,
        last_seq: 2,
    });
    act(&mut h, Action::UndoTriage);
    let Some(Prompt::Undo { since, .. }) = prompt(&h) else {
        panic!("no question: {:?}", prompt(&h));
    };
    assert_eq!(since.as_str(), "id00000 changed");

    // Alone, only this member changes the local state: no question.
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleStar);
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: star of id00000");
}

#[test]
fn a_sequence_of_keys_for_one_item_stays_on_it_and_done_moves_on() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleStar);
    assert_eq!(h.selected_id(), "id00000");
    act(&mut h, Action::ToggleSeen);
    assert_eq!(h.selected_id(), "id00000");
    act(&mut h, Action::ToggleDone);
    assert_eq!(h.selected_id(), "id00001", "done takes it out of the view");
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: done of id00000");
}

#[test]
fn an_undo_the_outbox_could_not_record_stays_to_be_done_again() {
    let mut h = team_harness(&[]);
    act(&mut h, Action::Claim);
    assert_eq!(owner(&h, "id00000").as_deref(), Some("ana"));
    // U reads the item's state, then records the unclaim; the write fails.
    let effects = h.apply(Msg::Action(Action::UndoTriage));
    let mut record = None;
    for answer in h.hold(effects) {
        for effect in h.apply(answer) {
            if matches!(
                effect,
                crate::effect::Effect::Write(crate::effect::Write::TeamRecord { .. })
            ) {
                record = Some(effect);
            }
        }
    }
    assert!(record.is_some(), "the undo records an unclaim");
    h.send(Msg::TeamRecorded(Err(Failure::store("disk full"))));
    assert!(
        note(&h).starts_with("Cannot record the team change"),
        "{}",
        note(&h)
    );
    assert_eq!(owner(&h, "id00000").as_deref(), Some("ana"));
    // The claim's step is still there: U undoes it now.
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: claim of id00000");
    assert_eq!(owner(&h, "id00000"), None);
}
