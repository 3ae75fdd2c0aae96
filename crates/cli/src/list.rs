//! `feedback-inbox list`: one page, or with `--all` every page by cursor, in the API's order.
//! Every format is written page by page, each record whole (`json` too: one document whose
//! array grows item by item), so memory stays flat and output already written stays valid if a
//! later page fails; an interrupted `--all` says how to resume ([`super::export::resume`], with
//! the command line of [`resume_line`]).

mod resume_line;

use std::io::Write;

use clap::{Args, ValueEnum};

use super::export::detail::Details;
use super::export::fields::Selection;
use super::export::progress::{self, ListProgress, Position};
use super::export::resume::{self, Walk};
use super::export::sink::{Options, Sink};
use super::names::Resolver;
use super::output::ListFormat;
use super::scope::{FilterArgs, helps};
use super::since::{self, ListWindow};
use super::{CliError, query_arg};
use crate::context::Context;
use feedback_api::{Client, Cursor, FeedbackQuery, Project, Status};
use feedback_store::{Shared, Store};

pub use resume_line::command_line;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    New,
    Archived,
    /// Every status: the newest of both on one page; with --all, `new` then `archived`.
    All,
}

#[derive(Debug, Clone, Args)]
#[command(mut_args(helps(&[
    ("app", "Only this app: its name (\"Trailhead Android\", any case), slug or id"),
    ("project", "Only this project: its name, slug or id"),
    (
        "since",
        "Only items received at or after WHEN: a date (2026-11-01, local), a date-time \
         (2026-11-01T09:30) or an age (7d, 36h, 30m, 2w). With --all the walk stops at the \
         first older item (the list is newest first), saving the requests for older pages",
    ),
    (
        "until",
        "Only items received before WHEN (same forms as --since). The newer pages are still read",
    ),
])))]
pub struct ListArgs {
    /// Status to list (the service's default is new). `all`: one page is the newest items of
    /// both statuses; with --all, every page of `new`, then of `archived` (a --cursor then
    /// continues `new`).
    #[arg(long, value_enum)]
    pub status: Option<StatusArg>,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Only items with this tag (at most 32 characters).
    #[arg(long, add = super::completions::names::tags())]
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
    /// Write CSV cells (and a piped table's tab-separated cells) as they are, even ones a
    /// spreadsheet would run as formulas (by default a cell starting with =, +, -, @, tab or
    /// carriage return gets a leading ').
    #[arg(long)]
    pub raw_csv: bool,
    /// Columns, in order (comma list): id, received_at, status, app, app_id, app_name,
    /// app_platform, project, project_id, project_name, tags, reporter_email, message,
    /// metadata, delivery, meta.KEY, custom.KEY, link.CHANNEL, and the triage state seen,
    /// starred, done, snoozed_until, note; or `all` (metadata keys and delivery links as
    /// columns). Metadata and triage come from the local store (metadata also --with-detail).
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// Fetch the details (metadata, delivery) the store lacks, one request per item, paced;
    /// they are kept in the store when there is one.
    #[arg(long)]
    pub with_detail: bool,
}

impl ListArgs {
    /// The request of the first page (of `new`, with `--status all`).
    #[must_use]
    pub fn query(&self) -> FeedbackQuery {
        self.queries().swap_remove(0)
    }

    /// The request of the first page of each list asked for, in order: one, or with `--status
    /// all` one per status (the cursor continues the first).
    #[must_use]
    pub fn queries(&self) -> Vec<FeedbackQuery> {
        let statuses = match self.status {
            None => vec![None],
            Some(StatusArg::New) => vec![Some(Status::New)],
            Some(StatusArg::Archived) => vec![Some(Status::Archived)],
            Some(StatusArg::All) => vec![Some(Status::New), Some(Status::Archived)],
        };
        statuses
            .into_iter()
            .enumerate()
            .map(|(n, status)| FeedbackQuery {
                status,
                cursor: self.cursor.clone().filter(|_| n == 0).map(Cursor),
                ..self.query_of_one()
            })
            .collect()
    }

    fn query_of_one(&self) -> FeedbackQuery {
        FeedbackQuery {
            status: None,
            app: self.filters.scope.app.clone(),
            project: self.filters.scope.project.clone(),
            tag: self.tag.clone(),
            limit: self.limit.or(self.all.then_some(100)),
            cursor: None,
        }
    }

    /// The arguments that go on with part `part` of [`ListArgs::queries`]: with `--status all`,
    /// the second part is `archived` alone.
    fn for_part(&self, part: usize) -> Self {
        let mut args = self.clone();
        if self.status == Some(StatusArg::All) && part > 0 {
            args.status = Some(StatusArg::Archived);
        }
        args
    }
}

/// Runs `list`: one page, or with `--all` every page, resumable.
pub async fn run(
    global: &Context,
    args: &ListArgs,
    out: &mut (dyn Write + Send),
) -> Result<(), CliError> {
    let selection = Selection::parse(args.fields.as_deref())?;
    let needs_detail = selection.needs_detail();
    super::export::check_with_detail(args.with_detail, needs_detail)?;
    // Status, tag and limit are checked before any request (names are resolved below).
    let unresolved = FeedbackQuery {
        app: None,
        project: None,
        ..args.query()
    };
    unresolved.validate()?;
    if args.status == Some(StatusArg::All) && args.cursor.is_some() && !args.all {
        return Err(CliError::Usage(
            "a cursor belongs to one status's list: with --status all it needs --all (it then \
             continues `new`, and `archived` follows)"
                .into(),
        ));
    }
    let progress =
        ListProgress::new(args.all && std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let client = super::client_with(global, progress.observer())?;
    // One read-only look at the store: names, --since's saving, details, the ETA's projects.
    let store = super::names::existing_store(global);
    let (resolved, window) = prepare(&client, args, store.as_ref()).await?;
    let args = &resolved;
    let query = args.query();
    query.validate()?;
    let projects = store
        .as_ref()
        .filter(|_| progress.is_bar())
        .and_then(|s| s.projects().ok());
    let needs_triage = selection.needs_triage();
    let store = if needs_detail || needs_triage {
        store.map(Shared::new).transpose()?
    } else {
        None
    };
    let fetch = (args.with_detail && needs_detail).then(|| client.clone());
    let mut details = Details::new(store, fetch);
    if needs_triage {
        details = details.with_triage(selection.needs_links());
    }
    let mut sink = Sink::new(out, Options::new(args.format, args.raw_csv, selection));
    if args.all && args.cursor.is_some() {
        // The resumed part is appended to the interrupted one, which has the header.
        sink = sink.without_header();
    }
    if !args.all && args.status == Some(StatusArg::All) {
        let (newest, more) = newest_of(&client, &args.queries(), query.limit).await?;
        let (records, _) = window.window.cut(newest);
        let records = details.records(records).await?;
        sink.page(&records)?;
        if more {
            eprintln!("more items: --all lists every page of both statuses");
        }
        return sink.finish(None);
    }
    if !args.all {
        let page = client
            .list_feedback(&query)
            .await
            .map_err(|e| resume::cursor_error(e.into()))?;
        let (records, older) = window.window.cut(page.data);
        let records = details.records(records).await?;
        sink.page(&records)?;
        // Past --since, the next page holds only older items: there is nothing to go on to.
        let next = if older > 0 { None } else { page.next_cursor };
        return sink.finish(next.as_ref());
    }
    let origin = if progress.is_bar() {
        progress::far_end(oldest_project(&client, projects).await, window.window.since)
    } else {
        None
    };
    let bounds = window.window;
    let walk = Walk {
        client: &client,
        sink,
        details,
        progress,
        window,
        limit: query.limit.unwrap_or(100),
        position: Position {
            items: 0,
            requests: 0,
            newest: None,
            reached: None,
            origin,
        },
    };
    walk.run(args.queries(), |part, cursor| {
        command_line(global, &args.for_part(part), &bounds, cursor)
    })
    .await
}

/// The first page of each list, merged newest first (by received time, then id, as the
/// lists are ordered) and cut to `limit` (the API's default 25 when none); true when more
/// items are left than shown.
async fn newest_of(
    client: &Client,
    queries: &[FeedbackQuery],
    limit: Option<u32>,
) -> Result<(Vec<feedback_api::Feedback>, bool), CliError> {
    let mut items = Vec::new();
    let mut more = false;
    for query in queries {
        let page = client.list_feedback(query).await?;
        more |= page.next_cursor.is_some();
        items.extend(page.data);
    }
    items.sort_by(|a, b| (b.received_at, &b.id.0).cmp(&(a.received_at, &a.id.0)));
    let shown = usize::try_from(limit.unwrap_or(25)).unwrap_or(usize::MAX);
    more |= items.len() > shown;
    items.truncate(shown);
    Ok((items, more))
}

/// The flags made ready: names made ids (the store's catalog first), the window made instants,
/// and what the store knows of the items older than `--since`.
async fn prepare(
    client: &Client,
    args: &ListArgs,
    store: Option<&Store>,
) -> Result<(ListArgs, ListWindow), CliError> {
    let window = args.filters.window(&query_arg::context_now())?;
    let (project, app) = args
        .filters
        .scope
        .resolve(&mut Resolver::new(store, Some(client)))
        .await?;
    let mut args = args.clone();
    args.filters.scope.project = project.map(|p| p.id);
    args.filters.scope.app = app.map(|a| a.id);
    let older_stored = match (store, window.since) {
        // Of one list only: with every status, the note would tell one list's count.
        (_, _) if args.status == Some(StatusArg::All) => None,
        (Some(store), Some(since)) if args.all => since::older_stored(store, &args.query(), since),
        _ => None,
    };
    Ok((
        args,
        ListWindow {
            window,
            older_stored,
        },
    ))
}

/// When the oldest project was created (no item is older): from the store's projects, else
/// one request. Only for the ETA: a failure is no error.
async fn oldest_project(client: &Client, stored: Option<Vec<Project>>) -> Option<jiff::Timestamp> {
    let projects = match stored.filter(|p| !p.is_empty()) {
        Some(projects) => projects,
        None => client.list_projects().await.ok()?,
    };
    projects.iter().filter_map(|p| p.created_at).min()
}
