//! The side panes: Projects, Apps (with platform) and Tags, each entry with the count of stored
//! items of the listed status; every pane says so on its bottom border ("stored, new"). The
//! entry that is the active filter carries a `●` marker and the pane title names it.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::theme::Theme;
use crate::state::{AppState, Chosen, Focus, Load, Pane};
use feedback_core::text::sanitize_line;
use feedback_core::width::{fit, truncate, width};

/// What the numbers in the panes count, for a status: stored items of it.
#[must_use]
pub(crate) fn counts_label(status: &str, cells: usize) -> String {
    let long = format!(" stored, {} ", sanitize_line(status));
    if width(&long) <= cells {
        long
    } else {
        truncate(&long, cells)
    }
}

pub(super) fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    for (focus, rect) in areas(area, state) {
        render_one(frame, rect, state, focus, theme);
    }
}

/// Where each pane goes in the sidebar `area` (for drawing and for clicks).
#[must_use]
pub(super) fn areas(area: Rect, state: &AppState) -> [(Focus, Rect); 3] {
    let rows = |pane: &Pane| {
        u16::try_from(pane.entries.len().max(1))
            .unwrap_or(u16::MAX)
            .saturating_add(2)
    };
    let [projects, apps, tags] = Layout::vertical([
        Constraint::Max(rows(&state.projects).min(area.height / 4).max(3)),
        Constraint::Max(rows(&state.apps).min(area.height / 3).max(3)),
        Constraint::Min(3),
    ])
    .areas(area);
    [
        (Focus::Projects, projects),
        (Focus::Apps, apps),
        (Focus::Tags, tags),
    ]
}

/// The entry of pane `focus` drawn on screen row `row` of its `area`, if any (the same scroll
/// as [`pane_lines`]).
#[must_use]
pub(crate) fn entry_at(state: &AppState, focus: Focus, area: Rect, row: u16) -> Option<usize> {
    let pane = state.pane(focus)?;
    let rows = usize::from(area.height.saturating_sub(2));
    let rel = usize::from(row.checked_sub(area.y + 1)?);
    if rel >= rows {
        return None;
    }
    let offset = pane.selected.saturating_sub(rows.saturating_sub(1));
    let entry = offset + rel;
    (entry < pane.entries.len()).then_some(entry)
}

/// One pane in `area`.
pub(crate) fn render_one(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    focus: Focus,
    theme: Theme,
) {
    let Some(pane) = state.pane(focus) else {
        return;
    };
    let (title, active) = match focus {
        Focus::Projects => ("Projects", state.view.project.as_ref()),
        Focus::Apps => ("Apps", state.view.app.as_ref()),
        Focus::Tags => ("Tags", state.view.tag.as_ref()),
        Focus::List => return,
    };
    let focused = state.focus == focus && state.detail.is_none();
    let inner_width = usize::from(area.width.saturating_sub(2));
    let mut title_spans = vec![Span::raw(format!(" {title} "))];
    if let Some(typed) = state.reading.typeahead.as_ref().filter(|_| focused) {
        // The type-ahead buffer, while it is live.
        title_spans.push(Span::styled(
            format!(
                "⌕{} ",
                truncate(&sanitize_line(&typed.text), inner_width / 2)
            ),
            theme.highlight(),
        ));
    }
    if let Some(chosen) = active {
        let room = inner_width.saturating_sub(width(title) + 5);
        title_spans.push(Span::styled(
            format!("● {} ", truncate(&chosen.label, room)),
            theme.active(),
        ));
    }
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Line::from(title_spans));
    if area.height > 2 {
        // The numbers count what is stored, of the listed status: say so.
        let label = counts_label(state.view.listed(), inner_width);
        block = block.title_bottom(Line::from(label).right_aligned());
    }
    let body_rows = usize::from(area.height.saturating_sub(2));
    // Entries out of sight are said, so a pane that scrolls shows that it does.
    let offset = pane_offset(pane, body_rows);
    let below = pane.entries.len().saturating_sub(offset + body_rows);
    let scroll = match (offset > 0, below > 0) {
        (true, true) => format!(" ↑ ↓ {below} more "),
        (false, true) => format!(" ↓ {below} more "),
        (true, false) => " ↑ more ".to_owned(),
        (false, false) => String::new(),
    };
    if !scroll.is_empty() && area.height > 2 {
        block = block.title_bottom(Line::styled(scroll, theme.dim()).left_aligned());
    }
    let lines = pane_lines(pane, active, body_rows, inner_width, focused, theme);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The first entry drawn: the list scrolls so the selected entry is on its last row.
fn pane_offset(pane: &Pane, rows: usize) -> usize {
    pane.selected.saturating_sub(rows.saturating_sub(1))
}

fn pane_lines(
    pane: &Pane,
    active: Option<&Chosen>,
    rows: usize,
    cells: usize,
    focused: bool,
    theme: Theme,
) -> Vec<Line<'static>> {
    match &pane.load {
        Load::Failed(message) => {
            return vec![Line::styled(truncate(message, cells), theme.error())];
        }
        Load::Loading if pane.entries.is_empty() => {
            return vec![Line::styled("loading…", theme.dim())];
        }
        _ if pane.entries.is_empty() => return vec![Line::styled("none", theme.dim())],
        _ => {}
    }
    let offset = pane_offset(pane, rows);
    pane.entries
        .iter()
        .enumerate()
        .skip(offset)
        .take(rows)
        .map(|(i, entry)| {
            let marker = if active.is_some_and(|a| a.value == entry.value) {
                "● "
            } else {
                "  "
            };
            let (label, detail) = (&entry.label, &entry.detail);
            let detail_cells = width(detail);
            let label_cells =
                cells.saturating_sub(2 + detail_cells + usize::from(detail_cells > 0));
            let text = format!("{marker}{} {}", fit(label, label_cells), detail);
            let style = if i == pane.selected && focused {
                theme.selected(true)
            } else if marker != "  " {
                theme.active()
            } else {
                ratatui::style::Style::new()
            };
            Line::styled(fit(text.trim_end(), cells), style)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::testkit::started;

    #[test]
    fn pane_counts_are_labelled_with_what_they_count() {
        let state = started(120, 35, 10, true);
        for (cells, label) in [(30, "stored, new"), (12, "stored, …")] {
            let mut terminal = Terminal::new(TestBackend::new(cells, 8)).unwrap();
            terminal
                .draw(|frame| {
                    let area = frame.area();
                    render_one(frame, area, &state, Focus::Tags, Theme::new(true));
                })
                .unwrap();
            let buffer = terminal.backend().buffer();
            let bottom: String = (0..cells).map(|x| buffer[(x, 7)].symbol()).collect();
            assert!(bottom.contains(label), "{bottom}");
        }
        let mut terminal = Terminal::new(TestBackend::new(30, 8)).unwrap();
        terminal
            .draw(|frame| {
                let area = frame.area();
                render_one(frame, area, &state, Focus::Tags, Theme::new(true));
            })
            .unwrap();
        let buffer = terminal.backend().buffer();
        let bug: String = (0..30).map(|x| buffer[(x, 1)].symbol()).collect();
        assert!(bug.contains("bug") && bug.contains('3'), "{bug}");
    }
}
