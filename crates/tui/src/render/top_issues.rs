//! The Top issues screen: the clusters listed largest first with count, sparkline, label, apps
//! and first/last seen, over the content area; its progress while computing, or why it failed.

use jiff::Timestamp;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Sparkline};

use super::theme::Theme;
use crate::top_issues::TopIssuesScreen;
use feedback_core::timefmt::age;
use feedback_core::width::fit;

/// Columns of a cluster's row: count, sparkline, then label and apps share the rest.
const COUNT: u16 = 7;
const SPARK: u16 = 30;
const SEEN: u16 = 14;
/// Below this width the sparkline goes, then below `SEEN_MIN` the seen column: the issue's
/// label is what a row is read for.
const SPARK_MIN: u16 = 100;
const SEEN_MIN: u16 = 70;
/// The label keeps this many cells before the apps get any.
const LABEL_MIN: usize = 40;

/// The columns a row has at a width.
#[derive(Clone, Copy)]
struct Columns {
    spark: bool,
    seen: bool,
}

impl Columns {
    fn at(width: u16) -> Self {
        Self {
            spark: width >= SPARK_MIN,
            seen: width >= SEEN_MIN,
        }
    }

    /// The count, sparkline, text and seen areas of `row` (empty where a column is left out).
    fn areas(self, row: Rect) -> [Rect; 4] {
        Layout::horizontal([
            Constraint::Length(COUNT),
            Constraint::Length(if self.spark { SPARK + 1 } else { 0 }),
            Constraint::Min(10),
            Constraint::Length(if self.seen { SEEN } else { 0 }),
        ])
        .areas(row)
    }
}

/// Draws the screen over `area`; `view_items` is how many items the list's view has (the
/// clusters are of its newest, up to the computation's cap).
pub fn render(
    frame: &mut Frame,
    area: Rect,
    screen: &TopIssuesScreen,
    now: Timestamp,
    view_items: usize,
    theme: Theme,
) {
    let title = match &screen.result {
        Some(top) => format!(
            " Top issues · {} of {} ",
            plural(top.total_clusters, "cluster"),
            of_items(top.items, view_items)
        ),
        None => " Top issues ".to_owned(),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title)
        .title_bottom(Line::styled(
            " ↑↓ choose · Enter its items · Esc back ",
            theme.dim(),
        ));
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    if let Some(error) = &screen.error {
        let text = format!("Top issues failed: {error}");
        frame.render_widget(Paragraph::new(Span::styled(text, theme.error())), inner);
        return;
    }
    let Some(top) = &screen.result else {
        let text = format!("Top issues: {}%…", screen.progress);
        frame.render_widget(Paragraph::new(Span::styled(text, theme.active())), inner);
        return;
    };
    if top.clusters.is_empty() {
        frame.render_widget(
            Paragraph::new(Span::styled("No items in this view", theme.dim())),
            inner,
        );
        return;
    }
    let columns = Columns::at(inner.width);
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    draw_header(frame, head, columns, theme);
    let rows = usize::from(body.height);
    let first = screen.selected.saturating_sub(rows.saturating_sub(1));
    for (line, (i, cluster)) in top
        .clusters
        .iter()
        .enumerate()
        .skip(first)
        .take(rows)
        .enumerate()
    {
        let y = body.y + u16::try_from(line).unwrap_or(u16::MAX);
        let row = Rect::new(body.x, y, body.width, 1);
        let how = (columns, i == screen.selected);
        draw_row(frame, row, cluster, how, now, theme);
    }
}

/// "3,232 items", or "the newest 100,000 of 1,000,000 items" when the view was capped.
fn of_items(items: usize, view_items: usize) -> String {
    let n = |v: usize| feedback_core::text::output::thousands(u64::try_from(v).unwrap_or(u64::MAX));
    if view_items > items {
        format!("the newest {} of {} items", n(items), n(view_items))
    } else {
        feedback_core::text::output::counted(items, "item")
    }
}

/// The columns' names, over them.
fn draw_header(frame: &mut Frame, head: Rect, columns: Columns, theme: Theme) {
    let [count, spark, text, seen] = columns.areas(head);
    for (area, name) in [
        (count, format!("{:>6} ", "items")),
        (spark, "last 30 days".to_owned()),
        (text, "issue · apps".to_owned()),
        (seen, " first–last".to_owned()),
    ] {
        frame.render_widget(Paragraph::new(Span::styled(name, theme.dim())), area);
    }
}

fn draw_row(
    frame: &mut Frame,
    row: Rect,
    cluster: &crate::top_issues::Issue,
    (columns, selected): (Columns, bool),
    now: Timestamp,
    theme: Theme,
) {
    let [count, spark, text, seen] = columns.areas(row);
    let style = if selected {
        theme.selected(true)
    } else {
        ratatui::style::Style::new()
    };
    let len = u64::try_from(cluster.keys.len()).unwrap_or(u64::MAX);
    let number = format!("{:>6} ", feedback_core::text::output::thousands(len));
    frame.render_widget(Paragraph::new(Span::styled(number, style)), count);
    if columns.spark {
        let spark = Rect::new(spark.x, spark.y, spark.width.saturating_sub(1), 1);
        // The newest days: a squeezed sparkline keeps today.
        let data = super::insight::newest(&cluster.series, spark.width);
        frame.render_widget(
            Sparkline::default().data(&data).style(theme.accent()),
            spark,
        );
    }
    // The two biggest apps by name, then how many more.
    let mut apps: Vec<String> = cluster
        .apps
        .iter()
        .take(2)
        .map(|(name, _)| name.to_string())
        .collect();
    if cluster.apps.len() > 2 {
        apps.push(format!("+{}", cluster.apps.len() - 2));
    }
    let label = &cluster.label;
    let apps = format!("  {}", apps.join(", "));
    // The label keeps `LABEL_MIN` cells first; the apps take at most half the column.
    let cells = usize::from(text.width);
    let apps_room = feedback_core::width::width(&apps)
        .min(cells / 2)
        .min(cells.saturating_sub(LABEL_MIN));
    let apps = feedback_core::width::truncate(&apps, apps_room);
    let label = fit(label, cells.saturating_sub(apps_room));
    let line = Line::from(vec![
        Span::styled(label, style),
        Span::styled(apps, theme.dim()),
    ]);
    frame.render_widget(Paragraph::new(line), text);
    if columns.seen {
        let when = match (cluster.first_seen, cluster.last_seen) {
            (Some(first), Some(last)) => format!(" {}–{}", age(now, first), age(now, last)),
            _ => String::new(),
        };
        frame.render_widget(Paragraph::new(Span::styled(when, theme.dim())), seen);
    }
}

/// "1 cluster", "41 clusters".
fn plural(n: usize, word: &str) -> String {
    feedback_core::text::output::counted(n, word)
}
