//! Where the sidebar, the list and the preview go for a state: one function, used by the
//! drawing and by the mouse translation (a click lands on what is drawn there).

use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::reading::{preview_on, sidebar_shown};
use crate::tui::state::AppState;

/// The preview needs this many columns of content (list and preview) to be shown.
const PREVIEW_MIN_CONTENT: u16 = 90;

/// The screen's parts above the status bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// The side panes, when shown.
    pub side: Option<Rect>,
    /// Right of the sidebar: the list (and preview), the detail, or one pane.
    pub content: Rect,
    /// The list's part of `content`.
    pub list: Rect,
    /// The preview's part of `content`, when shown.
    pub preview: Option<Rect>,
}

/// The areas for `state` on a screen of its size.
#[must_use]
pub fn areas(state: &AppState) -> Areas {
    areas_in(
        Rect::new(0, 0, state.width, state.height.saturating_sub(1)),
        state,
    )
}

/// The areas for `state` in `main`, the screen above the status bar.
#[must_use]
pub fn areas_in(main: Rect, state: &AppState) -> Areas {
    let (side, content) = if sidebar_shown(state) {
        let side_width = super::list_left(state.width);
        let [side, content] =
            Layout::horizontal([Constraint::Length(side_width), Constraint::Min(1)]).areas(main);
        (Some(side), content)
    } else {
        (None, main)
    };
    let list_shown =
        state.detail.is_none() && (side.is_some() || state.focus == crate::tui::state::Focus::List);
    if !(list_shown && preview_on(state) && content.width >= PREVIEW_MIN_CONTENT) {
        return Areas {
            side,
            content,
            list: content,
            preview: None,
        };
    }
    let preview_width = (content.width * 2 / 5).clamp(40, 80);
    let [list, preview] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(preview_width)]).areas(content);
    Areas {
        side,
        content,
        list,
        preview: Some(preview),
    }
}

/// What a click at (`column`, `row`) selects: a side pane's entry, or a list row; nothing on
/// the preview, the borders or the status bar.
#[must_use]
pub fn click_target(state: &AppState, column: u16, row: u16) -> Option<crate::tui::action::Msg> {
    use crate::tui::action::Msg;
    use crate::tui::state::Focus;
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
    areas.list.contains(at).then_some(Msg::ClickRow(row))
}
