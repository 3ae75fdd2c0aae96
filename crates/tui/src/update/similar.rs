//! The similar list in `update`. `S` asks the store (off the UI thread) for the items
//! like the selected one; its answer pins their keys in the list, best first, or says there are
//! none, or shows the store's error (the list untouched). Enter on a Top issues cluster pins the
//! cluster's keys. The list as it was is kept aside: `Esc` (or `q`) puts it back (and the Top issues
//! screen a cluster came from); a key that changes the view (1-9, `;`, `X`, `/`, `x`, `s`, `=`,
//! `T`, a pane) leaves the key set first, then does what it does to the list as it was.

use super::list::{self, Requery};
use super::{error, info};
use crate::action::Action;
use crate::effect::{Effect, Read};
use crate::failure::Failure;
use crate::similar::{self, Finding, Heading, KeySet, MAX_SHOWN, Saved, Shown};
use crate::state::{AppState, Focus};
use crate::top_issues::TopIssuesScreen;
use feedback_store::similar::Similar;

/// Actions that change the view: they leave a key set before they act.
const LEAVING: &[Action] = &[
    Action::FocusNext,
    Action::FocusPrev,
    Action::ClearFilter,
    Action::ToggleStatus,
    Action::Filter,
    Action::NextView,
    Action::ClearAll,
    Action::GroupBy,
    Action::TopIssues,
];

/// Before the other handlers: a key set is left by the keys that change the view (and by any
/// key once a pane has the focus, as a click can give it). Nothing is consumed.
pub(super) fn leave_for(state: &mut AppState, action: Action) {
    if state.similar.shown.is_none() || state.detail.is_some() {
        return;
    }
    let leaves = LEAVING.contains(&action) || matches!(action, Action::View(_));
    if leaves || state.focus != Focus::List {
        leave(state);
        state.top_issues = None;
        // The list as it was, read again on the next tick (the store may have changed).
        state.list.in_flight = None;
        state.sync.requery_due = true;
    }
}

/// `S` anywhere the list's keys reach, and `Esc` in a key set; `None` for the rest.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::Similar => Some(find(state)),
        // `q` too, as over the groups and Top issues: a key set is a step away from the list.
        Action::Back | Action::Quit if state.similar.shown.is_some() && state.detail.is_none() => {
            Some(back(state))
        }
        Action::Back if state.similar.finding.is_some() && state.detail.is_none() => {
            // Esc while finding: the answer is not wanted.
            state.similar.finding = None;
            drop_finding_note(state);
            Some(Vec::new())
        }
        _ => None,
    }
}

/// Asks for the items like the selected one (the open detail's item, in the detail).
fn find(state: &mut AppState) -> Vec<Effect> {
    let row = match &state.detail {
        Some(detail) => state.list.window.rows.iter().find(|r| *r.id == *detail.id),
        None => state.selected_row(),
    };
    let Some(row) = row else {
        state.dirty = false;
        return Vec::new();
    };
    let (key, quote) = (row.key, row.message.first_line());
    let request_id = state.request_id();
    super::notes::show(
        state,
        crate::state::Note {
            text: feedback_core::text::Clean::line(&format!(
                "{FINDING} \"{}\"…",
                feedback_core::width::truncate(&quote, similar::QUOTE_CELLS)
            )),
            error: false,
            until: None,
        },
    );
    state.similar.finding = Some(Finding {
        request_id,
        key,
        quote,
    });
    vec![Effect::Read(Read::FindSimilar {
        request_id,
        key,
        limit: MAX_SHOWN,
    })]
}

/// The status bar's note while `S` runs (it stays until the answer).
const FINDING: &str = "Finding items similar to";

/// Takes the finding note away, not a note something else put there since.
fn drop_finding_note(state: &mut AppState) {
    if state
        .note
        .as_ref()
        .is_some_and(|n| n.text.starts_with(FINDING))
    {
        state.note = None;
    }
}

/// The key of the item `S` would be about now.
fn asked_key(state: &AppState) -> Option<i64> {
    match &state.detail {
        Some(detail) => state
            .list
            .window
            .rows
            .iter()
            .find(|r| *r.id == *detail.id)
            .map(|r| r.key),
        None => state.list.keys.get(state.list.selected).copied(),
    }
}

/// The store's answer to `S`: dropped when stale (a newer `S`, `Esc`, or the selection moved
/// to another item), else the key set shown, or why not.
pub(super) fn found(
    state: &mut AppState,
    request_id: u64,
    result: Result<Option<Box<Similar>>, Failure>,
) -> Vec<Effect> {
    let current = state
        .similar
        .finding
        .as_ref()
        .is_some_and(|f| f.request_id == request_id);
    let Some(finding) = state.similar.finding.take_if(|_| current) else {
        state.dirty = false;
        return Vec::new();
    };
    if asked_key(state) != Some(finding.key) {
        drop_finding_note(state);
        return Vec::new();
    }
    let quote = feedback_core::width::truncate(&finding.quote, similar::QUOTE_CELLS);
    match result {
        Err(message) => {
            error(state, format!("Cannot find similar items: {message}"));
            Vec::new()
        }
        Ok(None) => {
            info(state, "That item is no longer stored");
            Vec::new()
        }
        Ok(Some(found)) => match similar::from_similar(finding.quote, *found) {
            None => {
                info(state, format!("No other stored item is like \"{quote}\""));
                Vec::new()
            }
            Some(set) => {
                drop_finding_note(state);
                show(state, set, None)
            }
        },
    }
}

/// Enter on the Top issues screen: its selected cluster's items, newest first.
pub(super) fn open_cluster(state: &mut AppState) -> Vec<Effect> {
    let Some(screen) = state.top_issues.as_ref() else {
        return Vec::new();
    };
    let cluster = screen
        .result
        .as_ref()
        .and_then(|t| t.clusters.get(screen.selected));
    let Some(cluster) = cluster.filter(|c| !c.keys.is_empty()) else {
        state.dirty = false;
        return Vec::new();
    };
    let set = KeySet {
        keys: cluster.keys.iter().copied().collect(),
        shown: Shown {
            highlights: feedback_core::query::Highlights::default(),
            heading: Heading::Cluster {
                quote: cluster.quote.clone(),
                count: cluster.keys.len(),
            },
        },
    };
    let screen = state.top_issues.take();
    show(state, set, screen)
}

/// Pins `set` in the list (from its top), keeping the list as it was for `Esc` unless a key set
/// already keeps it.
fn show(state: &mut AppState, set: KeySet, from: Option<TopIssuesScreen>) -> Vec<Effect> {
    let detail = state.detail.take();
    if state.similar.saved.is_none() {
        state.similar.saved = Some(Box::new(Saved {
            list: state.list.clone(),
            detail,
            top_issues: from,
        }));
    }
    state.view.pinned = Some(set.keys);
    state.similar.shown = Some(set.shown);
    state.focus = Focus::List;
    state.list.selected = 0;
    state.list.offset = 0;
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    effects.push(list::requery(state, Requery::New));
    effects
}

/// Puts the list as it was back (and the detail and Top issues screen it was left from).
fn leave(state: &mut AppState) {
    state.similar.shown = None;
    state.view.pinned = None;
    state.similar.finding = None;
    if let Some(saved) = state.similar.saved.take() {
        let Saved {
            list,
            detail,
            top_issues,
        } = *saved;
        state.list = list;
        state.detail = detail;
        state.top_issues = top_issues;
    }
}

/// `Esc` in a key set: back to the list as it was, read again where it was.
fn back(state: &mut AppState) -> Vec<Effect> {
    leave(state);
    state.focus = Focus::List;
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    effects.push(list::requery(state, Requery::Same));
    effects
}
