//! `projects`, `apps` and `tags`: small lists as aligned tables, JSON arrays or CSV. Nothing is
//! written before the list arrived. Tables fit the terminal as `list`'s do
//! ([`super::export::table_fit`]): ids and counts are never cut, the other columns shrink and go
//! in a fixed order, the name takes what is left; piped, a table is plain.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::CliError;
use super::export::table_fit::{FittedTable, Spec, TableMode};
use super::names::{Catalog, Kind, Resolver};
use super::output::{TableFormat, csv_cell, csv_record};
use super::scope::{ScopeArgs, helps};
use feedback_api::{App, Client, Project, ScopeQuery, Tag};
use feedback_core::text::Clean;

#[derive(Debug, Clone, Args)]
pub struct FormatArg {
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Write CSV cells (and a piped table's tab-separated cells) as they are, even ones a
    /// spreadsheet would run as formulas (by default a cell starting with =, +, -, @, tab or
    /// carriage return gets a leading ').
    #[arg(long)]
    pub raw_csv: bool,
}

#[derive(Debug, Clone, Args)]
pub struct AppsArgs {
    /// Only apps of this project: its name, slug or id.
    #[arg(long, value_name = "PROJECT", add = super::completions::names::projects())]
    pub project: Option<String>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Clone, Args)]
#[command(mut_args(helps(&[
    ("project", "Only tags of this project: its name, slug or id"),
    ("app", "Only tags of this app: its name, slug or id"),
])))]
pub struct TagsArgs {
    #[command(flatten)]
    pub scope: ScopeArgs,
    #[command(flatten)]
    pub format: FormatArg,
}

pub async fn projects(
    client: &Client,
    args: &FormatArg,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let projects = client.list_projects().await?;
    let columns = [
        whole("ID"),
        flex("NAME", 40),
        col("SLUG", 30, 1),
        col("CREATED", 17, 2),
    ];
    write(out, args, &projects, &columns, |p: &Project| {
        vec![
            Clean::line(&p.id),
            Clean::line(&p.name),
            Clean::line(p.slug.as_deref().unwrap_or_default()),
            Clean::line(
                &p.created_at
                    .map(super::output::short_time)
                    .unwrap_or_default(),
            ),
        ]
    })
}

/// The apps, with their projects named (from the store's catalog when it knows them all, else
/// one `/v1/projects` request); JSON keeps the server's objects as they are.
pub async fn apps(
    client: &Client,
    resolver: &mut Resolver<'_>,
    args: &AppsArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let project = match &args.project {
        Some(value) => Some(resolver.resolve(Kind::Project, value, None).await?.id),
        None => None,
    };
    let apps = client.list_apps(project.as_deref()).await?;
    let catalog = if args.format.format == TableFormat::Json {
        Catalog::default()
    } else {
        let ids: Vec<&str> = apps
            .iter()
            .filter_map(|a| a.project_id.as_deref())
            .collect();
        resolver.project_names(&ids).await?
    };
    let mut columns = vec![
        whole("ID"),
        flex("NAME", 32),
        col("PLATFORM", 10, 3),
        col("REGION", 6, 1),
        col("IDENTIFIER", 32, 0),
        col("PROJECT", 30, 2),
    ];
    let csv = args.format.format == TableFormat::Csv;
    if csv {
        columns.push(whole("PROJECT_ID"));
    }
    write(out, &args.format, &apps, &columns, |a: &App| {
        let opt = |v: Option<&str>| Clean::line(v.unwrap_or_default());
        let project_id = a.project_id.as_deref().unwrap_or_default();
        let mut row = vec![
            Clean::line(&a.id),
            Clean::line(&a.name),
            opt(a.platform.as_ref().map(feedback_api::Platform::as_str)),
            opt(a.region.as_ref().map(feedback_api::Region::as_str)),
            opt(a.app_identifier.as_deref()),
            catalog.project_label(project_id),
        ];
        if csv {
            row.push(Clean::line(project_id));
        }
        row
    })
}

pub async fn tags(
    client: &Client,
    resolver: &mut Resolver<'_>,
    args: &TagsArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (project, app) = args.scope.resolve(resolver).await?;
    let scope = ScopeQuery {
        app: app.map(|a| a.id),
        project: project.map(|p| p.id),
    };
    let tags = client.list_tags(&scope).await?;
    let columns = [flex("TAG", 32), whole("COUNT")];
    write(out, &args.format, &tags, &columns, |t: &Tag| {
        vec![Clean::line(&t.tag), Clean::line(&t.count.to_string())]
    })
}

/// A column of these tables: its title, usual width (cells), when it shrinks (lower ranks
/// first), and whether it never shrinks (`whole`: ids, counts) or takes the room left (`flex`).
#[derive(Debug, Clone, Copy)]
struct Column {
    title: &'static str,
    cells: usize,
    rank: u8,
    whole: bool,
    flex: bool,
}

const fn col(title: &'static str, cells: usize, rank: u8) -> Column {
    Column {
        title,
        cells,
        rank,
        whole: false,
        flex: false,
    }
}

const fn whole(title: &'static str) -> Column {
    Column {
        whole: true,
        ..col(title, 0, u8::MAX)
    }
}

const fn flex(title: &'static str, cells: usize) -> Column {
    Column {
        flex: true,
        ..col(title, cells, u8::MAX)
    }
}

/// The table of `columns` over `rows`, each column as wide as its widest cell (at most its
/// usual width, but for whole columns), fitted to `mode`.
fn fitted(columns: &[Column], rows: &[Vec<Clean>], mode: TableMode) -> FittedTable {
    let specs = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let widest = rows
                .iter()
                .map(|r| feedback_core::width::width(&r[i]))
                .chain([c.title.len()])
                .max()
                .unwrap_or(0);
            let preferred = if c.whole { widest } else { widest.min(c.cells) };
            Spec {
                title: Clean::fixed(c.title),
                preferred,
                min: if c.whole { preferred } else { preferred.min(6) },
                rank: c.rank,
                whole: c.whole,
            }
        })
        .collect();
    FittedTable::from_specs(specs, columns.iter().position(|c| c.flex), mode)
}

fn write<T: Serialize>(
    out: &mut dyn Write,
    format: &FormatArg,
    items: &[T],
    columns: &[Column],
    cells: impl Fn(&T) -> Vec<Clean>,
) -> Result<(), CliError> {
    match format.format {
        TableFormat::Csv => {
            let mut writer = csv::Writer::from_writer(&mut *out);
            let header: Vec<Clean> = columns
                .iter()
                .map(|c| Clean::line(&c.title.to_lowercase()))
                .collect();
            csv_record(&mut writer, &header)?;
            for item in items {
                let record: Vec<Clean> = cells(item)
                    .into_iter()
                    .map(|c| csv_cell(c, format.raw_csv))
                    .collect();
                csv_record(&mut writer, &record)?;
            }
            writer.flush()?;
        }
        TableFormat::Json => {
            let json = super::output::terminal_safe_json(serde_json::to_string_pretty(items)?);
            writeln!(out, "{json}")?;
        }
        TableFormat::Table => {
            // Each cell sanitized once, as it is made; the table takes only such cells.
            let rows: Vec<Vec<Clean>> = items.iter().map(&cells).collect();
            let table = fitted(columns, &rows, TableMode::detect()).raw(format.raw_csv);
            table.header(out)?;
            for row in &rows {
                table.row(out, row)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A row's cells, each as one clean line.
    fn clean(cells: &[String]) -> Vec<Clean> {
        cells.iter().map(|cell| Clean::line(cell)).collect()
    }

    fn lines(table: &FittedTable, rows: &[Vec<Clean>]) -> Vec<String> {
        let mut out = Vec::new();
        table.header(&mut out).unwrap();
        for row in rows {
            table.row(&mut out, row).unwrap();
        }
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn apps_fit_the_terminal_ids_whole_the_name_taking_the_rest() {
        let id = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1";
        let columns = [
            whole("ID"),
            flex("NAME", 32),
            col("PLATFORM", 10, 3),
            col("REGION", 6, 1),
            col("IDENTIFIER", 32, 0),
            col("PROJECT", 30, 2),
        ];
        let row: Vec<String> = [
            id,
            "Trailhead Android \u{1b}[31m",
            "android",
            "eu",
            "com.example.trailhead",
            "Trailhead",
        ]
        .map(str::to_owned)
        .to_vec();
        let rows = vec![clean(&row)];
        for total in [120, 80, 60, 50] {
            let shown = lines(&fitted(&columns, &rows, TableMode::Fit(total)), &rows);
            for line in &shown {
                assert!(
                    feedback_core::width::width(line) <= total,
                    "{total}: {line}"
                );
            }
            assert!(shown[1].starts_with(id), "{total}: {shown:#?}");
            assert!(shown[0].contains("NAME"), "{total}: {shown:#?}");
        }
        let at_60 = lines(&fitted(&columns, &rows, TableMode::Fit(60)), &rows);
        assert!(!at_60[0].contains("IDENTIFIER"), "{at_60:#?}");
        let tsv = lines(&fitted(&columns, &rows, TableMode::Tsv), &rows);
        assert_eq!(tsv[0].split('\t').nth(5), Some("project"), "{tsv:#?}");
        let cells: Vec<&str> = tsv[1].split('\t').collect();
        assert_eq!(cells.len(), 6, "{tsv:#?}");
        assert_eq!(cells[4], "com.example.trailhead", "{tsv:#?}");
        assert!(cells[1].contains("␛"), "sanitized: {tsv:#?}");
    }

    #[test]
    fn tag_counts_are_never_cut() {
        let columns = [flex("TAG", 32), whole("COUNT")];
        let rows = vec![clean(&[
            "a-very-long-tag-name".to_owned(),
            "1234567".to_owned(),
        ])];
        let shown = lines(&fitted(&columns, &rows, TableMode::Fit(16)), &rows);
        assert!(shown[1].ends_with("1234567"), "{shown:#?}");
        assert!(feedback_core::width::width(&shown[1]) <= 16, "{shown:#?}");
    }
}
