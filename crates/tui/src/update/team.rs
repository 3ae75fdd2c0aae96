//! The team's keys and news. `a` claims the items (unclaims those that are yours; takes over
//! another's only once confirmed, naming the owner), `A` assigns them to a member picked from
//! a list (who is online first), `L` adds and removes labels; each applies to the marked items
//! like every triage key. A change is recorded in the outbox first (shown, pending, once that
//! write committed), then the live link sends it. The link's news set the status bar's team
//! part and read the view again when the team's state moved; a change the team refused is said.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{acting, error, info};
use crate::action::Action;
use crate::effect::{Effect, Local, Read, Write};
use crate::failure::Failure;
use crate::picker_keys::{PickerKey, Typing, picker_key};
use crate::state::AppState;
use crate::team::{Link, Prompt};
use crate::triage::Recording;
use feedback_core::text::Clean;
use feedback_team::Change;
use feedback_team_sync::Settled;
use feedback_team_sync::live::News;

/// The most a labels prompt takes.
const LABELS_MAX_BYTES: usize = 512;

/// The team's keys; `None` for other actions.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let act = match action {
        Action::Claim => claim,
        Action::Assign => assign,
        Action::EditLabels => labels,
        _ => return None,
    };
    if state.team.is_none() {
        info(
            state,
            "No team: set [team] url in config.toml or FEEDBACK_TEAM_URL (docs/team.md)",
        );
        return Some(Vec::new());
    }
    Some(act(state))
}

/// The owner of `id` as the inbox shows it (the team's, with this member's changes not yet
/// sent laid over).
fn owner_of(state: &AppState, id: &str) -> Option<String> {
    state
        .triage
        .overlay
        .team(id)
        .and_then(|shown| shown.owner.clone())
}

fn member(state: &AppState) -> String {
    state
        .team
        .as_ref()
        .map(|t| t.member.clone())
        .unwrap_or_default()
}

fn claim(state: &mut AppState) -> Vec<Effect> {
    let Some(ids) = acting::targets(state) else {
        return Vec::new();
    };
    let me = member(state);
    let mut rest = Vec::new();
    let mut others = Vec::new();
    for id in ids {
        match owner_of(state, &id) {
            Some(owner) if owner == me => rest.push((id, Change::Unclaim)),
            Some(owner) => others.push((id, owner)),
            None => rest.push((id, Change::Claim)),
        }
    }
    if others.is_empty() {
        return record(state, rest);
    }
    let mut names: Vec<&str> = others.iter().map(|(_, owner)| owner.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let owners = Clean::line(&names.join(", "));
    if let Some(team) = state.team.as_mut() {
        team.prompt = Some(Prompt::TakeOver {
            items: others,
            owners,
            rest,
        });
    }
    Vec::new()
}

fn assign(state: &mut AppState) -> Vec<Effect> {
    let Some(ids) = acting::targets(state) else {
        return Vec::new();
    };
    let Some(team) = state.team.as_mut() else {
        return Vec::new();
    };
    if team.members.is_empty() {
        info(
            state,
            "The team's members are not known yet: the team is not connected",
        );
        return Vec::new();
    }
    let mut choices: Vec<(String, Clean, bool)> = team
        .members
        .iter()
        .map(|m| (m.clone(), Clean::line(m), team.is_online(m)))
        .collect();
    // Who is online first, then by name.
    choices.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    team.prompt = Some(Prompt::Assign {
        ids,
        choices,
        selected: 0,
    });
    Vec::new()
}

fn labels(state: &mut AppState) -> Vec<Effect> {
    let Some(ids) = acting::targets(state) else {
        return Vec::new();
    };
    if let Some(team) = state.team.as_mut() {
        team.prompt = Some(Prompt::Labels {
            ids,
            input: String::new(),
            error: None,
        });
    }
    Vec::new()
}

/// Records `changes` (one write: in the team's outbox, or, in no team, the links among them in
/// the store itself), said on the status bar and kept for `U` once the write committed.
pub(super) fn record(state: &mut AppState, changes: Vec<(String, Change)>) -> Vec<Effect> {
    if changes.is_empty() {
        return Vec::new();
    }
    let said = describe(&changes);
    if let Some(step) = super::undo::team_step(state, &changes) {
        state
            .triage
            .recording
            .push_back(Recording::Action { said, step });
    }
    vec![Effect::Write(Write::TeamRecord {
        member: state.team.as_ref().map(|t| t.member.clone()),
        changes,
        at: state.now,
    })]
}

/// "Claimed fb_1; U undoes", "Assigned 3 items to bo; U undoes", …
fn describe(changes: &[(String, Change)]) -> String {
    let items = super::undo::items_named(changes);
    let what = describe_change(&items, &changes[0].1);
    format!("{what}; U undoes")
}

fn describe_change(items: &str, change: &Change) -> String {
    match change {
        Change::Claim => format!("Claimed {items}"),
        Change::TakeOver { .. } => format!("Took over {items}"),
        Change::Unclaim => format!("Unclaimed {items}"),
        Change::Assign { to, .. } => format!("Assigned {items} to {}", Clean::line(to)),
        Change::Labels { .. } => format!("Labelled {items}"),
        Change::Link(link) => format!("Linked {items} to {}", link.short_name()),
        Change::Unlink { url } => {
            format!("Unlinked {} from {items}", super::undo::short_name(url))
        }
        Change::Reply { .. } => format!("Replied to the reporter of {items}"),
        Change::Done(_) | Change::Snooze(_) | Change::Note { .. } => format!("Changed {items}"),
    }
}

/// A key for the open prompt.
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(prompt) = state.team.as_mut().and_then(|t| t.prompt.take()) else {
        return Vec::new();
    };
    let (prompt, changes) = match prompt {
        Prompt::TakeOver {
            items,
            owners,
            rest,
        } => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                let mut changes = rest;
                changes.extend(
                    items
                        .into_iter()
                        .map(|(id, from)| (id, Change::TakeOver { from })),
                );
                (None, changes)
            }
            KeyCode::Esc | KeyCode::Char('n' | 'N' | 'q') => (None, Vec::new()),
            _ => (
                Some(Prompt::TakeOver {
                    items,
                    owners,
                    rest,
                }),
                Vec::new(),
            ),
        },
        Prompt::Assign {
            ids,
            choices,
            selected,
        } => assign_key(state, key, ids, choices, selected),
        Prompt::Labels { ids, input, error } => labels_key(key, ids, input, error),
        Prompt::Undo { step, since } => match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                return super::undo::confirmed(state, step, true);
            }
            KeyCode::Esc | KeyCode::Char('n' | 'N' | 'q') => {
                return super::undo::confirmed(state, step, false);
            }
            _ => (Some(Prompt::Undo { step, since }), Vec::new()),
        },
    };
    if let Some(team) = state.team.as_mut() {
        team.prompt = prompt;
    }
    record(state, changes)
}

/// A paste into the prompt: typed into the labels' line (one line of it), ignored elsewhere.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let Some(Prompt::Labels { input, error, .. }) =
        state.team.as_mut().and_then(|t| t.prompt.as_mut())
    else {
        state.dirty = false;
        return Vec::new();
    };
    for c in text.chars().map(|c| if c.is_control() { ' ' } else { c }) {
        if input.len() + c.len_utf8() > LABELS_MAX_BYTES {
            break;
        }
        input.push(c);
    }
    *error = None;
    Vec::new()
}

type Step = (Option<Prompt>, Vec<(String, Change)>);

fn assign_key(
    state: &AppState,
    key: KeyEvent,
    ids: Vec<String>,
    choices: Vec<(String, Clean, bool)>,
    selected: usize,
) -> Step {
    let selected = match picker_key(&key, selected, choices.len(), Typing::None) {
        PickerKey::Select(n) => n,
        PickerKey::Cancel => return (None, Vec::new()),
        PickerKey::Choose(n) => {
            let Some((to, _, _)) = choices.get(n) else {
                return (None, Vec::new());
            };
            let changes = ids
                .iter()
                .map(|id| {
                    let change = Change::Assign {
                        to: to.clone(),
                        from: owner_of(state, id),
                    };
                    (id.clone(), change)
                })
                .collect();
            return (None, changes);
        }
        PickerKey::Other => selected,
    };
    let prompt = Prompt::Assign {
        ids,
        choices,
        selected,
    };
    (Some(prompt), Vec::new())
}

fn labels_key(key: KeyEvent, ids: Vec<String>, mut input: String, error: Option<Clean>) -> Step {
    let mut error = error;
    match key.code {
        KeyCode::Esc => return (None, Vec::new()),
        KeyCode::Enter => match parse_labels(&input) {
            Ok(change) => {
                let changes = ids.into_iter().map(|id| (id, change.clone())).collect();
                return (None, changes);
            }
            Err(why) => error = Some(Clean::line(&why)),
        },
        KeyCode::Backspace => {
            input.pop();
            error = None;
        }
        KeyCode::Char(c) if !c.is_control() && input.len() + c.len_utf8() <= LABELS_MAX_BYTES => {
            input.push(c);
            error = None;
        }
        _ => {}
    }
    (Some(Prompt::Labels { ids, input, error }), Vec::new())
}

/// `+crash -ios` as a change of labels.
fn parse_labels(input: &str) -> Result<Change, String> {
    let changes = feedback_team::labels::parse(input.split_whitespace())?;
    if !changes.other.is_empty() {
        return Err("each label starts with + (add) or - (remove)".to_owned());
    }
    if changes.add.is_empty() && changes.remove.is_empty() {
        return Err("type +label to add, -label to remove".to_owned());
    }
    Ok(Change::Labels {
        add: changes.add,
        remove: changes.remove,
    })
}

/// Changes were recorded in the outbox: shown (pending), and sent.
pub(super) fn recorded(state: &mut AppState, result: Result<usize, Failure>) -> Vec<Effect> {
    match result {
        Ok(count) => {
            let team = state
                .team
                .as_mut()
                .map(|team| team.pending += count)
                .is_some();
            let mut effects = super::undo::recorded(state, true);
            effects.extend(super::sync::triage_changed(state));
            if team {
                effects.push(Effect::Local(Local::TeamSend));
            }
            effects
        }
        Err(message) => {
            super::undo::recorded(state, false);
            let what = if state.team.is_some() {
                "the team change"
            } else {
                "the change"
            };
            error(
                state,
                format!("Cannot record {what} (nothing was changed): {message}"),
            );
            Vec::new()
        }
    }
}

/// A triage write put `count` changes in the team's outbox with it (done, snooze, a note): they
/// are pending, and sent now.
pub(super) fn shared_recorded(state: &mut AppState, count: usize) -> Option<Effect> {
    let team = state.team.as_mut().filter(|_| count > 0)?;
    team.pending += count;
    Some(Effect::Local(Local::TeamSend))
}

/// What the live link says.
pub(super) fn news(state: &mut AppState, news: News) -> Vec<Effect> {
    let Some(team) = state.team.as_mut() else {
        return Vec::new();
    };
    match news {
        News::Connected {
            team: name,
            member,
            members,
        } => {
            team.link = Link::Online;
            team.name = Some(Clean::line(&name));
            team.member = member;
            team.members = members;
            Vec::new()
        }
        News::Offline { why, pending } => {
            team.link = Link::Offline(Clean::line(&why));
            team.pending = pending;
            team.present.clear();
            Vec::new()
        }
        News::Refused(why) => {
            team.link = Link::Refused(Clean::line(&why));
            team.present.clear();
            error(state, format!("Team: {why}"));
            Vec::new()
        }
        News::Present(present) => {
            team.set_present(present);
            Vec::new()
        }
        // The team's syncer's items reached the store: the view is read again.
        News::Mirrored(_) => super::sync::store_changed(state).into_iter().collect(),
        News::Asked => super::sync::asked(state),
        News::Templates(templates) => {
            state.mail.team_templates = crate::replying::team_templates(&templates);
            Vec::new()
        }
        News::Rebuilt(rebuilt) => {
            error(
                state,
                format!(
                    "Team: {}: the team's state was read again from it (your waiting changes are kept)",
                    rebuilt.describe()
                ),
            );
            super::sync::triage_changed(state).into_iter().collect()
        }
        News::Changed(caught_up) => {
            let me = team.member.clone();
            if let Some(event) = caught_up.assigned_to_me.last() {
                let by = Clean::line(&event.member);
                let item = Clean::line(&event.item_id);
                let more = caught_up.assigned_to_me.len() - 1;
                let note = if more == 0 {
                    format!("{by} assigned {item} to you ({me})")
                } else {
                    format!("{by} assigned {item} and {more} more to you ({me})")
                };
                info(state, Clean::line(&note));
            }
            let mut effects: Vec<Effect> = super::sync::triage_changed(state).into_iter().collect();
            effects.extend(history_due(state));
            effects
        }
        News::Sent(sent) => {
            // The store's outbox is the count: changes a command sent meanwhile are gone from it.
            team.pending = sent.pending;
            let lost: Vec<(String, String)> = sent
                .settled
                .iter()
                .filter_map(|(_, item, settled)| match settled {
                    Settled::Lost(why) => Some((item.clone(), why.clone())),
                    Settled::Applied => None,
                })
                .collect();
            if let Some((item, why)) = lost.last() {
                let more = match lost.len() - 1 {
                    0 => String::new(),
                    n => format!(
                        " (and {} more lost)",
                        feedback_core::text::output::thousands(n)
                    ),
                };
                error(
                    state,
                    Clean::line(&format!("Not changed, {item}: {why}{more}")),
                );
            }
            if sent.count == 0 {
                return Vec::new();
            }
            super::sync::triage_changed(state).into_iter().collect()
        }
    }
}

/// The history of the open detail's item, read.
pub(super) fn history_read(
    state: &mut AppState,
    id: String,
    result: Result<Vec<crate::team::HistoryLine>, Failure>,
) -> Vec<Effect> {
    let open = state.detail.as_ref().is_some_and(|d| d.id == id);
    match (state.team.as_mut(), result) {
        (Some(team), Ok(lines)) if open => team.history = Some((id, lines)),
        (Some(_), Err(message)) if open => {
            error(state, format!("Cannot read the item's history: {message}"));
        }
        _ => state.dirty = false,
    }
    Vec::new()
}

/// The history of the open detail's item, to read again (it opened, or the team moved).
fn history_due(state: &AppState) -> Option<Effect> {
    state.team.as_ref()?;
    let id = state.detail.as_ref()?.id.clone();
    Some(Effect::Read(Read::TeamHistory { id }))
}

/// The item this member has open (the detail, or the preview resting on the selection), told
/// to the link when it changed; the detail's history read when the detail opened on it.
pub(super) fn looking(state: &mut AppState) -> Vec<Effect> {
    let detail = state.detail.as_ref().map(|d| d.id.clone());
    let mut effects = Vec::new();
    if let Some(team) = state.team.as_mut()
        && team.history.as_ref().map(|(id, _)| id) != detail.as_ref()
    {
        // Asked once: the answer fills it in.
        team.history = detail.clone().map(|id| (id, Vec::new()));
        effects.extend(history_due(state));
    }
    effects.extend(looking_at(state));
    effects
}

fn looking_at(state: &mut AppState) -> Vec<Effect> {
    // A reply being composed is about its first item, which the teammates see it on.
    let replying = state
        .mail
        .composer
        .as_ref()
        .and_then(|c| c.recipients.first())
        .and_then(|r| r.item_ids.first().cloned());
    let open = match (&replying, &state.detail) {
        (Some(item), _) => Some(item.clone()),
        (None, Some(detail)) => Some(detail.id.clone()),
        (None, None) if crate::reading::preview_on(state) => {
            state.selected_row().map(|r| r.id.to_string())
        }
        (None, None) => None,
    };
    let Some(team) = state.team.as_mut() else {
        return Vec::new();
    };
    let mut effects = Vec::new();
    if team.looking != open {
        team.looking.clone_from(&open);
        effects.push(Effect::Local(Local::TeamLooking(open)));
    }
    if team.replying != replying.is_some() {
        team.replying = replying.is_some();
        effects.push(Effect::Local(Local::TeamReplying(team.replying)));
    }
    effects
}
