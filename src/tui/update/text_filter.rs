//! The `/` filter: a live, case-insensitive text filter over the loaded items (message, email,
//! tags, id). Typing narrows incrementally: when the new query extends the old one only the
//! previous matches are searched again. The selected item stays selected while it matches;
//! otherwise the first match is selected, and the screen shows the matches from there.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use crate::tui::action::Action;
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, TextFilter};
use crate::tui::store::{Row, Store};

pub(super) fn open(state: &mut AppState) -> Vec<Effect> {
    match &mut state.text_filter {
        Some(filter) => filter.editing = true,
        None => {
            state.text_filter = Some(TextFilter {
                input: prompt(),
                applied: String::new(),
                editing: true,
            });
            state.list.matches = Some((0..state.list.store.len()).collect());
            super::list::fit_viewport(state);
        }
    }
    Vec::new()
}

/// An empty prompt line.
fn prompt() -> TextArea<'static> {
    let mut input = TextArea::default();
    input.set_placeholder_text("message, email, tag or id");
    input
}

pub(super) fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Back => clear(state),
        Action::Open => {
            if let Some(filter) = &mut state.text_filter {
                filter.editing = false;
            }
        }
        _ => state.dirty = false,
    }
    Vec::new()
}

/// Removes the filter and shows every row again, keeping the selected item selected.
pub(super) fn clear(state: &mut AppState) {
    let selected = state.selected_row().map(|r| r.id.to_string());
    state.text_filter = None;
    state.list.matches = None;
    state.list.selected = selected
        .and_then(|id| state.list.store.position(&id))
        .unwrap_or(0);
    super::list::fit_viewport(state);
}

pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    if key.code == KeyCode::Char('u') && key.modifiers.contains(KeyModifiers::CONTROL) {
        // Ctrl-U clears the line, as in a shell (the text area would take it for undo).
        filter.input = prompt();
    } else {
        filter.input.input(key);
    }
    edited(state);
    // Fewer matches than a screen below the selection: page on for more.
    super::list::maybe_prefetch(state).into_iter().collect()
}

/// Recomputes the matches after the prompt's text changed (typed or pasted): the selected item
/// stays selected while it matches, else the first match is selected; the selection is kept on
/// screen.
pub(super) fn edited(state: &mut AppState) {
    let selected = state.selected_row().map(|r| r.id.clone());
    apply(state, true);
    state.list.selected = selected
        .and_then(|id| state.list.store.position(&id))
        .and_then(|index| {
            let matches = state.list.matches.as_deref().unwrap_or_default();
            matches.binary_search(&index).ok()
        })
        .unwrap_or(0);
    super::list::keep_visible(state);
}

/// Recomputes the matches after the store changed (rows added or replaced).
pub(crate) fn refilter(state: &mut AppState) {
    apply(state, false);
}

/// Recomputes the matches; `incremental` searches only the previous matches when the query
/// merely grew (the store must be unchanged since).
fn apply(state: &mut AppState, incremental: bool) {
    let Some(filter) = &mut state.text_filter else {
        return;
    };
    let query = filter.input.lines().join(" ").trim().to_lowercase();
    let store = &state.list.store;
    let previous = state.list.matches.take().unwrap_or_default();
    let narrowing = incremental && !filter.applied.is_empty() && query.starts_with(&filter.applied);
    let matches: Vec<usize> = if narrowing {
        previous
            .into_iter()
            .filter(|&i| store.get(i).is_some_and(|r| matches(store, r, &query)))
            .collect()
    } else {
        (0..store.len())
            .filter(|&i| store.get(i).is_some_and(|r| matches(store, r, &query)))
            .collect()
    };
    filter.applied = query;
    state.list.matches = Some(matches);
}

/// Case-insensitive match on message, email, tags and id. `query` is lower-case.
#[must_use]
pub fn matches(store: &Store, row: &Row, query: &str) -> bool {
    if query.is_empty() {
        return true;
    }
    let hit = |text: &str| contains_ci(text, query);
    hit(&row.message)
        || row.email.as_deref().is_some_and(hit)
        || hit(&row.id)
        || row.tags.iter().any(|t| hit(store.names.get(*t)))
}

fn contains_ci(haystack: &str, needle: &str) -> bool {
    if haystack.is_ascii() && needle.is_ascii() {
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        return n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    haystack.to_lowercase().contains(needle)
}
