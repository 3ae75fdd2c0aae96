//! The detail view (Enter): shown from the store at once (metadata and delivery when a detail
//! was ever fetched, with when), and refreshed from the service, which stores it; scrolling it,
//! and the item actions: copy link / message / id, open link. An action that needs the links
//! uses the stored delivery, or waits for the refresh when none was ever fetched.

use std::sync::Arc;

use super::{error, info};
use crate::action::{Action, FailureKind, SyncFailure};
use crate::effect::{Effect, Local, Network, Read};
use crate::failure::Failure;
use crate::state::{AppState, DetailView, Known, Load};
use feedback_api::FeedbackDetail;
use feedback_core::text::{Clean, sanitize, sanitize_line};
use feedback_store::StoredDetail;

/// Opens the selected item: the stored detail is read, and the service asked for a fresh one.
pub(super) fn open(state: &mut AppState) -> Vec<Effect> {
    let mut effects = open_stored(state);
    let id = state.detail.as_ref().map(|v| v.id.clone());
    // Offline, the stored detail is what there is: `r` asks the service anyway.
    if let Some(id) = id.filter(|_| state.sync.offline.is_none() && !effects.is_empty()) {
        effects.extend(fetch(state, id));
    }
    effects
}

/// Opens the selected item from the store only (`J`/`K` step through items this way; the
/// service is asked once the selection rests, see `update::reading`).
pub(super) fn open_stored(state: &mut AppState) -> Vec<Effect> {
    let Some(id) = state.selected_row().map(|r| r.id.to_string()) else {
        // A row off the window is being read (a jump to the end): open it when it arrives.
        state.list.open_when_loaded = state.list.selected < state.visible_len();
        state.dirty = false;
        return Vec::new();
    };
    state.list.open_when_loaded = false;
    let known = state.details.get(&id).map(|k| k.fetched);
    state.detail = Some(DetailView {
        shown_id: Clean::line(&id),
        id: id.clone(),
        load: if known.is_some() {
            Load::Loaded
        } else {
            Load::Loading
        },
        scroll: 0,
        detail_at: known.flatten(),
        refreshing: false,
    });
    vec![Effect::Read(Read::LoadDetail { id })]
}

/// Asks the service for the detail, unless that is already under way or the inbox is offline
/// (then `r` in the detail asks anyway).
fn fetch(state: &mut AppState, id: String) -> Option<Effect> {
    if let Some(view) = state.detail.as_mut().filter(|v| v.id == id) {
        if view.refreshing {
            return None;
        }
        view.refreshing = true;
    }
    state.in_flight += 1;
    Some(Effect::Network(Network::FetchDetail { id }))
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
        // Enter opens and chooses, and never closes.
        Action::Back | Action::Quit => state.detail = None,
        Action::Help => state.help = true,
        Action::Reload => {
            let id = detail.id.clone();
            let fetching = fetch(state, id);
            if fetching.is_none() {
                info(state, "Already fetching the item's detail…");
            }
            return fetching.into_iter().collect();
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
        Action::CopyId => copy(state, "the id", Clean::line(id)),
        Action::CopyMessage => {
            let message = match state.details.get(id) {
                Some(known) => Some(Clean::text(&known.detail.feedback.message)),
                None => state
                    .list
                    .window
                    .rows
                    .iter()
                    .find(|r| &*r.id == id)
                    .map(|r| r.message.clone()),
            };
            match message {
                Some(text) => copy(state, "the message", text),
                None => Vec::new(),
            }
        }
        Action::CopyLink | Action::OpenLink => {
            let known = state.details.get(id).filter(|k| k.fetched.is_some());
            match known.map(|k| Arc::clone(&k.detail)) {
                Some(detail) => link_action(state, &detail, action),
                None => {
                    // The stored delivery first; the service when none was ever fetched.
                    state.pending = Some((id.to_owned(), action));
                    info(state, "Fetching the item's links…");
                    vec![Effect::Read(Read::LoadDetail { id: id.to_owned() })]
                }
            }
        }
        _ => Vec::new(),
    }
}

fn link_action(state: &mut AppState, detail: &FeedbackDetail, action: Action) -> Vec<Effect> {
    let Some(url) = detail.issue_tracker_url().map(str::to_owned) else {
        info(state, "This item has no issue-tracker link");
        return Vec::new();
    };
    if action == Action::CopyLink {
        return copy(state, "the issue-tracker link", Clean::line(&url));
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
        Some(parsed) if state.can_open_browser => vec![Effect::Local(Local::OpenUrl {
            url: parsed.to_string(),
        })],
        Some(_) => {
            let reason = state.no_browser_reason;
            copy_instead(state, Clean::line(&format!("Not opened ({reason})")), &url)
        }
    }
}

/// The browser's answer to `Local::OpenUrl`; when it failed, the link is copied instead.
pub(super) fn opened(state: &mut AppState, url: &str, result: Result<(), String>) -> Vec<Effect> {
    // A reply handed to the mail client: its address and text are not said (privacy mode).
    if url.starts_with("mailto:") {
        match result {
            Ok(()) => info(state, "Opened the reply in your mail client"),
            Err(reason) => error(
                state,
                Clean::line(&format!(
                    "Could not open the mail client ({reason}): answer n, nothing is recorded"
                )),
            ),
        }
        return Vec::new();
    }
    match result {
        Ok(()) => {
            info(state, format!("Opened {url} in the browser"));
            Vec::new()
        }
        Err(reason) => {
            // The system's reason, sanitized on its own: a cut-off escape never takes the ")".
            let parts = [
                Clean::fixed("Could not open the browser ("),
                Clean::line(&reason),
                Clean::fixed(")"),
            ];
            copy_instead(state, Clean::join(&parts, ""), url)
        }
    }
}

/// Copies the link that could not be opened; the copy's outcome note starts with `why`.
fn copy_instead(state: &mut AppState, why: Clean, url: &str) -> Vec<Effect> {
    info(state, format!("{why}; copying the link: {url}"));
    state.copy_instead = Some(why);
    vec![Effect::Local(Local::Copy {
        what: "the issue-tracker link",
        text: Clean::line(url),
    })]
}

fn copy(state: &mut AppState, what: &'static str, text: Clean) -> Vec<Effect> {
    state.dirty = false;
    vec![Effect::Local(Local::Copy { what, text })]
}

/// The stored detail: shown at once (a fresher one from the service may follow).
pub(super) fn stored(
    state: &mut AppState,
    id: &str,
    result: Result<Option<Box<StoredDetail>>, Failure>,
) -> Vec<Effect> {
    match result {
        Ok(Some(stored)) => {
            // A detail the service already sent this session is not replaced by an older one.
            let newer = state
                .details
                .get(id)
                .is_none_or(|k| k.fetched <= stored.detail_at);
            if newer {
                remember(state, id, &stored);
            }
            show(state, id);
            pending(state, id, false)
        }
        Ok(None) => links_from_service(state, id),
        Err(message) => {
            error(state, format!("Cannot read the store: {message}"));
            Vec::new()
        }
    }
}

/// The service's detail, now stored: shown, and the list queried again (its status and tags
/// may have changed).
pub(super) fn loaded(
    state: &mut AppState,
    id: &str,
    result: Result<Box<StoredDetail>, SyncFailure>,
) -> Vec<Effect> {
    state.in_flight = state.in_flight.saturating_sub(1);
    if let Some(view) = state.detail.as_mut().filter(|v| v.id == id) {
        view.refreshing = false;
    }
    match result {
        Ok(stored) => {
            super::sync::back_online(state);
            remember(state, id, &stored);
            show(state, id);
            let mut effects = pending(state, id, true);
            effects.extend(super::sync::store_changed(state));
            effects
        }
        Err(failure) => {
            if failure.kind == FailureKind::WrongAccount {
                state.pending = None;
                super::sync::wrong_account(state, &failure.text);
                return Vec::new();
            }
            if failure.kind == FailureKind::Offline {
                super::sync::went_offline(state, failure.text.clone());
            }
            let shown = state.details.contains_key(id);
            if let Some(view) = state.detail.as_mut().filter(|v| v.id == id && !shown) {
                view.load = Load::Failed(Clean::line(&failure.text));
            }
            let waiting = state.pending.take_if(|(pending_id, _)| pending_id == id);
            let text = if waiting.is_some() {
                format!("Cannot fetch the item's links: {}", failure.text)
            } else {
                format!("Cannot refresh the item: {}", failure.text)
            };
            if failure.kind != FailureKind::Cancelled {
                error(state, text);
            }
            Vec::new()
        }
    }
}

/// An action waits for this item's links and the store has none: the service is asked (unless
/// it already is).
fn links_from_service(state: &mut AppState, id: &str) -> Vec<Effect> {
    let waiting = state.pending.as_ref().is_some_and(|(p, _)| p == id);
    let refreshing = state
        .detail
        .as_ref()
        .is_some_and(|v| v.id == id && v.refreshing);
    if !waiting || refreshing {
        return Vec::new();
    }
    state.in_flight += 1;
    vec![Effect::Network(Network::FetchDetail { id: id.to_owned() })]
}

fn remember(state: &mut AppState, id: &str, stored: &StoredDetail) {
    let known = Known {
        detail: Arc::new(clean(stored.to_detail())),
        fetched: stored.detail_at,
    };
    state.details.insert(id.to_owned(), known);
}

fn show(state: &mut AppState, id: &str) {
    let fetched = state.details.get(id).and_then(|k| k.fetched);
    if let Some(view) = state.detail.as_mut().filter(|v| v.id == id) {
        view.load = Load::Loaded;
        view.detail_at = fetched;
    }
}

/// Runs the action waiting for this item's links, once they are known (`final_word`: the
/// service answered, so no link now means none).
fn pending(state: &mut AppState, id: &str, final_word: bool) -> Vec<Effect> {
    let known = state
        .details
        .get(id)
        .filter(|k| final_word || k.fetched.is_some());
    let Some(detail) = known.map(|k| Arc::clone(&k.detail)) else {
        return links_from_service(state, id);
    };
    match state.pending.take_if(|(pending_id, _)| pending_id == id) {
        Some((_, action)) => link_action(state, &detail, action),
        None => Vec::new(),
    }
}

/// The detail with every server string sanitized (multi-line for the message).
#[must_use]
pub(super) fn clean(mut detail: FeedbackDetail) -> FeedbackDetail {
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
