//! The reply composer over the screen: the template picker, the subject and the text being
//! edited, and the confirm screen (From, To: every address, or how many and the first few,
//! masked in privacy mode; the subject; the first lines of the first reply). Every value is
//! `Clean`: the reporters' messages and the templates are made inert as they are drawn.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::replying::{Composer, Step};
use crate::state::AppState;
use feedback_core::text::Clean;

/// The most addresses the confirm screen names before it counts the rest.
const ADDRESSES_SHOWN: usize = 3;
/// The lines of the reply the confirm screen shows.
const PREVIEW_LINES: usize = 6;

/// The composer, when open, centred over `area`.
pub(crate) fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(composer) = &state.mail.composer else {
        return;
    };
    let who = match composer.recipients.len() {
        1 => "1 reporter".to_owned(),
        n => format!("{} reporters", feedback_core::text::output::thousands(n)),
    };
    match &composer.step {
        Step::Template { selected } => {
            let mut lines = vec![Line::styled(format!(" Reply to {who} from:"), theme.dim())];
            let names = std::iter::once(Clean::fixed("a blank reply")).chain(
                composer.templates.iter().map(|t| match &t.shared_by {
                    Some(by) => Clean::line(&format!("{}  · team ({by})", t.name)),
                    None => Clean::line(&t.name),
                }),
            );
            for (n, name) in names.enumerate() {
                let style = if n == *selected {
                    theme.selected(true)
                } else {
                    Style::new()
                };
                let text = format!(" {}{name}", crate::picker_keys::entry_number(n));
                lines.push(Line::styled(feedback_core::width::fit(&text, 50), style));
            }
            popup(
                frame,
                area,
                " Reply ",
                lines,
                " ↑↓ Enter choose · Esc cancel ",
                theme,
                56,
            );
        }
        Step::Edit { subject_focus } => edit(frame, area, composer, *subject_focus, &who, theme),
        Step::Confirm | Step::Sending => confirm(frame, area, state, composer, theme),
        Step::AskSent { replies } => {
            let lines = vec![
                Line::raw(format!(
                    " {} opened in your mail client.",
                    feedback_core::text::output::counted(replies.len(), "reply")
                )),
                Line::raw(" Did they go? They are recorded on the items only if you say so."),
            ];
            popup(
                frame,
                area,
                " Sent? ",
                lines,
                " y yes, record them · any other key: no ",
                theme,
                72,
            );
        }
    }
}

fn edit(
    frame: &mut Frame,
    area: Rect,
    composer: &Composer,
    subject_focus: bool,
    who: &str,
    theme: Theme,
) {
    let rect = super::popup::centred(area, 76, 16);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(format!(" Reply to {who} "))
        .title_bottom(Line::styled(
            " Enter go on · Alt-Enter new line · Tab subject/text · Esc cancel ",
            theme.dim(),
        ));
    let inner = block.inner(rect);
    frame.render_widget(Clear, rect);
    frame.render_widget(block, rect);
    let [subject, error, body] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(1),
    ])
    .areas(inner);
    let cursor = if subject_focus { "▏" } else { "" };
    let style = if subject_focus {
        theme.active()
    } else {
        Style::new()
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("Subject ", theme.header()),
            Span::styled(format!("{}{cursor}", Clean::line(&composer.subject)), style),
        ])),
        subject,
    );
    let note = match &composer.error {
        Some(why) => Line::styled(format!("⚠ {why}"), theme.error()),
        None => Line::styled(
            "{app} {version} {ticket} {agent} {id} {project}; the message is quoted below",
            theme.dim(),
        ),
    };
    frame.render_widget(Paragraph::new(note), error);
    let mut text = composer.body.clone();
    text.set_cursor_line_style(Style::new());
    if subject_focus {
        text.set_cursor_style(Style::new());
    }
    frame.render_widget(&text, body);
}

fn confirm(frame: &mut Frame, area: Rect, state: &AppState, composer: &Composer, theme: Theme) {
    let private = state.acting.privacy;
    let shown = |to: &str| Clean::line(&crate::privacy::email(to, private)).to_string();
    let count = composer.recipients.len();
    let mut to: Vec<String> = composer
        .recipients
        .iter()
        .take(ADDRESSES_SHOWN)
        .map(|r| shown(&r.to))
        .collect();
    if count > ADDRESSES_SHOWN {
        to.push(format!(
            "and {} more ({} in all)",
            feedback_core::text::output::thousands(count - ADDRESSES_SHOWN),
            feedback_core::text::output::thousands(count)
        ));
    }
    let from = state
        .mail
        .settings
        .as_ref()
        .map_or_else(Clean::default, |s| Clean::line(&s.from));
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(feedback_core::width::fit(name, 9), theme.header()),
            Span::raw(value),
        ])
    };
    let mut lines = Vec::new();
    if let Some(answered) = &composer.answered {
        lines.push(Line::styled(
            format!("⚠ {answered}: send another?"),
            theme.warn(),
        ));
    }
    lines.push(field("From", from.to_string()));
    lines.push(field("To", to.join(", ")));
    if composer.skipped > 0 {
        lines.push(field(
            "Skipped",
            format!(
                "{} without a reporter's address",
                feedback_core::text::output::counted(composer.skipped, "item")
            ),
        ));
    }
    match composer.filled() {
        Ok(filled) => {
            if let Some((_, subject, body)) = filled.first() {
                lines.push(field("Subject", Clean::line(subject).to_string()));
                lines.push(Line::raw(""));
                for line in Clean::text(body).lines().take(PREVIEW_LINES) {
                    lines.push(Line::raw(format!(" {line}")));
                }
            }
        }
        Err(why) => lines.push(Line::styled(
            format!("⚠ {}", Clean::line(&why)),
            theme.error(),
        )),
    }
    let (title, hint) = if composer.step == Step::Sending {
        (" Sending… ", " kept in the outbox; sending ")
    } else {
        (" Send? ", " y send · any other key: back to the text ")
    };
    popup(frame, area, title, lines, hint, theme, 76);
}

fn popup(
    frame: &mut Frame,
    area: Rect,
    title: &str,
    lines: Vec<Line<'_>>,
    hint: &str,
    theme: Theme,
    width: u16,
) {
    let rect = super::popup::centred(area, width, u16::try_from(lines.len()).unwrap_or(10) + 2);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title.to_owned())
        .title_bottom(Line::styled(hint.to_owned(), theme.dim()));
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
