//! Insight's keys and answers: `=` opens the picker of pivot kinds, the chosen pivot
//! replaces the list with the current view's groups (`j/k` move, `Enter` narrows the list to
//! the group, `Esc` goes back to the list as it was); `t` shows the trends panel. Pivots and
//! trends are computed off the UI thread, the latest asked for wins, and both are computed
//! again (throttled) when the list's view is queried again: a sync, a triage change or another
//! view. The old groups stay on screen until the new ones come (no flicker).

use jiff::{SignedDuration, Timestamp};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

mod drill;

use drill::{back_to_groups, narrow_to_selected};

use super::info;
use super::list;
use crate::action::{Action, Msg};
use crate::effect::{Count, Effect};
use crate::failure::Failure;
use crate::insight::{Grouped, Picker, TrendsPanel};
use crate::picker_keys::{PickerKey, Typing, picker_key};
use crate::state::{AppState, Focus};
use feedback_store::pivot::By;

/// Pivots and trends are computed again at most this often while the store changes.
pub(crate) const THROTTLE: SignedDuration = SignedDuration::from_secs(2);

/// The actions insight takes; `None` for the others.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::GroupBy if state.detail.is_none() => {
            state.insight.picker = Some(Picker::default());
            return Some(vec![Effect::Count(Count::MetaKeys)]);
        }
        Action::Trends if state.detail.is_none() => return Some(toggle_trends(state)),
        Action::Enrich => return Some(super::enrich::toggle(state)),
        Action::Back if state.insight.grouped.is_none() && state.focus == Focus::List => {
            return back_to_groups(state);
        }
        _ => {}
    }
    if state.detail.is_some() || state.focus != Focus::List || state.insight.grouped.is_none() {
        return None;
    }
    grouped_action(state, action)
}

/// Keys of the grouped view; `None` lets other actions (search, triage keys…) go on.
fn grouped_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let grouped = state.insight.grouped.as_mut()?;
    let len = grouped.pivot.as_ref().map_or(0, |p| p.groups.len());
    let last = len.saturating_sub(1);
    let page = state.list.viewport_rows.max(1);
    let at = grouped.selected;
    grouped.selected = match action {
        // J/K too: the list under the groups must not move out of sight.
        Action::MoveDown | Action::NextItem => (at + 1).min(last),
        Action::MoveUp | Action::PrevItem => at.saturating_sub(1),
        Action::Top => 0,
        Action::Bottom => last,
        Action::PageDown => (at + page).min(last),
        Action::PageUp => at.saturating_sub(page),
        Action::Back | Action::Quit => {
            state.insight.grouped = None;
            return Some(Vec::new());
        }
        Action::Open => return Some(narrow_to_selected(state)),
        Action::Filter => {
            // The search prompt is the list's: `/` goes back to it and searches there.
            state.insight.grouped = None;
            return None;
        }
        _ if passes(action) => return None,
        _ => {
            // An item's action: no item shows.
            state.dirty = false;
            return Some(Vec::new());
        }
    };
    Some(Vec::new())
}

/// A click (or the wheel, `clamp`) selects group `n`; a click past the last group does
/// nothing.
pub(super) fn select_group(state: &mut AppState, n: usize, clamp: bool) -> Vec<Effect> {
    let Some(grouped) = state.insight.grouped.as_mut() else {
        return Vec::new();
    };
    let len = grouped.pivot.as_ref().map_or(0, |p| p.groups.len());
    if len == 0 || (!clamp && n >= len) {
        state.dirty = false;
        return Vec::new();
    }
    grouped.selected = n.min(len - 1);
    Vec::new()
}

/// The actions that mean the same over the groups as over the list (the view's, not an
/// item's): they go on to their handlers.
fn passes(action: Action) -> bool {
    matches!(
        action,
        Action::TogglePrivacy
            | Action::Help
            | Action::Palette
            | Action::ToggleStatus
            | Action::Reload
            | Action::View(_)
            | Action::NextView
            | Action::ClearAll
            | Action::ToggleSidebar
            | Action::FocusNext
            | Action::FocusPrev
            | Action::ToggleMouse
    )
}

fn toggle_trends(state: &mut AppState) -> Vec<Effect> {
    if state.insight.trends.take().is_some() {
        return list::fit_viewport(state).into_iter().collect();
    }
    state.insight.trends = Some(TrendsPanel::default());
    if crate::layout::trends_rows(state) == 0 {
        info(
            state,
            format!(
                "Trends need a terminal of {} rows or more",
                crate::layout::TRENDS_MIN_TERMINAL
            ),
        );
    }
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    effects.extend(ask_trend(state));
    effects
}

/// A key for the open picker: typing narrows the kinds, the pickers' keys move and choose
/// (`crate::picker_keys`), `Enter` groups, `Esc` closes.
pub(super) fn picker_input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(picker) = state.insight.picker.as_mut() else {
        return Vec::new();
    };
    let count = picker.choices().len();
    match picker_key(
        &key,
        picker.selected,
        count,
        Typing::Some(!picker.typed.is_empty()),
    ) {
        PickerKey::Cancel => state.insight.picker = None,
        PickerKey::Choose(n) => {
            picker.selected = n;
            return choose(state);
        }
        PickerKey::Select(n) => picker.selected = n,
        PickerKey::Other => match key.code {
            KeyCode::Backspace => {
                picker.typed.pop();
                picker.selected = 0;
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                if picker.typed.len() < 100 {
                    picker.typed.push(c);
                }
                picker.selected = 0;
            }
            _ => state.dirty = false,
        },
    }
    Vec::new()
}

/// Groups the current view by the picker's choice.
fn choose(state: &mut AppState) -> Vec<Effect> {
    let Some(picker) = state.insight.picker.take() else {
        return Vec::new();
    };
    let Some(choice) = picker.choices().into_iter().nth(picker.selected) else {
        info(state, "Nothing to group by");
        return Vec::new();
    };
    let by = match By::parse(&choice) {
        Ok(by) => by,
        Err(why) => {
            super::error(state, why);
            return Vec::new();
        }
    };
    state.insight.by = by.clone();
    state.insight.grouped = Some(Grouped {
        by,
        spec: state.view_spec(),
        pivot: None,
        selected: 0,
        error: None,
        request_id: 0,
        computing: false,
    });
    let mut effects: Vec<Effect> = ask_pivot(state).into_iter().collect();
    if state.insight.trends.is_some() {
        effects.extend(ask_trend(state));
    }
    effects
}

/// Asks for the grouped view's pivot of the current view.
fn ask_pivot(state: &mut AppState) -> Option<Effect> {
    let request_id = state.request_id();
    let (spec, now) = (state.view_spec(), state.now);
    let grouped = state.insight.grouped.as_mut()?;
    grouped.request_id = request_id;
    grouped.computing = true;
    grouped.spec = spec.clone();
    Some(Effect::Count(Count::Pivot {
        request_id,
        spec,
        by: grouped.by.clone(),
        now,
    }))
}

/// Asks for the trends panel's trend of the current view.
fn ask_trend(state: &mut AppState) -> Option<Effect> {
    let request_id = state.request_id();
    let (spec, now, by) = (state.view_spec(), state.now, state.insight.by.clone());
    let panel = state.insight.trends.as_mut()?;
    panel.request_id = request_id;
    panel.computing = true;
    panel.spec = Some(spec.clone());
    panel.by = Some(by.clone());
    Some(Effect::Count(Count::Trend {
        request_id,
        spec,
        by,
        now,
    }))
}

/// Insight's messages: the picker's keys and the answers of its reads.
pub(super) fn on_msg(state: &mut AppState, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::InsightInput(key) => return picker_input(state, key),
        Msg::MetaKeys(result) => meta_keys(state, result),
        Msg::Pivoted { request_id, result } => pivoted(state, request_id, result),
        Msg::Trended { request_id, result } => trended(state, request_id, result),
        other => super::enrich::on_msg(state, other),
    }
    Vec::new()
}

/// The custom keys arrived: the picker offers them.
pub(super) fn meta_keys(state: &mut AppState, result: Result<Vec<String>, Failure>) {
    match (state.insight.picker.as_mut(), result) {
        (Some(picker), Ok(keys)) => picker.keys = keys,
        (Some(_), Err(why)) => super::error(state, format!("cannot read the metadata keys: {why}")),
        (None, _) => state.dirty = false,
    }
}

/// A pivot arrived: shown when it is the latest asked for. The selection stays on its group.
pub(super) fn pivoted(
    state: &mut AppState,
    request_id: u64,
    result: Result<Box<feedback_store::pivot::Pivot>, Failure>,
) {
    let Some(grouped) = state
        .insight
        .grouped
        .as_mut()
        .filter(|g| g.request_id == request_id)
    else {
        state.dirty = false;
        return;
    };
    grouped.computing = false;
    match result {
        Ok(pivot) => {
            let kept = grouped
                .pivot
                .as_ref()
                .and_then(|p| p.groups.get(grouped.selected))
                .map(|g| g.key.clone());
            grouped.selected = kept
                .and_then(|key| pivot.groups.iter().position(|g| g.key == key))
                .unwrap_or_else(|| grouped.selected.min(pivot.groups.len().saturating_sub(1)));
            grouped.pivot = Some(*pivot);
            grouped.error = None;
        }
        Err(why) => grouped.error = Some(feedback_core::text::Clean::line(&why.to_string())),
    }
}

/// A trend arrived: cached for the panel when it is the latest asked for.
pub(super) fn trended(
    state: &mut AppState,
    request_id: u64,
    result: Result<Box<feedback_store::pivot::Trend>, Failure>,
) {
    let Some(panel) = state
        .insight
        .trends
        .as_mut()
        .filter(|p| p.request_id == request_id)
    else {
        state.dirty = false;
        return;
    };
    panel.computing = false;
    match result {
        Ok(trend) => {
            panel.trend = Some(*trend);
            panel.error = None;
        }
        Err(why) => panel.error = Some(feedback_core::text::Clean::line(&why.to_string())),
    }
}

/// Before a message is applied: the groups and the trend are due again when the store changed
/// (the messages that say so, as for the views' counts) or the list now shows another view.
/// A list query alone (scrolling, a page of rows) changes nothing they count.
pub(super) fn observe(state: &mut AppState, msg: &Msg) {
    if state.insight.grouped.is_none() && state.insight.trends.is_none() {
        return;
    }
    let changed = super::saved_views::store_changed(state, msg)
        || matches!(msg, Msg::ViewLoaded { result: Ok(_), .. }) && other_view(state);
    state.insight.due |= changed;
}

/// The list's view is not the one the groups or the trend are of.
fn other_view(state: &AppState) -> bool {
    let spec = &state.view;
    state
        .insight
        .grouped
        .as_ref()
        .is_some_and(|g| g.spec != *spec)
        || state
            .insight
            .trends
            .as_ref()
            .is_some_and(|p| p.spec.as_ref() != Some(spec))
}

/// Each tick: the due pivot and trend, once no run is under way and the throttle allows.
pub(super) fn tick(state: &mut AppState, now: Timestamp) -> Vec<Effect> {
    let busy = state.insight.grouped.as_ref().is_some_and(|g| g.computing)
        || state.insight.trends.as_ref().is_some_and(|p| p.computing);
    let early = state.insight.next_at.is_some_and(|at| now < at);
    if !state.insight.due || busy || early {
        return Vec::new();
    }
    state.insight.due = false;
    state.insight.next_at = now.checked_add(THROTTLE).ok();
    let mut effects: Vec<Effect> = ask_pivot(state).into_iter().collect();
    effects.extend(ask_trend(state));
    effects
}
