//! `stats` output: a table fitted to the terminal (plain when piped), JSON, or CSV. Group names
//! are the server's text: sanitized in the table and CSV (and guarded against formulas there),
//! escaped for terminals in JSON.

use std::io::Write;

use serde::Serialize;

use super::StatsArgs;
use crate::CliError;
use crate::export::table_fit::{FittedTable, Spec, TableMode};
use crate::output::{TableFormat, csv_cell, csv_record, terminal_safe_json};
use feedback_core::text::Clean;
use feedback_core::text::output::thousands;
use feedback_store::pivot::{Group, Pivot};
use feedback_store::search::Context;

/// Cells of the share's bar.
const BAR_CELLS: usize = 10;
const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/// Writes the pivot in the format asked for.
pub(super) fn write(
    pivot: &Pivot,
    args: &StatsArgs,
    cx: &Context,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match args.format {
        TableFormat::Table => table(pivot, TableMode::detect(), args.raw_csv, cx, out)?,
        TableFormat::Json => {
            let json = serde_json::to_string_pretty(&Json::of(pivot, cx))?;
            writeln!(out, "{}", terminal_safe_json(json))?;
        }
        TableFormat::Csv => csv(pivot, args.raw_csv, out)?,
    }
    out.flush()?;
    Ok(())
}

/// The line said after the output: "3,267 items in 12 groups", and for a metadata pivot
/// "based on 812 of 3,267 items (the others have no metadata stored)".
#[must_use]
pub fn summary(pivot: &Pivot) -> String {
    let groups = pivot.groups.len();
    let noun = if groups == 1 { "group" } else { "groups" };
    let items = if pivot.total == 1 { "item" } else { "items" };
    let mut line = format!("{} {items} in {groups} {noun}", thousands(pivot.total));
    if let Some(from) = pivot.history_from() {
        // A first mirror has not reached the days before `from`: their counts are unknown.
        let whole = if from > pivot.first_day + jiff::Span::new().days(29) {
            "no day of the last 30 is mirrored whole yet".to_owned()
        } else {
            format!("history from {from}, the days before not mirrored yet")
        };
        line = format!("{line}; {whole} (· in the sparklines; `feedback-inbox sync` mirrors them)");
    }
    if let Some(covered) = pivot.covered {
        line = format!(
            "{line}; {} based on {} of {} items (metadata comes with a detail: `search QUERY --with-detail --fields all` fetches it)",
            // `meta.KEY` is the user's text, echoed: sanitized as the server's would be.
            pivot.by.label(),
            thousands(covered),
            thousands(pivot.total)
        );
    }
    line
}

/// The group's share of the view's items, 0 to 1 (a tag pivot's shares may add up to more:
/// an item has several tags).
#[allow(clippy::cast_precision_loss)] // counts of items are far below 2^52
fn share(group: &Group, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        group.count as f64 / total as f64
    }
}

/// A bar of `cells` cells for a share from 0 to 1, in eighths of a cell (a share above 0 shows
/// at least an eighth).
#[must_use]
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)] // a share is clamped to 0..=1 and the product is at most a few hundred
pub fn share_bar(share: f64, cells: usize) -> String {
    let eighths = (share.clamp(0.0, 1.0) * (cells * 8) as f64).round() as usize;
    let eighths = if share > 0.0 { eighths.max(1) } else { 0 };
    let mut bar = "█".repeat(eighths / 8);
    if eighths % 8 > 0 {
        bar.push(EIGHTHS[eighths % 8]);
    }
    bar
}

/// One cell per day, scaled to the busiest day of the series: an empty day is the lowest
/// block, a day with any item at least the second; a day before `held_from` (not mirrored yet:
/// its count unknown) is `·`.
#[must_use]
pub fn sparkline(daily: &[u32], held_from: usize) -> String {
    let max = daily.iter().skip(held_from).copied().max().unwrap_or(0);
    daily
        .iter()
        .enumerate()
        .map(|(day, &n)| {
            if day < held_from {
                '·'
            } else if n == 0 {
                LEVELS[0]
            } else {
                let level = (u64::from(n) * 7).div_ceil(u64::from(max));
                LEVELS[usize::try_from(level).unwrap_or(7).clamp(1, 7)]
            }
        })
        .collect()
}

fn table(
    pivot: &Pivot,
    mode: TableMode,
    raw: bool,
    cx: &Context,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    // Counts are right-aligned under their title.
    let count_cells = pivot
        .groups
        .iter()
        .map(|g| thousands(g.count).len())
        .chain(["COUNT".len()])
        .max()
        .unwrap_or(0);
    // Each cell is Clean as it is made (the group's name by the pivot); the table takes only
    // such cells.
    let rows: Vec<Vec<Clean>> = pivot
        .groups
        .iter()
        .map(|g| {
            let share = share(g, pivot.total);
            // A version group says when its version was first seen.
            let shown = match g.first_seen {
                Some(first) => {
                    let day = feedback_core::timefmt::day(first, cx.now, &cx.tz);
                    Clean::join(
                        &[g.text.name.clone(), Clean::line(&format!("first {day}"))],
                        " · ",
                    )
                }
                None => g.text.name.clone(),
            };
            vec![
                shown,
                Clean::line(&format!("{:>count_cells$}", thousands(g.count))),
                Clean::line(&format!("{:5.1}%", share * 100.0)),
                Clean::line(&share_bar(share, BAR_CELLS)),
                Clean::line(&sparkline(&g.daily, pivot.held_from)),
            ]
        })
        .collect();
    let title = Clean::line(&pivot.by.label().to_uppercase());
    let widest = |i: usize, title: &str| {
        rows.iter()
            .map(|r| feedback_core::width::width(&r[i]))
            .chain([feedback_core::width::width(title)])
            .max()
            .unwrap_or(0)
    };
    let spec = |title: Clean, preferred: usize, min: usize, rank: u8, whole: bool| Spec {
        title,
        preferred,
        min,
        rank,
        whole,
    };
    let days = pivot.groups.first().map_or(30, |g| g.daily.len());
    let first = widest(0, &title).min(40);
    let specs = vec![
        spec(title, first, 8, u8::MAX, false),
        spec(
            Clean::fixed("COUNT"),
            count_cells,
            count_cells,
            u8::MAX,
            true,
        ),
        spec(Clean::fixed("SHARE"), 6, 6, 2, true),
        spec(Clean::fixed(""), BAR_CELLS, BAR_CELLS, 1, true),
        spec(Clean::fixed("LAST 30 DAYS"), days, days, 0, true),
    ];
    let table = FittedTable::from_specs(specs, Some(0), mode).raw(raw);
    table.header(out)?;
    for row in &rows {
        table.row(out, row)?;
    }
    Ok(())
}

/// The JSON shape: `{by, total, covered, first_day, history_from?, groups: [{key, label,
/// count, share, daily, app?, first_seen?}]}`; `key` is null for the items without a value,
/// `covered` null but for metadata pivots, `daily` the 30 days from `first_day` to today, a
/// day before `history_from` (not mirrored yet) null.
#[derive(Debug, Serialize)]
struct Json<'a> {
    by: String,
    total: u64,
    covered: Option<u64>,
    first_day: String,
    /// The first day of the series the store holds whole (absent when it holds them all).
    #[serde(skip_serializing_if = "Option::is_none")]
    history_from: Option<String>,
    time_zone: Option<&'a str>,
    groups: Vec<JsonGroup<'a>>,
}

/// The series with the days before `held_from` (not mirrored yet) as `None`.
fn held_days(daily: &[u32], held_from: usize) -> Vec<Option<u32>> {
    daily
        .iter()
        .enumerate()
        .map(|(day, &n)| (day >= held_from).then_some(n))
        .collect()
}

#[derive(Debug, Serialize)]
struct JsonGroup<'a> {
    key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
    count: u64,
    share: f64,
    /// `null` for a day not mirrored yet (its count unknown).
    daily: Vec<Option<u32>>,
    /// A version group's app id and first sighting.
    #[serde(skip_serializing_if = "Option::is_none")]
    app: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_seen: Option<String>,
}

impl<'a> Json<'a> {
    fn of(pivot: &'a Pivot, cx: &'a Context) -> Self {
        Self {
            by: pivot.by.name(),
            total: pivot.total,
            covered: pivot.covered,
            first_day: pivot.first_day.to_string(),
            history_from: pivot.history_from().map(|d| d.to_string()),
            time_zone: cx.tz.iana_name(),
            groups: pivot
                .groups
                .iter()
                .map(|g| JsonGroup {
                    key: g.key.as_deref(),
                    label: g.label.as_deref(),
                    count: g.count,
                    share: (share(g, pivot.total) * 10_000.0).round() / 10_000.0,
                    daily: held_days(&g.daily, pivot.held_from),
                    app: g.app.as_deref(),
                    first_seen: g.first_seen.map(|t| t.to_string()),
                })
                .collect(),
        }
    }
}

/// CSV: `key,label,count,share,<day>…` (one column per day, oldest first, named by its date),
/// one row per group; `(none)` for the items without a value.
fn csv(pivot: &Pivot, raw: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let mut writer = csv::Writer::from_writer(&mut *out);
    let days = pivot.groups.first().map_or(30, |g| g.daily.len());
    let mut header: Vec<Clean> = ["key", "label", "count", "share"].map(Clean::fixed).into();
    let mut day = pivot.first_day;
    for _ in 0..days {
        header.push(Clean::line(&day.to_string()));
        day = day.tomorrow().unwrap_or(day);
    }
    csv_record(&mut writer, &header)?;
    for g in &pivot.groups {
        let mut record = vec![
            csv_cell(g.text.key.clone(), raw),
            csv_cell(g.text.label.clone(), raw),
            Clean::line(&g.count.to_string()),
            Clean::line(&format!("{:.4}", share(g, pivot.total))),
        ];
        // A day not mirrored yet is an empty cell: its count is unknown.
        record.extend(
            held_days(&g.daily, pivot.held_from)
                .into_iter()
                .map(|n| Clean::line(&n.map(|n| n.to_string()).unwrap_or_default())),
        );
        csv_record(&mut writer, &record)?;
    }
    writer.flush()?;
    Ok(())
}

#[cfg(test)]
pub(super) fn table_for_tests(pivot: &Pivot, mode: TableMode) -> String {
    let mut out = Vec::new();
    let cx = Context {
        now: jiff::Timestamp::UNIX_EPOCH,
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    table(pivot, mode, false, &cx, &mut out).unwrap_or_default();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
pub(super) fn csv_for_tests(pivot: &Pivot, raw: bool) -> String {
    let mut out = Vec::new();
    csv(pivot, raw, &mut out).unwrap_or_default();
    String::from_utf8(out).unwrap_or_default()
}
