//! Locking a mutex whose data stays consistent whatever a thread does while holding it.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks a mutex, recovering the data if a panicking thread poisoned it (the data behind every
/// mutex locked this way is plain values that stay consistent).
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
