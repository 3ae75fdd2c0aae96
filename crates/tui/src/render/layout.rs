//! What a click selects on the screen as drawn: the areas of `tui::layout`, and within the
//! sidebar the panes' entries where `panes` draws them.

use crate::layout::{areas, list_body};
use crate::state::AppState;

/// What a click at (`column`, `row`) selects: a side pane's entry, or a list row (counted
/// from the list body's first row); nothing on the preview, the borders, the header or the
/// status bar.
#[must_use]
pub(crate) fn click_target(state: &AppState, column: u16, row: u16) -> Option<crate::action::Msg> {
    use crate::action::Msg;
    use crate::state::Focus;
    let areas = areas(state);
    let at = ratatui::layout::Position::new(column, row);
    let pane_alone = areas.side.is_none() && state.focus != Focus::List;
    if pane_alone {
        return areas.content.contains(at).then(|| {
            super::panes::entry_at(state, state.focus, areas.content, row).map(|entry| {
                Msg::ClickPane {
                    pane: state.focus,
                    entry,
                }
            })
        })?;
    }
    if let Some(side) = areas.side.filter(|s| s.contains(at)) {
        let panes = super::panes::areas(side, state);
        let (focus, rect) = panes.into_iter().find(|(_, r)| r.contains(at))?;
        let entry = super::panes::entry_at(state, focus, rect, row)?;
        return Some(Msg::ClickPane { pane: focus, entry });
    }
    areas.bar?;
    let body = list_body(state);
    body.contains(at).then(|| Msg::ClickRow(row - body.y))
}
