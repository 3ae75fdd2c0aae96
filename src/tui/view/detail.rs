//! The detail view: the whole message wrapped and scrollable (the search's words highlighted),
//! then the item's facts, metadata (built-in and custom, aligned) and each delivery channel with
//! its status and link. It is shown from the store at once; the bottom border says how fresh it
//! is ("as of …", or that only the list fields are stored) and when a refresh is under way.

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
    let block =
        block.title_bottom(Line::styled(freshness(state, view), theme.dim()).right_aligned());
    let lines = match (&view.load, state.details.get(&view.id)) {
        (Load::Failed(message), _) => vec![Line::styled(
            format!("⚠ {}", crate::text::sanitize_line(message)),
            theme.error(),
        )],
        (_, Some(known)) => lines(
            &crate::tui::privacy::detail(&known.detail, state.acting.privacy),
            state,
            theme,
        ),
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
    let highlights = state
        .text_filter
        .as_ref()
        .map(|f| &f.highlights)
        .filter(|h| !h.is_empty());
    let mut out: Vec<Line<'static>> = message
        .lines()
        .map(|l| match highlights {
            Some(h) => highlighted(l, h, theme),
            None => Line::raw(l.to_owned()),
        })
        .collect();
    out.push(Line::raw(""));
    for (label, value) in facts {
        out.push(Line::from(vec![
            Span::styled(fit(label, 10), theme.header()),
            Span::raw(value),
        ]));
    }
    out.extend(super::triage::detail_lines(
        state,
        detail.feedback.id.as_str(),
        theme,
    ));
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

/// How fresh the shown detail is.
fn freshness(state: &AppState, view: &DetailView) -> String {
    let refreshing = if view.refreshing {
        " · refreshing…"
    } else {
        ""
    };
    match view.detail_at {
        Some(at) => format!(
            " details as of {}{refreshing} ",
            super::status_bar::as_of(state.now, at, &state.tz)
        ),
        None if view.refreshing => " list fields only · fetching details… ".to_owned(),
        None => " list fields only ".to_owned(),
    }
}

/// A line of text with the search's words in the highlight style.
fn highlighted(
    text: &str,
    highlights: &crate::store::search::Highlights,
    theme: Theme,
) -> Line<'static> {
    let mut spans = Vec::new();
    let mut at = 0;
    for range in highlights.ranges(text) {
        if range.start < at {
            continue;
        }
        if let (Some(before), Some(word)) = (text.get(at..range.start), text.get(range.clone())) {
            spans.push(Span::raw(before.to_owned()));
            spans.push(Span::styled(word.to_owned(), theme.highlight()));
            at = range.end;
        }
    }
    spans.push(Span::raw(text.get(at..).unwrap_or_default().to_owned()));
    Line::from(spans)
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
