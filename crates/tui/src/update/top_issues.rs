//! The Top issues screen's part of `update`: `T` opens it for the current view and
//! asks for the clusters (computed off the UI thread); while open it takes the keys: moving
//! chooses a cluster, `?` shows the help over it, `Esc` (or `q`, or `T` again) goes back to the
//! list. Progress and answers of an older request are dropped.

use crate::action::Action;
use crate::effect::Effect;
use crate::failure::Failure;
use crate::state::AppState;
use crate::top_issues::TopIssuesScreen;
use feedback_store::similar::TopIssues;

/// The screen's keys while it is open, and `T`; `None` for the others (they go on as usual).
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let Some(screen) = state.top_issues.as_mut() else {
        return (action == Action::TopIssues).then(|| open(state));
    };
    match action {
        Action::Back | Action::Quit | Action::TopIssues => state.top_issues = None,
        // The help overlay opens over the screen; closing it comes back here.
        Action::Help => state.help = true,
        // The cluster's items in the list.
        Action::Open => return Some(super::similar::open_cluster(state)),
        Action::MoveDown | Action::NextItem => screen.move_by(1),
        Action::MoveUp | Action::PrevItem => screen.move_by(-1),
        Action::PageDown => screen.move_by(10),
        Action::PageUp => screen.move_by(-10),
        Action::Top => screen.move_by(isize::MIN),
        Action::Bottom => screen.move_by(isize::MAX),
        // Anything else would act on the list under the screen, out of sight.
        _ => state.dirty = false,
    }
    Some(Vec::new())
}

fn open(state: &mut AppState) -> Vec<Effect> {
    let request_id = state.request_id();
    state.top_issues = Some(TopIssuesScreen::computing(request_id));
    vec![Effect::TopIssues {
        request_id,
        spec: state.view_spec(),
        now: state.now,
    }]
}

pub(super) fn progress(state: &mut AppState, request_id: u64, percent: u8) -> Vec<Effect> {
    let changed = state
        .top_issues
        .as_mut()
        .is_some_and(|s| s.on_progress(request_id, percent));
    state.dirty = changed;
    Vec::new()
}

pub(super) fn loaded(
    state: &mut AppState,
    request_id: u64,
    result: Result<Box<TopIssues>, Failure>,
) -> Vec<Effect> {
    let changed = state
        .top_issues
        .as_mut()
        .is_some_and(|s| s.on_loaded(request_id, result.map(|t| *t)));
    state.dirty = changed;
    Vec::new()
}
