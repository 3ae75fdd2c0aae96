//! `feedback-inbox list`: one page, or with `--all` every page by cursor, in the API's order.
//!
//! Streaming formats (table, jsonl, csv) are written and flushed page by page, each record whole,
//! so output already written stays valid if a later page fails. `json` is written once at the
//! end, in the API's page shape.

use std::io::Write;

use clap::{Args, ValueEnum};

use super::CliError;
use super::output::{
    Column, ListFormat, Table, csv_cell, first_line, short_time, terminal_safe_json,
};
use super::since::ListWindow;
use crate::api::{Client, Cursor, Feedback, FeedbackQuery, Page, Status};
use crate::text::{sanitize, sanitize_line};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    New,
    Archived,
}

#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// Status to list (the service's default is new).
    #[arg(long, value_enum)]
    pub status: Option<StatusArg>,
    /// Only this app: its name ("Trailhead Android", any case), slug or id.
    #[arg(long, value_name = "APP")]
    pub app: Option<String>,
    /// Only this project: its name, slug or id.
    #[arg(long, value_name = "PROJECT")]
    pub project: Option<String>,
    /// Only items received at or after WHEN: a date (2026-11-01, local), a date-time
    /// (2026-11-01T09:30) or an age (7d, 36h, 30m, 2w). With --all the walk stops at the first
    /// older item (the list is newest first), saving the requests for older pages.
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only items received before WHEN (same forms as --since). The newer pages are still read.
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only items with this tag (at most 32 characters).
    #[arg(long)]
    pub tag: Option<String>,
    /// Page size, 1 to 100 (default 25, or 100 with --all).
    #[arg(long, value_name = "N")]
    pub limit: Option<u32>,
    /// Start after this cursor (a previous next_cursor).
    #[arg(long)]
    pub cursor: Option<String>,
    /// Follow the cursor to the end.
    #[arg(long)]
    pub all: bool,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
    /// Write CSV cells as they are, even ones a spreadsheet would run as formulas (by default
    /// a cell starting with =, +, -, @, tab or carriage return gets a leading ').
    #[arg(long)]
    pub raw_csv: bool,
}

impl ListArgs {
    #[must_use]
    pub fn query(&self) -> FeedbackQuery {
        FeedbackQuery {
            status: self.status.map(|s| match s {
                StatusArg::New => Status::New,
                StatusArg::Archived => Status::Archived,
            }),
            app: self.app.clone(),
            project: self.project.clone(),
            tag: self.tag.clone(),
            limit: self.limit.or(self.all.then_some(100)),
            cursor: self.cursor.clone().map(Cursor),
        }
    }
}

const COLUMNS: &[Column] = &[
    Column {
        title: "ID",
        cells: 10,
    },
    Column {
        title: "RECEIVED",
        cells: 17,
    },
    Column {
        title: "STATUS",
        cells: 8,
    },
    Column {
        title: "APP",
        cells: 24,
    },
    Column {
        title: "TAGS",
        cells: 20,
    },
    Column {
        title: "EMAIL",
        cells: 26,
    },
    Column {
        title: "MESSAGE",
        cells: 60,
    },
];

/// Writes pages as they come. Nothing, not even a header, is written before the first page
/// arrived, so a failed first request leaves stdout empty. `search` writes through it too, so its
/// output has the same shapes.
pub struct Sink<'a> {
    out: &'a mut dyn Write,
    format: ListFormat,
    raw_csv: bool,
    table: Table,
    header_written: bool,
    json_items: Vec<Feedback>,
}

impl<'a> Sink<'a> {
    #[must_use]
    pub fn new(out: &'a mut dyn Write, format: ListFormat, raw_csv: bool) -> Self {
        Self {
            out,
            format,
            raw_csv,
            table: Table::new(COLUMNS),
            header_written: false,
            json_items: Vec::new(),
        }
    }

    /// The table's header, once.
    fn table_header(&mut self) -> Result<(), CliError> {
        if !self.header_written {
            self.table.header(self.out)?;
            self.header_written = true;
        }
        Ok(())
    }

    /// Writes (or, for `json`, keeps) one page of items.
    pub fn page(&mut self, items: Vec<Feedback>) -> Result<(), CliError> {
        match self.format {
            ListFormat::Table => {
                self.table_header()?;
                for item in &items {
                    self.table.row(self.out, &table_row(item))?;
                }
            }
            ListFormat::Jsonl => {
                for item in &items {
                    let mut line = terminal_safe_json(serde_json::to_string(item)?);
                    line.push('\n');
                    self.out.write_all(line.as_bytes())?;
                }
            }
            ListFormat::Csv => self.csv(&items)?,
            ListFormat::Json => self.json_items.extend(items),
        }
        self.out.flush()?;
        Ok(())
    }

    fn csv(&mut self, items: &[Feedback]) -> Result<(), CliError> {
        let mut writer = csv::Writer::from_writer(&mut *self.out);
        if !self.header_written {
            writer.write_record(CSV_HEADER)?;
            self.header_written = true;
        }
        for item in items {
            writer.write_record(csv_record(item, self.raw_csv))?;
        }
        writer.flush()?;
        Ok(())
    }

    /// Ends the output: the header of an empty table, or the whole `json` document.
    pub fn finish(mut self, next_cursor: Option<Cursor>) -> Result<(), CliError> {
        if self.format == ListFormat::Table {
            self.table_header()?;
            self.out.flush()?;
        }
        if self.format == ListFormat::Json {
            let page = Page {
                data: self.json_items,
                next_cursor,
            };
            writeln!(
                self.out,
                "{}",
                terminal_safe_json(serde_json::to_string_pretty(&page)?)
            )?;
            self.out.flush()?;
        }
        Ok(())
    }
}

/// Runs `list`; `progress` shows a progress line on stderr during `--all`.
pub async fn run(
    client: &Client,
    args: &ListArgs,
    window: &ListWindow,
    out: &mut dyn Write,
    progress: bool,
) -> Result<(), CliError> {
    let query = args.query();
    query.validate()?;
    let limit = query.limit.unwrap_or(25);
    let mut sink = Sink::new(out, args.format, args.raw_csv);
    if !args.all {
        let page = client.list_feedback(&query).await?;
        let next = page.next_cursor;
        sink.page(window.window.cut(page.data).0)?;
        return sink.finish(next);
    }
    let mut walker = client.walk(query);
    while let Some(batch) = walker.next_page().await {
        let batch = batch.inspect_err(|_| clear_progress(progress))?;
        let (batch, older) = window.window.cut(batch);
        sink.page(batch)?;
        if older > 0 {
            clear_progress(progress);
            window.stopped(&walker, older, limit);
            break;
        }
        if progress {
            eprint!(
                "\r\x1b[2Kfetched {} items in {} requests…",
                walker.yielded(),
                walker.requests()
            );
        }
    }
    clear_progress(progress);
    sink.finish(None)
}

fn clear_progress(progress: bool) {
    if progress {
        eprint!("\r\x1b[2K");
    }
}

fn table_row(item: &Feedback) -> Vec<String> {
    let app = item.app.as_ref().map_or_else(
        || "—".to_owned(),
        |a| format!("{} ({})", a.name, a.platform),
    );
    vec![
        item.id.to_string(),
        short_time(item.received_at),
        item.status.to_string(),
        app,
        item.tags.join(","),
        item.reporter_email.clone().unwrap_or_default(),
        first_line(&item.message).to_owned(),
    ]
}

const CSV_HEADER: &[&str] = &[
    "id",
    "received_at",
    "status",
    "app_id",
    "app_name",
    "app_platform",
    "project_id",
    "project_name",
    "tags",
    "reporter_email",
    "message",
];

/// A CSV record: single-line fields sanitized as lines, the message as multi-line text (CSV
/// quoting keeps its newlines); every cell neutralised against formulas unless `raw`.
fn csv_record(item: &Feedback, raw: bool) -> Vec<String> {
    let line = |s: &str| sanitize_line(s).into_owned();
    let app = item.app.as_ref();
    let cells = vec![
        line(item.id.as_str()),
        item.received_at.to_string(),
        line(item.status.as_str()),
        app.map(|a| line(&a.id)).unwrap_or_default(),
        app.map(|a| line(&a.name)).unwrap_or_default(),
        app.map(|a| line(a.platform.as_str())).unwrap_or_default(),
        line(&item.project.id),
        line(&item.project.name),
        line(&item.tags.join(";")),
        item.reporter_email.as_deref().map(line).unwrap_or_default(),
        sanitize(&item.message).into_owned(),
    ];
    cells.into_iter().map(|c| csv_cell(c, raw)).collect()
}
