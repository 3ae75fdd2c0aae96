//! The bulk path of `search` and `store export` (JSONL straight from stored rows): the rows
//! are read on the calling thread and copied into batches; a second thread makes each batch
//! into lines and writes them, in the order read. Reading takes about as long as making and
//! writing the lines, so the two halves keep both cores busy. Memory stays flat: a few batches
//! exist at once, refilled as they come back.

use std::sync::mpsc;

use super::super::CliError;
use super::api_row::RowLines;
use super::sink::Sink;
use feedback_store::{RowBatch, RowBytes, RowNeeds, Store, ViewQuery};

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
/// Batches handed over and not yet taken by the writer, at most.
const IN_FLIGHT: usize = 4;

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
        let (give_back, returned) = mpsc::channel::<RowBatch>();
        let writer = scope.spawn(move || write_lines(&lines, &batches, &give_back, sink));
        let mut pipe = Pipe {
            hand,
            returned,
            filling: store.row_batch(),
            batching,
        };
        let walked = store.view_row_bytes_each(view, limit, needs, |row| pipe.push(row));
        let ended = walked.and_then(|()| pipe.finish());
        // The writer ends when the batches do (here, or after a failed walk).
        drop(pipe);
        // The writer's own failure explains a hand-over that failed.
        let written = writer.join().unwrap_or_else(|_| {
            Err(CliError::Io(std::io::Error::other(
                "the line writer panicked",
            )))
        })?;
        ended?;
        Ok(written)
    })
}

/// Makes each batch into lines and writes them, in order, until the batches end; gives each
/// batch back to be filled again. Returns how many rows it wrote.
fn write_lines(
    lines: &RowLines,
    batches: &mpsc::Receiver<RowBatch>,
    give_back: &mpsc::Sender<RowBatch>,
    sink: &mut Sink<'_>,
) -> Result<u64, CliError> {
    let mut out = Vec::new();
    let mut written = 0_u64;
    for mut batch in batches {
        out.clear();
        // The rows' text and, per line, about what the API's keys and punctuation add.
        out.reserve(batch.text_bytes() + batch.len() * 160);
        for row in batch.rows() {
            lines.write(&row?, &mut out)?;
        }
        sink.lines(&out, batch.len())?;
        written += u64::try_from(batch.len()).unwrap_or(u64::MAX);
        batch.clear();
        // The walk may be over already: the batch is then not needed.
        let _ = give_back.send(batch);
    }
    Ok(written)
}

/// The reading side: fills batches and hands them over, refilling those given back.
struct Pipe {
    hand: mpsc::SyncSender<RowBatch>,
    returned: mpsc::Receiver<RowBatch>,
    filling: RowBatch,
    batching: Batching,
}

/// The writer stopped early: its own error says why (see [`write`]).
fn writer_gone() -> CliError {
    CliError::Io(std::io::Error::other("the line writer stopped"))
}

impl Pipe {
    fn push(&mut self, row: &RowBytes<'_>) -> Result<(), CliError> {
        self.filling.push(row);
        if self.filling.len() >= self.batching.rows
            || self.filling.text_bytes() >= self.batching.bytes
        {
            self.hand_over()?;
        }
        Ok(())
    }

    /// Hands the batch being filled to the writer (waiting while [`IN_FLIGHT`] are queued) and
    /// goes on with one given back, or a new one when none is: at most `IN_FLIGHT` + 2 batches
    /// exist (queued, being written, being filled).
    fn hand_over(&mut self) -> Result<(), CliError> {
        let next = self.filling.empty_like();
        let full = std::mem::replace(&mut self.filling, next);
        self.hand.send(full).map_err(|_| writer_gone())?;
        if let Ok(given_back) = self.returned.try_recv() {
            self.filling = given_back;
        }
        Ok(())
    }

    /// Hands over the last batch.
    fn finish(&mut self) -> Result<(), CliError> {
        if self.filling.is_empty() {
            return Ok(());
        }
        self.hand_over()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::io::Write;

    use super::{Batching, IN_FLIGHT, write_batched};
    use crate::export::api_row::RowLines;
    use crate::export::fields::Selection;
    use crate::export::sink::{Options, Sink};
    use crate::output::ListFormat;
    use feedback_api::Feedback;
    use feedback_store::{RowNeeds, Store, StoreError, ViewQuery};

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
        let data = feedback_sim::data::generate(9, count, anchor);
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
