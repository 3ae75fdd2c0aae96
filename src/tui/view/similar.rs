//! The list's title while it shows a key set (`S`'s similar items, a Top issues cluster): what
//! the list is, sanitized and cut to the list's width, and the position of the selection.

use ratatui::text::{Line, Span};

use super::list::thousands;
use super::theme::Theme;
use crate::tui::similar::heading_text;
use crate::tui::state::AppState;

/// The title for a list `width` cells wide (borders included), when a key set is shown.
pub(super) fn title(state: &AppState, width: u16, theme: Theme) -> Option<Line<'static>> {
    let shown = state.similar.shown.as_ref()?;
    let list = &state.list;
    let rows = if list.shown.as_ref() == Some(&state.view_spec()) {
        list.keys.len()
    } else {
        shown.keys.len()
    };
    let position = if rows > 0 {
        format!(" {}/{} ", thousands(list.selected + 1), thousands(rows))
    } else {
        String::new()
    };
    // Two border cells, a space either side of the heading, the position.
    let room = usize::from(width)
        .saturating_sub(4 + crate::width::width(&position))
        .max(1);
    let heading = crate::width::truncate(&heading_text(&shown.heading, rows), room);
    Some(Line::from(vec![
        Span::styled(format!(" {heading} "), theme.active()),
        Span::styled(position, theme.dim()),
    ]))
}
