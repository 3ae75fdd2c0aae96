//! The detail view: the whole message wrapped and scrollable (the search's words highlighted),
//! then the item's facts, metadata (built-in and custom, aligned) and each delivery channel with
//! its status and link. It is shown from the store at once; the bottom border says how fresh it
//! is ("as of …", or that only the list fields are stored) and when a refresh is under way.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::theme::Theme;
use crate::state::{AppState, DetailView, Load};
use feedback_api::FeedbackDetail;
use feedback_api::detail_fields::{DetailFields, detail_fields};
use feedback_core::text::Clean;
use feedback_core::width::{fit, width};

pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    view: &DetailView,
    theme: Theme,
) {
    let title = match position(state, &view.id) {
        Some(position) => format!(" Feedback {} · {position} ", view.shown_id),
        None => format!(" Feedback {} ", view.shown_id),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    let block =
        block.title_bottom(Line::styled(freshness(state, view), theme.dim()).right_aligned());
    let inner = block.inner(area);
    let lines = match (&view.load, state.details.get(&view.id)) {
        (Load::Failed(message), _) => vec![Line::styled(format!("⚠ {message}"), theme.error())],
        (_, Some(known)) => lines(
            &crate::privacy::detail(&known.detail, state.acting.privacy),
            state,
            theme,
            usize::from(inner.width),
        ),
        _ => vec![Line::styled("loading…", theme.dim())],
    };
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false });
    let total = u16::try_from(paragraph.line_count(inner.width)).unwrap_or(u16::MAX);
    let scroll = view.scroll.min(total.saturating_sub(inner.height));
    let block = block.title_bottom(Line::styled(
        scroll_position(scroll, inner.height, total),
        theme.dim(),
    ));
    frame.render_widget(paragraph.block(block).scroll((scroll, 0)), area);
}

/// Where item `id` is in the list, "3 / 1,284", when it is the list's selected item.
#[must_use]
pub(super) fn position(state: &AppState, id: &str) -> Option<String> {
    state.selected_row().filter(|r| &*r.id == id)?;
    let thousands = super::list::thousands;
    Some(format!(
        "{} / {}",
        thousands(state.list.selected + 1),
        thousands(state.visible_len())
    ))
}

/// "lines 1–20 of 48", and "more below" when the text goes on past the bottom.
fn scroll_position(scroll: u16, rows: u16, total: u16) -> String {
    if total <= rows {
        return String::new();
    }
    let last = scroll.saturating_add(rows).min(total);
    let more = if last < total {
        " · ↓ more below"
    } else {
        ""
    };
    format!(
        " lines {}–{} of {}{more} ",
        feedback_core::text::output::thousands(scroll + 1),
        feedback_core::text::output::thousands(last),
        feedback_core::text::output::thousands(total)
    )
}

/// The detail's lines for a body `cells` wide, built only from [`detail_fields`], so every
/// value drawn is sanitized; long values wrap under their column.
pub(super) fn lines(
    detail: &FeedbackDetail,
    state: &AppState,
    theme: Theme,
    cells: usize,
) -> Vec<Line<'static>> {
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
        hanging(
            &mut out,
            Span::styled(fit(label, 10), theme.header()),
            (&value, cells),
        );
    }
    out.extend(super::triage::detail_lines(
        state,
        detail.feedback.id.as_str(),
        theme,
    ));
    out.extend(super::team::item_lines(
        state,
        detail.feedback.id.as_str(),
        theme,
    ));
    out.extend(super::links::detail_lines(
        state,
        detail.feedback.id.as_str(),
        theme,
    ));
    out.extend(super::links::reply_lines(
        state,
        detail.feedback.id.as_str(),
        theme,
    ));
    pairs(&mut out, "Metadata (built-in)", built_in, (theme, cells));
    pairs(&mut out, "Metadata (custom)", custom, (theme, cells));
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
    highlights: &feedback_core::query::Highlights,
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

fn pairs(
    out: &mut Vec<Line<'static>>,
    title: &str,
    items: Vec<(Clean, Clean)>,
    (theme, cells): (Theme, usize),
) {
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
        .min(24)
        .min(cells / 3);
    for (key, value) in items {
        let key = Span::styled(format!("  {} ", fit(&key, key_cells)), theme.dim());
        hanging(out, key, (&value, cells));
    }
}

/// `label` then `value`, the value wrapped to the room right of the label and its further lines
/// indented to start under it (a hanging indent).
fn hanging(out: &mut Vec<Line<'static>>, label: Span<'static>, (value, cells): (&str, usize)) {
    let indent = feedback_core::width::advance(&label.content);
    let room = cells.saturating_sub(indent);
    let mut pieces = super::wrap::wrap(value, room).into_iter();
    let first = pieces.next().unwrap_or_default();
    out.push(Line::from(vec![label, Span::raw(first)]));
    for piece in pieces {
        out.push(Line::raw(format!("{}{piece}", " ".repeat(indent))));
    }
}
