//! The store's items of a view (a search's matches, newest first), streamed from the store
//! and written through the same sink as `list`, with their stored metadata and delivery links (no
//! request), the `--fields all` columns known up front; and the details the store lacks for
//! such keys, fetched and stored.

use std::io::Write;

use super::super::CliError;
use super::super::output::ListFormat;
use super::detail::{Details, stored, stored_keys, with_triage};
use super::fields::{Record, Selection};
use super::sink::{Options, Sink};
use feedback_api::Client;
use feedback_store::{Shared, Store, StoredItem, ViewQuery};

/// Items read from the store per batch: the output streams, and memory stays small.
const BATCH: usize = 500;

/// Writes the items of the view `view`, newest first (at most `limit`); returns how many. For
/// `--fields all` in csv and table, the columns are every metadata key and channel the items
/// have stored (read first, over the view's keys); otherwise the view streams from the store
/// as it is written.
pub fn write(
    store: &Store,
    view: &ViewQuery,
    limit: Option<usize>,
    mut options: Options,
    out: &mut (dyn Write + Send),
) -> Result<u64, CliError> {
    let text = matches!(options.format, ListFormat::Csv | ListFormat::Table);
    let needs_detail = options.fields.needs_detail();
    let needs_triage = options.fields.needs_triage();
    let needs_links = options.fields.needs_links();
    let now = jiff::Timestamp::now();
    let triage = |records: &mut [Record]| -> Result<(), CliError> {
        if needs_triage {
            with_triage(store, records, now, needs_links)?;
        }
        Ok(())
    };
    let record = |i: StoredItem| {
        if needs_detail {
            stored(store, i.feedback)
        } else {
            Ok(Record::bare(i.feedback))
        }
    };
    let mut written = 0_u64;
    if options.fields == Selection::All && text {
        let keys = store.view_keys(view, limit)?;
        options.keys = Some(stored_keys(store, &keys)?);
        let mut sink = Sink::new(out, options);
        for batch in keys.chunks(BATCH) {
            let mut records = store
                .items(batch)?
                .into_iter()
                .map(record)
                .collect::<Result<Vec<_>, _>>()?;
            triage(&mut records)?;
            written += u64::try_from(records.len()).unwrap_or(u64::MAX);
            sink.page(&records)?;
        }
        sink.finish(None)?;
        return Ok(written);
    }
    if let Some(needs) = Sink::row_needs(&options) {
        // The bulk path (exports, scripts): rows written as they are read.
        let mut sink = Sink::new(out, options);
        let written = super::bulk::write(store, view, limit, needs, &mut sink)?;
        sink.finish(None)?;
        return Ok(written);
    }
    let mut sink = Sink::new(out, options);
    store.view_items_each(view, limit, BATCH, |items| -> Result<(), CliError> {
        let mut records = items
            .into_iter()
            .map(record)
            .collect::<Result<Vec<_>, _>>()?;
        triage(&mut records)?;
        written += u64::try_from(records.len()).unwrap_or(u64::MAX);
        sink.page(&records)
    })?;
    sink.finish(None)?;
    Ok(written)
}

/// Fetches with `client`, and stores, the details `shared` lacks for the items with these
/// keys; returns how many were fetched (one request each).
pub(crate) async fn fetch_details(
    shared: &Shared,
    client: Client,
    keys: &[i64],
) -> Result<u64, CliError> {
    let mut details = Details::new(Some(shared.clone()), Some(client));
    for batch in keys.chunks(BATCH) {
        let items = shared.read(|store| store.items(batch))?;
        details
            .records(items.into_iter().map(|i| i.feedback).collect())
            .await?;
    }
    Ok(details.fetched())
}
