//! Small boxes drawn over the screen (the pickers): where they go and how they are drawn.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;

/// A box of `width`×`height` cells centred in `area` (as large as fits).
pub(crate) fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let [_, row, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(height.min(area.height)),
        Constraint::Fill(1),
    ])
    .areas(area);
    across(row, width)
}

/// The middle `width` cells of `row` (all of it when narrower).
pub(super) fn across(row: Rect, width: u16) -> Rect {
    let [_, middle, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width.min(row.width)),
        Constraint::Fill(1),
    ])
    .areas(row);
    middle
}

/// `lines` in a bordered box titled `title`, as wide as its widest line (at least 30 cells)
/// and centred in `area`, over whatever was drawn there.
pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    lines: Vec<Line<'_>>,
    title: &str,
    theme: Theme,
) {
    let width = lines
        .iter()
        .map(|l| u16::try_from(l.width()).unwrap_or(u16::MAX))
        .max()
        .unwrap_or(0)
        .saturating_add(4)
        .max(30);
    let height = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .saturating_add(2);
    let rect = centred(area, width, height);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title.to_owned());
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
