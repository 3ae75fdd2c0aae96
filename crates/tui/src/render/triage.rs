//! Triage on screen: the detail's state and note (sanitized here, at the sink), the snooze
//! picker and the inline note editor, each a box over the middle of the screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::state::AppState;
use crate::triage::{CHOICES, choice_time};

/// The detail's triage lines: every state in words with its glyph, then the note.
#[must_use]
pub(crate) fn detail_lines(state: &AppState, id: &str, theme: Theme) -> Vec<Line<'static>> {
    let t = crate::triage::known(state, id);
    let mut words = vec![if t.seen { "seen" } else { "● unseen" }.to_owned()];
    if t.starred {
        words.push("★ starred".to_owned());
    }
    if t.done {
        words.push("✓ done".to_owned());
    }
    if let Some(until) = t.snoozed_until.filter(|u| *u > state.now) {
        let when = until.to_zoned(state.tz.clone()).strftime("%a %b %-d %H:%M");
        words.push(format!("⏾ snoozed until {when}"));
    }
    if let Some(woke) = t.woke(state.now) {
        let when = woke.to_zoned(state.tz.clone()).strftime("%a %b %-d %H:%M");
        words.push(format!("◷ woke {when} (on top until seen)"));
    }
    let mut out = vec![
        Line::raw(""),
        Line::from(vec![
            Span::styled(feedback_core::width::fit("Triage", 10), theme.header()),
            Span::raw(words.join(" · ")),
        ]),
    ];
    if let Some(note) = t.note.as_deref().filter(|_| t.has_note()) {
        out.push(Line::styled("✎ Note", theme.header()));
        for line in feedback_core::text::sanitize(note).lines() {
            out.push(Line::raw(format!("  {line}")));
        }
    }
    out
}

/// The `z` picker: the choices with the times they mean, the duration being typed, its error.
pub(crate) fn render_picker(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(picker) = &state.triage.picker else {
        return;
    };
    let mut lines: Vec<Line<'static>> = CHOICES
        .iter()
        .enumerate()
        .map(|(n, label)| {
            let when = choice_time(n, state.now, &state.tz).map_or_else(String::new, |at| {
                at.to_zoned(state.tz.clone())
                    .strftime("  %a %-d %H:%M")
                    .to_string()
            });
            let text = format!(" {}{label}{when}", crate::picker_keys::entry_number(n));
            let style = if n == picker.selected {
                theme.selected(true)
            } else {
                Style::new()
            };
            Line::styled(feedback_core::width::fit(&text, 40), style)
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" or for: ", theme.dim()),
        Span::styled(
            format!("{}▏", feedback_core::text::sanitize_line(&picker.input)),
            theme.active(),
        ),
        Span::styled("  (45m 2h 3d 1w)", theme.dim()),
    ]));
    if let Some(error) = &picker.error {
        lines.push(Line::styled(format!(" ⚠ {error}"), theme.error()));
    }
    let rect = super::popup::centred(area, 52, u16::try_from(lines.len()).unwrap_or(10) + 2);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Snooze until ")
        .title_bottom(Line::styled(
            format!(" 1-{} ↑↓ Enter choose · Esc cancel ", CHOICES.len()),
            theme.dim(),
        ));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The inline note editor.
pub(crate) fn render_note(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(editor) = &state.triage.note else {
        return;
    };
    let rect = super::popup::centred(area, 64, 10);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(if editor.draft {
            " Note (unsaved draft) "
        } else {
            " Note "
        })
        .title_bottom(Line::styled(
            " Enter save · Alt-Enter new line · Esc close, keep draft ",
            theme.dim(),
        ));
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    let mut area = editor.area.clone();
    area.set_cursor_line_style(Style::new());
    frame.render_widget(&area, inner);
}
