//! The `/` search over the store. Every edit of the prompt is a new query (latest wins: typing
//! never waits for one); the text is parsed here, at once, so an error shows where it is while
//! the list keeps its last results; the query itself is compiled and run off the UI thread. The
//! selected item stays selected while it matches; otherwise the first match is selected.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::info;
use super::list::{self, Requery};
use crate::query::{self, SearchText};
use crate::tui::action::Action;
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, TextFilter, ViewSpec};

pub(super) fn open(state: &mut AppState) -> Vec<Effect> {
    let origin = state.list.keys.get(state.list.selected).copied();
    match &mut state.text_filter {
        Some(filter) => {
            filter.editing = true;
            filter.origin = origin;
        }
        None => {
            let mut filter = new_filter("");
            filter.origin = origin;
            state.text_filter = Some(filter);
            return list::fit_viewport(state).into_iter().collect();
        }
    }
    Vec::new()
}

fn new_filter(text: &str) -> TextFilter {
    let mut input = TextArea::from([text]);
    input.set_placeholder_text(
        "search: words, \"a phrase\", tag:bug, app:NAME, age:<7d… (Esc, then ? for help)",
    );
    input.move_cursor(ratatui_textarea::CursorMove::End);
    TextFilter {
        input,
        editing: true,
        error: None,
        error_of: String::new(),
        highlights: query::Highlights::default(),
        origin: None,
        completing: None,
    }
}

/// Puts back the view `spec` (the last run's, before the first query; a saved view; the view
/// before a drill): its filters and search. A key set shown stays pinned (it is left by
/// `update::similar`).
pub(super) fn restore(state: &mut AppState, spec: &ViewSpec) {
    state.view = ViewSpec {
        search: SearchText::default(),
        pinned: state.view.pinned.take(),
        ..spec.clone()
    };
    if !spec.search.trim().is_empty() {
        let mut filter = new_filter(&spec.search);
        filter.editing = false;
        state.text_filter = Some(filter);
        set_query(state);
        state.list.viewport_rows = list::list_body_rows(state);
    }
}

pub(super) fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Back => clear(state),
        Action::Open => {
            if let Some(filter) = &mut state.text_filter {
                filter.editing = false;
            }
            vec![Effect::SaveView(state.view_spec())]
        }
        _ => {
            state.dirty = false;
            Vec::new()
        }
    }
}

/// Removes the search and shows the whole view again, keeping the selected item selected.
pub(super) fn clear(state: &mut AppState) -> Vec<Effect> {
    let typed = state
        .text_filter
        .take()
        .is_some_and(|f| !f.text().trim().is_empty());
    let searched = !std::mem::take(&mut state.view.search).is_empty();
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    if searched {
        effects.push(list::requery(state, Requery::Narrow));
    }
    // A text that never applied (a remembered search that no longer compiles) is forgotten
    // too, so the next start does not restore it.
    if searched || typed {
        effects.push(Effect::SaveView(state.view_spec()));
    }
    effects
}

pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    if matches!(key.code, KeyCode::Tab | KeyCode::BackTab) {
        return complete(state, key.code == KeyCode::BackTab);
    }
    filter.completing = None;
    if key.code == KeyCode::Char('u') && key.modifiers.contains(KeyModifiers::CONTROL) {
        // Ctrl-U clears the line, as in a shell (the text area would take it for undo).
        let mut cleared = new_filter("");
        cleared.origin = filter.origin;
        *filter = cleared;
    } else {
        filter.input.input(key);
    }
    edited(state)
}

/// `Tab` (`back`: Shift-Tab): completes the word before the cursor (`query::complete`), with the
/// stored apps, projects and tags the panes hold as values; again, the next completion (the
/// previous one), round. Never a tab character.
fn complete(state: &mut AppState, back: bool) -> Vec<Effect> {
    let Some(filter) = &state.text_filter else {
        return Vec::new();
    };
    let text = filter.text();
    let cycling = filter
        .completing
        .clone()
        .filter(|c| c.shown == text && !c.candidates.is_empty());
    let (start, candidates, at, rest) = match cycling {
        Some(c) => {
            let n = c.candidates.len();
            let at = if back {
                (c.at + n - 1) % n
            } else {
                (c.at + 1) % n
            };
            (c.start, c.candidates, at, c.rest)
        }
        None => {
            let column = filter.input.cursor().1;
            let cut = text
                .char_indices()
                .nth(column)
                .map_or(text.len(), |(at, _)| at);
            let (before, rest) = text.split_at(cut);
            let names = |pane: &crate::tui::state::Pane| -> Vec<String> {
                pane.entries.iter().map(|e| e.label.to_string()).collect()
            };
            let values = |name: &str| match name {
                "app" => names(&state.apps),
                "project" => names(&state.projects),
                "tag" => names(&state.tags),
                _ => Vec::new(),
            };
            let Some(found) = query::complete::complete(before, values) else {
                info(state, "Nothing completes this word");
                return Vec::new();
            };
            let at = if back { found.candidates.len() - 1 } else { 0 };
            (found.start, found.candidates, at, rest.to_owned())
        }
    };
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    let head = &text[..start.min(text.len())];
    let chosen = &candidates[at];
    let shown = format!("{head}{chosen}{rest}");
    let cursor = head.chars().count() + chosen.chars().count();
    set_text(filter, &shown, cursor);
    filter.completing = Some(crate::tui::state::Completing {
        start,
        candidates,
        at,
        rest,
        shown,
    });
    edited(state)
}

/// Puts `text` in the prompt, the cursor after its first `cursor` characters.
fn set_text(filter: &mut TextFilter, text: &str, cursor: usize) {
    let placeholder = filter.input.placeholder_text().to_owned();
    let mut input = TextArea::from([text]);
    input.set_placeholder_text(placeholder);
    input.move_cursor(ratatui_textarea::CursorMove::Jump(
        0,
        u16::try_from(cursor).unwrap_or(u16::MAX),
    ));
    filter.input = input;
}

/// The prompt's text changed (typed or pasted): parsed at once; a query that parses is run.
pub(super) fn edited(state: &mut AppState) -> Vec<Effect> {
    if !set_query(state) {
        return Vec::new();
    }
    vec![list::requery(state, Requery::Narrow)]
}

/// Parses the prompt's text, once: on success it becomes the view's search (true when it
/// changed); on failure the error is kept to be shown where it is and the list stays as it was.
fn set_query(state: &mut AppState) -> bool {
    let Some(filter) = &mut state.text_filter else {
        return false;
    };
    let search = SearchText::new(filter.text().trim());
    match search.parsed() {
        Ok(query) => {
            filter.error = None;
            filter.highlights = query.highlights();
            if state.view.search == search {
                return false;
            }
            state.view.search = search;
            true
        }
        Err(err) => {
            filter.error = Some(err.clone());
            search.as_str().clone_into(&mut filter.error_of);
            false
        }
    }
}

impl TextFilter {
    /// The prompt's text as one line (as it is parsed, before trimming).
    #[must_use]
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// True when the prompt shows the `applied` search (the list's results are of its text).
    #[must_use]
    pub fn shows(&self, applied: &SearchText) -> bool {
        self.text().trim() == applied.as_str()
    }

    /// An error found when the `applied` search was compiled: its span is of that text.
    pub fn set_error(&mut self, err: query::QueryError, applied: &SearchText) {
        self.error = Some(err);
        applied.as_str().clone_into(&mut self.error_of);
    }

    /// The error's span in the prompt's own text (its leading blanks counted), while the prompt
    /// shows the text the error was found in.
    #[must_use]
    pub fn error_span(&self) -> Option<std::ops::Range<usize>> {
        let error = self.error.as_ref()?;
        let text = self.text();
        let trimmed = text.trim_start();
        if trimmed.trim_end() != self.error_of {
            return None;
        }
        let lead = text.len() - trimmed.len();
        Some(error.span.start + lead..error.span.end + lead)
    }
}
