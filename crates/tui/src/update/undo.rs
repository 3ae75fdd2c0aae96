//! `U`: the last action undone, whichever key took it (a triage key's or a team key's), newest
//! first, and said with what it was and on which items (`Undone: claim of 2qgddabg`). A step
//! is kept once its action was durably written (a triage write committed, a team change in the
//! outbox); a `U` pressed before that waits for it. With a team, an undo that would change what
//! changed since (a teammate claimed the item after you, or marked it not done) asks first.

use super::{error, info};
use crate::effect::{Effect, Write};
use crate::failure::Failure;
use crate::state::AppState;
use crate::team::Prompt;
use crate::triage::{Recording, TeamUndo, UNDO_DEPTH, Undo, UndoStates, UndoStep};
use feedback_core::text::Clean;
use feedback_store::{Triage, TriageChange};
use feedback_team::Change;

/// `U`. While writes are in flight, the step of the one just sent is not known yet: the undo
/// waits for them. With a team, the step's items are read as they are now first (they may be
/// out of the view, and a teammate may have changed them since).
pub(super) fn undo(state: &mut AppState) -> Vec<Effect> {
    if in_flight(state) {
        state.triage.undo_waiting += 1;
        info(state, "Undoing once saved…");
        return Vec::new();
    }
    let Some(step) = state.triage.undo.pop() else {
        info(state, "Nothing to undo");
        return Vec::new();
    };
    // A link's undo reads the item's links as they are now, with a team or without.
    if state.team.is_none() && matches!(step.undo, Undo::Triage { .. }) {
        return apply(state, step, &UndoStates::default());
    }
    state.triage.undo_reading = true;
    vec![Effect::Write(Write::UndoStates {
        step,
        confirmed: false,
    })]
}

/// The states of the items of the step being undone: undone, or asked about first when they
/// changed since (unless the user already said to undo it anyway).
pub(super) fn states_read(
    state: &mut AppState,
    step: UndoStep,
    confirmed: bool,
    result: Result<UndoStates, Failure>,
) -> Vec<Effect> {
    state.triage.undo_reading = false;
    let states = match result {
        Ok(states) => states,
        Err(message) => {
            state.triage.undo.push(step);
            forget_waiting(state);
            error(state, format!("Not undone: {message}"));
            return Vec::new();
        }
    };
    if !confirmed
        && let Some(since) = changed_since(state, &step, &states)
        && let Some(team) = state.team.as_mut()
    {
        team.prompt = Some(Prompt::Undo { step, since });
        forget_waiting(state);
        return Vec::new();
    }
    apply(state, step, &states)
}

/// A `U` that waited for the writes in flight, once they all answered.
pub(super) fn waiting(state: &mut AppState) -> Vec<Effect> {
    if in_flight(state) || state.triage.undo_waiting == 0 {
        return Vec::new();
    }
    state.triage.undo_waiting -= 1;
    undo(state)
}

/// A write the waiting `U` was meant for failed: the `U` is dropped, not applied to the step
/// before it.
pub(super) fn forget_waiting(state: &mut AppState) {
    state.triage.undo_waiting = 0;
}

fn in_flight(state: &AppState) -> bool {
    state.triage.writing > 0 || !state.triage.recording.is_empty() || state.triage.undo_reading
}

/// Keeps `step` for `U` (the oldest goes past the depth kept).
pub(super) fn keep(state: &mut AppState, step: UndoStep) {
    let undo = &mut state.triage.undo;
    undo.push(step);
    if undo.len() > UNDO_DEPTH {
        undo.remove(0);
    }
}

/// The answer to `Prompt::Undo`: `true` undoes the step anyway; `false` keeps it for a later
/// `U` and changes nothing.
pub(super) fn confirmed(state: &mut AppState, step: UndoStep, yes: bool) -> Vec<Effect> {
    if yes {
        state.triage.undo_reading = true;
        return vec![Effect::Write(Write::UndoStates {
            step,
            confirmed: true,
        })];
    }
    state.triage.undo.push(step);
    info(state, "Not undone");
    Vec::new()
}

/// The effects that undo `step` (no question asked).
fn apply(state: &mut AppState, step: UndoStep, states: &UndoStates) -> Vec<Effect> {
    let member = state.team.as_ref().map(|t| t.member.clone());
    let kept = step.clone();
    match step.undo {
        Undo::Triage { changes, left } => {
            let said = said(&step.what, &left);
            for (id, change) in &changes {
                let next = change.apply(&state.triage.overlay.next(id));
                state.triage.overlay.writing(id, next);
            }
            state.triage.writing += 1;
            vec![Effect::Write(Write::TriageUndo {
                changes,
                at: state.now,
                team: member,
                what: said,
            })]
        }
        Undo::Team(items) => {
            let said = said(&step.what, &items);
            let me = member.clone().unwrap_or_default();
            let changes: Vec<(String, Change)> = items
                .iter()
                .flat_map(|(id, undo)| {
                    inverse(states, &me, id, undo)
                        .into_iter()
                        .map(move |c| (id.clone(), c))
                })
                .collect();
            if changes.is_empty() {
                // The items are already as they were before the action.
                info(state, said);
                return Vec::new();
            }
            state
                .triage
                .recording
                .push_back(Recording::Undoing { said, step: kept });
            vec![Effect::Write(Write::TeamRecord {
                member,
                changes,
                at: state.now,
            })]
        }
    }
}

/// "Undone: claim of 2qgddabg", "Undone: done of 3 items".
fn said<T>(what: &str, items: &[(String, T)]) -> String {
    format!("Undone: {what} of {}", items_named(items))
}

/// One item by its id, several by their number.
pub(super) fn items_named<T>(items: &[(String, T)]) -> String {
    match items {
        [(id, _)] => Clean::line(id).to_string(),
        many => format!(
            "{} items",
            feedback_core::text::output::thousands(many.len())
        ),
    }
}

/// The team changes that bring item `id` back from its state now to the state before the
/// action (none when it is there already). An owner someone took since is taken over first,
/// so the history says so.
fn inverse(states: &UndoStates, me: &str, id: &str, undo: &TeamUndo) -> Vec<Change> {
    let shown = states.team.get(id);
    match undo {
        TeamUndo::Owner { before, .. } => {
            let now = shown.and_then(|s| s.owner.clone());
            if now == *before {
                return Vec::new();
            }
            match (before.as_deref(), now) {
                (None, Some(owner)) if owner == me => vec![Change::Unclaim],
                (None, Some(owner)) => vec![Change::TakeOver { from: owner }, Change::Unclaim],
                (Some(b), None) if b == me => vec![Change::Claim],
                (Some(b), Some(owner)) if b == me => vec![Change::TakeOver { from: owner }],
                (Some(b), now) => vec![Change::Assign {
                    to: b.to_owned(),
                    from: now,
                }],
                (None, None) => Vec::new(),
            }
        }
        TeamUndo::Labels { added, removed } => {
            let now = shown.map(|s| s.label_names.as_slice()).unwrap_or_default();
            let remove: Vec<String> = added.iter().filter(|l| now.contains(l)).cloned().collect();
            let add: Vec<String> = removed
                .iter()
                .filter(|l| !now.contains(l))
                .cloned()
                .collect();
            if add.is_empty() && remove.is_empty() {
                Vec::new()
            } else {
                vec![Change::Labels { add, remove }]
            }
        }
        TeamUndo::Link { url, before, .. } => {
            if shown.and_then(|s| s.link(url)) == before.as_ref() {
                return Vec::new();
            }
            match before {
                Some(link) => vec![Change::Link(link.clone())],
                None => vec![Change::Unlink { url: url.clone() }],
            }
        }
    }
}

/// A URL's short name for a sentence (`TICKET-26944`), or the URL when it is no link.
pub(super) fn short_name(url: &str) -> Clean {
    feedback_core::link::Link::new(url, None).map_or_else(|_| Clean::line(url), |l| l.short_name())
}

/// With a team, what changed since the action on the items its undo would change, as shown;
/// `None` when they are as it left them (or without a team: only this member's windows change
/// the local state).
fn changed_since(state: &AppState, step: &UndoStep, states: &UndoStates) -> Option<Clean> {
    let team = state.team.as_ref()?;
    let changed: Vec<String> = match &step.undo {
        Undo::Triage { changes, left } => changes
            .iter()
            .zip(left)
            .filter(|((id, change), (_, left))| {
                let now = states.triage.get(id).cloned().unwrap_or_default();
                shared(change) && field(change, left) != field(change, &now)
            })
            .map(|((id, _), _)| format!("{} changed", Clean::line(id)))
            .collect(),
        Undo::Team(items) => items
            .iter()
            .filter_map(|(id, undo)| {
                let shown = states.team.get(id);
                match undo {
                    TeamUndo::Owner { after, .. } => {
                        let now = shown.and_then(|s| s.owner.clone());
                        (now != *after).then(|| match &now {
                            Some(owner) if *owner == team.member => {
                                format!("{} is yours again", Clean::line(id))
                            }
                            Some(owner) => {
                                format!("{} is {}'s now", Clean::line(id), Clean::line(owner))
                            }
                            None => format!("{} is nobody's now", Clean::line(id)),
                        })
                    }
                    TeamUndo::Labels { added, removed } => {
                        let now = shown.map(|s| s.label_names.as_slice()).unwrap_or_default();
                        let moved = added.iter().any(|l| !now.contains(l))
                            || removed.iter().any(|l| now.contains(l));
                        moved.then(|| format!("{}'s labels changed", Clean::line(id)))
                    }
                    TeamUndo::Link { url, after, .. } => (shown.and_then(|s| s.link(url))
                        != after.as_ref())
                    .then(|| format!("{}'s link to {} changed", Clean::line(id), short_name(url))),
                }
            })
            .collect(),
    };
    let first = changed.first()?;
    Some(Clean::line(&match changed.len() {
        1 => first.clone(),
        n => format!(
            "{first} (and {} more items changed)",
            feedback_core::text::output::thousands(n - 1)
        ),
    }))
}

/// A change the team shares (done, snooze, a note): a teammate may have changed it since.
fn shared(change: &TriageChange) -> bool {
    !matches!(change, TriageChange::Seen(_) | TriageChange::Starred(_))
}

/// The value of the field `change` sets, in `state` (as a change that would set it).
fn field(change: &TriageChange, state: &Triage) -> TriageChange {
    change.inverse(state)
}

/// The step that undoes a committed triage write made by a key.
pub(super) fn triage_step(done: &crate::triage::Triaged) -> Option<UndoStep> {
    let (first, after) = done.undo.first().map(|(_, c)| c).zip(done.after.first())?;
    let after = &after.1;
    let what = match first {
        TriageChange::Seen(_) if after.seen => "seen mark",
        TriageChange::Seen(_) => "unseen mark",
        TriageChange::Starred(_) if after.starred => "star",
        TriageChange::Starred(_) => "unstar",
        TriageChange::Done(_) if after.done => "done",
        TriageChange::Done(_) => "not done",
        TriageChange::Snooze(_) if after.snoozed_until.is_some() => "snooze",
        TriageChange::Snooze(_) => "wake",
        TriageChange::Note(_) => "note",
    };
    Some(UndoStep {
        what: what.to_owned(),
        undo: Undo::Triage {
            changes: done.undo.clone(),
            left: done.after.clone(),
        },
    })
}

/// The step that undoes a team key's `changes`, from each item's team state before them.
pub(super) fn team_step(state: &AppState, changes: &[(String, Change)]) -> Option<UndoStep> {
    // In no team only links are recorded: no change names the member.
    let me = state
        .team
        .as_ref()
        .map(|t| t.member.clone())
        .unwrap_or_default();
    let what = match &changes.first()?.1 {
        Change::Claim => "claim".to_owned(),
        Change::TakeOver { .. } => "take-over".to_owned(),
        Change::Unclaim => "unclaim".to_owned(),
        Change::Assign { to, .. } => format!("assignment to {}", Clean::line(to)),
        Change::Labels { .. } => "labels".to_owned(),
        Change::Link(link) => format!("link to {}", link.short_name()),
        Change::Unlink { url } => format!("unlink of {}", short_name(url)),
        Change::Done(_) | Change::Snooze(_) | Change::Note { .. } | Change::Reply { .. } => {
            "change".to_owned()
        }
    };
    let items = changes
        .iter()
        .filter_map(|(id, change)| {
            let shown = state.triage.overlay.team(id);
            let owner = shown.and_then(|s| s.owner.clone());
            let undo = match change {
                Change::Claim | Change::TakeOver { .. } => TeamUndo::Owner {
                    before: owner,
                    after: Some(me.clone()),
                },
                Change::Unclaim => TeamUndo::Owner {
                    before: owner,
                    after: None,
                },
                Change::Assign { to, .. } => TeamUndo::Owner {
                    before: owner,
                    after: Some(to.clone()),
                },
                Change::Labels { add, remove } => {
                    let now = shown.map(|s| s.label_names.as_slice()).unwrap_or_default();
                    TeamUndo::Labels {
                        added: add.iter().filter(|l| !now.contains(l)).cloned().collect(),
                        removed: remove.iter().filter(|l| now.contains(l)).cloned().collect(),
                    }
                }
                Change::Link(link) => TeamUndo::Link {
                    url: link.url().to_owned(),
                    before: shown.and_then(|s| s.link(link.url())).cloned(),
                    after: Some(link.clone()),
                },
                Change::Unlink { url } => TeamUndo::Link {
                    url: url.clone(),
                    before: shown.and_then(|s| s.link(url)).cloned(),
                    after: None,
                },
                // Sent with the triage write that made them, and undone with it; a mail that
                // left cannot be taken back.
                Change::Done(_)
                | Change::Snooze(_)
                | Change::Note { .. }
                | Change::Reply { .. } => {
                    return None;
                }
            };
            Some((id.clone(), undo))
        })
        .collect();
    Some(UndoStep {
        what,
        undo: Undo::Team(items),
    })
}

/// The answer to a team change in the outbox: a key's change is said and kept for `U`, an
/// undo's is said; a failed one says nothing changed.
pub(super) fn recorded(state: &mut AppState, ok: bool) -> Vec<Effect> {
    let recording = state.triage.recording.pop_front();
    if !ok {
        // Nothing was recorded: an undo stays to be done again.
        if let Some(Recording::Undoing { step, .. }) = recording {
            state.triage.undo.push(step);
        }
        forget_waiting(state);
        return Vec::new();
    }
    match recording {
        Some(Recording::Action { said, step }) => {
            info(state, said);
            keep(state, step);
        }
        Some(Recording::Undoing { said, .. }) => info(state, said),
        None => {}
    }
    waiting(state)
}
