//! Triage keys (`u` seen, `*` star, `d` done, `z` snooze, `N` note, `U` undo) and what their
//! answers change. A key sends the write (`Write::Triage`, for a set of item ids: the marked
//! items, else the selected one, in one transaction); the rows change only when
//! `Msg::Triaged` says it committed, in the triage overlay (`tui::overlay`), which the rows, the
//! detail and the unseen count read. A done or snooze change (or any change under a search
//! naming a triage qualifier) reads the view again; seen, star and note need no query. The
//! selection moves on after a change that takes the item out of the view, when configured.
//! `U` (`update::undo`) makes the inverse of the last action's change, of that one field per
//! item. An item in sight for `seen_delay` is marked seen (`seen`); the view
//! is read again when another window's triage moved the store's count (read at each refresh
//! attempt and `r`), and when the earliest snooze ends.

use super::sync::triage_changed;

use super::{error, info};
use crate::action::{Action, TriageFigures};
use crate::effect::{Effect, Handover, Write};
use crate::failure::Failure;
use crate::state::AppState;
use crate::triage::{Cause, NoteEditor, SnoozePicker, Triaged};
use feedback_store::{Revs, Triage, TriageChange};

/// The triage actions; `None` for the other actions.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let make: fn(&Triage) -> (TriageChange, &'static str) = match action {
        Action::ToggleSeen => |t| {
            if t.seen {
                (TriageChange::Seen(false), "marked unseen")
            } else {
                (TriageChange::Seen(true), "marked seen")
            }
        },
        Action::ToggleStar => |t| {
            if t.starred {
                (TriageChange::Starred(false), "unstarred")
            } else {
                (TriageChange::Starred(true), "starred")
            }
        },
        Action::ToggleDone => |t| {
            if t.done {
                (TriageChange::Done(false), "marked not done")
            } else {
                (TriageChange::Done(true), "marked done")
            }
        },
        Action::Snooze => return Some(open_picker(state)),
        Action::EditNote => return Some(open_note(state)),
        Action::UndoTriage => return Some(super::undo::undo(state)),
        _ => return None,
    };
    let Some(ids) = targets(state) else {
        return Some(Vec::new());
    };
    // Many items: a toggle sets the state unless every one has it already (then clears it).
    let (change, what) = make(&all_of(state, &ids));
    Some(vec![send(state, ids, change, Cause::Key, what.to_owned())])
}

/// The items an action applies to: the open detail's, else the marked ones, else the
/// selected row's. `None`, with a note, when there is none.
pub(super) fn targets(state: &mut AppState) -> Option<Vec<String>> {
    super::acting::targets(state)
}

/// The state the items share: a flag is set only when every item has it.
fn all_of(state: &AppState, ids: &[String]) -> Triage {
    let mut states = ids.iter().map(|id| current(state, id));
    let mut all = states.next().unwrap_or_default();
    for t in states {
        all.seen &= t.seen;
        all.starred &= t.starred;
        all.done &= t.done;
    }
    all
}

/// An item's state as it will be once the writes in flight commit.
pub(super) fn current(state: &AppState, id: &str) -> Triage {
    state.triage.overlay.next(id)
}

/// The write of `change` to `ids`.
pub(super) fn send(
    state: &mut AppState,
    ids: Vec<String>,
    change: TriageChange,
    cause: Cause,
    what: String,
) -> Effect {
    for id in &ids {
        let next = change.apply(&current(state, id));
        state.triage.overlay.writing(id, next);
    }
    state.triage.writing += 1;
    Effect::Write(Write::Triage {
        ids,
        change,
        at: state.now,
        cause,
        what,
        team: state.team.as_ref().map(|t| t.member.clone()),
    })
}

/// A triage write's answer: the rows show the new states, the step is kept for `U`, the
/// selection moves on, and the view is read again.
pub(super) fn triaged(state: &mut AppState, result: Result<Box<Triaged>, Failure>) -> Vec<Effect> {
    let triage = &mut state.triage;
    triage.writing = triage.writing.saturating_sub(1);
    if triage.writing == 0 {
        triage.overlay.settled();
    }
    let done = match result {
        Ok(done) => done,
        Err(message) => {
            // A `U` waiting was meant for this action, which did not happen: not for the one
            // before it.
            super::undo::forget_waiting(state);
            error(state, format!("Triage not saved: {message}"));
            return Vec::new();
        }
    };
    let patched = in_place(state, &done);
    // `after` is made from `before`, item by item, in its order.
    for ((id, before), (_, after)) in done.before.iter().zip(&done.after) {
        state.triage.overlay.commit(id, before, after.clone());
    }
    let mut effects = Vec::new();
    match done.cause {
        Cause::Key | Cause::All => {
            if let Some(step) = super::undo::triage_step(&done) {
                super::undo::keep(state, step);
            }
            note(state, &done);
            if done.cause == Cause::Key {
                effects.extend(advance(state, &done));
            }
        }
        Cause::Undo => info(state, done.what.clone()),
        Cause::Shown => {}
    }
    if !patched {
        effects.extend(triage_changed(state));
    }
    effects.extend(super::undo::waiting(state));
    effects
}

/// A seen, star or note change under a search that names no triage qualifier moves no item
/// in or out of the view: the overlay shows it and counts it, and the view is not read again.
/// False (a query is due) for other changes, or items not among the rows.
fn in_place(state: &mut AppState, done: &Triaged) -> bool {
    // A query in flight may have read the store before this write: its answer is followed.
    // An item that was woken goes back to its place in the view's order.
    let now = state.now;
    if done.hides
        || done.before.iter().any(|(_, t)| t.woke(now).is_some())
        || state.list.querying()
        || state
            .view
            .search
            .query()
            .is_some_and(feedback_core::query::Query::names_triage)
    {
        return false;
    }
    let rows = &state.list.window.rows;
    if !done
        .before
        .iter()
        .all(|(id, _)| rows.iter().any(|r| *r.id == **id))
    {
        return false;
    }
    let triage = &mut state.triage;
    // Only this window wrote since the count was read: it stays current.
    if done.rev == triage.rev + 1 {
        triage.rev = done.rev;
    }
    true
}

fn note(state: &mut AppState, done: &Triaged) {
    let count = done.after.len();
    let items = feedback_core::text::output::counted(count, "item");
    let mut text = format!("{} {items}; U undoes", capital(&done.what));
    if state.triage.memory_only && !state.triage.memory_said {
        state.triage.memory_said = true;
        text.push_str(" (--no-store: triage is kept in memory only)");
    }
    info(state, text);
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The selection moves to the next item after an action that takes the selected one out of
/// the view (done, snooze), when configured; after the others (seen, star, a note) it stays, so
/// that a sequence of keys meant for one item lands on it (not in the detail: it stays on its
/// item).
fn advance(state: &mut AppState, done: &Triaged) -> Vec<Effect> {
    // Not after an action on marked items: the selection is not what was acted on.
    if !state.triage.advance
        || !done.hides
        || state.detail.is_some()
        || !state.acting.marks.is_empty()
    {
        return Vec::new();
    }
    let selected = state.selected_row().map(|r| r.id.to_string());
    if selected.is_some_and(|id| done.after.iter().any(|(x, _)| *x == id)) {
        return super::list::move_by(state, 1);
    }
    Vec::new()
}

/// The figures a view query read: triage count, next snooze end, item write count (its unseen
/// count goes to the overlay with the rows).
pub(super) fn figures(state: &mut AppState, figures: TriageFigures) {
    let triage = &mut state.triage;
    triage.rev = figures.rev;
    triage.next_wake = figures.next_wake;
    state.sync.items_rev = figures.items_rev;
}

/// The store's write counts after a refresh: when another process stored items, read the view
/// again as after a sync (what it stored counts as new); when it only triaged, as after triage.
pub(super) fn rev_read(state: &mut AppState, result: Result<Revs, Failure>) -> Vec<Effect> {
    match result {
        Ok(revs) if revs.items != state.sync.items_rev => {
            state.sync.items_rev = revs.items;
            state.triage.rev = revs.triage;
            super::sync::store_changed(state).into_iter().collect()
        }
        Ok(revs) if revs.triage != state.triage.rev => {
            state.triage.rev = revs.triage;
            triage_changed(state).into_iter().collect()
        }
        Ok(_) => {
            state.dirty = false;
            Vec::new()
        }
        Err(message) => {
            error(state, format!("Cannot read the store: {message}"));
            Vec::new()
        }
    }
}

/// A tick: a detail shown long enough is marked seen; a snooze that ended brings its item back.
pub(super) fn tick(state: &mut AppState) -> Vec<Effect> {
    let mut effects: Vec<Effect> = super::seen::tick(state).into_iter().collect();
    if state.triage.next_wake.is_some_and(|at| at <= state.now) {
        state.triage.next_wake = None;
        effects.extend(triage_changed(state));
    }
    effects
}

/// The external editor's answer: a changed note is written like a typed one.
pub(super) fn note_edited(
    state: &mut AppState,
    ids: Vec<String>,
    result: Result<Option<String>, String>,
) -> Vec<Effect> {
    state.triage.editing_outside = false;
    match result {
        Ok(Some(note)) => {
            let (kept, cut) = feedback_store::capped_note(&note);
            let what = if kept.trim().is_empty() {
                "note removed from".to_owned()
            } else if cut {
                format!("noted ({})", super::triage_input::CUT_NOTE)
            } else {
                "noted".to_owned()
            };
            let note = TriageChange::Note(Some(kept.to_owned()));
            vec![send(state, ids, note, Cause::Key, what)]
        }
        Ok(None) => {
            info(state, "Note unchanged");
            Vec::new()
        }
        Err(message) => {
            error(state, message);
            Vec::new()
        }
    }
}

fn open_picker(state: &mut AppState) -> Vec<Effect> {
    if let Some(ids) = targets(state) {
        state.triage.picker = Some(SnoozePicker {
            ids,
            ..SnoozePicker::default()
        });
    }
    Vec::new()
}

fn open_note(state: &mut AppState) -> Vec<Effect> {
    let Some(ids) = targets(state) else {
        return Vec::new();
    };
    if state.triage.external_editor {
        state.triage.editing_outside = true;
        let text = current(state, &ids[0]).note.unwrap_or_default();
        return vec![Effect::Terminal(Handover::EditNote { ids, text })];
    }
    // The editor draws what it holds: a stored note's control characters come in as their
    // visible stand-ins (saving keeps those).
    let note = current(state, &ids[0]).note.unwrap_or_default();
    let stored = feedback_core::text::sanitize(&note).into_owned();
    let draft = state.triage.drafts.get(&ids).cloned();
    let text = draft.as_deref().unwrap_or(&stored);
    let mut area = ratatui_textarea::TextArea::from(text.lines());
    area.move_cursor(ratatui_textarea::CursorMove::Bottom);
    area.move_cursor(ratatui_textarea::CursorMove::End);
    state.triage.note = Some(NoteEditor {
        ids,
        area,
        stored,
        draft: draft.is_some(),
    });
    Vec::new()
}
