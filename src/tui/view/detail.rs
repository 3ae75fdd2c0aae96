//! The detail view: the whole message wrapped and scrollable, then the item's facts, metadata
//! (built-in and custom, aligned) and each delivery channel with its status and link.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::theme::Theme;
use crate::api::FeedbackDetail;
use crate::text::fields::{DetailFields, detail_fields};
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
        (Load::Failed(message), _) => vec![Line::styled(
            format!("⚠ {}", crate::text::sanitize_line(message)),
            theme.error(),
        )],
        (_, Some(detail)) => lines(detail, state, theme),
        _ => vec![Line::styled("loading…", theme.dim())],
    };
    let inner = block.inner(area);
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    let total = u16::try_from(paragraph.line_count(inner.width)).unwrap_or(u16::MAX);
    let scroll = view.scroll.min(total.saturating_sub(inner.height));
    frame.render_widget(paragraph.block(block).scroll((scroll, 0)), area);
}

/// The detail's lines, built only from [`detail_fields`], so every value drawn is sanitized.
fn lines(detail: &FeedbackDetail, state: &AppState, theme: Theme) -> Vec<Line<'static>> {
    let DetailFields {
        message,
        facts,
        built_in,
        custom,
        delivery,
    } = detail_fields(detail, state.now, &state.tz);
    let mut out: Vec<Line<'static>> = message.lines().map(|l| Line::raw(l.to_owned())).collect();
    out.push(Line::raw(""));
    for (label, value) in facts {
        out.push(Line::from(vec![
            Span::styled(fit(label, 10), theme.header()),
            Span::raw(value),
        ]));
    }
    pairs(&mut out, "Metadata (built-in)", built_in, theme);
    pairs(&mut out, "Metadata (custom)", custom, theme);
    out.push(Line::raw(""));
    out.push(Line::styled("Delivery", theme.header()));
    if delivery.is_empty() {
        out.push(Line::styled("  none", theme.dim()));
    }
    for d in delivery {
        let mut spans = vec![
            Span::raw(format!("  {} ", fit(&d.channel, 14))),
            Span::raw(fit(&d.status, 10)),
        ];
        if let Some(url) = d.link {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(url, theme.link()));
        }
        out.push(Line::from(spans));
    }
    out
}

fn pairs(out: &mut Vec<Line<'static>>, title: &str, items: Vec<(String, String)>, theme: Theme) {
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
            Span::styled(format!("  {} ", fit(&key, key_cells)), theme.dim()),
            Span::raw(value),
        ]));
    }
}
