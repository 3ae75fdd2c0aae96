//! The `/` search over the store. Every edit of the prompt is a new query (latest wins: typing
//! never waits for one); the text is parsed here, at once, so an error shows where it is while
//! the list keeps its last results; the query itself is compiled and run off the UI thread. The
//! selected item stays selected while it matches; otherwise the first match is selected.
//!
//! Enter keeps the search in the history (the store's, the last 100); `Up` and `Down` in an
//! empty prompt go through it, newest first, and `Ctrl-R` shows the newest search holding what
//! the prompt holds (again: the next older one), each shown search run as it is shown.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

use super::info;
use super::list::{self, Requery};
use crate::action::Action;
use crate::effect::{Count, Effect, Remember};
use crate::failure::Failure;
use crate::state::{AppState, TextFilter, ViewSpec};
use feedback_core::query::{self, SearchText};

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
        browsing: None,
        values: std::collections::HashMap::new(),
        awaiting: None,
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
            let mut effects = vec![Effect::Remember(Remember::View(state.view_spec()))];
            if let Some(filter) = &mut state.text_filter {
                filter.editing = false;
                filter.browsing = None;
                let text = filter.text();
                // Only a search that runs is kept.
                if filter.error.is_none() && !text.trim().is_empty() {
                    state.searches.remember(&text);
                    effects.push(Effect::Remember(Remember::Search {
                        text: text.trim().to_owned(),
                        at: state.now,
                    }));
                }
            }
            effects
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
        effects.push(Effect::Remember(Remember::View(state.view_spec())));
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
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    // Read only for the arrows: typing does not copy the prompt's text for it.
    let browsing = |f: &TextFilter| f.browsing.is_some() || f.text().trim().is_empty();
    match key.code {
        KeyCode::Up if browsing(filter) => return history_step(state, true),
        KeyCode::Down if browsing(filter) => return history_step(state, false),
        KeyCode::Char('r') if ctrl => return history_find(state),
        _ => filter.browsing = None,
    }
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
/// stored apps, projects and tags the panes hold and the views' names as values, and the stored values of a
/// metadata qualifier (read from the store first: the completion follows their arrival); again,
/// the next completion (the previous one), round. Never a tab character.
fn complete(state: &mut AppState, back: bool) -> Vec<Effect> {
    let Some(filter) = &state.text_filter else {
        return Vec::new();
    };
    let text = filter.text();
    // Tab again goes through the completions shown; after the only one (a qualifier's name,
    // say), it completes anew: the qualifier's values.
    let cycling = filter
        .completing
        .clone()
        .filter(|c| c.shown == text && c.candidates.len() > 1);
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
            let names = |pane: &crate::state::Pane| -> Vec<String> {
                pane.entries.iter().map(|e| e.label.to_string()).collect()
            };
            // A metadata qualifier's values are the store's: asked for once, then completed.
            let unread = std::cell::RefCell::new(None);
            let values = |name: &str| match name {
                "app" => names(&state.apps),
                "project" => names(&state.projects),
                "tag" => names(&state.tags),
                // The tickets linked on the rows read.
                "ticket" => state.triage.overlay.ticket_names(),
                "view" => state
                    .views
                    .views
                    .iter()
                    .map(|v| v.name.to_string())
                    .collect(),
                other => match (query::metadata_keys(other), filter.values.get(other)) {
                    (Some(_), Some(values)) => values.clone(),
                    (Some(key), None) => {
                        *unread.borrow_mut() = Some((other.to_owned(), key));
                        Vec::new()
                    }
                    (None, _) => Vec::new(),
                },
            };
            let found = query::complete::complete(before, values);
            if let Some((name, key)) = unread.into_inner() {
                if let Some(filter) = &mut state.text_filter {
                    filter.awaiting = Some(text);
                }
                state.dirty = false;
                return vec![Effect::Count(Count::CompletionValues { name, key })];
            }
            let Some(found) = found else {
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
    filter.completing = Some(crate::state::Completing {
        start,
        candidates,
        at,
        rest,
        shown,
    });
    edited(state)
}

/// A metadata qualifier's stored values arrived: kept for the prompt, and the `Tab` that
/// asked for them completes now if the prompt still holds what it held.
pub(super) fn values_loaded(
    state: &mut AppState,
    name: String,
    result: Result<Vec<String>, Failure>,
) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        state.dirty = false;
        return Vec::new();
    };
    let values = match result {
        Ok(values) => values,
        Err(error) => {
            filter.awaiting = None;
            info(state, format!("Cannot read the stored values: {error}"));
            return Vec::new();
        }
    };
    filter.values.insert(name, values);
    filter.completing = None;
    let waited = filter.awaiting.take();
    if waited.is_some_and(|text| text == filter.text()) {
        return complete(state, false);
    }
    state.dirty = false;
    Vec::new()
}

/// The stored search history arrived.
pub(super) fn history_loaded(
    state: &mut AppState,
    result: Result<Vec<String>, Failure>,
) -> Vec<Effect> {
    match result {
        Ok(stored) => {
            state.searches.loaded(stored);
            state.dirty = false;
        }
        Err(error) => {
            tracing::warn!(%error, "cannot read the search history");
            info(state, format!("The search history cannot be read: {error}"));
        }
    }
    Vec::new()
}

/// `Up` (`older`) or `Down` in an empty prompt, or while it shows a search of the history:
/// the next older (newer) search; past the newest, what the prompt held before.
fn history_step(state: &mut AppState, older: bool) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    let (at, typed) = match (&filter.browsing, older) {
        (None, false) => {
            state.dirty = false;
            return Vec::new();
        }
        (None, true) => (0, filter.text()),
        (Some(b), true) => (b.at + 1, b.typed.clone()),
        (Some(b), false) if b.at == 0 => {
            let typed = b.typed.clone();
            filter.browsing = None;
            let cursor = typed.chars().count();
            set_text(filter, &typed, cursor);
            return edited(state);
        }
        (Some(b), false) => (b.at - 1, b.typed.clone()),
    };
    let Some(shown) = state.searches.get(at).map(str::to_owned) else {
        let said = if state.searches.is_empty() {
            "No search kept yet: Enter keeps one"
        } else {
            "The oldest search kept"
        };
        info(state, said);
        return Vec::new();
    };
    show_kept(state, at, typed, &shown)
}

/// `Ctrl-R`: the newest search (older than the one shown, when one is) holding what the
/// prompt held before.
fn history_find(state: &mut AppState) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    let (from, needle) = match &filter.browsing {
        Some(b) => (b.at + 1, b.typed.clone()),
        None => (0, filter.text()),
    };
    let Some(at) = state.searches.find(from, &needle) else {
        let said = if needle.trim().is_empty() {
            "No older search kept".to_owned()
        } else {
            format!(
                "No older search holds \"{}\"",
                feedback_core::text::sanitize_line(needle.trim())
            )
        };
        info(state, said);
        return Vec::new();
    };
    let shown = state.searches.get(at).unwrap_or_default().to_owned();
    show_kept(state, at, needle, &shown)
}

/// Shows the `at`th search of the history in the prompt and runs it.
fn show_kept(state: &mut AppState, at: usize, typed: String, shown: &str) -> Vec<Effect> {
    let Some(filter) = &mut state.text_filter else {
        return Vec::new();
    };
    set_text(filter, shown, shown.chars().count());
    filter.browsing = Some(crate::state::Browsing { at, typed });
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
            let rest = without_qualifier_at(search.as_str(), err.span.clone());
            filter.error = Some(err.clone());
            search.as_str().clone_into(&mut filter.error_of);
            // A qualifier being typed (`age:<7`) leaves the results of the rest, not of the
            // word its name was a moment ago (`age`, which matched nothing).
            match rest.filter(|rest| rest.parsed().is_ok() && state.view.search != *rest) {
                Some(rest) => {
                    state.view.search = rest;
                    true
                }
                None => false,
            }
        }
    }
}

/// `text` without the qualifier term (`age:<7x`, `-tag:`) in which the error at `span` lies;
/// `None` when the error is not inside one such term.
fn without_qualifier_at(text: &str, span: std::ops::Range<usize>) -> Option<SearchText> {
    let start = text
        .get(..span.start)?
        .rfind(char::is_whitespace)
        .map_or(0, |at| at + 1);
    let end = text
        .get(span.end..)?
        .find(char::is_whitespace)
        .map_or(text.len(), |at| span.end + at);
    let term = text.get(start..end)?;
    if term.contains(char::is_whitespace) || !term.contains(':') || term.contains('"') {
        return None;
    }
    let rest = format!("{} {}", text[..start].trim_end(), text[end..].trim_start());
    Some(SearchText::new(rest.trim()))
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
    pub(crate) fn set_error(&mut self, err: query::QueryError, applied: &SearchText) {
        self.error = Some(err);
        applied.as_str().clone_into(&mut self.error_of);
    }

    /// The error's span in the prompt's own text (its leading blanks counted), while the prompt
    /// shows the text the error was found in.
    #[must_use]
    pub(crate) fn error_span(&self) -> Option<std::ops::Range<usize>> {
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
