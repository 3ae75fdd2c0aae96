//! `feedback-inbox search QUERY`: the search language of the inbox's `/` over the local store,
//! newest first, in the shapes of `list` (table sanitized; json, jsonl and csv as `list` writes
//! them). Offline: it reads only what the store holds, unless `--sync`, which first runs a head
//! sync of both statuses (what is new since the last sync; the first one mirrors the newest
//! pages). A query error is shown where it is: the query with a caret under the span, exit 2,
//! before any request.

use std::io::Write;

use clap::Args;
use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::CliError;
use super::names::Resolver;
use super::output::ListFormat;
use super::scope::Narrow;
use super::since::Window;
use super::store_cmd::{open_store, store_path};
use crate::api::Status;
use crate::query::{QueryError, based_on};
use crate::store::search::{self, Context};
use crate::store::{Coverage, Shared, Store};
use crate::sync::{Priority, SyncError, Syncer};
use crate::text::sanitize_line;
use crate::width::width;

#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The query (several arguments are joined with spaces): words, "a phrase", OR, -word,
    /// prefix*, app:, project:, tag:, status:, email:, version:, after:, age:<7d, … Quote it
    /// for the shell; put `--` before a query that starts with `-`.
    #[arg(required = true, value_name = "QUERY")]
    pub query: Vec<String>,
    /// Show at most this many items (the newest).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
    /// Write CSV cells as they are, even ones a spreadsheet would run as formulas.
    #[arg(long)]
    pub raw_csv: bool,
    /// First fetch what is new on the service (a head sync of both statuses).
    #[arg(long)]
    pub sync: bool,
    /// Only this app (its name, slug or id, as `app:` takes them), with the query.
    #[arg(long, value_name = "APP")]
    pub app: Option<String>,
    /// Only this project (its name, slug or id), with the query.
    #[arg(long, value_name = "PROJECT")]
    pub project: Option<String>,
    /// Only items received at or after WHEN: a date (2026-11-01, local, as after:), a
    /// date-time (2026-11-01T09:30) or an age (7d, as age:<=7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only items received before WHEN (same forms; a date as before:).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
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
    global: &super::Args,
    args: &SearchArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let text = args.text();
    let query = search::parse(&text).map_err(|e| query_error(&text, &e))?;
    let selection = super::export::fields::Selection::parse(args.fields.as_deref())?;
    // A query that reads details (`version:`, `has:link`) is itself what they are fetched for.
    let needs_detail = selection.needs_detail() || query.basis().is_some();
    super::export::check_with_detail(args.with_detail, needs_detail)?;
    let cx = context_now();
    let window = Window::new(args.since.as_deref(), args.until.as_deref(), &cx)?;
    let path = store_path(global)?.ok_or_else(|| {
        CliError::Usage("search reads the local store, and --no-store has none".to_owned())
    })?;
    if !path.exists() && !args.sync {
        return Err(CliError::Other(format!(
            "no store yet at {}: run `feedback-inbox sync` (or search --sync) first",
            path.display()
        )));
    }
    let store = open_store(global)?.ok_or_else(|| CliError::Other("no store".to_owned()))?;
    let (project, app) = (args.project.as_deref(), args.app.as_deref());
    let found = if args.sync || args.with_detail {
        let shared = Shared::new(store)?;
        if args.sync {
            head_sync(global, &shared).await?;
        }
        let catalog = shared.read(|store| Resolver::new(Some(store), None));
        let narrow = Narrow::of_search(catalog, project, app, window).await?;
        if args.with_detail {
            super::export::search::with_detail(global, &shared, &query, &narrow, args).await?;
        }
        shared.read(|store| run(store, &query, args, &narrow, &cx, out))?
    } else {
        let catalog = Resolver::new(Some(&store), None);
        let narrow = Narrow::of_search(catalog, project, app, window).await?;
        run(&store, &query, args, &narrow, &cx, out)?
    };
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

/// What a search found: the items written and all the matches, and for a query that reads
/// details (`version:`, `has:link`), how many of the items it is about have them stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub shown: u64,
    pub matches: u64,
    pub basis: Option<Coverage>,
}

impl Found {
    /// "3 matches", "1 match", or with `--limit` cutting it short, "first 2 of 3 matches";
    /// then, for a query that reads details, " · based on 3 of 300 items with details".
    #[must_use]
    pub fn summary(&self) -> String {
        let counted = self.counted();
        match self.basis {
            Some(b) => format!("{counted} · {}", based_on(b.with_detail, b.total)),
            None => counted,
        }
    }

    /// What fetches the details the answer lacks, when some items lack them.
    #[must_use]
    pub fn hint(&self) -> Option<String> {
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
            super::store_cmd::info::grouped(missing)
        ))
    }

    fn counted(&self) -> String {
        let noun = if self.matches == 1 {
            "match"
        } else {
            "matches"
        };
        let total = super::store_cmd::info::grouped(self.matches);
        if self.shown < self.matches {
            format!(
                "first {} of {total} {noun}",
                super::store_cmd::info::grouped(self.shown)
            )
        } else {
            format!("{total} {noun}")
        }
    }
}

/// `--sync`: discovery (the account check) and a head sync of `new` then `archived`, with a
/// line on stderr saying what it brought (every request counted, discovery's too), and a note
/// for a status not yet mirrored to its end (the results are partial). Another process's sync
/// (an inbox) is no failure: a warning, and the search runs on what is stored.
pub(crate) async fn head_sync(global: &super::Args, shared: &Shared) -> Result<(), CliError> {
    let client = super::client(global, false)?;
    let syncer = Syncer::new(
        client,
        shared.clone(),
        crate::clock::system(),
        super::store_cmd::sync_settings(global)?,
    );
    match sync_heads(&syncer).await {
        Ok((added, requests)) => eprintln!(
            "synced: {} added in {}",
            crate::text::output::counted(added, "item"),
            crate::text::output::counted(requests, "request")
        ),
        Err(SyncError::Busy) => {
            eprintln!("warning: another sync is running on this store; searching what is stored");
        }
        Err(error) => return Err(error.into()),
    }
    for status in [Status::New, Status::Archived] {
        if !syncer.read_state(&status, false).await?.complete {
            eprintln!(
                "note: {}: partly mirrored — run `feedback-inbox sync` for every item",
                status.as_str()
            );
        }
    }
    Ok(())
}

/// Discovery (when the catalog is due) and the head walks under one session; the items added
/// and requests sent.
async fn sync_heads(syncer: &Syncer) -> Result<(usize, u32), SyncError> {
    let _session = syncer.session()?;
    let mut requests = syncer.discovery_if_due().await?.requests;
    let mut added = 0;
    for status in [Status::New, Status::Archived] {
        let report = syncer.head(&status, Priority::User).await?;
        added += report.added;
        requests += report.requests;
    }
    Ok((added, requests))
}

/// Runs `query` (parsed from `args`) over `store` and writes the matches; returns how many
/// were written and how many match (counted apart only when `--limit` may have cut them).
pub fn run(
    store: &Store,
    query: &search::Query,
    args: &SearchArgs,
    narrow: &Narrow,
    cx: &Context,
    out: &mut dyn Write,
) -> Result<Found, CliError> {
    let sql = store
        .compile(query, cx)
        .map_err(|e| query_error(&args.text(), &e))?;
    let view = narrow.view(sql);
    let keys = store.view_keys(&view, args.limit)?;
    super::export::search::write(store, &keys, args, out)?;
    let shown = u64::try_from(keys.len()).unwrap_or(u64::MAX);
    let matches = if args.limit.is_some_and(|limit| keys.len() >= limit) {
        store.view_count(&view)?
    } else {
        shown
    };
    let basis = match query.basis() {
        Some(basis) => {
            let scope = store
                .compile(&query.without_details(), cx)
                .map_err(|e| query_error(&args.text(), &e))?;
            Some(store.basis_coverage(&narrow.view(scope), basis)?)
        }
        None => None,
    };
    Ok(Found {
        shown,
        matches,
        basis,
    })
}

/// The context of a search run now, in the system's zone.
#[must_use]
pub fn context_now() -> Context {
    Context {
        now: Timestamp::now(),
        tz: TimeZone::system(),
    }
}

/// A usage error (exit 2) that shows the query, sanitized, with a caret under the span:
///
/// ```text
/// unknown qualifier "colour:" …
///   tag:bug colour:red
///           ^^^^^^^
/// ```
#[must_use]
pub fn query_error(text: &str, error: &QueryError) -> CliError {
    CliError::Usage(format!(
        "{}\n{}",
        sanitize_line(&error.message),
        caret_lines(text, &error.span)
    ))
}

/// The query and a caret line under `span` (an empty span, such as the end of the input, gets
/// one caret after the last character). Widths are those of the sanitized text, as shown.
#[must_use]
pub fn caret_lines(text: &str, span: &std::ops::Range<usize>) -> String {
    let start = floor_char_boundary(text, span.start);
    let end = floor_char_boundary(text, span.end.max(start));
    let before = width(&sanitize_line(&text[..start]));
    let under = width(&sanitize_line(&text[start..end])).max(1);
    format!(
        "  {}\n  {}{}",
        sanitize_line(text),
        " ".repeat(before),
        "^".repeat(under)
    )
}

fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::caret_lines;

    #[test]
    fn the_caret_sits_under_the_span_in_display_cells() {
        assert_eq!(
            caret_lines("tag:bug x:1", &(8..10)),
            "  tag:bug x:1\n          ^^"
        );
        // An empty span at the end: one caret after the last character.
        assert_eq!(caret_lines("\"open", &(5..5)), "  \"open\n       ^");
        // Wide characters count two cells; a span inside a character is moved to its start.
        assert_eq!(
            caret_lines("同期 app:x", &(7..12)),
            "  同期 app:x\n       ^^^^^"
        );
        assert_eq!(caret_lines("同期", &(1..4)), "  同期\n  ^^");
        // A span past the end is clamped, never a panic.
        assert_eq!(caret_lines("ab", &(5..9)), "  ab\n    ^");
    }
}
