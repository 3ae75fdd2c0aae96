//! The list's title while it shows a key set (`S`'s similar items, a Top issues cluster): what
//! the list is, sanitized and cut to the list's width, and the position of the selection.

use ratatui::text::{Line, Span};

use super::list::thousands;
use super::theme::Theme;
use crate::similar::heading_text;
use crate::state::AppState;
use feedback_core::width::width as width_of;

/// The title for a list `width` cells wide (borders included), when a key set is shown: the
/// heading, cut to fit, then the selection's position when there is room for it.
pub(super) fn title(state: &AppState, width: u16, theme: Theme) -> Option<Line<'static>> {
    let shown = state.similar.shown.as_ref()?;
    let list = &state.list;
    let rows = if list.shown.as_ref() == Some(&state.view) {
        list.keys.len()
    } else {
        state.view.pinned.as_ref().map_or(0, |keys| keys.len())
    };
    // The position when the whole heading fits beside it: the heading goes first.
    let full = heading_text(&shown.heading, rows, usize::from(u16::MAX));
    let room = usize::from(width).saturating_sub(4).max(1);
    let position = format!(" {}/{} ", thousands(list.selected + 1), thousands(rows));
    let position = if rows > 0 && width_of(&full) + width_of(&position) <= room {
        position
    } else {
        String::new()
    };
    let heading = heading_text(
        &shown.heading,
        rows,
        room.saturating_sub(width_of(&position)),
    );
    Some(Line::from(vec![
        Span::styled(format!(" {heading} "), theme.active()),
        Span::styled(position, theme.dim()),
    ]))
}
