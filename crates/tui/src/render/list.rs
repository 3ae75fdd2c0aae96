//! The feedback list. Only the rows on screen are built each frame (`offset .. offset + rows`),
//! so a frame costs the same with ten items or a million. The words a search matched are
//! highlighted in each row's message; the search prompt shows a query error where it is.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use self::owners::OwnerNames;
use super::cells::{Cut, RowWriter};
use super::theme::Theme;
use crate::rows::Row;
use crate::state::{AppState, Focus, Paging, TextFilter};
use feedback_core::text::output::first_line;
use feedback_core::text::sanitize_line;
use feedback_core::timefmt::age;
use feedback_core::width::{fit, width};

/// Cells of the triage marks column (● ★ ✓ ⏾ ✎, the first four that apply).
const MARKS: usize = 4;

/// The APP column's cells at 70 to 120 cells of list, and at most on wide lists.
const APP_CELLS: usize = 22;
const APP_MAX_CELLS: usize = 40;
/// On a narrow list: enough for `android` after a cut name (`Ni… · android`).
const APP_NARROW_CELLS: usize = 14;

/// The OWNER column's widest: what its names need (glyphs included) up to these cells, wider
/// as the list is (at least `OWNER` wide, absent below [`OWNER_FROM`] cells).
const OWNER_CAPS: [(usize, usize); 3] = [(120, 16), (86, 12), (OWNER_FROM, 8)];
const OWNER_FROM: usize = 60;
/// The LABELS column (a team's labels, `+`-prefixed) from this many cells of list, as wide as
/// the labels on screen need up to [`LABELS_MAX_CELLS`]; absent when no row on screen has one.
const LABELS_FROM: usize = 100;
const LABELS_MAX_CELLS: usize = 24;

/// The TICKET column (the newest link's short name after [`LINK_GLYPH`]) from this many cells
/// of list, as wide as the rows on screen need up to [`TICKET_MAX_CELLS`]; narrower, the glyph
/// alone; absent when no row on screen has a link.
const TICKET_FROM: usize = 90;
const TICKET_MAX_CELLS: usize = 18;
/// Drawn before a ticket's short name: the item has a link.
pub(crate) const LINK_GLYPH: &str = "⧉";
/// Drawn first in the TICKET column: a reply to the item's reporter left.
pub(crate) const REPLIED_GLYPH: &str = "↩";

/// Drawn before an owner's name when another member has the item open (also without colour).
pub(crate) const LOOKING_GLYPH: &str = "◎";
/// Drawn before an owner's name (or alone) while this member's change waits to be sent.
pub(crate) const PENDING_GLYPH: &str = "~";

/// What the rows on screen need of the columns that size to their content, in cells: the
/// widest app cell (`Name · platform`), owner cell (glyphs and name), labels cell and ticket
/// cell (glyph and short name).
#[derive(Debug, Clone, Copy, Default)]
struct Needs {
    app: usize,
    owner: usize,
    labels: usize,
    ticket: usize,
}

/// Column widths in cells, and how the OWNER column cuts names.
struct Columns {
    owners: OwnerNames,
    owner: usize,
    labels: usize,
    ticket: usize,
    status: usize,
    app: usize,
    tags: usize,
    email: usize,
    message: usize,
}

impl Columns {
    /// Cells before the message column.
    fn message_left(&self) -> usize {
        5 + MARKS
            + 1
            + [
                self.owner,
                self.labels,
                self.ticket,
                self.status,
                self.app,
                self.tags,
            ]
            .iter()
            .filter(|c| **c > 0)
            .map(|c| c + 1)
            .sum::<usize>()
            - usize::from(self.status > 0)
    }

    /// Columns for `cells` cells; `one_app`: the list is filtered to one app, whose column
    /// would say the same on every row; `needs`: what the rows read need. The APP column grows
    /// with the room, up to what its names need, and keeps the platform on narrow lists
    /// (`Nimb… · ios`) where the tags go first. With a team, the OWNER column takes what its
    /// names need up to a cap that grows with the list, and LABELS shows where there is room.
    fn new(cells: usize, show_status: bool, one_app: bool, needs: Needs, team: bool) -> Self {
        let status = if show_status { 9 } else { 0 };
        let owner = OWNER_CAPS
            .iter()
            .find(|(from, _)| team && cells >= *from)
            .map_or(0, |(_, cap)| needs.owner.max("OWNER".len()).min(*cap));
        let labels = if team && cells >= LABELS_FROM && needs.labels > 0 {
            needs.labels.max("LABELS".len()).min(LABELS_MAX_CELLS)
        } else {
            0
        };
        let ticket = match needs.ticket {
            0 => 0,
            _ if cells >= TICKET_FROM => needs.ticket.max("TICKET".len()).min(TICKET_MAX_CELLS),
            _ => width(LINK_GLYPH),
        };
        let app_cells = needs.app;
        let wide = cells >= 110;
        let app = if one_app {
            0
        } else if cells >= 70 {
            let room = APP_CELLS + (cells.saturating_sub(120) / 4).min(APP_MAX_CELLS - APP_CELLS);
            room.min(app_cells.max(APP_NARROW_CELLS))
        } else if cells >= 40 {
            APP_NARROW_CELLS
        } else {
            0
        };
        let tags = if cells >= 84 { 16 } else { 0 };
        let email = if wide { 26 } else { 0 };
        let fixed = 5
            + MARKS
            + 1
            + owner
            + labels
            + ticket
            + status
            + app
            + tags
            + email
            + [owner, labels, ticket, app, tags, email]
                .iter()
                .filter(|c| **c > 0)
                .count();
        Self {
            owners: OwnerNames::new([]),
            owner,
            labels,
            ticket,
            status,
            app,
            tags,
            email,
            message: cells.saturating_sub(fixed).max(8),
        }
    }
}

pub(super) fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let focused = state.focus == Focus::List;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        // A key set's heading instead.
        .title(
            super::similar::title(state, area.width, theme)
                .unwrap_or_else(|| super::list_title::title(state, area.width, theme)),
        );
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
    let shown = rows.min(state.visible_len().saturating_sub(state.list.offset));
    let window: Vec<Option<&Row>> = (state.list.offset..state.list.offset + shown)
        .map(|n| state.list.window.get(n))
        .collect();
    let columns = columns_for(state, cells, &window);
    frame.render_widget(header_line(&columns, theme), header);
    // A key set marks the words its likeness was measured on.
    let highlights = match &state.similar.shown {
        Some(set) => Some(&set.highlights),
        None => state.text_filter.as_ref().map(|f| &f.highlights),
    }
    .filter(|h| !h.is_empty());
    // Each visible row is drawn straight into its own line of the body: no widget over the
    // whole list, and nothing built for rows off screen.
    for (n, row) in window.iter().enumerate() {
        let rect = Rect {
            y: body.y + u16::try_from(n).unwrap_or(u16::MAX),
            height: 1,
            ..body
        };
        let position = state.list.offset + n;
        if position == state.list.selected {
            frame.buffer_mut().set_style(rect, theme.selected(focused));
        }
        let Some(row) = row else {
            // Read from the store in a moment.
            frame.render_widget(Line::styled("  …", theme.dim()), rect);
            continue;
        };
        let fresh = (state.list.woken..state.list.woken + state.list.new_count).contains(&position);
        draw_row(
            frame.buffer_mut(),
            rect,
            state,
            (row, fresh),
            &columns,
            theme,
        );
        if !state.triage.overlay.get(&row.id).is_some_and(|t| t.seen) {
            let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
            frame.buffer_mut().set_style(rect, bold);
        }
        super::acting::mark_row(frame.buffer_mut(), rect, state, row.key, theme);
        if let Some(highlights) = highlights {
            highlight_message(frame.buffer_mut(), rect, row, &columns, highlights, theme);
        }
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
        render_prompt(frame, prompt, filter, state.acting.privacy, theme);
    }
}

/// The columns of a list `cells` wide showing the rows of `window`.
fn columns_for(state: &AppState, cells: usize, window: &[Option<&Row>]) -> Columns {
    // A view of both statuses shows each row's (the listed one blank, as in a view of one).
    let status_filter = state.view.listed();
    let show_status = window.iter().flatten().any(|r| &*r.status != status_filter);
    // A key set is not filtered to one app.
    let one_app = state.similar.shown.is_none()
        && (state.view.app.is_some()
            || state
                .view
                .search
                .query()
                .is_some_and(feedback_core::query::Query::pins_one_app));
    let rows_read = &state.list.window.rows;
    let team_shown = |row: &Row| state.triage.overlay.team(&row.id);
    let needs = Needs {
        app: rows_read
            .iter()
            .map(|r| width(r.app.as_deref().unwrap_or("—")))
            .max()
            .unwrap_or(0),
        owner: window
            .iter()
            .flatten()
            .map(|row| {
                let (glyphs, name, _) = owner_parts(state, &row.id);
                width(&glyphs) + name.map_or(0, width)
            })
            .max()
            .unwrap_or(0),
        labels: window
            .iter()
            .flatten()
            .filter_map(|row| team_shown(row).map(|s| width(&s.labels)))
            .max()
            .unwrap_or(0),
        ticket: window
            .iter()
            .flatten()
            .filter_map(|row| ticket_cell(state, &row.id).map(|t| width(&t)))
            .max()
            .unwrap_or(0),
    };
    let mut columns = Columns::new(cells, show_status, one_app, needs, state.team.is_some());
    if let Some(team) = &state.team {
        // Every name the column may show: the members, and owners the roster lacks.
        let members: Vec<feedback_core::text::Clean> = team
            .members
            .iter()
            .map(|m| feedback_core::text::Clean::line(m))
            .collect();
        let owners = window
            .iter()
            .flatten()
            .filter_map(|row| team_shown(row).and_then(|s| s.owner_shown.as_deref()));
        columns.owners = OwnerNames::new(members.iter().map(|m| &**m).chain(owners));
    }
    columns
}

/// The search prompt: `/ `, the text, and when the query has an error, its span underlined
/// and its message at the end of the line.
fn render_prompt(frame: &mut Frame, area: Rect, filter: &TextFilter, privacy: bool, theme: Theme) {
    let message = filter.error.as_ref().map(|e| format!(" ⚠ {}", e.message));
    // The error takes the room the text and its cursor leave, at least half the line.
    let cells = usize::from(area.width);
    let text_cells = 2 + width(&filter.text()) + 1;
    let message_cells = message.as_deref().map_or(0, |m| {
        width(m).min(cells.saturating_sub(text_cells).max(cells / 2))
    });
    let [label, input, note] = Layout::horizontal([
        Constraint::Length(2),
        Constraint::Min(1),
        Constraint::Length(u16::try_from(message_cells).unwrap_or(0)),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(Span::styled("/ ", theme.active())), label);
    // In privacy mode a search not being edited shows its private values masked.
    if privacy && !filter.editing && filter.error.is_none() {
        let text = filter.text();
        let shown = crate::insight::mask_search(&text, true);
        frame.render_widget(Paragraph::new(sanitize_line(&shown).into_owned()), input);
        return;
    }
    let mut textarea = filter.input.clone();
    textarea.set_cursor_line_style(Style::new());
    if !filter.editing {
        textarea.set_cursor_style(Style::new());
    }
    frame.render_widget(&textarea, input);
    if let Some(message) = message {
        if let Some(span) = filter.error_span() {
            // The text area scrolls sideways to keep the cursor on screen: so does the mark.
            let scrolled = usize::from(textarea.scroll_offset().1);
            mark_span(
                frame.buffer_mut(),
                input,
                (&filter.text(), scrolled),
                span,
                theme,
            );
        }
        let message = feedback_core::width::truncate(&message, message_cells);
        frame.render_widget(Paragraph::new(Span::styled(message, theme.error())), note);
    }
}

/// Underlines the cells of `text` that `span` covers, the text drawn from the left of `area`
/// scrolled `scrolled` cells to the left; an empty span (an error at the end) marks the cell
/// after the text.
fn mark_span(
    buf: &mut Buffer,
    area: Rect,
    (text, scrolled): (&str, usize),
    span: std::ops::Range<usize>,
    theme: Theme,
) {
    let start = text.get(..span.start).map_or(0, width);
    let cells = text.get(span.clone()).map_or(0, width).max(1);
    let (start, end) = (
        start.saturating_sub(scrolled),
        (start + cells).saturating_sub(scrolled),
    );
    let cell = |n: usize| {
        area.x
            .saturating_add(u16::try_from(n).unwrap_or(u16::MAX))
            .min(area.right())
    };
    let (x, end) = (cell(start), cell(end));
    if x < end {
        let rect = Rect {
            x,
            width: end - x,
            height: 1,
            ..area
        };
        buf.set_style(rect, theme.mark_error());
    }
}

/// Highlights the words the search matched in the message column of a drawn row.
fn highlight_message(
    buf: &mut Buffer,
    rect: Rect,
    row: &Row,
    columns: &Columns,
    highlights: &feedback_core::query::Highlights,
    theme: Theme,
) {
    let message = first_line(&row.message);
    let left = columns.message_left();
    let room = columns.message;
    for range in highlights.ranges(message) {
        let (Some(before), Some(word)) = (message.get(..range.start), message.get(range)) else {
            continue;
        };
        let start = width(before);
        if start >= room {
            break;
        }
        let cells = width(word).min(room - start);
        let x = rect.x + u16::try_from(left + start).unwrap_or(u16::MAX);
        let area = Rect {
            x,
            width: u16::try_from(cells).unwrap_or(0),
            ..rect
        }
        .intersection(rect);
        buf.set_style(area, theme.highlight());
    }
}

pub(super) use feedback_core::text::output::thousands;

fn header_line(columns: &Columns, theme: Theme) -> Line<'static> {
    let mut text = fit("AGE", 5);
    text.push_str(&fit("", MARKS + 1));
    for (title, cells) in [
        ("OWNER", columns.owner),
        ("LABELS", columns.labels),
        (
            if columns.ticket >= "TICKET".len() {
                "TICKET"
            } else {
                LINK_GLYPH
            },
            columns.ticket,
        ),
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
    let mut line = RowWriter::new(buf, rect);
    let age = age(state.now, row.received_at);
    let pad = "    ".get(age.chars().count().min(4)..).unwrap_or_default();
    // A row added on top since the list loaded (refresh or webhook) starts with `•`.
    let (pad, style) = match pad.len() {
        n if fresh && n > 0 => (&"•   "[..n + 2], theme.good()),
        _ => (pad, theme.dim()),
    };
    line.piece(pad, &age, Cut::Whole, " ", style);
    let untouched = feedback_store::Triage::default();
    let triage = state.triage.overlay.get(&row.id).unwrap_or(&untouched);
    let marks = crate::triage::glyphs(triage, state.now);
    line.piece("", &marks, Cut::Fit(MARKS), " ", theme.accent());
    if columns.owner > 0 {
        let (glyphs, name, mine) = owner_parts(state, &row.id);
        let budget = columns.owner.saturating_sub(width(&glyphs));
        let name = name
            .map(|n| columns.owners.show(n, budget))
            .unwrap_or_default();
        let style = if mine { theme.accent() } else { theme.dim() };
        line.piece("", &(glyphs + &name), Cut::Fit(columns.owner), " ", style);
    }
    if columns.labels > 0 {
        let labels = state
            .triage
            .overlay
            .team(&row.id)
            .map(|s| &*s.labels)
            .unwrap_or_default();
        line.piece("", labels, Cut::Fit(columns.labels), " ", theme.accent());
    }
    if columns.ticket > 0 {
        let ticket = ticket_cell(state, &row.id).unwrap_or_default();
        // A column too narrow for a name shows a glyph alone.
        let ticket = if columns.ticket < "TICKET".len() && !ticket.is_empty() {
            ticket.chars().next().map(String::from).unwrap_or_default()
        } else {
            ticket
        };
        line.piece("", &ticket, Cut::Fit(columns.ticket), " ", theme.link());
    }
    if columns.status > 0 {
        let status = &*row.status;
        let shown = if status == state.view.listed() {
            ""
        } else {
            status
        };
        line.piece("", shown, Cut::Fit(columns.status - 1), " ", theme.warn());
    }
    if columns.app > 0 {
        // The name is cut, never the platform after it (`Name · ios`).
        let app = row.app.as_deref().unwrap_or("—");
        let (name, platform) = app.rsplit_once(" · ").map_or((app, ""), |(n, p)| (n, p));
        if platform.is_empty() || width(app) <= columns.app {
            line.piece("", app, Cut::Fit(columns.app), " ", theme.accent());
        } else {
            let platform_cells = (width(platform) + 3).min(columns.app.saturating_sub(4));
            let name_cells = columns.app - platform_cells;
            line.piece("", name, Cut::Fit(name_cells), "", theme.accent());
            line.piece(
                " · ",
                platform,
                Cut::Fit(platform_cells - 3),
                " ",
                theme.accent(),
            );
        }
    }
    if columns.tags > 0 {
        let tags = &*row.tags_label;
        line.piece("", tags, Cut::Fit(columns.tags), " ", theme.dim());
    }
    let message = first_line(&row.message);
    line.piece("", message, Cut::Fit(columns.message), "", Style::new());
    if columns.email > 0 {
        let private = state.acting.privacy;
        let email = row
            .email
            .as_deref()
            .map(|e| crate::privacy::email(e, private))
            .unwrap_or_default();
        line.piece(
            " ",
            &email,
            Cut::Truncate(columns.email - 1),
            "",
            theme.dim(),
        );
    }
}

/// The TICKET cell of item `id`: `↩` when a reply to its reporter left, then the link glyph
/// and its newest link's short name (`⧉TICKET-26944`), with how many more it has (`⧉APP-42
/// +2`); `None` with neither.
fn ticket_cell(state: &AppState, id: &str) -> Option<String> {
    let shown = state.triage.overlay.team(id)?;
    let replied = if shown.replies.iter().any(crate::team::ShownReply::sent) {
        REPLIED_GLYPH
    } else {
        ""
    };
    let Some(newest) = shown.newest_link() else {
        return (!replied.is_empty()).then(|| replied.to_owned());
    };
    let more = match shown.links.len() - 1 {
        0 => String::new(),
        n => format!(" +{n}"),
    };
    Some(format!("{replied}{LINK_GLYPH}{}{more}", newest.short))
}

/// The OWNER cell's parts: its glyphs (`◎` when another member has the item open, `~` while
/// this member's change waits to be sent), the owner's name, and whether it is this member's.
fn owner_parts<'a>(state: &'a AppState, id: &str) -> (String, Option<&'a str>, bool) {
    let mut glyphs = String::new();
    if state
        .team
        .as_ref()
        .is_some_and(|team| !team.looking_at(id).is_empty())
    {
        glyphs.push_str(LOOKING_GLYPH);
    }
    let shown = state.triage.overlay.team(id);
    if shown.is_some_and(|s| s.pending) {
        glyphs.push_str(PENDING_GLYPH);
    }
    let name = shown.and_then(|s| s.owner_shown.as_deref());
    let mine = shown
        .and_then(|s| s.owner.as_deref())
        .zip(state.team.as_ref())
        .is_some_and(|(owner, team)| owner == team.member);
    (glyphs, name, mine)
}

/// What follows the last row: loading, the end, or the error.
fn tail_line(state: &AppState, theme: Theme) -> Line<'static> {
    let list = &state.list;
    if let Some(error) = &list.error {
        return Line::styled(format!("⚠ {error}"), theme.error());
    }
    if !list.loaded() {
        return Line::styled("loading…", theme.dim());
    }
    if list.fetching() {
        return Line::styled("fetching more…", theme.dim());
    }
    if list.keys.is_empty() {
        let why = match (state.view.search.is_empty(), state.sync.running > 0) {
            (false, _) => "No stored feedback matches this search.",
            (_, true) => "Nothing stored for these filters yet: syncing…",
            _ => "No stored feedback matches these filters.",
        };
        return Line::styled(why, theme.dim());
    }
    if list.paging == Paging::Paused {
        return Line::styled("more pages paused: rate-limit budget low", theme.warn());
    }
    if state.sync.complete {
        return Line::styled(
            format!(
                "— end of list · {} —",
                feedback_core::text::output::counted(list.keys.len(), "item")
            ),
            theme.dim(),
        );
    }
    Line::raw("")
}

mod owners;
#[cfg(test)]
mod tests;
