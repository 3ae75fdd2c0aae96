//! The help overlay, generated from the key map so it cannot drift from the bindings: the keys
//! of the screen under it first, titled with it, then the other screens' keys, then the search
//! language (`crate::mode_keys` says which screen takes which key). It is as
//! wide as its longest row when the screen allows, wraps rather than cuts when it does not, and
//! scrolls when it is taller than the screen. [`scroll_range`] gives the same layout's numbers
//! to the key translation, so a scroll is clamped before it reaches `update`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::theme::Theme;
use crate::action::Action;
use crate::keymap::Keymap;
use crate::mode_keys::{MOVES, Takes};
use crate::state::Mode;
use feedback_core::width::{fit, width};

const FOOTER: &str =
    "Mouse: wheel scrolls, click selects. Rebind keys in config.toml under [keys].";

/// Cells a description's column needs for the wrapped two-column layout.
const HANGING_MIN: usize = 16;

/// One help row in two columns: the keys, then the description wrapped in `room` cells with
/// its further lines under it, and the action's name after it (on a line of its own when it
/// does not fit on the last).
fn hanging_row(
    keys: &str,
    name: &str,
    text: &str,
    (key_cells, room): (usize, usize),
    theme: Theme,
) -> Vec<Line<'static>> {
    let indent = " ".repeat(key_cells + 2);
    let mut out: Vec<Line<'static>> = super::wrap::wrap(text, room)
        .into_iter()
        .enumerate()
        .map(|(n, piece)| {
            let lead = if n == 0 {
                Span::styled(fit(keys, key_cells + 2), theme.active())
            } else {
                Span::raw(indent.clone())
            };
            Line::from(vec![lead, Span::raw(piece)])
        })
        .collect();
    let name_cells = width(name) + 2;
    let last_cells = out
        .last()
        .map_or(0, Line::width)
        .saturating_sub(key_cells + 2);
    match out.last_mut() {
        Some(last) if last_cells + name_cells <= room => {
            last.spans
                .push(Span::styled(format!("  {name}"), theme.dim()));
        }
        _ => out.push(Line::from(vec![
            Span::raw(indent),
            Span::styled(name.to_owned(), theme.dim()),
        ])),
    }
    out
}

/// The search language, from the query module so it cannot drift from the parser, each line
/// wrapped to `cells` with its further lines indented under its text.
fn search_lines(cells: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (n, text) in feedback_core::query::HELP.lines().enumerate() {
        let heading = n == 0 || !text.starts_with(' ');
        let style = if heading {
            theme.header()
        } else {
            ratatui::style::Style::new()
        };
        let (lead, more) = if heading { ("", "  ") } else { ("  ", "    ") };
        let (first, room) = (
            cells.saturating_sub(lead.len()),
            cells.saturating_sub(more.len()),
        );
        for (k, piece) in super::wrap::wrap_first(text.trim_start(), first, room)
            .into_iter()
            .enumerate()
        {
            let indent = if k == 0 { lead } else { more };
            out.push(Line::styled(format!("{indent}{piece}"), style));
        }
    }
    out
}

/// Cells of the widest line of the search language's help.
fn search_cells() -> usize {
    feedback_core::query::HELP
        .lines()
        .map(width)
        .max()
        .unwrap_or(0)
}

/// Where the overlay goes and how much of it shows.
struct Placement {
    lines: Vec<Line<'static>>,
    popup: Rect,
    /// Rows of text inside the border, and the largest useful scroll.
    visible: u16,
    max_scroll: u16,
}

/// The help's rows: the keys of `mode` (in its table's order), then the other screens' keys;
/// each row is (keys, action name, description).
type Row = (String, &'static str, &'static str);

fn sections(keymap: &Keymap, mode: Mode) -> (Vec<Row>, Vec<Row>) {
    let rows = keymap.action_rows();
    let row = |(_, keys, name, text): &(Action, String, &'static str, &'static str)| {
        (keys.clone(), *name, *text)
    };
    match mode.takes() {
        Takes::Only { moves, actions } => {
            let moves: &[Action] = if moves { &MOVES } else { &[] };
            let taken = |a: &Action| moves.contains(a) || actions.contains(a);
            let here = moves
                .iter()
                .chain(actions)
                .filter_map(|a| rows.iter().find(|r| r.0 == *a).map(row))
                .collect();
            let elsewhere = rows.iter().filter(|r| !taken(&r.0)).map(row).collect();
            (here, elsewhere)
        }
        Takes::All | Takes::Typing => (rows.iter().map(row).collect(), Vec::new()),
    }
}

fn place(area: Rect, keymap: &Keymap, mode: Mode, theme: Theme) -> Placement {
    let (here, elsewhere) = sections(keymap, mode);
    let all = || here.iter().chain(&elsewhere);
    let column = |cells: fn(&Row) -> usize| all().map(cells).max();
    let key_cells = column(|(k, _, _)| width(k)).unwrap_or(0);
    let text_cells = column(|(_, _, t)| width(t)).unwrap_or(0);
    let name_cells = column(|(_, n, _)| width(n)).unwrap_or(0);
    let natural = (key_cells + 2 + text_cells + 1 + name_cells).max(width(FOOTER)) + 2;
    let rows_lines = |rows: &[Row]| -> Vec<Line<'static>> {
        if natural <= usize::from(area.width) {
            rows.iter()
                .map(|(keys, name, text)| {
                    Line::from(vec![
                        Span::styled(fit(keys, key_cells + 2), theme.active()),
                        Span::raw(fit(text, text_cells)),
                        Span::styled(format!(" {name}"), theme.dim()),
                    ])
                })
                .collect()
        } else if usize::from(area.width) >= key_cells + 2 + 2 + HANGING_MIN {
            // Too narrow for three columns: each description wraps under its own column, the
            // action's name after it.
            let room = usize::from(area.width) - 2 - (key_cells + 2);
            rows.iter()
                .flat_map(|(keys, name, text)| {
                    hanging_row(keys, name, text, (key_cells, room), theme)
                })
                .collect()
        } else {
            // Too narrow for three columns: keys and action name, then the description below.
            rows.iter()
                .flat_map(|(keys, name, text)| {
                    [
                        Line::from(vec![
                            Span::styled(keys.clone(), theme.active()),
                            Span::styled(format!("  {name}"), theme.dim()),
                        ]),
                        Line::raw(format!("  {text}")),
                    ]
                })
                .collect()
        }
    };
    let mut lines = vec![Line::styled(
        format!("Keys in {}", mode.name()),
        theme.header(),
    )];
    lines.extend(rows_lines(&here));
    if !elsewhere.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("Not in {}: other screens' keys", mode.name()),
            theme.header(),
        ));
        lines.extend(rows_lines(&elsewhere));
    }
    let natural = natural.max(search_cells() + 2);
    let popup_width = u16::try_from(natural).unwrap_or(u16::MAX).min(area.width);
    let inner_width = popup_width.saturating_sub(2);
    lines.push(Line::raw(""));
    lines.extend(search_lines(usize::from(inner_width), theme));
    lines.push(Line::raw(""));
    lines.push(Line::styled(FOOTER, theme.dim()));
    let total = Paragraph::new(lines.clone())
        .wrap(Wrap { trim: false })
        .line_count(inner_width);
    let total = u16::try_from(total).unwrap_or(u16::MAX);
    let height = total.saturating_add(2).min(area.height);
    let [row] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(area);
    let [popup] = Layout::horizontal([Constraint::Length(popup_width)])
        .flex(Flex::Center)
        .areas(row);
    let visible = height.saturating_sub(2);
    Placement {
        lines,
        popup,
        visible,
        max_scroll: total.saturating_sub(visible),
    }
}

/// (rows of help text on screen, largest scroll) for a `width`×`height` screen.
#[must_use]
pub fn scroll_range(width: u16, height: u16, keymap: &Keymap, mode: Mode) -> (u16, u16) {
    let placement = place(
        Rect::new(0, 0, width, height),
        keymap,
        mode,
        Theme::new(false),
    );
    (placement.visible, placement.max_scroll)
}

/// The overlay's title: how to close it and, when it scrolls, how and where it is, with the
/// keys as bound (they can be rebound).
fn title(keymap: &Keymap, scroll: u16, max_scroll: u16) -> String {
    let back = keymap.key_for(Action::Back);
    if max_scroll == 0 {
        format!(
            " Keys ({} or {back} to close) ",
            keymap.key_for(Action::Help)
        )
    } else {
        let (down, up) = (
            keymap.key_for(Action::MoveDown),
            keymap.key_for(Action::MoveUp),
        );
        format!(" Keys ({back} closes; {down}/{up}: {scroll}/{max_scroll}) ")
    }
}

pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    keymap: &Keymap,
    mode: Mode,
    theme: Theme,
    scroll: u16,
) {
    let Placement {
        lines,
        popup,
        max_scroll,
        ..
    } = place(area, keymap, mode, theme);
    let scroll = scroll.min(max_scroll);
    let title = title(keymap, scroll, max_scroll);
    frame.render_widget(Clear, popup);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    if scroll < max_scroll {
        // More below: the border says so, as the detail's does.
        block = block.title_bottom(Line::styled(" ↓ more ", theme.dim()).right_aligned());
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(block),
        popup,
    );
}

// `docs/keys.md`, made from the same rows and held to them.
#[cfg(test)]
mod keys_page;
#[cfg(test)]
mod tests;
