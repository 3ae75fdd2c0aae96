//! The trends panel above the list: the view's 30-day volume (a sparkline) and today's count,
//! and the five groups that grew most this week. During a first mirror the days the store does
//! not hold yet are drawn as unknown, the title says from when the history is whole ("history
//! from 19 Nov"), and growth is told only against days it holds. Everything comes from state.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::insight::{label, spark, stale};
use super::list::thousands;
use super::theme::Theme;
use crate::insight::TrendsPanel;
use crate::state::AppState;
use feedback_store::pivot::{By, Growth};

/// A group is listed as growing only with at least this many items this week: "+300% (2 this
/// week)" is noise, not a move.
pub(crate) const GROWTH_FLOOR: u64 = 5;
/// The growing groups the panel has lines for.
const GROWING_SHOWN: usize = 5;

/// The trends panel: the view's 30-day volume and today's count, and the five groups that grew
/// most this week.
pub(crate) fn render_trends(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
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
    let [spark_area, growing] = Layout::horizontal([
        Constraint::Length(spark_width(inner.width)),
        Constraint::Fill(1),
    ])
    .areas(inner);
    spark(
        frame,
        spark_area,
        &trend.daily,
        trend.held_from,
        None,
        theme,
    );
    let by = panel.by.as_ref().unwrap_or(&state.insight.by);
    let mut lines: Vec<Line> = Vec::new();
    lines.extend(trend.based_on.map(|b| based_on(b, theme)));
    let room = GROWING_SHOWN - lines.len();
    lines.extend(
        trend
            .growing
            .iter()
            .filter(|g| g.this_week >= GROWTH_FLOOR)
            .take(room)
            .map(|g| growth_line(g, by, state.acting.privacy, growing.width, theme)),
    );
    if lines.len() == usize::from(trend.based_on.is_some()) {
        let why = if trend.no_baseline {
            " no growth: earlier weeks not mirrored yet"
        } else {
            " nothing grew this week"
        };
        lines.push(Line::styled(why, theme.dim()));
    }
    frame.render_widget(Paragraph::new(lines), growing);
}

/// The sparkline's width in a panel `inner` cells wide: 45% of it, at most its 30 days and a
/// gap; the growing groups take the rest.
#[must_use]
pub(crate) fn spark_width(inner: u16) -> u16 {
    (inner * 45 / 100).min(31)
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
pub(crate) fn history_note(
    first_day: jiff::civil::Date,
    held_from: usize,
    days: usize,
    state: &AppState,
) -> Option<String> {
    if held_from >= days {
        return Some(" · history not mirrored yet".to_owned());
    }
    let from = feedback_store::pivot::history_from(first_day, held_from)?;
    let at = feedback_store::pivot::day_start(from, &state.tz);
    Some(format!(
        " · history from {}",
        feedback_core::timefmt::day(at, state.now, &state.tz)
    ))
}

/// " based on 1,145 of 64,945 items with details": what a metadata pivot's growth rests on
/// (only the items whose details are stored have versions, systems, locales).
fn based_on((covered, total): (u64, u64), theme: Theme) -> Line<'static> {
    let n = |v: u64| thousands(usize::try_from(v).unwrap_or(usize::MAX));
    let style = if covered < total {
        theme.warn()
    } else {
        theme.dim()
    };
    Line::styled(
        format!(
            " based on {} of {} items with details",
            n(covered),
            n(total)
        ),
        style,
    )
}

/// "+240%  Nimbus Notes  (34 this week, 10/week before)"; on a baseline too small for a
/// percentage, "new" (none before) or "more", with the counts: "(6 this week, 1 in 4 weeks
/// before)". In `width` cells the counts shorten ("(6 vs 1 in 4 weeks)", then "(6 this
/// week)") before the label is cut, and the label is cut in its middle (a version's number is
/// at its end) before it has under [`LABEL_MIN`] cells.
fn growth_line(g: &Growth, by: &By, privacy: bool, width: u16, theme: Theme) -> Line<'static> {
    let change = match g.percent {
        Some(p) => format!("{p:+.0}%"),
        None if g.previous == 0 => "new".to_owned(),
        None => "more".to_owned(),
    };
    let change = format!(" {change:>6} ");
    let before = match g.percent {
        Some(_) => format!("{:.0}/week", g.weekly_average),
        None => format!("{} in {}", g.previous, span(g.baseline_days)),
    };
    let counts = [
        format!("  ({} this week, {before} before)", g.this_week),
        format!("  ({} vs {before})", g.this_week),
        format!("  ({} this week)", g.this_week),
    ];
    let name = label(by, g.key.as_deref(), &g.text.name, privacy);
    let room = |counts: &str| {
        usize::from(width).saturating_sub(
            feedback_core::width::width(&change) + feedback_core::width::width(counts),
        )
    };
    let whole = feedback_core::width::width(&name);
    let counts = counts
        .iter()
        .find(|c| room(c) >= whole)
        .or_else(|| counts.iter().find(|c| room(c) >= LABEL_MIN))
        .unwrap_or(&counts[2])
        .clone();
    let room = room(&counts);
    Line::from(vec![
        Span::styled(change, theme.warn()),
        Span::raw(feedback_core::width::elide(&name, room, room / 2)),
        Span::styled(counts, theme.dim()),
    ])
}

/// The fewest cells a growing group's label keeps before its counts shorten.
const LABEL_MIN: usize = 16;

/// "4 weeks", "9 days", "1 day": the baseline's length.
fn span(days: usize) -> String {
    match days {
        1 => "day".to_owned(),
        d if d % 7 == 0 && d > 7 => format!("{} weeks", d / 7),
        7 => "week".to_owned(),
        d => format!("{d} days"),
    }
}
