//! Shared state of a running simulator and the request statistics tests read.

use std::collections::BTreeMap;
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

use super::cursor::CursorCodec;
use super::data::Dataset;
use super::faults::{Faults, Route};
use super::limiter::Limiter;
use feedback_core::clock::SharedClock;
use feedback_core::mutex::lock;

/// What the handlers share.
#[derive(Debug)]
pub struct SimState {
    pub(crate) store: RwLock<Dataset>,
    pub(crate) codec: CursorCodec,
    pub(crate) limiter: Limiter,
    pub(crate) faults: Faults,
    pub(crate) stats: Mutex<Stats>,
    pub(crate) clock: SharedClock,
    pub(crate) latency: Duration,
}

impl SimState {
    /// Requests seen so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        lock(&self.stats).clone()
    }

    /// Read access to the dataset.
    pub fn read(&self) -> RwLockReadGuard<'_, Dataset> {
        self.store
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Write access to the dataset (new submissions, archive and unarchive edits).
    pub fn write(&self) -> RwLockWriteGuard<'_, Dataset> {
        self.store
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A request came in (counted again, by its final status, when it is answered).
    pub(crate) fn arrive(&self) {
        lock(&self.stats).arrived += 1;
    }

    pub(crate) fn record(&self, route: Route, status: u16) {
        let mut counts = lock(&self.stats);
        counts.requests += 1;
        *counts.by_route.entry(route).or_default() += 1;
        *counts.by_status.entry(status).or_default() += 1;
    }
}

/// Requests seen, by route and by final status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Requests that came in, answered or not yet (the others count answered ones).
    pub arrived: u64,
    pub requests: u64,
    pub by_route: BTreeMap<Route, u64>,
    pub by_status: BTreeMap<u16, u64>,
}

impl Stats {
    #[must_use]
    pub fn route(&self, route: Route) -> u64 {
        self.by_route.get(&route).copied().unwrap_or_default()
    }

    #[must_use]
    pub fn status(&self, status: u16) -> u64 {
        self.by_status.get(&status).copied().unwrap_or_default()
    }
}
