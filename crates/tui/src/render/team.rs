//! The team's prompts over the list (the take-over confirmation, the member picker, the labels
//! line) and the team's lines in the detail and the preview: the owner, the labels, who else
//! has the item open. Every name and label is `Clean`, sanitized where it arrived.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::state::AppState;
use crate::team::Prompt;
use feedback_core::text::Clean;
use feedback_core::width::fit;

/// The most history lines the detail shows (the newest; `team log ID` has them all).
const HISTORY_LINES: usize = 8;

/// The open prompt of a team key, centred over `area`.
pub(crate) fn render_prompt(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(prompt) = state.team.as_ref().and_then(|t| t.prompt.as_ref()) else {
        return;
    };
    let (title, lines, hint) = match prompt {
        Prompt::TakeOver { items, owners, .. } => {
            let what = match items.len() {
                1 => "this item".to_owned(),
                n => format!("{} items", feedback_core::text::output::thousands(n)),
            };
            let lines = vec![
                Line::raw(format!(" {owners} owns {what}.")),
                Line::raw(" Take it over? The change is recorded in its history."),
            ];
            (" Take over ", lines, " y take over · n / Esc leave it ")
        }
        Prompt::Assign {
            ids,
            choices,
            selected,
        } => {
            let mut lines = vec![Line::styled(
                format!(" Assign {} to:", count(ids.len())),
                theme.dim(),
            )];
            for (n, (_, shown, online)) in choices.iter().enumerate() {
                let dot = if *online { "● " } else { "  " };
                let text = format!(
                    " {}{dot}{shown}{}",
                    crate::picker_keys::entry_number(n),
                    if *online { "  online" } else { "" }
                );
                let style = if n == *selected {
                    theme.selected(true)
                } else {
                    Style::new()
                };
                lines.push(Line::styled(feedback_core::width::fit(&text, 40), style));
            }
            (" Assign ", lines, " ↑↓ Enter assign · Esc cancel ")
        }
        Prompt::Labels { ids, input, error } => {
            let mut lines = vec![
                Line::styled(
                    format!(" Labels of {}: +add -remove", count(ids.len())),
                    theme.dim(),
                ),
                Line::from(vec![
                    Span::raw(" "),
                    Span::styled(format!("{}▏", Clean::line(input)), theme.active()),
                ]),
            ];
            if let Some(error) = error {
                lines.push(Line::styled(format!(" ⚠ {error}"), theme.error()));
            }
            (" Labels ", lines, " Enter apply · Esc cancel ")
        }
        Prompt::Undo { step, since } => {
            let lines = vec![
                Line::raw(format!(" Since your {}, {since}.", Clean::line(&step.what))),
                Line::raw(" Undo it anyway? The change is recorded in its history."),
            ];
            (" Undo ", lines, " y undo · n / Esc keep it ")
        }
    };
    let rect = super::popup::centred(area, 60, u16::try_from(lines.len()).unwrap_or(10) + 2);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title)
        .title_bottom(Line::styled(hint, theme.dim()));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

fn count(items: usize) -> String {
    match items {
        1 => "this item".to_owned(),
        n => format!("{} items", feedback_core::text::output::thousands(n)),
    }
}

/// The team's lines about item `id`, under the detail's triage: its owner (and a change of
/// this member's waiting to be sent), its labels, who else has it open; none without a team.
#[must_use]
pub(crate) fn item_lines(state: &AppState, id: &str, theme: Theme) -> Vec<Line<'static>> {
    let Some(team) = &state.team else {
        return Vec::new();
    };
    let shown = state.triage.overlay.team(id);
    let owner = shown
        .and_then(|s| s.owner_shown.clone())
        .unwrap_or_else(|| Clean::fixed("nobody"));
    let mut spans = vec![
        Span::styled(fit("Owner", 10), theme.header()),
        Span::styled(owner.to_string(), theme.accent()),
    ];
    if shown.is_some_and(|s| s.pending) {
        spans.push(Span::styled(" · ~ pending (not sent yet)", theme.warn()));
    }
    let mut lines = vec![Line::from(spans)];
    if let Some(labels) = shown.map(|s| &s.labels).filter(|l| !l.is_empty()) {
        lines.push(Line::from(vec![
            Span::styled(fit("Labels", 10), theme.header()),
            Span::raw(labels.to_string()),
        ]));
    }
    // The other members' notes (this member's own is the triage note above).
    for (author, shown, body, at) in shown.map(|s| s.notes.as_slice()).unwrap_or_default() {
        if *author == team.member {
            continue;
        }
        lines.push(Line::styled(
            format!(
                "✎ {shown} · {}",
                feedback_core::timefmt::age(state.now, *at)
            ),
            theme.header(),
        ));
        for line in body.lines() {
            lines.push(Line::raw(format!("  {line}")));
        }
    }
    if let Some((_, history)) = team.history.as_ref().filter(|(of, _)| of == id)
        && !history.is_empty()
    {
        lines.push(Line::styled("History", theme.header()));
        let skipped = history.len().saturating_sub(HISTORY_LINES);
        if skipped > 0 {
            lines.push(Line::styled(
                format!(
                    "  … {skipped} earlier (feedback-inbox team log {})",
                    Clean::line(id)
                ),
                theme.dim(),
            ));
        }
        for line in &history[skipped..] {
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:>4} ", feedback_core::timefmt::age(state.now, line.at)),
                    theme.dim(),
                ),
                Span::styled(format!("{} ", line.member), theme.accent()),
                Span::raw(line.what.to_string()),
            ]));
        }
    }
    let replying = team.replying_to(id);
    let looking: Vec<&Clean> = team
        .looking_at(id)
        .into_iter()
        .filter(|who| !replying.contains(who))
        .collect();
    if !looking.is_empty() || !replying.is_empty() {
        let said = |who: &[&Clean], what: &str| {
            let names: Vec<&str> = who.iter().map(|c| c.as_str()).collect();
            let verb = if names.len() == 1 { "is" } else { "are" };
            format!("{} {verb} {what}", names.join(", "))
        };
        let mut parts = Vec::new();
        if !replying.is_empty() {
            parts.push(said(&replying, "replying"));
        }
        if !looking.is_empty() {
            parts.push(said(&looking, "looking at this"));
        }
        let text = format!("{} {}", super::list::LOOKING_GLYPH, parts.join("; "));
        lines.push(Line::from(vec![
            Span::styled(fit("Looking", 10), theme.header()),
            Span::styled(text, theme.warn()),
        ]));
    }
    lines
}
