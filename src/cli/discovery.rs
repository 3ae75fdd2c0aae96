//! `projects`, `apps` and `tags`: small lists as aligned tables, JSON arrays or CSV. Nothing is
//! written before the list arrived.

use std::io::Write;

use clap::Args;
use serde::Serialize;

use super::CliError;
use super::names::{Catalog, Kind, Resolver};
use super::output::{Column, Table, TableFormat, csv_cell};
use crate::api::{App, Client, Project, ScopeQuery, Tag};
use crate::text::sanitize_line;

#[derive(Debug, Clone, Args)]
pub struct FormatArg {
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Write CSV cells as they are, even ones a spreadsheet would run as formulas (by default
    /// a cell starting with =, +, -, @, tab or carriage return gets a leading ').
    #[arg(long)]
    pub raw_csv: bool,
}

#[derive(Debug, Clone, Args)]
pub struct AppsArgs {
    /// Only apps of this project: its name, slug or id.
    #[arg(long, value_name = "PROJECT")]
    pub project: Option<String>,
    #[command(flatten)]
    pub format: FormatArg,
}

#[derive(Debug, Clone, Args)]
pub struct TagsArgs {
    /// Only tags of this project: its name, slug or id.
    #[arg(long, value_name = "PROJECT")]
    pub project: Option<String>,
    /// Only tags of this app: its name, slug or id.
    #[arg(long, value_name = "APP")]
    pub app: Option<String>,
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
        col("ID", 36),
        col("NAME", 40),
        col("SLUG", 30),
        col("CREATED", 17),
    ];
    write(out, args, &projects, &columns, |p: &Project| {
        vec![
            p.id.clone(),
            p.name.clone(),
            p.slug.clone().unwrap_or_default(),
            p.created_at
                .map(super::output::short_time)
                .unwrap_or_default(),
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
        col("ID", 36),
        col("NAME", 32),
        col("PLATFORM", 10),
        col("REGION", 6),
        col("IDENTIFIER", 32),
        col("PROJECT", 30),
    ];
    let csv = args.format.format == TableFormat::Csv;
    if csv {
        columns.push(col("PROJECT_ID", 36));
    }
    write(out, &args.format, &apps, &columns, |a: &App| {
        let opt = |v: Option<&str>| v.unwrap_or_default().to_owned();
        let project_id = opt(a.project_id.as_deref());
        let mut row = vec![
            a.id.clone(),
            a.name.clone(),
            opt(a.platform.as_ref().map(crate::api::Platform::as_str)),
            opt(a.region.as_ref().map(crate::api::Region::as_str)),
            opt(a.app_identifier.as_deref()),
            catalog.project_label(&project_id),
        ];
        if csv {
            row.push(project_id);
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
    let (project, app) = resolver
        .scope(args.project.as_deref(), args.app.as_deref())
        .await?;
    let scope = ScopeQuery {
        app: app.map(|a| a.id),
        project: project.map(|p| p.id),
    };
    let tags = client.list_tags(&scope).await?;
    let columns = [col("TAG", 32), col("COUNT", 8)];
    write(out, &args.format, &tags, &columns, |t: &Tag| {
        vec![t.tag.clone(), t.count.to_string()]
    })
}

const fn col(title: &'static str, cells: usize) -> Column {
    Column { title, cells }
}

fn write<T: Serialize>(
    out: &mut dyn Write,
    format: &FormatArg,
    items: &[T],
    columns: &[Column],
    cells: impl Fn(&T) -> Vec<String>,
) -> Result<(), CliError> {
    match format.format {
        TableFormat::Csv => {
            let mut writer = csv::Writer::from_writer(&mut *out);
            let header: Vec<String> = columns.iter().map(|c| c.title.to_lowercase()).collect();
            writer.write_record(&header)?;
            for item in items {
                let record = cells(item)
                    .into_iter()
                    .map(|c| csv_cell(sanitize_line(&c).into_owned(), format.raw_csv));
                writer.write_record(record.collect::<Vec<_>>())?;
            }
            writer.flush()?;
        }
        TableFormat::Json => {
            let json = super::output::terminal_safe_json(serde_json::to_string_pretty(items)?);
            writeln!(out, "{json}")?;
        }
        TableFormat::Table => {
            let rows: Vec<Vec<String>> = items.iter().map(cells).collect();
            let table = Table::fitted(columns, &rows);
            table.header(out)?;
            for row in &rows {
                table.row(out, row)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
