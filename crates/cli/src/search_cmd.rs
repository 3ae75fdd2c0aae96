//! `feedback-inbox search QUERY`: the search language of the inbox's `/` over the local store,
//! newest first, in the shapes of `list` (table sanitized; json, jsonl and csv as `list` writes
//! them). Offline: it reads only what the store holds, unless `--sync`, which first runs a head
//! sync of both statuses (what is new since the last sync; the first one mirrors the newest
//! pages). A query error is shown where it is: the query with a caret under the span, exit 2,
//! before any request.

use std::io::Write;

use clap::Args;

use super::CliError;
use super::export::fields::Selection;
use super::export::sink::Options;
use super::export::{check_with_detail, stored};
use super::names::Resolver;
use super::offline::Offline;
use super::output::ListFormat;
use super::query_arg::{context_for, query_error};
use super::scope::{FilterArgs, Narrow, helps};
use feedback_core::query::based_on;
use feedback_store::search::{self, Context};
use feedback_store::{Coverage, Shared, Store, ViewQuery};

#[derive(Debug, Clone, Args)]
#[command(mut_args(helps(&[
    (
        "app",
        "Only this app (its name, slug or id, as `app:` takes them), with the query",
    ),
    (
        "project",
        "Only this project (its name, slug or id), with the query",
    ),
    (
        "since",
        "Only items received at or after WHEN: a date (2026-11-01, local, as after:), a \
         date-time (2026-11-01T09:30) or an age (7d, as age:<=7d)",
    ),
    (
        "until",
        "Only items received before WHEN (same forms; a date as before:)",
    ),
])))]
pub struct SearchArgs {
    /// The query (several arguments are joined with spaces): words (crash finds crashed too;
    /// =crash only crash), "a phrase", OR, -word, prefix*, app:, project:, tag:, status:,
    /// email:, version:, after:, age:<7d, view:NAME, … It means what it means after the
    /// inbox's `/`, over new and archived items (status:new for one), done and snoozed ones
    /// left out (is:done, is:snoozed show them). Quote it for the shell; put `--` before a
    /// query that starts with `-`.
    #[arg(required = true, value_name = "QUERY", add = super::completions::names::query_words())]
    pub query: Vec<String>,
    /// Show at most this many items (the newest).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
    /// Write CSV cells (and a piped table's tab-separated cells) as they are, even ones a
    /// spreadsheet would run as formulas.
    #[arg(long)]
    pub raw_csv: bool,
    /// First fetch what is new on the service (a head sync of both statuses).
    #[arg(long)]
    pub sync: bool,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Columns, in order (comma list), or `all`: as for `list --fields`.
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// First fetch the details (metadata, delivery) the store lacks for the matches, one
    /// request per item, paced, and keep them in the store. A query that reads details
    /// (version:, os:, locale:, meta.KEY:, has:link) fetches them for every item it is about.
    #[arg(long)]
    pub with_detail: bool,
}

impl SearchArgs {
    /// The query as one string, as the user would have typed it after `/`.
    #[must_use]
    pub fn text(&self) -> String {
        self.query.join(" ")
    }
}

/// Runs `search`: the query is checked before the store is looked at, and a table is followed
/// by the count of matches on stderr ("first N of M" when `--limit` cut them).
pub async fn run_command(
    global: &crate::context::Context,
    args: &SearchArgs,
    out: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    run_as("search", Hidden::Left, global, args, out).await
}

/// Whether a run leaves out done and snoozed items as the inbox's lists do (`search`, unless
/// its query names `is:done`, `is:snoozed` or a view), or keeps every item (`store export`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hidden {
    Left,
    Kept,
}

/// [`run_command`] for `command` (named in its errors: "store export reads the local store").
async fn run_as(
    command: &str,
    hidden: Hidden,
    global: &crate::context::Context,
    args: &SearchArgs,
    out: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let text = args.text();
    let query = search::parse(&text).map_err(|e| query_error(&text, &e))?;
    let selection = Selection::parse(args.fields.as_deref())?;
    // A query that reads details (`version:`, `has:link`) is itself what they are fetched for.
    let needs_detail = selection.needs_detail() || query.basis().is_some();
    check_with_detail(args.with_detail, needs_detail)?;
    let cx = context_for(global, &query)?;
    let window = args.filters.window(&cx)?;
    let store = Offline::open(global, command, args.sync, args.with_detail).await?;
    let catalog = store.read(|store| Resolver::new(Some(store), None));
    let narrow = Narrow::offline(catalog, &args.filters.scope, window).await?;
    if args.with_detail
        && let Some(shared) = store.shared()
    {
        with_detail(global, shared, &query, &narrow, args, &cx).await?;
    }
    let hide = hidden == Hidden::Left && !query.asks_for_hidden();
    let found = store.read(|store| run(store, &query, args, &narrow, hide, &cx, out))?;
    if args.format == ListFormat::Table {
        eprintln!("{}", found.summary());
    } else if let Some(basis) = found.basis {
        eprintln!("note: {}", based_on(basis.with_detail, basis.total));
    }
    if let Some(hint) = found.hint() {
        eprintln!("{hint}");
    }
    Ok(())
}

/// `store export`: every stored item the flags leave, newest first, as `search` writes its
/// matches (a query that holds for every item).
pub async fn export(
    global: &crate::context::Context,
    args: &super::store_cmd::ExportArgs,
    out: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let search = SearchArgs {
        query: Vec::new(),
        limit: None,
        format: args.format,
        raw_csv: args.raw_csv,
        sync: false,
        filters: args.filters.clone(),
        fields: args.fields.clone(),
        with_detail: false,
    };
    run_as("store export", Hidden::Kept, global, &search, out).await
}

/// `--with-detail`: fetches (and stores) the details the store lacks for the matches. A query
/// that reads details (`version:`) can only match items whose details are stored: its details
/// are fetched for the items it is about (the query less those qualifiers), every one of them.
async fn with_detail(
    global: &crate::context::Context,
    shared: &Shared,
    query: &search::Query,
    narrow: &Narrow,
    args: &SearchArgs,
    cx: &Context,
) -> Result<(), CliError> {
    let (query, limit) = match query.basis() {
        Some(_) => (query.without_details(), None),
        None => (query.clone(), args.limit),
    };
    let keys = shared.read(|store| {
        let view = narrow.view(store, &query, cx, &args.text())?;
        Ok::<_, CliError>(store.view_keys(&view, limit)?)
    })?;
    let client = super::client(global, false)?;
    let fetched = stored::fetch_details(shared, client, &keys).await?;
    eprintln!(
        "with-detail: {} details fetched",
        feedback_core::text::output::thousands(fetched)
    );
    Ok(())
}

/// What a search found: the items written and all the matches, and for a query that reads
/// details (`version:`, `has:link`), how many of the items it is about have them stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    pub shown: u64,
    pub matches: u64,
    pub basis: Option<Coverage>,
    /// The query names no status: it spans new and archived (the inbox's `/`, the listed one).
    pub statuses: bool,
    /// Done and snoozed items were left out.
    pub hidden: bool,
}

impl Found {
    /// "3 matches", "1 match", or with `--limit` cutting it short, "first 2 of 3 matches",
    /// with the scope where it differs from the inbox's `/` (" in new and archived") and what
    /// was left out as the inbox leaves it out (", done and snoozed left out"); then, for a query that reads details, " · based on 3 of 300 items with
    /// details".
    #[must_use]
    pub(crate) fn summary(&self) -> String {
        let mut counted = self.counted();
        if self.statuses {
            counted.push_str(" in new and archived");
        }
        if self.hidden {
            counted.push_str(", done and snoozed left out");
        }
        match self.basis {
            Some(b) => format!("{counted} · {}", based_on(b.with_detail, b.total)),
            None => counted,
        }
    }

    /// What fetches the details the answer lacks, when some items lack them.
    #[must_use]
    pub(crate) fn hint(&self) -> Option<String> {
        let basis = self.basis?;
        let missing = basis
            .total
            .checked_sub(basis.with_detail)
            .filter(|&m| m > 0)?;
        let plural = if missing == 1 { "" } else { "s" };
        Some(format!(
            "hint: version:, os:, locale:, meta.KEY: and has:link read an item's detail, which \
             the list does not bring: --with-detail fetches the {} missing detail{plural} first \
             (one request each)",
            feedback_core::text::output::thousands(missing)
        ))
    }

    fn counted(&self) -> String {
        let noun = if self.matches == 1 {
            "match"
        } else {
            "matches"
        };
        let total = feedback_core::text::output::thousands(self.matches);
        if self.shown < self.matches {
            format!(
                "first {} of {total} {noun}",
                feedback_core::text::output::thousands(self.shown)
            )
        } else {
            format!("{total} {noun}")
        }
    }
}

/// Runs `query` (parsed from `args`) over `store` and writes the matches, done and snoozed
/// items left out when `hide`; returns how many were written and how many match (counted apart
/// only when `--limit` may have cut them).
fn run(
    store: &Store,
    query: &search::Query,
    args: &SearchArgs,
    narrow: &Narrow,
    hide: bool,
    cx: &Context,
    out: &mut (dyn Write + Send),
) -> Result<Found, CliError> {
    let text = args.text();
    let hidden = |view: ViewQuery| {
        if hide {
            view.hide_triaged(cx.now)
        } else {
            view
        }
    };
    let view = hidden(narrow.view(store, query, cx, &text)?);
    let fields = Selection::parse(args.fields.as_deref())?;
    let options = Options::new(args.format, args.raw_csv, fields);
    let shown = stored::write(store, &view, args.limit, options, out)?;
    let matches = if args
        .limit
        .is_some_and(|limit| shown >= u64::try_from(limit).unwrap_or(u64::MAX))
    {
        store.view_count(&view)?
    } else {
        shown
    };
    let basis = match query.basis() {
        Some(basis) => {
            let scope = hidden(narrow.view(store, &query.without_details(), cx, &text)?);
            Some(store.basis_coverage(&scope, basis)?)
        }
        None => None,
    };
    Ok(Found {
        shown,
        matches,
        basis,
        statuses: !query.names_status() && !query.names_view(),
        hidden: hide,
    })
}
