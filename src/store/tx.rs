//! A write transaction as the store's callers see it ([`Store::write`]): a handle that the
//! store's typed writes take (the sync's page and the walk state it advances, committed
//! together), never the connection itself. No SQL can be written through it outside `store`.

use rusqlite::Transaction;

use super::{Store, StoreError};

/// One `IMMEDIATE` transaction, open while [`Store::write`]'s closure runs.
pub struct Tx<'t> {
    tx: &'t Transaction<'t>,
}

impl<'t> Tx<'t> {
    /// The transaction, for the store's own statements.
    pub(in crate::store) fn raw(&self) -> &'t Transaction<'t> {
        self.tx
    }
}

/// A write inside a transaction failed: the whole transaction is rolled back.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct TxError(#[from] rusqlite::Error);

/// The result of a write inside a transaction.
pub type TxResult<T> = Result<T, TxError>;

impl Store {
    /// Runs `f` in one `IMMEDIATE` transaction: committed when it succeeds, rolled back (nothing
    /// written) when it fails.
    pub fn write<T>(&mut self, f: impl FnOnce(&Tx<'_>) -> TxResult<T>) -> Result<T, StoreError> {
        self.transact(|tx| f(&Tx { tx }).map_err(|TxError(error)| error))
    }

    /// Runs `sql` as it is, for a test that damages a store on purpose (a trigger that refuses
    /// writes, a table emptied behind the store's back). Nothing in the program calls it.
    #[doc(hidden)]
    pub fn tamper(&mut self, sql: &str) -> Result<(), StoreError> {
        self.transact(|tx| tx.execute_batch(sql))
    }
}
