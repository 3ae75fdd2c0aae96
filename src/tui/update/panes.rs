//! The Projects, Apps and Tags panes: loading them (narrowed by the filters above them),
//! moving within them, and applying or clearing their filter.

use std::sync::Arc;

use super::list;
use crate::api::{ApiError, ScopeQuery};
use crate::text::sanitize_line;
use crate::tui::action::{Action, PaneData, PaneKind};
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, Chosen, Entry, Focus, Load, Pane};

/// Rows a page key moves in a pane.
const PANE_PAGE: usize = 5;

/// Requests for all three panes.
pub(super) fn fetch_all(state: &mut AppState) -> Vec<Effect> {
    [PaneKind::Projects, PaneKind::Apps, PaneKind::Tags]
        .into_iter()
        .map(|kind| fetch(state, kind))
        .collect()
}

fn fetch(state: &mut AppState, kind: PaneKind) -> Effect {
    let request_id = state.request_id();
    let scope = ScopeQuery {
        app: if kind == PaneKind::Tags {
            state.filters.app.as_ref().map(|c| c.value.clone())
        } else {
            None
        },
        project: if kind == PaneKind::Projects {
            None
        } else {
            state.filters.project.as_ref().map(|c| c.value.clone())
        },
    };
    let pane = pane_mut(state, kind);
    pane.request_id = request_id;
    pane.load = Load::Loading;
    state.in_flight += 1;
    Effect::FetchPane {
        pane: kind,
        request_id,
        scope,
    }
}

fn pane_mut(state: &mut AppState, kind: PaneKind) -> &mut Pane {
    match kind {
        PaneKind::Projects => &mut state.projects,
        PaneKind::Apps => &mut state.apps,
        PaneKind::Tags => &mut state.tags,
    }
}

/// Panes whose last load failed, asked again (part of `r`).
pub(super) fn retry_failed(state: &mut AppState) -> Vec<Effect> {
    let mut effects = Vec::new();
    for kind in [PaneKind::Projects, PaneKind::Apps, PaneKind::Tags] {
        if matches!(pane_mut(state, kind).load, Load::Failed(_)) {
            effects.push(fetch(state, kind));
        }
    }
    effects
}

pub(super) fn loaded(
    state: &mut AppState,
    request_id: u64,
    result: Result<PaneData, Arc<ApiError>>,
) -> Vec<Effect> {
    state.in_flight = state.in_flight.saturating_sub(1);
    // Request ids are unique across all requests, so the id alone names the pane it answers;
    // an id no pane is waiting for is a stale answer.
    let Some(kind) = [PaneKind::Projects, PaneKind::Apps, PaneKind::Tags]
        .into_iter()
        .find(|k| pane_mut(state, *k).request_id == request_id)
    else {
        return Vec::new();
    };
    let pane = pane_mut(state, kind);
    match result {
        Ok(data) => {
            pane.entries = entries(data);
            pane.selected = pane.selected.min(pane.entries.len().saturating_sub(1));
            pane.load = Load::Loaded;
        }
        Err(err) => {
            pane.load = Load::Failed(super::describe(&err));
        }
    }
    Vec::new()
}

fn entries(data: PaneData) -> Vec<Entry> {
    let line = |s: &str| sanitize_line(s).into_owned();
    match data {
        PaneData::Projects(projects) => projects
            .into_iter()
            .map(|p| Entry {
                label: line(&p.name),
                value: p.id,
                detail: String::new(),
            })
            .collect(),
        PaneData::Apps(apps) => apps
            .into_iter()
            .map(|a| Entry {
                label: line(&a.name),
                detail: a
                    .platform
                    .as_ref()
                    .map(|p| line(p.as_str()))
                    .unwrap_or_default(),
                value: a.id,
            })
            .collect(),
        PaneData::Tags(tags) => tags
            .into_iter()
            .map(|t| Entry {
                label: line(&t.tag),
                detail: t.count.to_string(),
                value: t.tag,
            })
            .collect(),
    }
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
        Focus::Projects => state.filters.project.is_some(),
        Focus::Apps => state.filters.app.is_some(),
        Focus::Tags => state.filters.tag.is_some(),
        Focus::List => false,
    };
    if !active {
        state.dirty = false;
        return Vec::new();
    }
    set_filter(state, focus, None)
}

fn set_filter(state: &mut AppState, focus: Focus, chosen: Option<Chosen>) -> Vec<Effect> {
    let mut effects = Vec::new();
    match focus {
        Focus::Projects => {
            state.filters.project = chosen;
            // An app of another project would leave the list empty; the app list narrows.
            state.filters.app = None;
            state.filters.tag = None;
            effects.push(fetch(state, PaneKind::Apps));
            effects.push(fetch(state, PaneKind::Tags));
        }
        Focus::Apps => {
            state.filters.app = chosen;
            state.filters.tag = None;
            effects.push(fetch(state, PaneKind::Tags));
        }
        Focus::Tags => state.filters.tag = chosen,
        Focus::List => return effects,
    }
    effects.push(list::restart(state));
    state.focus = Focus::List;
    effects
}
