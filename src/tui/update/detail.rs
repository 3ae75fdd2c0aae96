//! The detail view (Enter): fetching an item once per loaded list, scrolling it, and the item
//! actions: copy link / message / id, open link. An action that needs the detail waits for it.

use std::sync::Arc;

use super::{describe, error, info};
use crate::api::{ApiError, FeedbackDetail};
use crate::text::{sanitize, sanitize_line};
use crate::tui::action::Action;
use crate::tui::effect::Effect;
use crate::tui::state::{AppState, DetailView, Load};

/// Opens the selected item.
pub(super) fn open(state: &mut AppState) -> Vec<Effect> {
    let Some(id) = state.selected_row().map(|r| r.id.to_string()) else {
        state.dirty = false;
        return Vec::new();
    };
    let cached = state.details.contains_key(&id);
    state.detail = Some(DetailView {
        id: id.clone(),
        load: if cached { Load::Loaded } else { Load::Loading },
        scroll: 0,
    });
    if cached {
        Vec::new()
    } else {
        vec![fetch(state, id)]
    }
}

fn fetch(state: &mut AppState, id: String) -> Effect {
    state.in_flight += 1;
    Effect::FetchDetail { id }
}

pub(super) fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    let Some(detail) = state.detail.as_mut() else {
        return Vec::new();
    };
    let page = u16::try_from(state.list.viewport_rows)
        .unwrap_or(u16::MAX)
        .max(1);
    match action {
        Action::MoveDown => detail.scroll = detail.scroll.saturating_add(1),
        Action::MoveUp => detail.scroll = detail.scroll.saturating_sub(1),
        Action::PageDown => detail.scroll = detail.scroll.saturating_add(page),
        Action::PageUp => detail.scroll = detail.scroll.saturating_sub(page),
        Action::Top => detail.scroll = 0,
        Action::Bottom => detail.scroll = u16::MAX,
        Action::Back | Action::Quit | Action::Open => state.detail = None,
        Action::Help => state.help = true,
        Action::Reload => {
            let id = detail.id.clone();
            detail.load = Load::Loading;
            state.details.remove(&id);
            return vec![fetch(state, id)];
        }
        Action::ToggleMouse => return super::global(state, action).unwrap_or_default(),
        Action::CopyLink | Action::CopyMessage | Action::CopyId | Action::OpenLink => {
            let id = detail.id.clone();
            return item_action(state, &id, action);
        }
        _ => state.dirty = false,
    }
    Vec::new()
}

/// Copy or open something of item `id`; waits for the detail when the link is needed.
pub(super) fn item_action(state: &mut AppState, id: &str, action: Action) -> Vec<Effect> {
    match action {
        Action::CopyId => copy(state, "the id", sanitize_line(id).into_owned()),
        Action::CopyMessage => {
            let message = match state.details.get(id) {
                Some(detail) => Some(detail.feedback.message.clone()),
                None => state
                    .list
                    .store
                    .position(id)
                    .and_then(|i| state.list.store.get(i))
                    .map(|r| r.message.to_string()),
            };
            match message {
                Some(text) => copy(state, "the message", text),
                None => Vec::new(),
            }
        }
        Action::CopyLink | Action::OpenLink => match state.details.get(id).cloned() {
            Some(detail) => link_action(state, &detail, action),
            None => {
                state.pending = Some((id.to_owned(), action));
                info(state, "Fetching the item's links…".to_owned());
                vec![fetch(state, id.to_owned())]
            }
        },
        _ => Vec::new(),
    }
}

fn link_action(state: &mut AppState, detail: &FeedbackDetail, action: Action) -> Vec<Effect> {
    let Some(url) = detail.issue_tracker_url().map(str::to_owned) else {
        info(state, "This item has no issue-tracker link".to_owned());
        return Vec::new();
    };
    if action == Action::CopyLink {
        return copy(state, "the issue-tracker link", url);
    }
    let web = url::Url::parse(&url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"));
    match web {
        None => {
            error(
                state,
                format!("Not opening {url}: only http and https links are opened"),
            );
            Vec::new()
        }
        Some(parsed) if state.can_open_browser => vec![Effect::OpenUrl {
            url: parsed.to_string(),
        }],
        Some(_) => {
            let reason = state.no_browser_reason;
            copy_instead(state, format!("Not opened ({reason})"), url)
        }
    }
}

/// The browser's answer to `Effect::OpenUrl`; when it failed, the link is copied instead.
pub(super) fn opened(state: &mut AppState, url: String, result: Result<(), String>) -> Vec<Effect> {
    match result {
        Ok(()) => {
            info(state, format!("Opened {url} in the browser"));
            Vec::new()
        }
        Err(reason) => {
            let reason = sanitize_line(&reason).into_owned();
            copy_instead(state, format!("Could not open the browser ({reason})"), url)
        }
    }
}

/// Copies the link that could not be opened; the copy's outcome note starts with `why`.
fn copy_instead(state: &mut AppState, why: String, url: String) -> Vec<Effect> {
    info(state, format!("{why}; copying the link: {url}"));
    state.copy_instead = Some(why);
    vec![Effect::Copy {
        what: "the issue-tracker link",
        text: url,
    }]
}

fn copy(state: &mut AppState, what: &'static str, text: String) -> Vec<Effect> {
    state.dirty = false;
    vec![Effect::Copy { what, text }]
}

pub(super) fn loaded(
    state: &mut AppState,
    id: &str,
    result: Result<Box<FeedbackDetail>, Arc<ApiError>>,
) -> Vec<Effect> {
    state.in_flight = state.in_flight.saturating_sub(1);
    let open_here = state.detail.as_ref().is_some_and(|d| d.id == id);
    let pending = state.pending.take_if(|(pending_id, _)| pending_id == id);
    match result {
        Ok(detail) => {
            let detail = Arc::new(clean(*detail));
            state.details.insert(id.to_owned(), Arc::clone(&detail));
            if open_here && let Some(view) = &mut state.detail {
                view.load = Load::Loaded;
            }
            match pending {
                Some((_, action)) => link_action(state, &detail, action),
                None => Vec::new(),
            }
        }
        Err(err) => {
            let text = describe(&err);
            if open_here && let Some(view) = &mut state.detail {
                view.load = Load::Failed(text.clone());
            }
            error(state, text);
            Vec::new()
        }
    }
}

/// The detail with every server string sanitized (multi-line for the message).
#[must_use]
pub fn clean(mut detail: FeedbackDetail) -> FeedbackDetail {
    let line = |s: &mut String| {
        if let std::borrow::Cow::Owned(clean) = sanitize_line(s) {
            *s = clean;
        }
    };
    let f = &mut detail.feedback;
    if let std::borrow::Cow::Owned(clean) = sanitize(&f.message) {
        f.message = clean;
    }
    line(&mut f.id.0);
    f.reporter_email.as_mut().map(line);
    f.tags.iter_mut().for_each(line);
    line(&mut f.project.name);
    line(&mut f.project.id);
    if let Some(app) = &mut f.app {
        line(&mut app.name);
        line(&mut app.id);
    }
    for map in [&mut detail.metadata.built_in, &mut detail.metadata.custom] {
        *map = std::mem::take(map)
            .into_iter()
            .map(|(mut k, mut v)| {
                line(&mut k);
                line(&mut v);
                (k, v)
            })
            .collect();
    }
    for delivery in &mut detail.delivery {
        delivery.external_url.as_mut().map(line);
    }
    detail
}
