//! The detail view: the whole message wrapped and scrollable, then the item's facts, metadata
//! (built-in and custom, aligned) and each delivery channel with its status and link.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::theme::Theme;
use crate::api::FeedbackDetail;
use crate::timefmt::{age, local};
use crate::tui::state::{AppState, DetailView, Load};
use crate::width::{fit, width};

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, view: &DetailView, theme: Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(format!(
            " Feedback {} ",
            crate::text::sanitize_line(&view.id)
        ));
    let lines = match (&view.load, state.details.get(&view.id)) {
        (Load::Failed(message), _) => vec![Line::styled(format!("⚠ {message}"), theme.error())],
        (_, Some(detail)) => lines(detail, state, theme),
        _ => vec![Line::styled("loading…", theme.dim())],
    };
    let inner = block.inner(area);
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    let total = u16::try_from(paragraph.line_count(inner.width)).unwrap_or(u16::MAX);
    let scroll = view.scroll.min(total.saturating_sub(inner.height));
    frame.render_widget(paragraph.block(block).scroll((scroll, 0)), area);
}

fn lines(detail: &FeedbackDetail, state: &AppState, theme: Theme) -> Vec<Line<'static>> {
    let f = &detail.feedback;
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(fit(name, 10), theme.header()),
            Span::raw(value),
        ])
    };
    let mut out: Vec<Line<'static>> = f.message.lines().map(|l| Line::raw(l.to_owned())).collect();
    out.push(Line::raw(""));
    out.push(field("Id", f.id.0.clone()));
    out.push(field("Status", f.status.to_string()));
    out.push(field(
        "Reporter",
        f.reporter_email.clone().unwrap_or_else(|| "—".into()),
    ));
    out.push(field(
        "Received",
        format!(
            "{} ({} ago)",
            local(f.received_at, &state.tz),
            age(state.now, f.received_at)
        ),
    ));
    out.push(field("Project", f.project.name.clone()));
    out.push(field(
        "App",
        f.app
            .as_ref()
            .map_or_else(|| "—".into(), |a| format!("{} · {}", a.name, a.platform)),
    ));
    out.push(field(
        "Tags",
        if f.tags.is_empty() {
            "—".into()
        } else {
            f.tags.join(", ")
        },
    ));
    pairs(
        &mut out,
        "Metadata (built-in)",
        detail.metadata.built_in.iter(),
        theme,
    );
    pairs(
        &mut out,
        "Metadata (custom)",
        detail.metadata.custom.iter(),
        theme,
    );
    out.push(Line::raw(""));
    out.push(Line::styled("Delivery", theme.header()));
    if detail.delivery.is_empty() {
        out.push(Line::styled("  none", theme.dim()));
    }
    for d in &detail.delivery {
        let mut spans = vec![
            Span::raw(format!("  {} ", fit(d.channel.as_str(), 14))),
            Span::raw(fit(d.status.as_str(), 10)),
        ];
        if let Some(url) = &d.external_url {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(url.clone(), theme.link()));
        }
        out.push(Line::from(spans));
    }
    out
}

fn pairs<'a>(
    out: &mut Vec<Line<'static>>,
    title: &str,
    items: impl Iterator<Item = (&'a String, &'a String)>,
    theme: Theme,
) {
    let items: Vec<_> = items.collect();
    out.push(Line::raw(""));
    out.push(Line::styled(title.to_owned(), theme.header()));
    if items.is_empty() {
        out.push(Line::styled("  none", theme.dim()));
    }
    let key_cells = items
        .iter()
        .map(|(k, _)| width(k))
        .max()
        .unwrap_or(0)
        .min(24);
    for (key, value) in items {
        out.push(Line::from(vec![
            Span::styled(format!("  {} ", fit(key, key_cells)), theme.dim()),
            Span::raw(value.clone()),
        ]));
    }
}
