//! Why store work the runtime ran for `update` failed, kept as what it is (the store's own
//! error, or a view whose search no longer applies) until `update` says it where it is shown.
//! A message is cloned on its way, so the store's error is shared, not copied into words.

use std::sync::Arc;

use feedback_store::StoreError;

/// Why a read or a write of the store failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Failure {
    /// The store could not be read or written.
    #[error(transparent)]
    Store(Arc<StoreError>),
    /// The view's search does not apply to what is stored (an app it names is gone).
    #[error("the view's search does not apply")]
    ViewDoesNotApply,
    /// The thread doing the work ended before it answered (it panicked).
    #[error("the store's work stopped: {0}")]
    Stopped(Arc<tokio::task::JoinError>),
}

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Self {
        Self::Store(Arc::new(error))
    }
}

impl Failure {
    /// A store error saying `message` (for the tests of what the inbox shows of one).
    #[cfg(any(test, feature = "testing"))]
    #[must_use]
    pub fn store(message: &str) -> Self {
        Self::from(StoreError::Io {
            path: "store.db".to_owned(),
            message: message.to_owned(),
        })
    }
}
