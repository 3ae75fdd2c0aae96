//! The links on items as drawn: the link prompt (`ctrl-k`) over the list, and the detail's
//! Links section (each ticket's short name, its address, its title, who linked it and when).
//! Every part is `Clean`, sanitized where it arrived (`team::TeamShown`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::state::AppState;
use feedback_core::text::Clean;

/// The open link prompt, centred over `area`; for one item, its links so far (to remove one).
pub(crate) fn render_prompt(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(prompt) = &state.link_prompt else {
        return;
    };
    let whose = match prompt.ids.len() {
        1 => "this item".to_owned(),
        n => format!("{} items", feedback_core::text::output::thousands(n)),
    };
    let shared = if state.team.is_some() {
        " (the team's)"
    } else {
        ""
    };
    let mut lines = vec![
        Line::styled(
            format!(" Link {whose} to a ticket{shared}: URL [title] · -URL removes"),
            theme.dim(),
        ),
        Line::from(vec![
            Span::raw(" "),
            Span::styled(format!("{}▏", Clean::line(&prompt.input)), theme.active()),
        ]),
    ];
    if let Some(error) = &prompt.error {
        lines.push(Line::styled(format!(" ⚠ {error}"), theme.error()));
    }
    if let [id] = prompt.ids.as_slice()
        && let Some(shown) = state.triage.overlay.team(id)
    {
        for link in &shown.links {
            lines.push(Line::from(vec![
                Span::styled(format!(" {} ", link.short), theme.accent()),
                Span::styled(link.url.to_string(), theme.link()),
            ]));
        }
    }
    let rect = super::popup::centred(area, 72, u16::try_from(lines.len()).unwrap_or(10) + 2);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Link ")
        .title_bottom(Line::styled(" Enter link · Esc cancel ", theme.dim()));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

/// The detail's Links section for item `id` (none without a link): each link's short name and
/// address, then its title, who linked it and how long ago, and whether it waits to be sent.
#[must_use]
pub(crate) fn detail_lines(state: &AppState, id: &str, theme: Theme) -> Vec<Line<'static>> {
    let Some(shown) = state
        .triage
        .overlay
        .team(id)
        .filter(|s| !s.links.is_empty())
    else {
        return Vec::new();
    };
    let mut lines = vec![Line::raw(""), Line::styled("Links", theme.header())];
    for link in &shown.links {
        lines.push(Line::from(vec![
            Span::styled(format!("  {} ", link.short), theme.accent()),
            Span::styled(link.url.to_string(), theme.link()),
        ]));
        let mut about = Vec::new();
        if let Some(title) = &link.title {
            about.push(title.to_string());
        }
        let when = match feedback_core::timefmt::age(state.now, link.at) {
            now if now == "now" => "just now".to_owned(),
            age => format!("{age} ago"),
        };
        about.push(match &link.by {
            Some(by) => format!("{by} · {when}"),
            None => when,
        });
        if link.pending {
            about.push("~ not sent yet".to_owned());
        }
        lines.push(Line::styled(
            format!("    {}", about.join(" · ")),
            theme.dim(),
        ));
    }
    lines
}
