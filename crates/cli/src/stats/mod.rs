//! `feedback-inbox stats --by PIVOT [QUERY]`: the inbox's pivots from the command line. The
//! items of a view (the search language, `--app`/`--project`, `--since`/`--until`,
//! `--status`) grouped by app, platform, tag, version, os, locale, `meta.KEY`, day or week,
//! each group with its count, its share and its daily volume over the last 30 days. Offline
//! like `search`: it reads only the store, unless `--sync`. A bad `--by` or query is a usage
//! error (exit 2) before the store is opened.
//!
//! A table ends with a line on stderr: the items counted, and for a metadata pivot how many of
//! them have metadata stored ("based on 812 of 3,267 items"); JSON carries both figures
//! (`total`, `covered`), CSV leaves them to the stderr line as tables do.

mod render;

#[cfg(test)]
mod tests;

use std::io::Write;

use clap::Args;

use super::CliError;
use super::names::Resolver;
use super::offline::Offline;
use super::output::TableFormat;
use super::query_arg::{context_for, query_error};
use super::scope::{FilterArgs, Narrow};
use feedback_store::Store;
use feedback_store::pivot::{By, Pivot};
use feedback_store::search::{self, Context};

pub use render::{share_bar, sparkline, summary};

#[derive(Debug, Clone, Args)]
pub struct StatsArgs {
    /// Group by: app, platform, tag, version, os, locale, meta.KEY (a custom metadata key),
    /// day or week.
    #[arg(long, value_name = "PIVOT", add = super::completions::names::pivots())]
    pub by: String,
    /// Count only the items this search finds (several arguments are joined with spaces); all
    /// items when left out. Put `--` before a query that starts with `-`.
    #[arg(value_name = "QUERY", add = super::completions::names::query_words())]
    pub query: Vec<String>,
    #[arg(long, value_enum, default_value_t = TableFormat::Table)]
    pub format: TableFormat,
    /// Write CSV cells (and a piped table's tab-separated cells) as they are, even ones a
    /// spreadsheet would run as formulas.
    #[arg(long)]
    pub raw_csv: bool,
    /// First fetch what is new on the service (a head sync of both statuses).
    #[arg(long)]
    pub sync: bool,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Only items of this status.
    #[arg(long, value_name = "STATUS", value_parser = ["new", "archived"])]
    pub status: Option<String>,
}

impl StatsArgs {
    /// The query as one string, as the user would have typed it after `/`.
    #[must_use]
    pub fn text(&self) -> String {
        self.query.join(" ")
    }
}

/// Runs `stats`: the pivot and the query are checked before the store is looked at.
pub async fn run_command(
    global: &crate::context::Context,
    args: &StatsArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let by = By::parse(&args.by).map_err(|e| CliError::Usage(format!("--by: {e}")))?;
    let text = args.text();
    let query = search::parse(&text).map_err(|e| query_error(&text, &e))?;
    let cx = context_for(global, &query)?;
    let window = args.filters.window(&cx)?;
    let store = Offline::open(global, "stats", args.sync, false).await?;
    let catalog = store.read(|store| Resolver::new(Some(store), None));
    let narrow = Narrow::offline(catalog, &args.filters.scope, window).await?;
    let pivot = store.read(|store| pivot(store, &query, args, &by, &narrow, &cx))?;
    render::write(&pivot, args, &cx, out)?;
    eprintln!("{}", summary(&pivot));
    Ok(())
}

/// The pivot of the view the flags and the query select.
pub fn pivot(
    store: &Store,
    query: &search::Query,
    args: &StatsArgs,
    by: &By,
    narrow: &Narrow,
    cx: &Context,
) -> Result<Pivot, CliError> {
    let view = narrow
        .view(store, query, cx, &args.text())?
        .in_status(args.status.clone());
    // A first mirror's days not reached yet are unknown: the sparklines say so.
    let held = feedback_store::sync_state::held(store)?;
    Ok(store.pivot_held(&view, by, cx, held)?)
}
