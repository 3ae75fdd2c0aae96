//! The preview pane beside the list: the selected item's detail drawn as the detail view draws
//! it (the same lines, wrapped to the narrower pane), from what is known of it; the list's own
//! fields while its stored detail is being read, after the selection rests.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::theme::Theme;
use crate::state::AppState;

pub(super) fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(false))
        .title(" Preview ");
    let inner = block.inner(area);
    let Some(row) = state.selected_row() else {
        let text = if state.list.keys.is_empty() {
            "nothing selected"
        } else {
            "loading…"
        };
        frame.render_widget(
            Paragraph::new(Line::styled(text, theme.dim())).block(block),
            area,
        );
        return;
    };
    if let Some(position) = super::detail::position(state, &row.id) {
        block = block.title(Line::styled(format!(" {position} "), theme.dim()).right_aligned());
    }
    let lines = match state.details.get(&*row.id) {
        Some(known) => {
            if known.fetched.is_none() {
                block = block.title_bottom(Line::styled(" list fields only ", theme.dim()));
            }
            // Privacy mode masks here as in the detail view.
            let detail = crate::privacy::detail(&known.detail, state.acting.privacy);
            super::detail::lines(&detail, state, theme, usize::from(inner.width))
        }
        None => {
            // The list's fields until the stored detail is read.
            let mut lines: Vec<Line<'static>> = row
                .message
                .lines()
                // A clean text's lines are clean lines.
                .map(|l| Line::raw(l.to_owned()))
                .collect();
            lines.push(Line::raw(""));
            lines.push(Line::styled("loading…", theme.dim()));
            lines
        }
    };
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    let total = paragraph.line_count(inner.width);
    if total > usize::from(inner.height) {
        block = block.title_bottom(Line::styled(" ↓ more (Enter) ", theme.dim()).right_aligned());
    }
    frame.render_widget(paragraph.block(block), area);
}
