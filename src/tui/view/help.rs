//! The help overlay, generated from the key map so it cannot drift from the bindings.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::tui::keymap::Keymap;
use crate::width::fit;

pub fn render(frame: &mut Frame, area: Rect, keymap: &Keymap, theme: Theme) {
    let rows = keymap.help_rows();
    let key_cells = rows
        .iter()
        .map(|(k, _, _)| crate::width::width(k))
        .max()
        .unwrap_or(0)
        .min(20);
    let mut lines: Vec<Line> = rows
        .iter()
        .map(|(keys, name, text)| {
            Line::from(vec![
                Span::styled(fit(keys, key_cells + 2), theme.active()),
                Span::raw(fit(text, 40)),
                Span::styled(format!(" {name}"), theme.dim()),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Mouse: wheel scrolls, click selects. Rebind keys in config.toml under [keys].",
        theme.dim(),
    ));
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let width = u16::try_from(key_cells + 2 + 40 + 16 + 2)
        .unwrap_or(u16::MAX)
        .min(area.width);
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(width)])
        .flex(Flex::Center)
        .areas(row);
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Keys (? or Esc to close) ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}
