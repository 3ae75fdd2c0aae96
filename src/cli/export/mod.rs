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
use std::sync::Arc;

use super::list::ListArgs;
use super::{Args, CliError};
use crate::api::Client;
use crate::api::retry::WaitObserver;
use crate::store::{Shared, Store};
use detail::Details;
use fields::Selection;
use progress::{ListProgress, Position};
use sink::{Options, Sink};
use table_fit::TableMode;

pub use fields::{Field, Keys, Record};

/// Runs `list`: one page, or with `--all` every page, resumable.
pub async fn run_list(global: &Args, args: &ListArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let selection = Selection::parse(args.fields.as_deref())?;
    let progress =
        ListProgress::new(args.all && std::io::IsTerminal::is_terminal(&std::io::stderr()));
    let client = client(global, &progress.observer())?;
    // Names made ids (the store's catalog first), the --since/--until window.
    let (resolved, window) = super::scope::prepare_list(global, &client, args).await?;
    let args = &resolved;
    let query = args.query();
    query.validate()?;
    let needs_detail = selection.needs_detail();
    let store = if needs_detail {
        existing_store(global)?.map(Shared::new).transpose()?
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
        let records = details.records(window.window.cut(page.data).0).await?;
        sink.page(&records)?;
        return sink.finish(page.next_cursor.as_ref());
    }
    let origin = if progress.is_bar() {
        progress::far_end(
            oldest_project(&client, details.store()).await,
            window.window.since,
        )
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

/// The store to read details from when it exists (an export creates none).
pub fn existing_store(global: &Args) -> Result<Option<Store>, CliError> {
    match super::store_cmd::store_path(global)? {
        Some(path) if path.exists() => super::store_cmd::open_store(global),
        _ => Ok(None),
    }
}

/// The account's client, its waits reported to `observer`.
pub fn client(global: &Args, observer: &WaitObserver) -> Result<Client, CliError> {
    let resolved = super::resolve_account(global)?;
    for warning in &resolved.warnings {
        eprintln!("warning: {}", crate::api::key::redact_keys(warning));
    }
    let builder = Client::builder(resolved.base_url.as_str(), resolved.key)?;
    Ok(builder.on_wait(Arc::clone(observer)).build()?)
}

/// When the oldest project was created (no item is older): from the store, else one request.
/// Only for the ETA: a failure is no error.
async fn oldest_project(client: &Client, store: Option<&Shared>) -> Option<jiff::Timestamp> {
    let stored = store
        .and_then(|s| s.read(Store::projects).ok())
        .filter(|p| !p.is_empty());
    let projects = match stored {
        Some(projects) => projects,
        None => client.list_projects().await.ok()?,
    };
    projects.iter().filter_map(|p| p.created_at).min()
}
