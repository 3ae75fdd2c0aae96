//! The trends panel above the list: the view's 30-day volume (a sparkline) and today's count,
//! and the five groups that grew most this week. During a first mirror the days the store does
//! not hold yet are drawn as unknown, the title says from when the history is whole ("history
//! from 19 Nov"), and growth is told only against days it holds. Everything comes from state.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::insight::{label, spark, stale};
use super::theme::Theme;
use crate::store::pivot::{By, Growth};
use crate::tui::insight::TrendsPanel;
use crate::tui::state::AppState;

/// A group is listed as growing only with at least this many items this week: "+300% (2 this
/// week)" is noise, not a move.
pub const GROWTH_FLOOR: u64 = 5;
/// The growing groups the panel has lines for.
const GROWING_SHOWN: usize = 5;

/// The trends panel: the view's 30-day volume and today's count, and the five groups that grew
/// most this week.
pub fn render_trends(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(panel) = &state.insight.trends else {
        return;
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(false))
        .title(trends_title(panel, state));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(trend) = &panel.trend else {
        let text = panel.error.as_ref().map_or_else(
            || Line::styled("computing the trend…", theme.dim()),
            |e| Line::styled(format!("cannot compute: {e}"), theme.error()),
        );
        frame.render_widget(Paragraph::new(text), inner);
        return;
    };
    let [spark_area, growing] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(inner);
    spark(
        frame,
        spark_area,
        &trend.daily,
        trend.held_from,
        None,
        theme,
    );
    let by = panel.by.as_ref().unwrap_or(&state.insight.by);
    let mut lines: Vec<Line> = trend
        .growing
        .iter()
        .filter(|g| g.this_week >= GROWTH_FLOOR)
        .take(GROWING_SHOWN)
        .map(|g| growth_line(g, by, state.acting.privacy, theme))
        .collect();
    if lines.is_empty() {
        let why = if trend.no_baseline {
            " no growth: earlier weeks not mirrored yet"
        } else {
            " nothing grew this week"
        };
        lines.push(Line::styled(why, theme.dim()));
    }
    frame.render_widget(Paragraph::new(lines), growing);
}

fn trends_title(panel: &TrendsPanel, state: &AppState) -> String {
    let today = panel.trend.as_ref().map_or(0, |t| t.today);
    let busy = if panel.computing { " ⟳" } else { "" };
    let by = panel.by.as_ref().unwrap_or(&state.insight.by);
    let history = panel
        .trend
        .as_ref()
        .and_then(|t| history_note(t.first_day, t.held_from, t.daily.len(), state))
        .unwrap_or_default();
    format!(
        " Trends · 30 days{history} · today {today} · growing by {}{busy}{} ",
        by.label(),
        stale(panel.trend.is_some(), panel.error.as_ref())
    )
}

/// " · history from 19 Nov" for a series from `first_day` held from slot `held_from` of `days`
/// (" · no history yet" when none is held; `None` when all are).
#[must_use]
pub fn history_note(
    first_day: jiff::civil::Date,
    held_from: usize,
    days: usize,
    state: &AppState,
) -> Option<String> {
    if held_from >= days {
        return Some(" · history not mirrored yet".to_owned());
    }
    let from = crate::store::pivot::history_from(first_day, held_from)?;
    let at = crate::store::pivot::day_start(from, &state.tz);
    Some(format!(
        " · history from {}",
        crate::timefmt::day(at, state.now, &state.tz)
    ))
}

/// "+240%  Nimbus Notes  (34 this week)", or "new" for a group without a baseline.
fn growth_line(g: &Growth, by: &By, privacy: bool, theme: Theme) -> Line<'static> {
    let change = match g.percent {
        Some(p) => format!("{p:+.0}%"),
        None => "new".to_owned(),
    };
    Line::from(vec![
        Span::styled(format!(" {change:>6} "), theme.warn()),
        Span::raw(label(by, g.key.as_deref(), &g.text.name, privacy)),
        Span::styled(format!("  ({} this week)", g.this_week), theme.dim()),
    ])
}
