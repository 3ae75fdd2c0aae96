//! What a receiver keeps of an accepted delivery, in the order that makes an acknowledgement
//! safe: the JSONL line is written and synced, then its idempotency key is written and synced,
//! and only then may the delivery be answered 2xx. A failure on the way is an error (answered
//! 500, so the service delivers again); nothing is acknowledged that is not on disk.

use std::io;
use std::path::PathBuf;

use super::journal::AppendLog;
use super::seen::Seen;

/// The receiver's records: the seen keys and the optional JSONL file.
#[derive(Debug)]
pub struct Recorder {
    seen: Seen,
    jsonl: Option<(PathBuf, AppendLog)>,
}

/// How a delivery was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// Written for the first time.
    New,
    /// Its key was recorded before: nothing written.
    Duplicate,
}

/// Why a delivery could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot write {}: {source}", path.display())]
    Jsonl {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The line was written (when there is a JSONL) and the key is remembered for this
    /// process, but the key could not be written to the seen file.
    #[error("cannot write the record of seen ids: {0}")]
    Seen(#[source] io::Error),
}

impl Recorder {
    /// Records into `seen` and, when given, the JSONL log at `path`.
    #[must_use]
    pub fn new(seen: Seen, jsonl: Option<(PathBuf, AppendLog)>) -> Self {
        Self { seen, jsonl }
    }

    /// Keeps `line` once per `key` (`None`: always kept). When the seen write fails after the
    /// line was written, the key is still remembered for this process, so the service's retry
    /// is acknowledged as a duplicate rather than written twice.
    pub fn record(&mut self, key: Option<&str>, line: &[u8]) -> Result<Recorded, RecordError> {
        if key.is_some_and(|key| self.seen.contains(key)) {
            return Ok(Recorded::Duplicate);
        }
        if let Some((path, log)) = &mut self.jsonl {
            log.append_line(line).map_err(|source| RecordError::Jsonl {
                path: path.clone(),
                source,
            })?;
        }
        if let Some(key) = key {
            self.seen.insert(key).map_err(RecordError::Seen)?;
        }
        Ok(Recorded::New)
    }
}
