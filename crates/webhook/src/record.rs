//! What a receiver keeps of an accepted delivery, in the order that makes an acknowledgement
//! safe: the JSONL line is written and synced, then its idempotency key is made durable (in the
//! seen file, or with a store in the store's transaction that also stores the item the delivery
//! brought), and only then may the delivery be answered 2xx. A failure on the way is an error
//! (answered 500, so the service delivers again); nothing is acknowledged that is not on disk.

use std::io;
use std::path::PathBuf;

use jiff::Timestamp;

use super::journal::AppendLog;
use super::seen::Seen;
use super::stored::{Kept, record_delivery};
use feedback_api::webhook::Submission;
use feedback_store::{Store, StoreError};

/// The receiver's records: the seen keys (in `seen`, or in the store when there is one) and
/// the optional JSONL file.
#[derive(Debug)]
pub(crate) struct Recorder {
    /// With a store: the keys whose store write failed, remembered for this process.
    seen: Seen,
    store: Option<Store>,
    jsonl: Option<(PathBuf, AppendLog)>,
}

/// How a delivery was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// Written for the first time.
    New,
    /// Written for the first time, with its item stored in the receiver's store in the same
    /// transaction.
    Stored,
    /// Written for the first time; its item is not stored, as its project is not among those
    /// of the store's account.
    NewOtherAccount,
    /// Its key was recorded before: nothing written.
    Duplicate,
}

/// Why a delivery could not be kept.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RecordError {
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
    /// The line was written (when there is a JSONL) and the key is remembered for this
    /// process, but the store could not take the key and its item.
    #[error("cannot record the delivery in the store: {0}")]
    Store(#[source] StoreError),
    /// The store could not say whether the key was seen: nothing was written.
    #[error("cannot read the store's record of deliveries: {0}")]
    Ask(#[source] StoreError),
}

impl Recorder {
    /// Records into `seen` and, when given, the JSONL log at `path`.
    #[must_use]
    pub(crate) fn new(seen: Seen, jsonl: Option<(PathBuf, AppendLog)>) -> Self {
        Self {
            seen,
            store: None,
            jsonl,
        }
    }

    /// Records the keys, with the items their deliveries bring, in `store`; when given, each
    /// line in the JSONL log at `path` first.
    #[must_use]
    pub(crate) fn with_store(store: Store, jsonl: Option<(PathBuf, AppendLog)>) -> Self {
        Self {
            seen: Seen::memory(),
            store: Some(store),
            jsonl,
        }
    }

    /// Keeps `line` once per `key` (`None`: always kept) and, with a store, stores the
    /// `submission` it brought in the transaction that records the key, seen at `now`. When the
    /// key's write fails after the line was written, the key is still remembered for this
    /// process, so the service's retry is acknowledged as a duplicate rather than written twice.
    pub(crate) fn record(
        &mut self,
        key: Option<&str>,
        line: &[u8],
        submission: Option<&Submission>,
        now: Timestamp,
    ) -> Result<Recorded, RecordError> {
        if let Some(key) = key {
            if self.seen.contains(key) {
                return Ok(Recorded::Duplicate);
            }
            if let Some(store) = &self.store
                && store.delivery_seen(key).map_err(RecordError::Ask)?
            {
                return Ok(Recorded::Duplicate);
            }
        }
        if let Some((path, log)) = &mut self.jsonl {
            log.append_line(line).map_err(|source| RecordError::Jsonl {
                path: path.clone(),
                source,
            })?;
        }
        let Some(key) = key else {
            return Ok(Recorded::New);
        };
        let Some(store) = &mut self.store else {
            self.seen.insert(key).map_err(RecordError::Seen)?;
            return Ok(Recorded::New);
        };
        match record_delivery(store, key, submission, now) {
            Ok(Some(Kept::Stored)) if submission.is_some() => Ok(Recorded::Stored),
            Ok(Some(Kept::Stored)) => Ok(Recorded::New),
            Ok(Some(Kept::OtherAccount)) => Ok(Recorded::NewOtherAccount),
            // Recorded by another receiver on the same store since it was asked above.
            Ok(None) => Ok(Recorded::Duplicate),
            Err(error) => {
                // A memory record: inserting cannot fail.
                let _ = self.seen.insert(key);
                Err(RecordError::Store(error))
            }
        }
    }
}
