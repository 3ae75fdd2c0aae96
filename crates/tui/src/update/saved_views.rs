//! Saved views in `update`: `1`–`9` and `;` switch views, `X` clears every filter and the
//! search (back to the Inbox view), `:save-view NAME` writes the filters into `config.toml`, and
//! the views' unseen counts are asked for (off the UI thread) when the store changed, at most
//! once every [`COUNT_EVERY_SECONDS`], one count at a time.

use jiff::SignedDuration;

use super::list::{self, Requery};
use super::{error, info};
use crate::action::{Action, Msg};
use crate::effect::{Count, Effect, Local, Remember};
use crate::failure::Failure;
use crate::saved_views::{COUNT_EVERY_SECONDS, COUNT_REST_FACTOR, Shown, View};
use crate::state::{AppState, Chosen, Focus, ViewSpec};
use feedback_config::views::{Labelled, SavedView, name_problem};
use feedback_core::text::Clean;

/// The views' actions (and the palette's key); `None` for the other actions.
pub(super) fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let effects = match action {
        Action::Palette => super::palette::open(state),
        // In the detail only the palette: the detail's keys are its own.
        _ if state.detail.is_some() => return None,
        Action::View(n) => switch(state, usize::from(n).saturating_sub(1)),
        Action::NextView => {
            let len = state.views.views.len().max(1);
            let next = match state.views.shown(&state.view) {
                Shown::View(n) | Shown::Modified(n) => (n + 1) % len,
                Shown::Custom => 0,
            };
            switch(state, next)
        }
        Action::ClearAll => {
            let effects = switch(state, 0);
            info(state, "Every filter and the search cleared (Inbox)");
            effects
        }
        _ => return None,
    };
    Some(effects)
}

/// Shows the view at position `n`: its status, pane filters and search, the list from its top.
pub(super) fn switch(state: &mut AppState, n: usize) -> Vec<Effect> {
    let Some(view) = state.views.views.get(n).cloned() else {
        let count = state.views.views.len();
        info(state, format!("No view {} (there are {count})", n + 1));
        return Vec::new();
    };
    state.detail = None;
    state.focus = Focus::List;
    let status_changed = state.view.listed() != view.spec.listed();
    let project_changed = state.view.project.as_ref().map(|c| &c.value)
        != view.spec.project.as_ref().map(|c| &c.value);
    let spec = ViewSpec {
        project: labelled(&state.projects, view.spec.project.as_ref()),
        app: labelled(&state.apps, view.spec.app.as_ref()),
        tag: labelled(&state.tags, view.spec.tag.as_ref()),
        ..view.spec.clone()
    };
    state.text_filter = None;
    super::restore_view(state, &spec);
    state.views.active = Some(n);
    info(state, format!("View: {}", view.name));
    let mut effects: Vec<Effect> = list::fit_viewport(state).into_iter().collect();
    if status_changed {
        super::sync::status_changed(state);
    }
    effects.push(list::requery(state, Requery::New));
    if status_changed || project_changed {
        effects.push(super::panes::load(state));
    }
    effects.push(Effect::Remember(Remember::View(state.view_spec())));
    if status_changed {
        effects.extend(super::sync::head_once(state));
    }
    effects
}

/// A view's filter with the label its pane shows for that value (a view from the config file
/// knows only the value).
fn labelled(pane: &crate::state::Pane, chosen: Option<&Chosen>) -> Option<Chosen> {
    let chosen = chosen?;
    let label = pane
        .entries
        .iter()
        .find(|e| e.value == chosen.value)
        .map_or_else(|| chosen.label.clone(), |e| e.label.clone());
    Some(Chosen {
        value: chosen.value.clone(),
        label,
    })
}

/// Before a message is applied: does it change what the views count?
pub(super) fn observe(state: &mut AppState, msg: &Msg) {
    state.views.due |= store_changed(state, msg);
}

/// Does `msg` say the store changed what a view holds? (Triage written here or by another
/// window, items stored by a sync, an arrival or a detail fetch, a snooze that ends.)
pub(super) fn store_changed(state: &AppState, msg: &Msg) -> bool {
    match msg {
        // A fetched detail may bring a new status or tags.
        Msg::Triaged(Ok(_)) | Msg::Arrived(Ok(true)) | Msg::DetailLoaded { result: Ok(_), .. } => {
            true
        }
        Msg::StoreRevs(Ok(revs)) => {
            revs.triage != state.triage.rev || revs.items != state.sync.items_rev
        }
        Msg::Synced {
            result: Ok(synced), ..
        } => synced.added + synced.changed > 0,
        Msg::Tick(now) => state.triage.next_wake.is_some_and(|at| at <= *now),
        _ => false,
    }
}

/// A tick: the views are counted when the store changed, no count is in flight, and the last
/// one was asked for long enough ago.
pub(super) fn tick(state: &mut AppState) -> Option<Effect> {
    let views = &state.views;
    let rest = views
        .rest
        .max(SignedDuration::from_secs(COUNT_EVERY_SECONDS));
    let rested = views
        .counted_at
        .is_none_or(|at| state.now.duration_since(at) >= rest);
    if !views.due || views.counting.is_some() || !rested {
        return None;
    }
    let request_id = state.request_id();
    let views = &mut state.views;
    views.due = false;
    views.counting = Some(request_id);
    views.counted_at = Some(state.now);
    Some(Effect::Count(Count::CountViews {
        request_id,
        specs: views.views.iter().map(|v| v.spec.clone()).collect(),
        now: state.now,
    }))
}

/// The counts arrived (a stale answer, for a list of views since changed, is dropped).
pub(super) fn counted(
    state: &mut AppState,
    request_id: u64,
    result: Result<Vec<Option<usize>>, Failure>,
    took: std::time::Duration,
) {
    if state.views.counting != Some(request_id) {
        state.dirty = false;
        return;
    }
    state.views.counting = None;
    state.views.rest = SignedDuration::try_from(took.saturating_mul(COUNT_REST_FACTOR))
        .unwrap_or(SignedDuration::MAX);
    match result {
        Ok(counts) if counts.len() == state.views.views.len() => state.views.counts = counts,
        // A view was added while counting: counted again at the next tick.
        Ok(_) => state.views.due = true,
        Err(_) => state.views.counts = vec![None; state.views.views.len()],
    }
}

/// `save-view NAME`: the current filters into the config file (off the UI thread).
pub(super) fn save(state: &mut AppState, name: &str) -> Result<Vec<Effect>, String> {
    if let Some(problem) = name_problem(name) {
        return Err(problem);
    }
    let Some(path) = state.views.config_path.clone() else {
        return Err("no config file to save into (give one with --config)".to_owned());
    };
    if state.views.saving {
        return Err("a view is being saved; try again in a moment".to_owned());
    }
    let spec = &state.view;
    let labelled = |c: &Option<Chosen>| {
        c.as_ref().map(|c| Labelled {
            value: c.value.clone(),
            label: c.label.to_string(),
        })
    };
    let view = SavedView {
        name: name.to_owned(),
        query: spec.search.trim().to_owned(),
        status: spec.status.as_str().to_owned(),
        project: labelled(&spec.project),
        app: labelled(&spec.app),
        tag: labelled(&spec.tag),
    };
    state.views.saving = true;
    Ok(vec![Effect::WriteView { path, view }])
}

/// The config file was written (the view is listed and active, and `view:` names it), or why
/// not.
pub(super) fn written(
    state: &mut AppState,
    view: SavedView,
    result: Result<(), String>,
) -> Vec<Effect> {
    state.views.saving = false;
    let shown = Clean::line(&view.name);
    if let Err(message) = result {
        error(state, format!("Cannot save view {shown}: {message}"));
        return Vec::new();
    }
    let chosen = |c: Option<Labelled>| {
        c.map(|c| Chosen {
            value: c.value,
            label: Clean::line(&c.label),
        })
    };
    let n = state.views.put(View {
        name: shown.clone(),
        spec: ViewSpec {
            status: view.status.as_str().into(),
            project: chosen(view.project),
            app: chosen(view.app),
            tag: chosen(view.tag),
            search: view.query.into(),
            pinned: None,
        },
    });
    state.views.active = Some(n);
    state.views.due = true;
    let place = state
        .views
        .config_path
        .as_ref()
        .map(|p| format!(" in {}", Clean::line(&p.display().to_string())))
        .unwrap_or_default();
    info(state, format!("Saved view {} {shown}{place}", n + 1));
    vec![Effect::Local(Local::ViewsChanged(state.views.shared()))]
}
