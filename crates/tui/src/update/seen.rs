//! Marking seen by reading: the item in sight (the open detail's, else the one the preview
//! shows) is marked seen once it has been in sight for `seen_delay`, counted tick to tick and
//! only while nothing covers it; each stay in sight marks at most once.

use jiff::SignedDuration;

use super::triage::{current, send};
use crate::effect::Effect;
use crate::state::AppState;
use crate::triage::{Cause, MAX_SEEN_STEP, SeenTimer};
use feedback_store::TriageChange;

/// The item whose text is in sight: the open detail's, else the selected row's while the
/// preview beside the list shows it; `None` while something covers it (help, a picker, the
/// palette, the note editor, `$EDITOR`, the Top issues screen).
fn in_sight(state: &AppState) -> Option<String> {
    let covered = state.help
        || state.fatal.is_some()
        || state.triage.picker.is_some()
        || state.triage.note.is_some()
        || state.triage.editing_outside
        || state.palette.is_some()
        || state.acting.picker.is_some()
        || state.insight.picker.is_some()
        || state.top_issues.is_some();
    if covered {
        return None;
    }
    if let Some(detail) = &state.detail {
        return Some(detail.id.clone());
    }
    crate::layout::areas(state)
        .preview
        .and(state.selected_row())
        .map(|row| row.id.to_string())
}

/// Counts the time in sight of the item being read (in the detail or the preview); once it
/// reaches the delay, the item is marked seen (unless it is). Each stay in sight marks at
/// most once: a `u` while still reading it stays.
pub(super) fn tick(state: &mut AppState) -> Option<Effect> {
    let sight = in_sight(state);
    let now = state.now;
    let preview_item = state.detail.is_none().then(|| sight.clone()).flatten();
    let timer = &mut state.triage.seen_timer;
    match (timer.as_mut(), &sight) {
        (Some(timer), Some(id)) if &timer.id == id => {}
        (Some(timer), None) if state.detail.as_ref().is_some_and(|d| d.id == timer.id) => {
            // Covered: the time stops until the detail is in sight again.
            timer.last = None;
            return None;
        }
        _ => {
            // A new item in the preview starts its own count; the detail's starts when opened.
            *timer = preview_item.map(|id| SeenTimer {
                id,
                shown: SignedDuration::ZERO,
                last: None,
                spent: false,
            });
        }
    }
    let timer = state.triage.seen_timer.as_mut()?;
    if timer.spent {
        return None;
    }
    if let Some(last) = timer.last {
        timer.shown += now
            .duration_since(last)
            .clamp(SignedDuration::ZERO, MAX_SEEN_STEP);
    }
    timer.last = Some(now);
    if timer.shown < state.triage.seen_delay {
        return None;
    }
    timer.spent = true;
    let id = timer.id.clone();
    let change = TriageChange::Seen(true);
    // A woken item already seen before its snooze is marked again: that it was read since it
    // woke is what takes it off the top.
    let known = current(state, &id);
    (!known.seen || known.woke(now).is_some())
        .then(|| send(state, vec![id], change, Cause::Shown, "seen".into()))
}

/// A detail was opened: it counts as seen once in sight for the configured delay.
pub(super) fn detail_opened(state: &mut AppState) {
    state.triage.seen_timer = state.detail.as_ref().map(|detail| SeenTimer {
        id: detail.id.clone(),
        shown: SignedDuration::ZERO,
        last: None,
        spent: false,
    });
}
