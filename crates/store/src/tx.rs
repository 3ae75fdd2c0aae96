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
    pub(crate) fn raw(&self) -> &'t Transaction<'t> {
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

    /// [`Store::write`] for what the service can give again (a list page and the walk state it
    /// advances): committed without waiting for the disk (`synchronous=NORMAL`). In WAL mode a
    /// kill -9 still keeps every commit whole; a power loss may drop the last such commits,
    /// never tear one, and the walk state then points at the pages lost, which are asked for
    /// again. The next `synchronous=FULL` commit (any other write: triage, a webhook's
    /// acknowledgement) makes every commit before it durable too, in order.
    pub fn write_refetchable<T>(
        &mut self,
        f: impl FnOnce(&Tx<'_>) -> TxResult<T>,
    ) -> Result<T, StoreError> {
        self.set_synchronous("NORMAL")?;
        let written = self.write(f);
        // Back to FULL before anything else commits on this connection; if that fails the
        // connection must not be used for durable writes, so the failure is the answer.
        self.set_synchronous("FULL")?;
        written
    }

    fn set_synchronous(&self, level: &str) -> Result<(), StoreError> {
        self.conn()
            .pragma_update(None, "synchronous", level)
            .map_err(|e| self.error(e))
    }

    /// Runs `sql` as it is, for a test that damages a store on purpose (a trigger that refuses
    /// writes, a table emptied behind the store's back); only in test builds and with the
    /// `testing` feature, never in the shipped binary.
    #[cfg(any(test, feature = "testing"))]
    pub fn tamper(&mut self, sql: &str) -> Result<(), StoreError> {
        self.transact(|tx| tx.execute_batch(sql))
    }
}
