//! `search`'s export: the store's matches in batches through the same sink as `list`, with
//! their stored metadata and delivery links (no request), the `--fields all` columns known up
//! front; `--with-detail` first fetches the details the store lacks.

use std::io::Write;

use super::super::CliError;
use super::super::output::ListFormat;
use super::super::scope::Narrow;
use super::super::search_cmd::{SearchArgs, context_now, query_error};
use super::detail::{Details, stored, stored_keys};
use super::fields::{Record, Selection};
use super::sink::{Options, Sink};
use super::table_fit::TableMode;
use crate::query::Query;
use crate::store::{Shared, Store};

/// Items read from the store per batch: the output streams, and memory stays small.
const BATCH: usize = 500;

/// Writes the items with these keys (the matches, newest first).
pub fn write(
    store: &Store,
    keys: &[i64],
    args: &SearchArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let fields = Selection::parse(args.fields.as_deref())?;
    let text = matches!(args.format, ListFormat::Csv | ListFormat::Table);
    let columns_up_front = (fields == Selection::All && text)
        .then(|| stored_keys(store, keys))
        .transpose()?;
    let needs_detail = fields.needs_detail();
    let options = Options {
        format: args.format,
        raw_csv: args.raw_csv,
        fields,
        table: TableMode::detect(),
        keys: columns_up_front,
    };
    let mut sink = Sink::new(out, options);
    for batch in keys.chunks(BATCH) {
        let items = store.items(batch)?;
        let records = items
            .into_iter()
            .map(|i| {
                if needs_detail {
                    stored(store, i.feedback)
                } else {
                    Ok(Record::bare(i.feedback))
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        sink.page(&records)?;
    }
    sink.finish(None)
}

/// `--with-detail`: fetches (and stores) the details the store lacks for the matches. A query
/// that reads details (`version:`) can only match items whose details are stored: its details
/// are fetched for the items it is about (the query less those qualifiers), every one of them.
pub async fn with_detail(
    global: &super::super::Args,
    shared: &Shared,
    query: &Query,
    narrow: &Narrow,
    args: &SearchArgs,
) -> Result<(), CliError> {
    let (query, limit) = match query.basis() {
        Some(_) => (query.without_details(), None),
        None => (query.clone(), args.limit),
    };
    let keys = shared.read(|store| {
        let sql = store
            .compile(&query, &context_now())
            .map_err(|e| query_error(&args.text(), &e))?;
        Ok::<_, CliError>(store.view_keys(&narrow.view(sql), limit)?)
    })?;
    let client = super::super::client(global, false)?;
    let mut details = Details::new(Some(shared.clone()), Some(client));
    for batch in keys.chunks(BATCH) {
        let items = shared.read(|store| store.items(batch))?;
        details
            .records(items.into_iter().map(|i| i.feedback).collect())
            .await?;
    }
    eprintln!(
        "with-detail: {} details fetched",
        crate::text::output::thousands(details.fetched())
    );
    Ok(())
}
