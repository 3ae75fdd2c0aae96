//! The Projects, Apps and Tags panes: their entries read from the store with the count of
//! stored items of the listed status (apps narrowed by the chosen project), moving within them,
//! and applying or clearing their filter.

use std::collections::HashSet;

use super::list::{self, Requery};
use crate::action::{Action, Panes};
use crate::effect::{Count, Effect, Remember};
use crate::failure::Failure;
use crate::state::{AppState, Chosen, Entry, Focus, Load};
use feedback_core::text::Clean;
use feedback_store::NameCount;

/// Rows a page key moves in a pane.
const PANE_PAGE: usize = 5;

/// Reads the panes again from the store (for the listed status).
pub(super) fn load(state: &mut AppState) -> Effect {
    let request_id = state.request_id();
    state.sync.panes_reading = true;
    for pane in [&mut state.projects, &mut state.apps, &mut state.tags] {
        pane.request_id = request_id;
        if pane.entries.is_empty() {
            pane.load = Load::Loading;
        }
    }
    Effect::Count(Count::LoadPanes {
        request_id,
        status: state.view.listed().to_owned(),
        project: state.view.project.as_ref().map(|c| c.value.clone()),
    })
}

pub(super) fn loaded(
    state: &mut AppState,
    request_id: u64,
    result: Result<Box<Panes>, Failure>,
) -> Vec<Effect> {
    if state.projects.request_id != request_id {
        state.dirty = false;
        return Vec::new();
    }
    state.sync.panes_reading = false;
    match result {
        Ok(panes) => {
            let Panes {
                counts,
                projects,
                apps,
            } = *panes;
            let project_names = projects.into_iter().map(|p| (p.id, p.name, String::new()));
            let app_names = apps.into_iter().map(|a| {
                let platform = a
                    .platform
                    .map(|p| p.as_str().to_owned())
                    .unwrap_or_default();
                (a.id, a.name, platform)
            });
            let narrowed = state.view.project.is_some();
            set(
                &mut state.projects,
                merge(project_names, &counts.projects, true),
            );
            set(&mut state.apps, merge(app_names, &counts.apps, !narrowed));
            set(
                &mut state.tags,
                merge(std::iter::empty(), &counts.tags, true),
            );
        }
        Err(message) => {
            for pane in [&mut state.projects, &mut state.apps, &mut state.tags] {
                pane.load = Load::Failed(Clean::line(&format!("Cannot read the store: {message}")));
            }
        }
    }
    Vec::new()
}

fn set(pane: &mut crate::state::Pane, entries: Vec<Entry>) {
    pane.entries = entries;
    pane.selected = pane.selected.min(pane.entries.len().saturating_sub(1));
    pane.load = Load::Loaded;
}

/// The known names (in their order) with their stored counts, then names only the stored items
/// carry (when `extra`), most items first.
fn merge(
    known: impl Iterator<Item = (String, String, String)>,
    counts: &[NameCount],
    extra: bool,
) -> Vec<Entry> {
    let count_of = |id: &str| counts.iter().find(|c| c.id == id).map_or(0, |c| c.count);
    let detail = |platform: &str, count: u64| {
        let count = Clean::line(&feedback_core::text::output::thousands(count));
        if platform.is_empty() {
            count
        } else {
            Clean::join(&[Clean::line(platform), count], " ")
        }
    };
    let mut seen = HashSet::new();
    let mut out: Vec<Entry> = known
        .map(|(id, name, platform)| {
            seen.insert(id.clone());
            Entry {
                label: Clean::line(&name),
                detail: detail(&platform, count_of(&id)),
                value: id,
            }
        })
        .collect();
    if extra {
        out.extend(
            counts
                .iter()
                .filter(|c| !seen.contains(&c.id))
                .map(|c| Entry {
                    label: Clean::line(&c.name),
                    detail: detail(&c.platform, c.count),
                    value: c.id.clone(),
                }),
        );
    }
    out
}

pub(super) fn cycle_focus(state: &mut AppState, forward: bool) {
    let order = Focus::ORDER;
    let at = order.iter().position(|f| *f == state.focus).unwrap_or(3);
    let next = if forward {
        (at + 1) % order.len()
    } else {
        (at + order.len() - 1) % order.len()
    };
    state.focus = order[next];
}

pub(super) fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    let focus = state.focus;
    let Some(pane) = state.pane_mut(focus) else {
        return Vec::new();
    };
    let last = pane.entries.len().saturating_sub(1);
    match action {
        Action::MoveDown => pane.selected = (pane.selected + 1).min(last),
        Action::MoveUp => pane.selected = pane.selected.saturating_sub(1),
        Action::PageDown => pane.selected = (pane.selected + PANE_PAGE).min(last),
        Action::PageUp => pane.selected = pane.selected.saturating_sub(PANE_PAGE),
        Action::Top => pane.selected = 0,
        Action::Bottom => pane.selected = last,
        Action::Open => return apply(state, focus),
        Action::ClearFilter => return clear(state, focus),
        Action::Back | Action::Quit => state.focus = Focus::List,
        _ => {}
    }
    Vec::new()
}

/// Enter in a pane: filter by the selected entry and reload what depends on it.
fn apply(state: &mut AppState, focus: Focus) -> Vec<Effect> {
    let Some(entry) = state
        .pane(focus)
        .and_then(|p| p.entries.get(p.selected))
        .cloned()
    else {
        return Vec::new();
    };
    let chosen = Some(Chosen {
        value: entry.value,
        label: entry.label,
    });
    set_filter(state, focus, chosen)
}

/// `x` in a pane: drop its filter.
fn clear(state: &mut AppState, focus: Focus) -> Vec<Effect> {
    let active = match focus {
        Focus::Projects => state.view.project.is_some(),
        Focus::Apps => state.view.app.is_some(),
        Focus::Tags => state.view.tag.is_some(),
        Focus::List => false,
    };
    if !active {
        state.dirty = false;
        return Vec::new();
    }
    set_filter(state, focus, None)
}

fn set_filter(state: &mut AppState, focus: Focus, chosen: Option<Chosen>) -> Vec<Effect> {
    match focus {
        Focus::Projects => {
            state.view.project = chosen;
            // An app of another project would leave the list empty; the app list narrows.
            state.view.app = None;
            state.view.tag = None;
        }
        Focus::Apps => {
            state.view.app = chosen;
            state.view.tag = None;
        }
        Focus::Tags => state.view.tag = chosen,
        Focus::List => return Vec::new(),
    }
    state.focus = Focus::List;
    let mut effects = vec![list::requery(state, Requery::New)];
    if focus == Focus::Projects {
        effects.push(load(state));
    }
    effects.push(Effect::Remember(Remember::View(state.view_spec())));
    effects
}
