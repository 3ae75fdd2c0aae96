//! Acting on items on screen: a marked row's glyph (`◆`, in the age column's first cell, so
//! it shows without colour) and tint, the status bar's "3 marked" and PRIVATE marker, and the
//! `|` command picker. Command names come from the user's own config, sanitized all the same.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::theme::Theme;
use crate::acting::MARK_GLYPH;
use crate::state::AppState;

/// Marks a drawn list row when its item is marked.
pub(crate) fn mark_row(buf: &mut Buffer, rect: Rect, state: &AppState, key: i64, theme: Theme) {
    if rect.width == 0 || !state.acting.marks.contains(key) {
        return;
    }
    buf.set_style(rect, theme.marked());
    let glyph = MARK_GLYPH.to_string();
    buf[(rect.x, rect.y)]
        .set_symbol(&glyph)
        .set_style(theme.active());
}

/// The status bar's parts of acting: how many items are marked, and the privacy marker.
#[must_use]
pub(crate) fn status_parts(state: &AppState, theme: Theme) -> Vec<(String, Style, u8)> {
    let mut parts = Vec::new();
    if state.acting.privacy {
        let style = theme.warn().add_modifier(Modifier::REVERSED);
        parts.push(("PRIVATE".to_owned(), style, 99));
    }
    let marks = &state.acting.marks;
    if !marks.is_empty() {
        let shown = super::list::thousands(marks.in_view);
        let hidden = marks.len().saturating_sub(marks.in_view);
        let text = if hidden == 0 {
            format!("{MARK_GLYPH} {shown} marked")
        } else {
            format!("{MARK_GLYPH} {shown} marked (+{hidden} hidden)")
        };
        parts.push((text, theme.active(), 95));
    }
    parts
}

/// The `|` picker: the configured commands, numbered, the chosen one highlighted.
pub(crate) fn render_picker(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(picker) = &state.acting.picker else {
        return;
    };
    let commands = &state.acting.commands;
    let mut lines: Vec<Line<'static>> = commands
        .iter()
        .enumerate()
        .map(|(n, command)| {
            let text = format!(" {}{}", crate::picker_keys::entry_number(n), command.name);
            if n == picker.selected {
                Line::styled(text, theme.selected(true))
            } else {
                Line::raw(text)
            }
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        " ↑↓ choose · enter or 1-9 run · esc cancel",
        theme.dim(),
    )));
    super::popup::render(frame, area, lines, " Pipe to ", theme);
}
