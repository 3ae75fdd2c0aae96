//! The bulk path of `search` and `store export` (JSONL straight from stored rows): the rows
//! are read on the calling thread and made into lines on a second one, since reading and
//! serializing take about as long each; the lines are written here, in the order read, a
//! batch at a time. Memory stays flat: a few batches are on their way at once.

use std::sync::mpsc;

use super::super::CliError;
use super::api_row::RowLines;
use super::sink::Sink;
use crate::store::{RowBatch, RowNeeds, Store, ViewQuery};

/// When a batch is handed over: at `rows` rows, or sooner at `bytes` of text. Each batch is
/// written and flushed whole (a page of output), and narrow rows (ids alone) make batches of
/// many rows rather than many hand-overs.
#[derive(Debug, Clone, Copy)]
struct Batching {
    rows: usize,
    bytes: usize,
}

impl Batching {
    const DEFAULT: Self = Self {
        rows: 8192,
        bytes: 256 * 1024,
    };
}
/// Batches handed over and not yet written back, at most.
const IN_FLIGHT: usize = 4;

/// A batch made into lines: the lines, and the batch to fill again.
struct Made {
    batch: RowBatch,
    lines: Vec<u8>,
}

/// Writes the rows of `view` (at most `limit`, read with the columns `needs` asks for) to
/// `sink`; returns how many.
pub fn write(
    store: &Store,
    view: &ViewQuery,
    limit: Option<usize>,
    needs: RowNeeds,
    sink: &mut Sink<'_>,
) -> Result<u64, CliError> {
    write_batched(store, view, limit, needs, sink, Batching::DEFAULT)
}

/// [`write`] with batches of `batching`.
fn write_batched(
    store: &Store,
    view: &ViewQuery,
    limit: Option<usize>,
    needs: RowNeeds,
    sink: &mut Sink<'_>,
    batching: Batching,
) -> Result<u64, CliError> {
    let lines = sink.row_lines()?;
    std::thread::scope(|scope| {
        let (hand, batches) = mpsc::sync_channel::<RowBatch>(IN_FLIGHT);
        let (made_tx, made) = mpsc::channel::<Made>();
        let maker = scope.spawn(move || make_lines(&lines, &batches, &made_tx));
        let mut pipe = Pipe {
            sink,
            hand: Some(hand),
            made,
            in_flight: 0,
            filling: RowBatch::default(),
            spare: Vec::new(),
            written: 0,
            batching,
        };
        let walked = store.view_rows_each(view, limit, needs, |row| pipe.push(row));
        let ended = walked.and_then(|()| pipe.finish());
        // The maker's own failure explains a hand-over that failed.
        pipe.hand = None;
        let made = maker
            .join()
            .unwrap_or_else(|_| Err(serde::ser::Error::custom("the line writer panicked")));
        made?;
        ended?;
        Ok(pipe.written)
    })
}

/// Makes each batch into lines, in order, until the batches end or the writer is gone.
fn make_lines(
    lines: &RowLines,
    batches: &mpsc::Receiver<RowBatch>,
    made: &mpsc::Sender<Made>,
) -> serde_json::Result<()> {
    for batch in batches {
        // The rows' text and, per line, about what the API's keys and punctuation add.
        let mut out = Vec::with_capacity(batch.text_bytes() + batch.len() * 160);
        for row in batch.rows() {
            lines.write(&row, &mut out)?;
        }
        if made.send(Made { batch, lines: out }).is_err() {
            break;
        }
    }
    Ok(())
}

/// The reading side: fills batches, hands them over, writes what comes back.
struct Pipe<'s, 'o> {
    sink: &'s mut Sink<'o>,
    /// `None` once the maker is told there is no more.
    hand: Option<mpsc::SyncSender<RowBatch>>,
    made: mpsc::Receiver<Made>,
    in_flight: usize,
    filling: RowBatch,
    spare: Vec<RowBatch>,
    written: u64,
    batching: Batching,
}

/// The maker stopped early: its own error says why (see [`write`]).
fn maker_gone() -> CliError {
    CliError::Io(std::io::Error::other("the line writer stopped"))
}

impl Pipe<'_, '_> {
    fn push(&mut self, row: &crate::store::ItemRow<'_>) -> Result<(), CliError> {
        self.filling.push(row);
        if self.filling.len() >= self.batching.rows
            || self.filling.text_bytes() >= self.batching.bytes
        {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Hands the batch being filled to the maker, first writing what it made while the
    /// most batches are out.
    fn hand_over(&mut self) -> Result<(), CliError> {
        while self.in_flight >= IN_FLIGHT {
            let made = self.made.recv().map_err(|_| maker_gone())?;
            self.put(made)?;
        }
        let next = self.spare.pop().unwrap_or_default();
        let full = std::mem::replace(&mut self.filling, next);
        let hand = self.hand.as_ref().ok_or_else(maker_gone)?;
        hand.send(full).map_err(|_| maker_gone())?;
        self.in_flight += 1;
        while let Ok(made) = self.made.try_recv() {
            self.put(made)?;
        }
        Ok(())
    }

    /// Hands over the last batch and writes every line still coming.
    fn finish(&mut self) -> Result<(), CliError> {
        if !self.filling.is_empty() {
            self.hand_over()?;
        }
        self.hand = None;
        while self.in_flight > 0 {
            let made = self.made.recv().map_err(|_| maker_gone())?;
            self.put(made)?;
        }
        Ok(())
    }

    fn put(&mut self, made: Made) -> Result<(), CliError> {
        self.in_flight -= 1;
        self.sink.lines(&made.lines, made.batch.len())?;
        self.written += u64::try_from(made.batch.len()).unwrap_or(u64::MAX);
        let mut batch = made.batch;
        batch.clear();
        self.spare.push(batch);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Write;

    use super::{Batching, IN_FLIGHT, write_batched};
    use crate::api::Feedback;
    use crate::cli::export::api_row::RowLines;
    use crate::cli::export::fields::Selection;
    use crate::cli::export::sink::{Options, Sink};
    use crate::cli::output::ListFormat;
    use crate::store::{RowNeeds, Store, StoreError, ViewQuery};

    /// Small batches, so that a few thousand rows, whole or narrow, make more batches than
    /// are on their way at once.
    const SMALL: Batching = Batching {
        rows: 100,
        bytes: 16 * 1024,
    };

    /// More items than the small batches on their way at once hold, and a last batch not full.
    fn store() -> (Store, usize) {
        let count = SMALL.rows * (IN_FLIGHT + 2) * 5 + 17;
        let anchor = "2026-11-20T12:00:00Z".parse().unwrap();
        let data = crate::sim::data::generate(9, count, anchor);
        let items: Vec<Feedback> = data.items().map(|d| d.feedback).collect();
        let store = Store::listed_in_memory(&items, anchor).unwrap();
        (store, items.len())
    }

    /// The rule: the lines are the rows' lines, each made where it is read, in the walk's
    /// order, whatever the batches.
    #[test]
    fn lines_come_out_in_the_order_read() {
        let (store, count) = store();
        let view = ViewQuery::listed(None);
        let columns = |list: &str| {
            let fields = Selection::parse(Some(list)).unwrap();
            let lines = RowLines {
                columns: match &fields {
                    Selection::Fields(f) => Some(f.clone()),
                    _ => unreachable!(),
                },
            };
            (fields, lines)
        };
        for (fields, lines) in [
            (Selection::Default, RowLines { columns: None }),
            columns("id,app_name"),
            columns("id"),
            columns("received_at,status,id"),
        ] {
            let options = Options::plain(ListFormat::Jsonl, false);
            let options = Options { fields, ..options };
            let needs = Sink::row_needs(&options).unwrap();
            let mut expected = Vec::new();
            store
                .view_rows_each(&view, None, needs, |row| {
                    lines.write(row, &mut expected).unwrap();
                    Ok::<_, StoreError>(())
                })
                .unwrap();
            let mut out = Vec::new();
            let mut sink = Sink::new(&mut out, options);
            let written = write_batched(&store, &view, None, needs, &mut sink, SMALL).unwrap();
            assert_eq!(written, count as u64);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
    }

    /// A reader that stops reading (`| head`): the error comes back and both threads end.
    #[test]
    fn a_failed_write_ends_the_walk_with_its_error() {
        struct Closes(usize);
        impl Write for Closes {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                if self.0 == 0 {
                    return Err(std::io::ErrorKind::BrokenPipe.into());
                }
                self.0 -= 1;
                Ok(buf.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let (store, _) = store();
        let options = Options::plain(ListFormat::Jsonl, false);
        let mut out = Closes(2);
        let mut sink = Sink::new(&mut out, options);
        let error = write_batched(
            &store,
            &ViewQuery::listed(None),
            None,
            RowNeeds::ALL,
            &mut sink,
            SMALL,
        )
        .unwrap_err();
        assert!(error.is_broken_pipe(), "{error:?}");
    }
}
