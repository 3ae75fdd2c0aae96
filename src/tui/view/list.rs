//! The feedback list. Only the rows on screen are built each frame (`offset .. offset + rows`),
//! so a frame costs the same with ten items or a million.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::cells::{Cut, RowWriter};
use super::theme::Theme;
use crate::text::output::first_line;
use crate::text::sanitize_line;
use crate::timefmt::age;
use crate::tui::state::{AppState, Focus, ListLoad};
use crate::tui::store::Row;
use crate::width::fit;

/// Column widths in cells.
struct Columns {
    status: usize,
    app: usize,
    tags: usize,
    email: usize,
    message: usize,
}

impl Columns {
    fn new(cells: usize, show_status: bool) -> Self {
        let status = if show_status { 9 } else { 0 };
        let wide = cells >= 110;
        let app = if cells >= 70 { 22 } else { 0 };
        let tags = if cells >= 84 { 16 } else { 0 };
        let email = if wide { 26 } else { 0 };
        let fixed =
            5 + status + app + tags + email + [app, tags, email].iter().filter(|c| **c > 0).count();
        Self {
            status,
            app,
            tags,
            email,
            message: cells.saturating_sub(fixed).max(8),
        }
    }
}

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let focused = state.focus == Focus::List;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(title(state, theme));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let prompt_rows = u16::from(state.text_filter.is_some());
    let [header, body, prompt] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(prompt_rows),
    ])
    .areas(inner);
    let cells = usize::from(inner.width);
    let rows = usize::from(body.height);
    let window: Vec<&Row> = (state.list.offset..state.list.offset + rows)
        .map_while(|n| state.visible_index(n).and_then(|i| state.list.store.get(i)))
        .collect();
    let status_filter = state.filters.status.as_str();
    let show_status = window
        .iter()
        .any(|r| state.list.store.names.get(r.status) != status_filter);
    let columns = Columns::new(cells, show_status);
    frame.render_widget(header_line(&columns, theme), header);
    // Each visible row is drawn straight into its own line of the body: no widget over the
    // whole list, and nothing built for rows off screen.
    for (n, row) in window.iter().enumerate() {
        let rect = Rect {
            y: body.y + u16::try_from(n).unwrap_or(u16::MAX),
            height: 1,
            ..body
        };
        let selected = state.list.offset + n == state.list.selected;
        if selected {
            frame.buffer_mut().set_style(rect, theme.selected(focused));
        }
        let fresh = state
            .visible_index(state.list.offset + n)
            .is_some_and(|i| i < state.list.new_count);
        draw_row(
            frame.buffer_mut(),
            rect,
            state,
            (row, fresh),
            &columns,
            theme,
        );
    }
    if window.len() < rows {
        let y = body.y + u16::try_from(window.len()).unwrap_or(u16::MAX);
        frame.render_widget(
            tail_line(state, theme),
            Rect {
                y,
                height: 1,
                ..body
            },
        );
    }
    if let Some(filter) = &state.text_filter {
        let [label, input] =
            Layout::horizontal([Constraint::Length(2), Constraint::Min(1)]).areas(prompt);
        frame.render_widget(Paragraph::new(Span::styled("/ ", theme.active())), label);
        let mut textarea = filter.input.clone();
        textarea.set_cursor_line_style(Style::new());
        if !filter.editing {
            textarea.set_cursor_style(Style::new());
        }
        frame.render_widget(&textarea, input);
    }
}

fn title(state: &AppState, theme: Theme) -> Line<'static> {
    let mut spans = vec![Span::raw(format!(" Feedback · {} ", state.filters.status))];
    let list = &state.list;
    if list.new_count > 0 {
        // The arrow says some of them are above the rows on screen.
        let above = list.matches.is_none() && list.offset > 0;
        let arrow = if above { "↑ " } else { "" };
        spans.push(Span::styled(
            format!("{} new {arrow}", list.new_count),
            theme.good(),
        ));
    }
    if let Some(matches) = &state.list.matches {
        spans.push(Span::styled(
            format!("{} of {} match ", matches.len(), state.list.store.len()),
            theme.active(),
        ));
    }
    Line::from(spans)
}

fn header_line(columns: &Columns, theme: Theme) -> Line<'static> {
    let mut text = fit("AGE", 5);
    for (title, cells) in [
        ("STATUS", columns.status),
        ("APP", columns.app),
        ("TAGS", columns.tags),
    ] {
        if cells > 0 {
            text.push_str(&fit(title, cells));
            text.push(' ');
        }
    }
    text.push_str(&fit("MESSAGE", columns.message));
    if columns.email > 0 {
        text.push(' ');
        text.push_str("EMAIL");
    }
    Line::styled(text, theme.header())
}

/// One row drawn straight into its line of the buffer: the same cells as a `Line` of one span
/// per column (age, status, app, tags, message, email), without building those strings for
/// rows whose text is all one-cell characters. `fresh` marks a row new.
fn draw_row(
    buf: &mut Buffer,
    rect: Rect,
    state: &AppState,
    (row, fresh): (&Row, bool),
    columns: &Columns,
    theme: Theme,
) {
    let names = &state.list.store.names;
    let mut line = RowWriter::new(buf, rect);
    let age = age(state.now, row.received_at);
    let pad = "    ".get(age.chars().count().min(4)..).unwrap_or_default();
    // A row added on top since the list loaded (refresh or webhook) starts with `•`.
    let (pad, style) = match pad.len() {
        n if fresh && n > 0 => (&"•   "[..n + 2], theme.good()),
        _ => (pad, theme.dim()),
    };
    line.piece(pad, &age, Cut::Whole, " ", style);
    if columns.status > 0 {
        let status = names.get(row.status);
        let shown = if status == state.filters.status.as_str() {
            ""
        } else {
            status
        };
        line.piece("", shown, Cut::Fit(columns.status - 1), " ", theme.warn());
    }
    if columns.app > 0 {
        let app = row.app.map_or("—", |(label, _)| names.get(label));
        line.piece("", app, Cut::Fit(columns.app), " ", theme.accent());
    }
    if columns.tags > 0 {
        let tags = names.get(row.tags_label);
        line.piece("", tags, Cut::Fit(columns.tags), " ", theme.dim());
    }
    let message = first_line(&row.message);
    line.piece("", message, Cut::Fit(columns.message), "", Style::new());
    if columns.email > 0 {
        let email = row.email.as_deref().unwrap_or("");
        line.piece(
            " ",
            email,
            Cut::Truncate(columns.email - 1),
            "",
            theme.dim(),
        );
    }
}

/// What follows the last loaded row: loading, the end, or the error.
fn tail_line(state: &AppState, theme: Theme) -> Line<'static> {
    let list = &state.list;
    if let Some(error) = &list.error {
        return Line::styled(format!("⚠ {}", sanitize_line(error)), theme.error());
    }
    match list.load {
        ListLoad::First => return Line::styled("loading…", theme.dim()),
        ListLoad::More => return Line::styled("loading more…", theme.dim()),
        _ => {}
    }
    if list.store.is_empty() && list.end {
        return Line::styled("No feedback matches these filters.", theme.dim());
    }
    if list.prefetch_paused {
        return Line::styled("more pages paused: rate-limit budget low", theme.warn());
    }
    if list.end {
        return Line::styled(
            format!("— end of list · {} items —", list.store.len()),
            theme.dim(),
        );
    }
    Line::raw("")
}

#[cfg(test)]
#[path = "list_tests.rs"]
mod tests;
