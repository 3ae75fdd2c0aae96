//! Exports of `list` and `search`: `--fields` (columns in every format, `all` with metadata
//! and delivery links), `--with-detail`, streaming sinks whose memory stays flat, tables that
//! fit the terminal, and the resumable `list --all` with its progress line.

pub mod detail;
pub mod fields;
pub mod progress;
pub mod resume;
pub mod search;
pub mod sink;
pub mod table_fit;

use std::io::Write;

use super::list::ListArgs;
use super::{Args, CliError};
use crate::api::{Client, Project};
use crate::store::Shared;
use detail::Details;
use fields::Selection;
use progress::{ListProgress, Position};
use sink::{Options, Sink};
use table_fit::TableMode;

pub use fields::{Field, Keys, Record};

/// Runs `list`: one page, or with `--all` every page, resumable.
pub async fn run_list(global: &Args, args: &ListArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let selection = Selection::parse(args.fields.as_deref())?;
    let needs_detail = selection.needs_detail();
    check_with_detail(args.with_detail, needs_detail)?;
    // Status, tag and limit are checked before any request (names are resolved below).
    let unresolved = crate::api::FeedbackQuery {
        app: None,
        project: None,
        ..args.query()
    };
    unresolved.validate()?;
    let progress =
        ListProgress::new(args.all && std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let client = super::client_with(global, progress.observer())?;
    // One read-only look at the store: names, --since's saving, details, the ETA's projects.
    let store = super::names::existing_store(global);
    let (resolved, window) = super::scope::prepare_list(&client, args, store.as_ref()).await?;
    let args = &resolved;
    let query = args.query();
    query.validate()?;
    let projects = store
        .as_ref()
        .filter(|_| progress.is_bar())
        .and_then(|s| s.projects().ok());
    let store = if needs_detail {
        store.map(Shared::new).transpose()?
    } else {
        None
    };
    let fetch = (args.with_detail && needs_detail).then(|| client.clone());
    let mut details = Details::new(store, fetch);
    let options = Options {
        format: args.format,
        raw_csv: args.raw_csv,
        fields: selection,
        table: TableMode::detect(),
        keys: None,
    };
    let mut sink = Sink::new(out, options);
    if args.all && args.cursor.is_some() {
        // The resumed part is appended to the interrupted one, which has the header.
        sink = sink.without_header();
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
    let walk = resume::Walk {
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
    walk.run(query, |cursor| {
        resume::command_line(global, args, &bounds, cursor)
    })
    .await
}

/// `--with-detail` fetches metadata and delivery links: without a column that shows them it
/// would spend a request per item for nothing, so it is refused.
pub fn check_with_detail(with_detail: bool, needs_detail: bool) -> Result<(), CliError> {
    if with_detail && !needs_detail {
        return Err(CliError::Usage(
            "--with-detail fetches metadata and delivery links, and no column shows them: add \
             --fields with metadata, delivery, meta.KEY, custom.KEY, link.CHANNEL or all"
                .to_owned(),
        ));
    }
    Ok(())
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
