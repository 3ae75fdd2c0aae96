//! `feedback-inbox list`: one page, or with `--all` every page by cursor, in the API's order.
//! Every format is written page by page, each record whole (`json` too: one document whose
//! array grows item by item), so memory stays flat and output already written stays valid if a
//! later page fails; an interrupted `--all` says how to resume (`super::export`).

use std::io::Write;

use clap::{Args, ValueEnum};

use super::CliError;
use super::output::ListFormat;
use crate::api::{Cursor, FeedbackQuery, Status};

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
    /// Start after this cursor (a previous next_cursor, or the one an interrupted --all
    /// printed).
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
    /// Columns, in order (comma list): id, received_at, status, app, app_id, app_name,
    /// app_platform, project, project_id, project_name, tags, reporter_email, message,
    /// metadata, delivery, meta.KEY, custom.KEY, link.CHANNEL; or `all` (metadata keys and
    /// delivery links as columns). Metadata comes from the local store, or --with-detail.
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// Fetch the details (metadata, delivery) the store lacks, one request per item, paced;
    /// they are kept in the store when there is one.
    #[arg(long)]
    pub with_detail: bool,
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

/// Runs `list` (see [`super::export::run_list`]).
pub async fn run(
    global: &super::Args,
    args: &ListArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    super::export::run_list(global, args, out).await
}
