//! The similar list's store reads, on the list's reading thread like every read of
//! the inbox: `Store::similar` for `S` (well under 100 ms at a million items), and the keys of a
//! pinned key set that the store still holds (retention may have dropped one since).

use crate::action::Msg;
use feedback_store::{Shared, Store, StoreError};

use super::reads::Task;
use crate::failure::Failure;

/// `Read::FindSimilar`: `Store::similar` for the item with key `key`.
pub(super) fn find(store: &Shared, request_id: u64, key: i64, limit: usize) -> Task {
    let store = store.clone();
    Box::new(move || Msg::SimilarFound {
        request_id,
        result: store
            .read(|s| s.similar(key, limit))
            .map(|found| found.map(Box::new))
            .map_err(Failure::from),
    })
}

/// The keys of `pinned` still stored, in their order.
pub(super) fn stored_keys(store: &Store, pinned: &[i64]) -> Result<Vec<i64>, StoreError> {
    store.keys_still_stored(pinned)
}
