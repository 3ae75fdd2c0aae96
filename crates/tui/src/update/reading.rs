//! Reading and moving: `p` (preview), `b` (sidebar), `J`/`K` and `]`/`[` (next and
//! previous item, in the detail too), the preview's reads, and the side panes' type-ahead and
//! clicks.
//!
//! The preview asks for the selected item's stored detail, then the service's when none was
//! ever fetched, debounced on the tick clock: a move from rest asks at once (one `j` shows its
//! item without delay), further moves wait until the selection rested for
//! [`PREVIEW_DEBOUNCE`] across a tick, so a held `j` asks for nothing until it is let go.

use jiff::Timestamp;

use super::{detail, info, list, panes};
use crate::action::{Action, Msg};
use crate::effect::{Effect, Network, Read};
use crate::reading::{
    PREVIEW_DEBOUNCE, TYPEAHEAD_LIFE, TypeAhead, TypeKey, ends_typeahead, preview_on, sidebar_shown,
};
use crate::state::{AppState, Focus};

/// The id of the selected row, when its row is loaded.
pub(super) fn selected_id(state: &AppState) -> Option<String> {
    state.selected_row().map(|r| r.id.to_string())
}

/// The item a message brought a detail of, for the reader's fetch, and whether it is the
/// service's answer (`Msg::DetailLoaded`) rather than the store's.
pub(super) fn watched(msg: &Msg) -> Option<(String, bool)> {
    match msg {
        Msg::DetailStored { id, .. } => Some((id.clone(), false)),
        Msg::DetailLoaded { id, .. } => Some((id.clone(), true)),
        _ => None,
    }
}

/// The keys of this part; `None` for any other action. A live type-ahead buffer ends at any
/// action but help and mouse (Esc only ends it).
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    if state.reading.typeahead.is_some() && ends_typeahead(action) {
        state.reading.typeahead = None;
        if action == Action::Back {
            return Some(Vec::new());
        }
    }
    let effects = match action {
        Action::TogglePreview => {
            let on = !preview_on(state);
            state.reading.preview.user = Some(on);
            let room = crate::layout::areas(state).preview.is_some();
            let text = match (on, room || state.detail.is_some()) {
                (false, _) => "Preview off",
                (true, true) => "Preview on",
                (true, false) => "Preview on: it shows beside the list when the screen is wider",
            };
            info(state, text);
            Vec::new()
        }
        Action::ToggleSidebar => {
            let shown = !sidebar_shown(state);
            state.reading.sidebar = Some(shown);
            if shown && !sidebar_shown(state) {
                info(state, "Too narrow for the side panes");
            }
            list::fit_viewport(state).into_iter().collect()
        }
        Action::NextItem | Action::PrevItem => {
            let delta = if action == Action::NextItem { 1 } else { -1 };
            step(state, delta)
        }
        _ => return None,
    };
    Some(effects)
}

/// `J`/`K`: the next or previous item; in the detail, its detail (the list's selection
/// follows, and near the end of the loaded keys it asks for more as the list does).
fn step(state: &mut AppState, delta: isize) -> Vec<Effect> {
    if state.detail.is_none() && state.focus != Focus::List {
        let action = if delta > 0 {
            Action::MoveDown
        } else {
            Action::MoveUp
        };
        return panes::on_action(state, action);
    }
    let before = state.list.selected;
    let mut effects = list::move_by(state, delta);
    let Some(shown) = state.detail.as_ref().map(|v| v.id.clone()) else {
        return effects;
    };
    if state.list.selected == before {
        let text = match (delta > 0, state.list.fetching() || state.sync.running > 0) {
            (true, true) => "Last item so far: fetching more…",
            (true, false) => "Last item",
            (false, _) => "First item",
        };
        info(state, text);
        return effects;
    }
    if selected_id(state) != Some(shown) {
        // From the store at once; the service once the selection rests (`after`, `tick`).
        effects.extend(detail::open_stored(state));
    }
    effects
}

/// True when the selected item's detail is on screen: in the preview, or in the detail view
/// (which `J`/`K` step through).
fn reading(state: &AppState) -> bool {
    state.detail.is_some() || crate::layout::areas(state).preview.is_some()
}

/// After every message: the preview (or the detail stepped to) asks for the selected item
/// when the selection came to it from rest (or the preview appeared), and fetches a stored
/// detail that was never fetched; `before` is the selection before the message, `watched`
/// the item whose detail it brought.
pub(super) fn after(
    state: &mut AppState,
    before: Option<&str>,
    watched: Option<(String, bool)>,
) -> Vec<Effect> {
    let mut effects = Vec::new();
    if let Some((id, answer)) = watched {
        effects.extend(detail_arrived(state, &id, answer));
    }
    if !reading(state) {
        return effects;
    }
    let current = selected_id(state);
    let preview = &mut state.reading.preview;
    if current.is_none() || current == preview.asked {
        return effects;
    }
    if !preview.moved && preview.due.is_none() {
        effects.extend(request(state));
    } else if current.as_deref() != before {
        preview.moved = true;
        preview.due = None;
    }
    effects
}

/// The preview's debounce and the type-ahead's end, on the tick clock; true when something
/// on screen changed.
pub(super) fn tick(state: &mut AppState, now: Timestamp) -> (Vec<Effect>, bool) {
    let expired = state
        .reading
        .typeahead
        .as_ref()
        .is_some_and(|t| now.duration_since(t.at) > TYPEAHEAD_LIFE);
    if expired {
        state.reading.typeahead = None;
    }
    let current = selected_id(state);
    let preview = &mut state.reading.preview;
    if preview.moved {
        preview.moved = false;
        preview.due = (current != preview.asked).then(|| now + PREVIEW_DEBOUNCE);
        return (Vec::new(), expired);
    }
    if preview.due.is_some_and(|due| due <= now) {
        preview.due = None;
        if reading(state) && current.is_some() && current != state.reading.preview.asked {
            return (request(state), true);
        }
    }
    (Vec::new(), expired)
}

/// Asks for the selected item's detail: the store's, unless it is known from the service.
fn request(state: &mut AppState) -> Vec<Effect> {
    let Some(id) = selected_id(state) else {
        return Vec::new();
    };
    let preview = &mut state.reading.preview;
    preview.asked = Some(id.clone());
    preview.moved = true;
    preview.due = None;
    let in_detail = state.detail.as_ref().is_some_and(|v| v.id == id);
    match state.details.get(&id) {
        Some(known) if known.fetched.is_some() => Vec::new(),
        // The stored fields were read before: only the service is left to ask.
        Some(_) => fetch(state, &id).into_iter().collect(),
        // The detail view's own read is on its way (`detail_arrived` follows it).
        None if in_detail => Vec::new(),
        None => vec![Effect::Read(Read::LoadDetail { id })],
    }
}

/// A detail of `id` arrived (`answer`: the service's, else the store's): the answer to the
/// reader's fetch ends it, and the item shown by then is fetched if it needs to be (one fetch
/// at a time); a stored detail the reader asked for, never fetched, is fetched.
fn detail_arrived(state: &mut AppState, id: &str, answer: bool) -> Option<Effect> {
    let preview = &mut state.reading.preview;
    if answer && preview.fetching.as_deref() == Some(id) {
        preview.fetching = None;
        let next = preview.asked.clone().filter(|asked| asked != id)?;
        return fetch(state, &next);
    }
    if preview.asked.as_deref() != Some(id) {
        return None;
    }
    fetch(state, id)
}

/// Fetches `id` for the preview unless a fetch is in flight, it was fetched, the detail view
/// fetches it, or the inbox is offline.
fn fetch(state: &mut AppState, id: &str) -> Option<Effect> {
    let never_fetched = state.details.get(id).is_none_or(|k| k.fetched.is_none());
    let detail_busy = state
        .detail
        .as_ref()
        .is_some_and(|v| v.id == id && v.refreshing);
    // Only an item on screen: a read that comes back after its detail closed asks nothing.
    let on_screen = match &state.detail {
        Some(view) => view.id == id,
        None => {
            crate::layout::areas(state).preview.is_some()
                && selected_id(state).as_deref() == Some(id)
        }
    };
    if state.reading.preview.fetching.is_some()
        || !never_fetched
        || detail_busy
        || !on_screen
        || state.sync.offline.is_some()
    {
        return None;
    }
    if let Some(view) = state.detail.as_mut().filter(|v| v.id == id) {
        // The detail says it is being refreshed, and its answer ends that.
        view.refreshing = true;
    }
    state.reading.preview.fetching = Some(id.to_owned());
    state.in_flight += 1;
    Some(Effect::Network(Network::FetchDetail { id: id.to_owned() }))
}

/// A key for the focused pane's type-ahead buffer: it moves to the first entry whose label
/// starts with the buffer, else the first that contains it (case-insensitively).
pub(super) fn typeahead(state: &mut AppState, key: TypeKey) -> Vec<Effect> {
    let now = state.now;
    let mut text = state
        .reading
        .typeahead
        .take()
        .map(|t| t.text)
        .unwrap_or_default();
    match key {
        TypeKey::Char(c) => text.push(c),
        TypeKey::Backspace => {
            text.pop();
        }
    }
    if text.is_empty() {
        return Vec::new();
    }
    let focus = state.focus;
    if let Some(pane) = state.pane_mut(focus) {
        let needle = text.to_lowercase();
        let labels: Vec<String> = pane
            .entries
            .iter()
            .map(|e| e.label.to_lowercase())
            .collect();
        let found = labels
            .iter()
            .position(|l| l.starts_with(&needle))
            .or_else(|| labels.iter().position(|l| l.contains(&needle)));
        if let Some(at) = found {
            pane.selected = at;
        }
    }
    state.reading.typeahead = Some(TypeAhead { text, at: now });
    Vec::new()
}

/// A click on a side pane's entry: that pane takes the keyboard and the entry is selected.
pub(super) fn click_pane(state: &mut AppState, focus: Focus, entry: usize) -> Vec<Effect> {
    state.reading.typeahead = None;
    let Some(pane) = state.pane_mut(focus) else {
        return Vec::new();
    };
    if entry < pane.entries.len() {
        pane.selected = entry;
    }
    state.focus = focus;
    Vec::new()
}
