//! Drilling down from the grouped view: `Enter` shows the list narrowed to the selected group
//! (a pane filter or a search term that lists exactly the group's items), and `Esc` on that
//! list comes back to the view and the groups as they were (one level).

use super::super::info;
use super::super::list::{self, Requery};
use crate::effect::{Effect, Remember};
use crate::insight::{Back, Narrow, append_search, narrow};
use crate::state::{AppState, Chosen};

/// Shows the list narrowed to the selected group; `Esc` goes back to the groups.
pub(super) fn narrow_to_selected(state: &mut AppState) -> Vec<Effect> {
    let Some(grouped) = &state.insight.grouped else {
        return Vec::new();
    };
    let Some(group) = grouped
        .pivot
        .as_ref()
        .and_then(|p| p.groups.get(grouped.selected))
    else {
        return Vec::new();
    };
    let label = group.text.name.clone();
    let how = match narrow(&grouped.by, group, state.view.tag.is_some()) {
        Ok(how) => how,
        Err(why) => {
            info(state, why);
            return Vec::new();
        }
    };
    let before = state.view_spec();
    let grouped = state.insight.grouped.take();
    match how {
        Narrow::App(value) => state.view.app = Some(Chosen { value, label }),
        Narrow::Tag(value) => state.view.tag = Some(Chosen { value, label }),
        Narrow::Search(extra) => {
            let mut spec = state.view_spec();
            spec.search = append_search(&spec.search, &extra).into();
            state.text_filter = None;
            super::super::restore_view(state, &spec);
        }
    }
    state.insight.back = grouped.map(|grouped| Back {
        before,
        narrowed: state.view_spec(),
        grouped,
    });
    show_view(state)
}

/// The list of the view the filters now say, queried and saved as the view.
fn show_view(state: &mut AppState) -> Vec<Effect> {
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    effects.push(list::requery(state, Requery::New));
    effects.push(Effect::Remember(Remember::View(state.view_spec())));
    effects
}

/// `Esc` on the list a group's `Enter` narrowed (still showing that view): the view before and
/// its groups come back, with the same pivot and selection. One level: it is then forgotten.
pub(super) fn back_to_groups(state: &mut AppState) -> Option<Vec<Effect>> {
    if state.detail.is_some() || !state.acting.marks.is_empty() {
        return None; // Esc closes the detail, or clears the marks, first.
    }
    let back = state.insight.back.take()?;
    if state.view != back.narrowed {
        return None;
    }
    state.text_filter = None;
    super::super::restore_view(state, &back.before);
    state.insight.grouped = Some(back.grouped);
    // The groups shown are of `before`: they are computed again (the store may have moved).
    state.insight.due = true;
    Some(show_view(state))
}
