//! The store's items by key (a search's matches, newest first), read in batches and written
//! through the same sink as `list`, with their stored metadata and delivery links (no
//! request), the `--fields all` columns known up front; and the details the store lacks for
//! such keys, fetched and stored.

use std::io::Write;

use super::super::CliError;
use super::super::output::ListFormat;
use super::detail::{Details, stored, stored_keys};
use super::fields::{Record, Selection};
use super::sink::{Options, Sink};
use crate::api::Client;
use crate::store::{Shared, Store};

/// Items read from the store per batch: the output streams, and memory stays small.
const BATCH: usize = 500;

/// Writes the items with these keys, in their order. For `--fields all` in csv and table, the
/// columns are every metadata key and channel the items have stored.
pub fn write(
    store: &Store,
    keys: &[i64],
    mut options: Options,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let text = matches!(options.format, ListFormat::Csv | ListFormat::Table);
    if options.fields == Selection::All && text {
        options.keys = Some(stored_keys(store, keys)?);
    }
    let needs_detail = options.fields.needs_detail();
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

/// Fetches with `client`, and stores, the details `shared` lacks for the items with these
/// keys; returns how many were fetched (one request each).
pub async fn fetch_details(shared: &Shared, client: Client, keys: &[i64]) -> Result<u64, CliError> {
    let mut details = Details::new(Some(shared.clone()), Some(client));
    for batch in keys.chunks(BATCH) {
        let items = shared.read(|store| store.items(batch))?;
        details
            .records(items.into_iter().map(|i| i.feedback).collect())
            .await?;
    }
    Ok(details.fetched())
}
