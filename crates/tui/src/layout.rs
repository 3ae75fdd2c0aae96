//! Where the sidebar, the view bar, the trends panel, the list and the preview go for a state,
//! in cells: pure arithmetic of `AppState`. The drawing places its parts by it, the mouse
//! translation finds what a click lands on by it, and `update` sizes the list's viewport and
//! asks whether the preview has room by it.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::reading::{preview_on, sidebar_shown};
use crate::state::AppState;

/// Narrower than this, the side panes give way to the list.
pub(crate) const SIDEBAR_MIN_WIDTH: u16 = 80;
/// The preview needs this many columns of content (list and preview) to be shown.
const PREVIEW_MIN_CONTENT: u16 = 90;
/// The trends panel's height: borders and five lines (the sparkline, or the five groups).
pub(crate) const TRENDS_HEIGHT: u16 = 7;
/// Below this terminal height the panel does not show (the list keeps its rows).
pub(crate) const TRENDS_MIN_TERMINAL: u16 = 20;

/// The first column of the list area for a terminal `width` wide.
#[must_use]
pub fn list_left(width: u16) -> u16 {
    if width >= SIDEBAR_MIN_WIDTH {
        (width / 4).clamp(24, 36)
    } else {
        0
    }
}

/// Rows the trends panel takes above the list (0 when it is hidden or the terminal is short).
#[must_use]
pub(crate) fn trends_rows(state: &AppState) -> u16 {
    if state.insight.trends.is_some() && state.height >= TRENDS_MIN_TERMINAL {
        TRENDS_HEIGHT
    } else {
        0
    }
}

/// The screen's parts above the status bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    /// The side panes, when shown.
    pub side: Option<Rect>,
    /// Right of the sidebar: the list (and preview), the detail, or one pane.
    pub content: Rect,
    /// The view bar: the first row of `content`, over the list and the preview alike (so
    /// their tops line up), when the list is shown.
    pub bar: Option<Rect>,
    /// The trends panel under the view bar, over the list and the preview, when on.
    pub trends: Option<Rect>,
    /// The list's part of `content` (under the view bar and the trends panel).
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
pub(crate) fn areas_in(main: Rect, state: &AppState) -> Areas {
    let (side, content) = if sidebar_shown(state) {
        let side_width = list_left(state.width);
        let [side, content] =
            Layout::horizontal([Constraint::Length(side_width), Constraint::Min(1)]).areas(main);
        (Some(side), content)
    } else {
        (None, main)
    };
    let list_shown =
        state.detail.is_none() && (side.is_some() || state.focus == crate::state::Focus::List);
    if !list_shown {
        return Areas {
            side,
            content,
            bar: None,
            trends: None,
            list: content,
            preview: None,
        };
    }
    let (bar, trends, list, preview) = split_content(content, state);
    Areas {
        side,
        content,
        bar: Some(bar),
        trends: (trends.height > 0).then_some(trends),
        list,
        preview,
    }
}

/// The view bar over the whole content, the trends panel when on, then the list and (when on
/// and there is room) the preview side by side under them.
fn split_content(content: Rect, state: &AppState) -> (Rect, Rect, Rect, Option<Rect>) {
    let [bar, trends, rest] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(trends_rows(state)),
        Constraint::Min(1),
    ])
    .areas(content);
    if !(preview_on(state) && rest.width >= PREVIEW_MIN_CONTENT) {
        return (bar, trends, rest, None);
    }
    let preview_width = (rest.width * 2 / 5).clamp(40, 80);
    let [list, preview] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(preview_width)]).areas(rest);
    (bar, trends, list, Some(preview))
}

/// The list's body (its rows, inside the borders, under the header and above the search
/// prompt) as it is drawn when the list is shown, whatever covers it now: the list's viewport
/// and its clicks both come from here.
#[must_use]
pub(crate) fn list_body(state: &AppState) -> Rect {
    let main = Rect::new(0, 0, state.width, state.height.saturating_sub(1));
    let content = if sidebar_shown(state) {
        let side_width = list_left(state.width);
        Layout::horizontal([Constraint::Length(side_width), Constraint::Min(1)]).areas::<2>(main)[1]
    } else {
        main
    };
    let (_, _, list, _) = split_content(content, state);
    let prompt = u16::from(state.text_filter.is_some());
    Rect::new(
        list.x + 1,
        list.y + 2,
        list.width.saturating_sub(2),
        list.height.saturating_sub(3 + prompt),
    )
}
