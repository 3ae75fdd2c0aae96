//! The `:` palette: a box near the top of the screen with the prompt, then the matching entries
//! best first, the matched characters highlighted, each action's current key (from the keymap,
//! so a rebound key shows as bound) and each view's, the selected entry reversed. Labels were
//! sanitized when the entries were built, and the error when it was made.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use unicode_segmentation::UnicodeSegmentation;

use super::theme::Theme;
use crate::action::Action;
use crate::keymap::Keymap;
use crate::palette::{Match, Palette, Target};
use crate::state::AppState;
use feedback_core::width::{fit, width};

/// Widest the box gets.
const MAX_WIDTH: u16 = 76;
/// Most entries listed at once.
const MAX_ROWS: usize = 12;

pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    keymap: &Keymap,
    theme: Theme,
) {
    let Some(palette) = &state.palette else {
        return;
    };
    let rows = palette.matches.len().clamp(1, MAX_ROWS);
    let error_rows = usize::from(palette.error.is_some());
    let height = u16::try_from(rows + error_rows + 4).unwrap_or(u16::MAX);
    let rect = top_box(area, MAX_WIDTH, height);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" : command palette ")
        .title_bottom(Line::styled(
            " ↑↓ choose · Enter run · Esc close ",
            theme.dim(),
        ));
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    let [prompt, rule, list, error] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(u16::try_from(error_rows).unwrap_or(0)),
    ])
    .areas(inner);
    let [mark, input] =
        Layout::horizontal([Constraint::Length(2), Constraint::Min(1)]).areas(prompt);
    frame.render_widget(Paragraph::new(Span::styled(": ", theme.active())), mark);
    let mut textarea = palette.input.clone();
    textarea.set_cursor_line_style(Style::new());
    frame.render_widget(&textarea, input);
    frame.render_widget(
        Paragraph::new(Span::styled(
            "─".repeat(usize::from(rule.width)),
            theme.dim(),
        )),
        rule,
    );
    frame.render_widget(
        Paragraph::new(lines(palette, keymap, theme, usize::from(list.width), rows)),
        list,
    );
    if let Some(message) = &palette.error {
        frame.render_widget(
            Paragraph::new(Span::styled(format!("⚠ {message}"), theme.error())),
            error,
        );
    }
}

/// The entries on screen: a window of `rows` that holds the selection.
fn lines(
    palette: &Palette,
    keymap: &Keymap,
    theme: Theme,
    cells: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    if palette.matches.is_empty() {
        return vec![Line::styled("nothing matches", theme.dim())];
    }
    let first = (palette.selected + 1).saturating_sub(rows);
    palette
        .matches
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .map(|(n, m)| {
            line(
                m,
                &key_of(m.target, keymap),
                n == palette.selected,
                theme,
                cells,
            )
        })
        .collect()
}

/// The key that does what the entry does (empty when none does).
fn key_of(target: Target, keymap: &Keymap) -> String {
    let action = match target {
        Target::Action(action) => action,
        Target::View(n) if n < 9 => Action::View(u8::try_from(n + 1).unwrap_or(9)),
        Target::View(_) | Target::SaveView => return String::new(),
    };
    let key = keymap.key_for(action);
    if key == "—" { String::new() } else { key }
}

/// One entry: the label with its matched graphemes highlighted, the hint dim, the key on the
/// right.
fn line(m: &Match, key: &str, selected: bool, theme: Theme, cells: usize) -> Line<'static> {
    let key_cells = width(key);
    let label_cells = cells.saturating_sub(key_cells + 2).min(30);
    let label = fit(&m.label, label_cells);
    let base = if selected {
        theme.selected(true)
    } else {
        Style::new()
    };
    let mut spans: Vec<Span<'static>> = Vec::new();
    for (n, g) in label.graphemes(true).enumerate() {
        let hit = u32::try_from(n).is_ok_and(|n| m.indices.binary_search(&n).is_ok());
        let style = if hit {
            base.patch(theme.highlight())
        } else {
            base
        };
        spans.push(Span::styled(g.to_owned(), style));
    }
    let hint_cells = cells.saturating_sub(label_cells + key_cells + 2);
    let hint = fit(&format!(" {}", m.hint), hint_cells);
    spans.push(Span::styled(hint, base.patch(theme.dim())));
    spans.push(Span::styled(format!(" {key} "), base.patch(theme.active())));
    Line::from(spans)
}

/// A box of at most `width`×`height` cells, centred across `area`, two rows from its top.
fn top_box(area: Rect, width: u16, height: u16) -> Rect {
    let [_, row, _] = Layout::vertical([
        Constraint::Length(2.min(area.height)),
        Constraint::Length(height.min(area.height.saturating_sub(2))),
        Constraint::Fill(1),
    ])
    .areas(area);
    super::popup::across(row, width)
}
