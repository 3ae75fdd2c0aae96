//! A store shared by the tasks of one process: a reading connection and a writing one, so a
//! long query never waits for a sync's write, nor a write for a query (WAL). An in-memory store
//! has a single connection, used for both.
//!
//! Calls block (SQLite is synchronous): async code runs them under `spawn_blocking`, and the
//! inbox's UI thread never calls them.

use std::sync::{Arc, Mutex};

use super::{Store, StoreError};

/// Two connections to one store (or one, in memory), cheap to clone.
#[derive(Debug, Clone)]
pub struct Shared {
    reader: Arc<Mutex<Store>>,
    writer: Arc<Mutex<Store>>,
}

impl Shared {
    /// Shares `store`, opening a second connection to its file for reading.
    pub fn new(store: Store) -> Result<Self, StoreError> {
        let writer = Arc::new(Mutex::new(store));
        let reader = match feedback_core::mutex::lock(&writer).open_again() {
            Some(opened) => Arc::new(Mutex::new(opened?)),
            None => Arc::clone(&writer),
        };
        Ok(Self { reader, writer })
    }

    /// Runs `f` on the reading connection.
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> T {
        f(&feedback_core::mutex::lock(&self.reader))
    }

    /// Runs `f` on the writing connection.
    pub fn write<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        f(&mut feedback_core::mutex::lock(&self.writer))
    }

    /// Where it lives, for messages.
    #[must_use]
    pub fn describe(&self) -> String {
        self.read(Store::describe)
    }
}
