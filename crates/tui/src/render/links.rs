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

/// The detail's Replies section for item `id` (none without a reply): each reply, whom it
/// went to (masked in privacy mode), its subject, who sent it and when; one that did not
/// leave says why and what to do.
#[must_use]
pub(crate) fn reply_lines(state: &AppState, id: &str, theme: Theme) -> Vec<Line<'static>> {
    let Some(shown) = state
        .triage
        .overlay
        .team(id)
        .filter(|s| !s.replies.is_empty())
    else {
        return Vec::new();
    };
    let mut lines = vec![Line::raw(""), Line::styled("Replies", theme.header())];
    for reply in &shown.replies {
        let to = Clean::line(&crate::privacy::email(&reply.to, state.acting.privacy));
        let when = match feedback_core::timefmt::age(state.now, reply.at) {
            now if now == "now" => "just now".to_owned(),
            age => format!("{age} ago"),
        };
        let by = reply
            .by
            .as_ref()
            .map(|b| format!(" by {b}"))
            .unwrap_or_default();
        let (glyph, style) = match reply.state {
            "sent" => ("↩ sent", theme.good()),
            "waiting" | "sending" => ("⧗ waiting", theme.warn()),
            "failed" => ("✗ failed", theme.error()),
            _ => ("? unknown", theme.error()),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {glyph} "), style),
            Span::raw(format!("{when}{by} to {to}: {}", reply.subject)),
        ]));
        let why = reply.why.as_ref().map(ToString::to_string);
        let hint = match reply.state {
            "unknown" => Some(format!(
                "its sender ended before it recorded whether the mail server took it: check the server's log or ask the reporter; `feedback-inbox reply --resend {}` sends it again",
                reply.reply_id
            )),
            "failed" | "waiting" => why,
            _ => None,
        };
        if let Some(hint) = hint {
            lines.push(Line::styled(format!("    {hint}"), theme.dim()));
        }
    }
    lines
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
