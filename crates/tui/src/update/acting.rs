//! Acting on items: which items an action reaches (the open detail's, else the marked ones,
//! else the selected one), the copies `y Y i c C` and the pipe `|` of one or many items,
//! privacy mode (`P`). A copy or pipe of many items, and every Markdown or JSON copy, reads
//! the items' details from the store first (`Read::Gather`); a link, the Markdown block,
//! the JSON and the pipe want the fetched detail, so items never fetched are asked of the
//! service (unless offline) and the store read again once they are in.

use std::collections::HashSet;

use super::{error, info, marks};

pub(super) mod fetch;
use crate::acting::copies::{Copied, Kind, TeamCopy, copy_text, json_lines};
use crate::acting::{Gathering, PipePicker};
use crate::action::Action;
use crate::effect::{Effect, Handover, Local, Read, Write};
use crate::failure::Failure;
use crate::state::{AppState, Focus};
use feedback_config::looks::Capture;
pub(super) use fetch::detail_arrived;

/// The acting keys, and the triage keys while marked items' ids are being read; `None` for
/// the other actions (and for these where they mean nothing).
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let list_side = state.detail.is_none() && state.focus == Focus::List;
    let marked = list_side && !state.acting.marks.is_empty();
    let effects = match action {
        Action::ToggleMark if list_side => marks::toggle(state),
        Action::MarkRange if list_side => marks::range(state),
        Action::Back if marked => {
            marks::clear(state);
            Vec::new()
        }
        Action::TogglePrivacy => {
            toggle_privacy(state);
            Vec::new()
        }
        Action::EditNote if marked => {
            info(state, "N edits one item's note: Esc clears the marks");
            Vec::new()
        }
        Action::ToggleSeen | Action::ToggleStar | Action::ToggleDone | Action::Snooze
            if marked && !state.acting.marks.unresolved().is_empty() =>
        {
            marks::resolve(state, Some(action))
        }
        Action::CopyLink | Action::CopyMessage | Action::CopyId if marked => {
            gather_marked(state, action, None)
        }
        Action::CopyMarkdown | Action::CopyJson => gather_targets(state, action, None),
        Action::Pipe => pipe(state),
        Action::Reply if super::replies::ready(state) => gather_targets(state, action, None),
        Action::Reply => Vec::new(),
        _ => return None,
    };
    Some(effects)
}

fn toggle_privacy(state: &mut AppState) {
    let on = !state.acting.privacy;
    state.acting.privacy = on;
    let text = if on {
        "Privacy mode on: emails and custom metadata values are masked"
    } else {
        "Privacy mode off"
    };
    info(state, text);
}

/// The items an action reaches: the open detail's, else the marked ones (in the view's
/// order), else the selected one. `None`, with a note, when there is none.
pub(super) fn targets(state: &mut AppState) -> Option<Vec<String>> {
    if let Some(detail) = &state.detail {
        return Some(vec![detail.id.clone()]);
    }
    if state.focus != Focus::List {
        info(state, "Actions reach the list's items: Tab to it");
        return None;
    }
    if !state.acting.marks.is_empty() {
        let ids = state.acting.marks.ids_in(&state.list.keys);
        if ids.is_empty() {
            info(
                state,
                "None of the marked items is in this view: Esc clears the marks",
            );
            return None;
        }
        return Some(ids);
    }
    let id = state.selected_row().map(|r| r.id.to_string());
    if id.is_none() {
        info(state, "Nothing selected");
    }
    id.map(|id| vec![id])
}

/// An action on the marked items, once all their ids are known.
fn gather_marked(state: &mut AppState, action: Action, command: Option<usize>) -> Vec<Effect> {
    if !state.acting.marks.unresolved().is_empty() {
        // The pipe's command is asked again after the ids arrive (rare: a fresh `V` range).
        return marks::resolve(state, Some(action));
    }
    gather_targets(state, action, command)
}

/// Reads the targets' details from the store, for `action`.
fn gather_targets(state: &mut AppState, action: Action, command: Option<usize>) -> Vec<Effect> {
    let list_side = state.detail.is_none() && state.focus == Focus::List;
    if list_side && !state.acting.marks.unresolved().is_empty() {
        return marks::resolve(state, Some(action));
    }
    let Some(ids) = targets(state) else {
        return Vec::new();
    };
    let request_id = state.request_id();
    state.acting.gathering = Some(Gathering {
        action,
        command,
        request_id,
        ids: ids.clone(),
        details: Vec::new(),
        fetching: HashSet::new(),
        queue: std::collections::VecDeque::new(),
        planned: 0,
        answered: 0,
        second: false,
    });
    state.dirty = false;
    vec![Effect::Read(Read::Gather { request_id, ids })]
}

/// `|`: with one command it runs at once; with several, the picker asks which.
fn pipe(state: &mut AppState) -> Vec<Effect> {
    match state.acting.commands.len() {
        0 => {
            info(
                state,
                "No command to pipe to: add [[commands]] with a name and an argv to config.toml",
            );
            Vec::new()
        }
        1 => gather_targets(state, Action::Pipe, Some(0)),
        _ => {
            state.acting.picker = Some(PipePicker::default());
            Vec::new()
        }
    }
}

/// A key for the `|` picker: up/down (or j/k) choose, a digit or Enter picks, Esc or q
/// closes.
pub(super) fn picker_input(
    state: &mut AppState,
    key: ratatui::crossterm::event::KeyEvent,
) -> Vec<Effect> {
    use crate::picker_keys::{PickerKey, Typing, picker_key};
    let count = state.acting.commands.len();
    let Some(picker) = state.acting.picker.as_mut() else {
        return Vec::new();
    };
    let chosen = match picker_key(&key, picker.selected, count, Typing::None) {
        PickerKey::Select(n) => {
            picker.selected = n;
            None
        }
        PickerKey::Choose(n) => Some(n),
        PickerKey::Cancel => {
            state.acting.picker = None;
            return Vec::new();
        }
        PickerKey::Other => {
            state.dirty = false;
            None
        }
    };
    let Some(chosen) = chosen else {
        return Vec::new();
    };
    state.acting.picker = None;
    gather_targets(state, Action::Pipe, Some(chosen))
}

/// The store's details of the gathered items: items whose detail was never fetched are asked
/// of the service when the action needs links or metadata; otherwise the action runs.
pub(super) fn gathered(
    state: &mut AppState,
    request_id: u64,
    result: Result<Vec<crate::acting::GatheredItem>, Failure>,
) -> Vec<Effect> {
    let Some(gathering) = state
        .acting
        .gathering
        .as_mut()
        .filter(|g| g.request_id == request_id)
    else {
        state.dirty = false;
        return Vec::new();
    };
    let details = match result {
        Ok(details) => details,
        Err(message) => {
            state.acting.gathering = None;
            error(state, format!("Cannot read the items: {message}"));
            return Vec::new();
        }
    };
    let wants_detail = !matches!(gathering.action, Action::CopyId | Action::CopyMessage);
    // Asked once: the second read (after the fetches) runs the action with what there is.
    let first = !gathering.second;
    let missing: Vec<String> = details
        .iter()
        .filter(|d| d.detail.detail_at.is_none())
        .map(|d| d.detail.item.feedback.id.as_str().to_owned())
        .collect();
    gathering.details = details;
    if !(wants_detail && first && !missing.is_empty() && state.sync.offline.is_none()) {
        return finish(state);
    }
    fetch::start(state, missing)
}

/// Runs the gathered action: the copy, or the pipe.
fn finish(state: &mut AppState) -> Vec<Effect> {
    let Some(gathering) = state.acting.gathering.take() else {
        return Vec::new();
    };
    if gathering.action == Action::Reply {
        return super::replies::compose(state, &gathering.details);
    }
    let now = state.now;
    let details: Vec<Copied> = gathering
        .details
        .iter()
        .map(|g| {
            let mut triage = g.triage.clone();
            if !triage.snoozed(now) {
                triage.snoozed_until = None;
            }
            let me = state.team.as_ref().map(|t| t.member.as_str());
            Copied {
                detail: g.detail.to_detail(),
                triage,
                team: g
                    .team
                    .as_ref()
                    .filter(|_| me.is_some())
                    .map(|shown| TeamCopy::of(shown, me)),
                links: g.team.as_ref().map(|s| s.links.clone()).unwrap_or_default(),
            }
        })
        .collect();
    if details.is_empty() {
        info(state, "The items are no longer stored");
        return Vec::new();
    }
    let private = state.acting.privacy;
    if gathering.action == Action::Pipe {
        let command = gathering.command.and_then(|n| state.acting.commands.get(n));
        let Some(command) = command.cloned() else {
            return Vec::new();
        };
        return vec![Effect::Terminal(Handover::Pipe {
            name: command.name,
            argv: command.argv,
            // Terminal-safe JSON already: checked as the type the pipe takes.
            input: feedback_core::text::Clean::text(&json_lines(&details, private)),
            items: details
                .iter()
                .map(|d| d.detail.feedback.id.as_str().to_owned())
                .collect(),
            wait: command.wait,
            capture: command.capture,
        })];
    }
    let kind = match gathering.action {
        Action::CopyLink => Kind::Link,
        Action::CopyMessage => Kind::Message,
        Action::CopyId => Kind::Id,
        Action::CopyJson => Kind::Json,
        _ => Kind::Markdown,
    };
    let copy = copy_text(kind, &details, private);
    if copy.text.is_empty() {
        info(state, "None of these items has an issue-tracker link");
        return Vec::new();
    }
    // The copy's outcome note starts with how many items it took, and what some lacked.
    let count = details.len();
    let unfetched = gathering
        .details
        .iter()
        .filter(|d| d.detail.detail_at.is_none())
        .count();
    let mut lacks = Vec::new();
    if copy.missing > 0 {
        lacks.push(format!("{} without a link", copy.missing));
    }
    if unfetched > 0 && matches!(kind, Kind::Markdown | Kind::Json) {
        lacks.push(format!("{unfetched} with the list fields only"));
    }
    let items = feedback_core::text::output::counted(count, "item");
    state.copy_instead = match (count, lacks.is_empty()) {
        (1, true) => None,
        (_, true) => Some(feedback_core::text::Clean::line(&items)),
        (_, false) => Some(feedback_core::text::Clean::line(&format!(
            "{items} ({})",
            lacks.join(", ")
        ))),
    };
    state.dirty = false;
    vec![Effect::Local(Local::Copy {
        what: copy.what,
        text: copy.text,
    })]
}

/// A `|` command ended: said, and what its entry captures kept (only of a command that
/// exited 0): the first http(s) link it printed, linked on every item it was given, or what it
/// printed, appended to each item's note (sanitized, capped).
pub(super) fn piped(
    state: &mut AppState,
    name: &feedback_core::text::Clean,
    items: Vec<String>,
    result: Result<Option<i32>, feedback_core::text::Clean>,
    captured: Option<(Capture, String)>,
) -> Vec<Effect> {
    let what = feedback_core::text::output::counted(items.len(), "item");
    match result {
        Ok(Some(0)) => {}
        Ok(Some(code)) => {
            let kept = if captured.is_some() {
                "; nothing kept"
            } else {
                ""
            };
            error(
                state,
                format!("Piped {what} to {name}: exit status {code}{kept}"),
            );
            return Vec::new();
        }
        Ok(None) => {
            error(state, format!("Piped {what} to {name}: killed by a signal"));
            return Vec::new();
        }
        Err(message) => {
            error(state, format!("Cannot run {name}: {message}"));
            return Vec::new();
        }
    }
    match captured {
        None => {
            info(state, format!("Piped {what} to {name}: exit status 0"));
            Vec::new()
        }
        Some((Capture::Link, output)) => match feedback_core::link::first_in(&output) {
            Some(link) => {
                let changes = items
                    .into_iter()
                    .map(|id| (id, feedback_team::Change::Link(link.clone())))
                    .collect();
                super::team::record(state, changes)
            }
            None => {
                error(
                    state,
                    format!(
                        "Piped {what} to {name}: exit status 0, but it printed no http(s) link to keep"
                    ),
                );
                Vec::new()
            }
        },
        Some((Capture::Note, output)) => {
            let text = feedback_core::text::Clean::text(output.trim());
            if text.trim().is_empty() {
                info(
                    state,
                    format!("Piped {what} to {name}: exit status 0, nothing printed to note"),
                );
                return Vec::new();
            }
            let member = state.team.as_ref().map(|t| t.member.clone());
            state.triage.writing += 1;
            vec![Effect::Write(Write::AppendNote {
                ids: items,
                text: text.to_string(),
                at: state.now,
                what: format!("noted what {name} printed on"),
                team: member,
            })]
        }
    }
}
