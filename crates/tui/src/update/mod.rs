//! `update(state, msg) -> effects`: the one place state changes. Synchronous and deterministic:
//! time arrives as `Msg::Tick`, results as messages carrying the request id they answer; a
//! response whose id is no longer current is dropped ("latest wins").

// Acting on items.
mod acting;
mod all_seen;
mod marks;

mod detail;
mod input;
mod list;
mod panes;
// Preview, next/previous item, sidebar, type-ahead.
mod reading;
mod seen;
mod sync;
mod text_filter;
mod triage;
pub mod triage_input;
mod undo;
// Saved views and the command palette.
mod palette;
mod saved_views;
// Grouped view and trends.
mod enrich;
mod insight;
// Top issues.
mod top_issues;
// `S` and the pinned key sets.
mod similar;
// The team's keys and news.
mod links;
mod replies;
mod team;
// The status bar's messages.
mod notes;

#[cfg(test)]
mod input_tests;
#[cfg(test)]
mod tests;

use jiff::{SignedDuration, Timestamp};

use super::action::{Action, Msg};
use super::effect::{Effect, Local, Read};
use super::state::{AppState, Focus, Mode};
use crate::failure::Failure;

pub use input::PROMPT_MAX_BYTES;
pub use list::{WINDOW_MARGIN, list_body_rows};
pub(super) use notes::{error, info};

/// The query of the first frame (the runtime runs it before the loop starts: it is start-up):
/// the first screen's keys only, so that the first frame does not wait for a big view; the
/// whole view is asked for when it is answered.
pub fn first_query(state: &mut AppState) -> Read {
    let mut query = list::view_query(state, list::Requery::New);
    if let Read::Query { limit, rows, .. } = &mut query {
        *limit = Some(*rows + WINDOW_MARGIN);
    }
    query
}

/// Restores the view the last run showed (filters and search).
pub(crate) fn restore_view(state: &mut AppState, spec: &super::state::ViewSpec) {
    text_filter::restore(state, spec);
}

/// What start-up sends at once: the view's query (unless the first frame's already ran), the
/// panes, and the sync (discovery, then the head of the listed status).
pub fn start(state: &mut AppState) -> Vec<Effect> {
    let mut effects = Vec::new();
    if !state.list.loaded() && !state.list.querying() {
        effects.push(list::requery(state, list::Requery::New));
    }
    effects.push(panes::load(state));
    effects.push(Effect::Read(Read::LoadSearches));
    effects.push(sync::start(state));
    effects.push(enrich::start(state)); // A queue left by the last run
    effects.extend(replies::left_waiting(state)); // Replies an earlier run could not send
    if state.refresh_seconds > 0 {
        state.next_refresh = Some(after(state.now, state.refresh_seconds));
    }
    effects
}

/// Applies one message.
pub fn update(state: &mut AppState, msg: Msg) -> Vec<Effect> {
    // A handler clears `dirty` when its message changed nothing on screen; a change an earlier
    // message of the same batch made (not drawn yet) stays to be drawn all the same.
    let undrawn = state.dirty;
    state.dirty = true;
    let shown = state.detail.as_ref().map(|d| d.id.clone());
    saved_views::observe(state, &msg); // Does it change the views' unseen counts?
    insight::observe(state, &msg); // The groups and trend are due again
    enrich::observe(state, &msg); // A background step: count the queue again
    // The selection and the detail a message brought, for the preview.
    let (selected, watched) = (reading::selected_id(state), reading::watched(&msg));
    let mut effects = apply(state, msg);
    effects.extend(reading::after(state, selected.as_deref(), watched));
    effects.extend(team::looking(state));
    state.dirty |= undrawn;
    // However a detail opened (a key, or a row read that an Enter waited for), it counts as
    // seen once shown for the configured delay.
    if state.detail.as_ref().map(|d| &d.id) != shown.as_ref() {
        seen::detail_opened(state);
    }
    effects
}

fn resized(state: &mut AppState, width: u16, height: u16) -> Vec<Effect> {
    state.width = width;
    state.height = height;
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    effects.extend(list::maybe_prefetch(state));
    effects
}

fn triaged(
    state: &mut AppState,
    result: Result<Box<crate::triage::Triaged>, Failure>,
) -> Vec<Effect> {
    // Done or snoozed items lose their marks.
    let marked = (!state.acting.marks.is_empty())
        .then(|| result.as_ref().ok().cloned())
        .flatten();
    let shared = result.as_ref().map_or(0, |t| t.shared);
    let mut effects = triage::triaged(state, result);
    if let Some(done) = marked {
        marks::after_triage(state, &done);
    }
    // What went to the team's outbox with it is sent now.
    effects.extend(team::shared_recorded(state, shared));
    effects
}

fn apply(state: &mut AppState, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Action(action) => on_action(state, action),
        Msg::Interrupt => input::interrupt(state),
        Msg::Paste(text) => pasted(state, &text),
        msg @ (Msg::PaletteInput(_)
        | Msg::ViewsCounted { .. }
        | Msg::ViewWritten { .. }
        | Msg::TopIssuesProgress { .. }
        | Msg::TopIssuesLoaded { .. }
        | Msg::SimilarFound { .. }
        | Msg::MarksResolved { .. }
        | Msg::Gathered { .. }
        | Msg::Piped { .. }
        | Msg::PickerInput(_)
        | Msg::TypeAhead(_)
        | Msg::ClickPane { .. }) => feature_msg(state, msg),
        Msg::HelpScroll { lines, max } => input::help_scroll(state, lines, max),
        Msg::LogScroll { lines, max } => input::log_scroll(state, lines, max),
        Msg::ViewIds { request_id, result } => all_seen::ids_read(state, request_id, result),
        Msg::NotHere { key, mode } => {
            info(state, format!("{key} does nothing in {}", mode.name()));
            Vec::new()
        }
        Msg::FilterInput(key) => input::filter_input(state, key),
        Msg::ClickRow(row) => input::click(state, row),
        Msg::Scroll(lines) => input::scroll(state, lines),
        Msg::Tick(now) => on_tick(state, now),
        Msg::Resize { width, height } => resized(state, width, height),
        Msg::ViewLoaded { request_id, result } => {
            let effects = list::view_loaded(state, request_id, result);
            marks::after_view(state);
            effects
        }
        Msg::RowsLoaded { request_id, result } => list::rows_loaded(state, request_id, result),
        Msg::PanesLoaded { request_id, result } => panes::loaded(state, request_id, result),
        Msg::SearchesLoaded(result) => text_filter::history_loaded(state, result),
        Msg::CompletionValues { name, result } => text_filter::values_loaded(state, name, result),
        Msg::DetailStored { id, result } => detail::stored(state, &id, result),
        Msg::DetailLoaded { id, result } => {
            let mut effects = detail::loaded(state, &id, result);
            effects.extend(acting::detail_arrived(state, &id));
            effects
        }
        Msg::Synced { job, result } => sync::synced(state, &job, result),
        Msg::Waiting(wait) => {
            state.wait = Some(wait);
            Vec::new()
        }
        Msg::RateLimited(rate) => {
            state.rate = rate;
            list::maybe_prefetch(state).into_iter().collect()
        }
        Msg::Copied(outcome) => {
            notes::on_copied(state, outcome);
            Vec::new()
        }
        Msg::Opened { url, result } => detail::opened(state, &url, result),
        Msg::Arrived(outcome) => list::arrived(state, outcome),
        Msg::Team(news) => team::news(state, news),
        Msg::TeamRecorded(result) => team::recorded(state, result),
        Msg::LinkInput(key) => links::input(state, key),
        Msg::ReplyInput(key) => replies::input(state, key),
        Msg::ReplyEdited(result) => replies::edited(state, result),
        Msg::RepliesQueued(result) => replies::queued(state, result),
        Msg::RepliesRecorded(result) => replies::recorded(state, result),
        Msg::RepliesSent(result) => replies::sent(state, result),
        Msg::TeamInput(key) => team::input(state, key),
        Msg::TeamHistory { id, result } => team::history_read(state, id, result),
        Msg::UndoStates {
            step,
            confirmed,
            result,
        } => undo::states_read(state, step, confirmed, result),
        Msg::Triaged(result) => triaged(state, result),
        Msg::StoreRevs(result) => triage::rev_read(state, result),
        Msg::TriageInput(key) => triage_input::input(state, key),
        Msg::NoteEdited { ids, result } => triage::note_edited(state, ids, result),
        msg @ (Msg::InsightInput(_)
        | Msg::MetaKeys(_)
        | Msg::Pivoted { .. }
        | Msg::Trended { .. }
        | Msg::Enqueued(_)
        | Msg::QueueCleared(_)
        | Msg::QueueCount(_)) => insight::on_msg(state, msg),
    }
}

/// A paste goes to what takes typing on top: the note editor or a picker, the palette, the
/// `/` prompt (`input::paste` says where a paste cannot go).
fn pasted(state: &mut AppState, text: &str) -> Vec<Effect> {
    match state.mode() {
        Mode::NoteEditor | Mode::TriagePicker => triage_input::paste(state, text),
        Mode::TeamPrompt => team::paste(state, text),
        Mode::LinkPrompt => links::paste(state, text),
        Mode::ReplyComposer => replies::paste(state, text),
        Mode::Palette => palette::paste(state, text),
        Mode::Fatal
        | Mode::Help
        | Mode::Messages
        | Mode::ActingPicker
        | Mode::GroupPicker
        | Mode::FilterPrompt
        | Mode::TopIssues
        | Mode::Detail
        | Mode::Grouped
        | Mode::Normal => input::paste(state, text),
    }
}

/// A feature's keys: `Some` when it took the action.
type Keys = fn(&mut AppState, Action) -> Option<Vec<Effect>>;

/// An action, routed by the mode. The screens that take every key get their keys as input
/// messages, not actions; an action reaching them (from the palette, say) acts on the list or
/// the detail under them.
/// The messages of the saved views and the palette, Top issues and similar items, acting on
/// items and the panes' type-ahead.
fn feature_msg(state: &mut AppState, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::PaletteInput(key) => palette::input(state, key),
        Msg::ViewsCounted {
            request_id,
            result,
            took,
        } => {
            saved_views::counted(state, request_id, result, took);
            Vec::new()
        }
        Msg::ViewWritten { view, result } => saved_views::written(state, view, result),
        Msg::TopIssuesProgress {
            request_id,
            percent,
        } => top_issues::progress(state, request_id, percent),
        Msg::TopIssuesLoaded { request_id, result } => {
            top_issues::loaded(state, request_id, result)
        }
        // The answer to `S`.
        Msg::SimilarFound { request_id, result } => similar::found(state, request_id, result),
        Msg::MarksResolved { request_id, result } => marks::resolved(state, request_id, result),
        Msg::Gathered { request_id, result } => acting::gathered(state, request_id, result),
        Msg::Piped {
            name,
            items,
            result,
            capture,
            output,
        } => acting::piped(state, &name, items, result, capture.map(|c| (c, output))),
        Msg::PickerInput(key) => acting::picker_input(state, key),
        Msg::TypeAhead(key) => reading::typeahead(state, key),
        Msg::ClickPane { pane, entry } => reading::click_pane(state, pane, entry),
        // The other messages are routed by `apply` and never reach here.
        _ => Vec::new(),
    }
}

fn on_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    let mode = state.mode();
    // `h` goes back as `Esc` does, but never clears the list's search.
    let action = match action {
        Action::Leave if mode == Mode::Normal && !state.can_leave() => return Vec::new(),
        Action::Leave => Action::Back,
        other => other,
    };
    // The message log opens over every screen but the fatal one and the help.
    if action == Action::Messages && !matches!(mode, Mode::Fatal | Mode::Help | Mode::Messages) {
        state.log_open = Some(u16::MAX);
        return Vec::new();
    }
    match mode {
        Mode::Fatal => match action {
            Action::Quit | Action::Back => quit(state),
            Action::Reload => {
                state.fatal = None;
                start(state)
            }
            _ => Vec::new(),
        },
        Mode::Help => {
            if matches!(action, Action::Help | Action::Back | Action::Quit) {
                state.help = false;
                state.help_scroll = 0;
            }
            Vec::new()
        }
        Mode::Messages => log_action(state, action),
        Mode::FilterPrompt => text_filter::on_action(state, action),
        // The screen takes every action: anything else would act on the list under it.
        Mode::TopIssues => top_issues::on_action(state, action).unwrap_or_default(),
        // The grouped view's keys first: J/K must not move the list hidden under it.
        Mode::Grouped => item_action(state, action, &GROUPED_KEYS),
        Mode::ActingPicker
        | Mode::GroupPicker
        | Mode::NoteEditor
        | Mode::TriagePicker
        | Mode::TeamPrompt
        | Mode::LinkPrompt
        | Mode::ReplyComposer
        | Mode::Palette
        | Mode::Detail
        | Mode::Normal => item_action(state, action, &LIST_KEYS),
    }
}

/// The message log's keys (its moves arrive as `Msg::LogScroll`): it closes, copies itself,
/// or shows the help; other keys do nothing there.
fn log_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    match action {
        Action::Back | Action::Quit | Action::Messages => {
            state.log_open = None;
            Vec::new()
        }
        Action::Help => {
            state.help = true;
            Vec::new()
        }
        Action::CopyMessage
        | Action::CopyLink
        | Action::CopyId
        | Action::CopyJson
        | Action::CopyMarkdown => vec![Effect::Local(Local::Copy {
            what: "the message log",
            text: feedback_core::text::Clean::text(&state.log.plain(&state.tz)),
        })],
        _ => {
            state.dirty = false;
            Vec::new()
        }
    }
}

/// The features' keys on the list and the detail, in the order they are asked: "mark all
/// seen" first (every other key drops its question, and goes on), then the reading keys (they
/// end a pane's type-ahead before any action).
const LIST_KEYS: [Keys; 10] = [
    all_seen::on_action,
    reading::on_action,
    top_issues::on_action,
    insight::on_action,
    acting::on_action,
    triage::on_action,
    saved_views::on_action,
    similar::on_action,
    team::on_action,
    links::on_action,
];

/// The same on the grouped view, its own keys first.
const GROUPED_KEYS: [Keys; 10] = [
    all_seen::on_action,
    insight::on_action,
    reading::on_action,
    top_issues::on_action,
    acting::on_action,
    triage::on_action,
    saved_views::on_action,
    similar::on_action,
    team::on_action,
    links::on_action,
];

/// An action on the list, the panes or the detail: a key that changes the view leaves a
/// pinned key set first; each feature is asked once, in `order`; what none takes is the
/// detail's, a global one, or the focused list's or pane's.
fn item_action(state: &mut AppState, action: Action, order: &[Keys]) -> Vec<Effect> {
    similar::leave_for(state, action);
    for keys in order {
        if let Some(effects) = keys(state, action) {
            return effects;
        }
    }
    if state.detail.is_some() {
        return detail::on_action(state, action);
    }
    match global(state, action) {
        Some(effects) => effects,
        None if state.focus == Focus::List => list::on_action(state, action),
        None => panes::on_action(state, action),
    }
}

/// Actions that mean the same wherever the focus is; `None` when not one of them.
fn global(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let effects = match action {
        Action::Help => {
            state.help = true;
            Vec::new()
        }
        Action::FocusNext | Action::FocusPrev => {
            panes::cycle_focus(state, action == Action::FocusNext);
            Vec::new()
        }
        Action::ToggleStatus => list::toggle_status(state),
        Action::Reload => sync::reload(state),
        Action::Filter => text_filter::open(state),
        Action::ToggleMouse => {
            state.mouse_captured = !state.mouse_captured;
            let how = if state.mouse_captured {
                "captured (wheel scrolls, click selects)"
            } else {
                "released: select text with the mouse; m to capture again"
            };
            info(state, format!("Mouse {how}"));
            vec![Effect::Local(Local::SetMouseCapture(state.mouse_captured))]
        }
        // The items as every action reaches them (marks, focus), via `acting::targets`.
        Action::CopyLink | Action::CopyMessage | Action::CopyId | Action::OpenLink => {
            match acting::targets(state).as_deref() {
                Some([id]) => detail::item_action(state, id, action),
                Some(_) => {
                    info(state, "o opens one item's link: Esc clears the marks");
                    Vec::new()
                }
                None => Vec::new(),
            }
        }
        _ => return None,
    };
    Some(effects)
}

fn on_tick(state: &mut AppState, now: Timestamp) -> Vec<Effect> {
    let before = countdowns(state);
    let minute_changed = now.as_second() / 60 != state.now.as_second() / 60;
    state.now = now;
    let mut visible_change = minute_changed;
    if state.in_flight > 0 || state.list.querying() {
        state.spinner = state.spinner.wrapping_add(1);
        visible_change = true;
    }
    if state
        .note
        .as_ref()
        .and_then(|n| n.until)
        .is_some_and(|until| until <= now)
    {
        state.note = None;
        visible_change = true;
    }
    if state.wait.as_ref().is_some_and(|wait| wait.until <= now) {
        state.wait = None;
    }
    // A countdown on screen redraws when its second changes, and only then.
    visible_change |= countdowns(state) != before;
    let mut effects: Vec<Effect> = list::maybe_prefetch(state).into_iter().collect();
    effects.extend(sync::catch_up(state));
    effects.extend(sync::retry(state));
    effects.extend(sync::busy_retry(state));
    effects.extend(sync::auto_refresh(state));
    effects.extend(sync::background(state));
    effects.extend(triage::tick(state));
    effects.extend(saved_views::tick(state)); // The unseen counts, when the store changed
    effects.extend(insight::tick(state, now)); // Groups and trend, when due
    effects.extend(enrich::tick(state)); // The enrichment's progress
    // The preview's debounce and the type-ahead's end.
    let (more, changed) = reading::tick(state, now);
    effects.extend(more);
    visible_change |= changed;
    state.dirty = visible_change || !effects.is_empty();
    effects
}

/// The seconds the status bar's countdowns show (the wait's, and the rate-limit reset's when
/// the budget is shown), as of `state.now`.
fn countdowns(state: &AppState) -> (Option<u64>, Option<u64>) {
    let wait = state
        .wait
        .as_ref()
        .map(|w| feedback_core::clock::until(state.now, w.until).as_secs());
    let shown = state.rate.remaining.is_some() && state.rate.limit.is_some();
    let reset = shown
        .then(|| state.rate.seconds_to_reset(state.now))
        .flatten();
    (wait, reset)
}

fn quit(state: &mut AppState) -> Vec<Effect> {
    state.quit = true;
    Vec::new()
}

pub(super) fn after(now: Timestamp, seconds: u64) -> Timestamp {
    now.saturating_add(SignedDuration::from_secs(
        i64::try_from(seconds).unwrap_or(i64::MAX),
    ))
    .unwrap_or(now)
}
