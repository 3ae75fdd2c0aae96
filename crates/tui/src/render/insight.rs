//! Insight's drawing: the grouped view in place of the list (each group's label,
//! count, share as a bar and a 30-day sparkline), the `=` picker, and the trends panel above
//! the list. Everything comes from state: no query runs here.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};

use super::list::thousands;
use super::theme::Theme;
use crate::insight::Grouped;
use crate::state::AppState;
use feedback_core::text::{Clean, sanitize_line};
use feedback_core::width::fit;
use feedback_store::pivot::{By, Group, SERIES_DAYS};

/// A group's label as shown (`name`, sanitized by the pivot), a metadata key's values masked
/// in privacy mode.
pub(super) fn label(by: &By, key: Option<&str>, name: &Clean, privacy: bool) -> Clean {
    match (by, key) {
        (By::Meta(_), Some(_)) => crate::privacy::clean_value(name, privacy),
        _ => name.clone(),
    }
}

/// The newest `width` days of an oldest-first series: ratatui's sparkline draws from the left
/// and drops what does not fit, so a narrow one would lose today.
#[must_use]
pub fn newest(daily: &[u32], width: u16) -> Vec<u64> {
    let from = daily.len().saturating_sub(usize::from(width));
    daily[from..].iter().map(|&d| u64::from(d)).collect()
}

/// A sparkline of the newest days that fit `area`, scaled to `max` (shared by the rows it is
/// compared with; `None`: its own largest day). The days before `held_from` (not mirrored
/// yet) are drawn as unknown (`·`), not as zero.
pub(super) fn spark(
    frame: &mut Frame,
    area: Rect,
    daily: &[u32],
    held_from: usize,
    max: Option<u64>,
    theme: Theme,
) {
    let data = newest(daily, area.width);
    let skipped = daily.len() - data.len();
    let bars: Vec<Option<u64>> = data
        .iter()
        .enumerate()
        .map(|(n, &d)| (skipped + n >= held_from).then_some(d))
        .collect();
    let mut spark = Sparkline::default()
        .data(bars)
        .style(theme.good())
        .absent_value_symbol("·")
        .absent_value_style(theme.dim());
    if let Some(max) = max {
        spark = spark.max(max.max(1));
    }
    frame.render_widget(spark, area);
}

/// A bar of `share` (0..=1) in `width` cells, in eighths.
#[must_use]
pub fn bar(share: f64, width: usize) -> String {
    const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let eighths = (share.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut out = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        out.push(EIGHTHS[eighths % 8]);
    }
    let used = out.chars().count();
    out.push_str(&" ".repeat(width.saturating_sub(used)));
    out
}

/// The grouped view, in the list's place.
pub(crate) fn render_grouped(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(grouped) = &state.insight.grouped else {
        return;
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title(grouped, state));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut head = vec![header(theme)];
    if let Some(line) = coverage(grouped, state, theme) {
        head.push(line);
    }
    let [top, body] = split(inner, grouped);
    frame.render_widget(Paragraph::new(head), top);
    let Some(pivot) = &grouped.pivot else {
        let text = grouped.error.as_ref().map_or_else(
            || Line::styled("computing the groups…", theme.dim()),
            |e| Line::styled(format!("cannot group: {e}"), theme.error()),
        );
        frame.render_widget(Paragraph::new(text), body);
        return;
    };
    if pivot.groups.is_empty() {
        frame.render_widget(Paragraph::new(Line::styled("no items", theme.dim())), body);
        return;
    }
    let rows = usize::from(body.height).max(1);
    let offset = grouped.selected.saturating_sub(rows - 1);
    // One scale for every row: a 5-item group does not look as tall as a 400-item one.
    let max = pivot
        .groups
        .iter()
        .flat_map(|g| g.daily.iter())
        .max()
        .map(|&m| u64::from(m));
    for (n, group) in pivot.groups.iter().enumerate().skip(offset).take(rows) {
        let y = body.y + u16::try_from(n - offset).unwrap_or(0);
        let rect = Rect::new(body.x, y, body.width, 1);
        let row = Row {
            total: pivot.total,
            max,
        };
        draw_group(frame, rect, group, row, grouped, state, theme);
        if n == grouped.selected {
            frame.buffer_mut().set_style(rect, theme.selected(true));
        }
    }
}

/// The header lines (the keys, and "based on" for a metadata pivot) and the groups' rows.
fn split(inner: Rect, grouped: &Grouped) -> [Rect; 2] {
    let covered = grouped.pivot.as_ref().is_some_and(|p| p.covered.is_some());
    let head_rows = 1 + u16::from(covered);
    Layout::vertical([Constraint::Length(head_rows), Constraint::Min(0)]).areas(inner)
}

/// The group a click at `column`, `row` of the screen lands on (its index in the pivot).
#[must_use]
pub(crate) fn group_at(state: &AppState, column: u16, row: u16) -> Option<usize> {
    let grouped = state.insight.grouped.as_ref()?;
    let pivot = grouped.pivot.as_ref()?;
    let area = crate::layout::areas(state).list;
    let inner = Block::default().borders(Borders::ALL).inner(area);
    let [_, body] = split(inner, grouped);
    if !body.contains(ratatui::layout::Position::new(column, row)) {
        return None;
    }
    let rows = usize::from(body.height).max(1);
    let offset = grouped.selected.saturating_sub(rows - 1);
    let n = offset + usize::from(row - body.y);
    (n < pivot.groups.len()).then_some(n)
}

fn title(grouped: &Grouped, state: &AppState) -> String {
    let total = grouped.pivot.as_ref().map(|p| p.total);
    let busy = if grouped.computing { " ⟳" } else { "" };
    let by = grouped.by.label();
    // The sparklines' days not mirrored yet are unknown: the title says from when they are whole.
    let history = grouped
        .pivot
        .as_ref()
        .and_then(|p| {
            let days = p.groups.first().map_or(SERIES_DAYS, |g| g.daily.len());
            super::trends::history_note(p.first_day, p.held_from, days, state)
        })
        .unwrap_or_default();
    let text = match total {
        Some(total) => format!(
            " Grouped by {by} · {}{history}{busy}",
            feedback_core::text::output::counted(total, "item")
        ),
        None => format!(" Grouped by {by}{busy}"),
    };
    format!(
        "{text}{} ",
        stale(grouped.pivot.is_some(), grouped.error.as_ref())
    )
}

/// " · ⚠ not refreshed: why" when a refresh failed while older numbers still show.
pub(super) fn stale(shown: bool, error: Option<&Clean>) -> String {
    match error {
        Some(why) if shown => format!(" · ⚠ not refreshed: {why}"),
        _ => String::new(),
    }
}

fn header(theme: Theme) -> Line<'static> {
    Line::styled(
        "enter: show the group's items · esc: back to the list · = group by",
        theme.dim(),
    )
}

/// "based on 812 of 3,267 items" for a metadata pivot (only items with a detail have it).
fn coverage(grouped: &Grouped, state: &AppState, theme: Theme) -> Option<Line<'static>> {
    let pivot = grouped.pivot.as_ref()?;
    let covered = pivot.covered?;
    let n = |v: u64| thousands(usize::try_from(v).unwrap_or(usize::MAX));
    let style = if covered < pivot.total {
        theme.warn()
    } else {
        theme.dim()
    };
    let hint = if covered >= pivot.total {
        ""
    } else if state.insight.enrich.is_some() {
        " · fetching details in the background (e cancels)"
    } else {
        " · e fetches the others' details"
    };
    Some(Line::styled(
        format!("based on {} of {} items{hint}", n(covered), n(pivot.total)),
        style,
    ))
}

/// What a row is drawn against: the pivot's total (for the share) and the sparklines' scale.
#[derive(Clone, Copy)]
struct Row {
    total: u64,
    max: Option<u64>,
}

/// One group's row: label, count, share (bar and percent) and its 30-day sparkline.
fn draw_group(
    frame: &mut Frame,
    rect: Rect,
    group: &Group,
    Row { total, max }: Row,
    grouped: &Grouped,
    state: &AppState,
    theme: Theme,
) {
    let spark_width = 30.min(rect.width / 4);
    let bar_width = 16.min(rect.width / 6);
    let [text, spark] =
        Layout::horizontal([Constraint::Min(10), Constraint::Length(spark_width)]).areas(rect);
    #[allow(clippy::cast_precision_loss)] // counts are far below 2^52
    let share = if total == 0 {
        0.0
    } else {
        group.count as f64 / total as f64
    };
    let fixed = 8 + 1 + 5 + 1 + usize::from(bar_width) + 2;
    let label_width = usize::from(text.width).saturating_sub(fixed).max(4);
    let shown = label(
        &grouped.by,
        group.key.as_deref(),
        &group.text.name,
        state.acting.privacy,
    );
    let line = Line::from(vec![
        Span::raw(version_label(group, &shown, label_width, state)),
        Span::raw(format!(
            "{:>8} ",
            thousands(usize::try_from(group.count).unwrap_or(usize::MAX))
        )),
        Span::styled(format!("{:>4.0}% ", share * 100.0), theme.dim()),
        Span::styled(bar(share, usize::from(bar_width)), theme.accent()),
        Span::raw("  "),
    ]);
    frame.render_widget(Paragraph::new(line), text);
    let held_from = grouped.pivot.as_ref().map_or(0, |p| p.held_from);
    self::spark(frame, spark, &group.daily, held_from, max, theme);
}

/// A group's label in `cells`; a version group's ends with its first day ("Trailhead iOS
/// 3.10.0 · first 19 Nov"), and when it must be cut, its app's name is, not the version.
fn version_label(group: &Group, shown: &Clean, cells: usize, state: &AppState) -> String {
    let (Some(first), Some(_)) = (group.first_seen, &group.key) else {
        return fit(shown, cells);
    };
    let day = feedback_core::timefmt::day(first, state.now, &state.tz);
    let first = format!(" · first {day:>6}");
    let room = cells.saturating_sub(feedback_core::width::width(&first));
    let version = &group.text.key;
    let text = match shown.strip_suffix(version.as_str()) {
        Some(app) if feedback_core::width::width(shown) > room => {
            let app_cells = room.saturating_sub(feedback_core::width::width(version) + 1);
            format!(
                "{} {version}",
                feedback_core::width::truncate(app.trim_end(), app_cells)
            )
        }
        _ => shown.to_string(),
    };
    // The days line up in a column.
    fit(&format!("{}{first}", fit(&text, room)), cells)
}

/// The status bar's enrichment part: "details 120/812 · ~4 min" (no estimate while the
/// budget is unknown).
#[must_use]
pub(crate) fn enrich_status(state: &AppState) -> Option<String> {
    let enrich = state.insight.enrich?;
    let n = |v: u64| thousands(usize::try_from(v).unwrap_or(usize::MAX));
    let progress = format!("details {}/{}", n(enrich.done()), n(enrich.total));
    let eta = crate::insight::enrich_eta(state, enrich.pending);
    Some(match eta {
        Some(eta) => format!("{progress} · {}", crate::insight::rough(eta)),
        None => progress,
    })
}

/// The `=` picker, over the main area.
pub(crate) fn render_picker(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let Some(picker) = &state.insight.picker else {
        return;
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(" group by: ", theme.dim()),
        Span::raw(sanitize_line(&picker.typed).into_owned()),
        Span::styled("▏", theme.accent()),
    ])];
    let choices = picker.choices();
    let room = usize::from(area.height.saturating_sub(6)).max(1);
    let offset = picker.selected.saturating_sub(room - 1);
    for (n, choice) in choices.iter().enumerate().skip(offset).take(room) {
        let text = format!(
            " {}{}",
            crate::picker_keys::entry_number(n),
            sanitize_line(choice)
        );
        lines.push(if n == picker.selected {
            Line::styled(text, theme.selected(true))
        } else {
            Line::raw(text)
        });
    }
    lines.push(Line::styled(
        " type to narrow · 1-9 ↑↓ choose · enter group · esc cancel",
        theme.dim(),
    ));
    super::popup::render(frame, area, lines, " Group by ", theme);
}
