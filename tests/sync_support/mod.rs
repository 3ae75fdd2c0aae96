//! Shared set-up of the sync tests: a syncer over a store (in memory or in a file) against the
//! rig's simulator, and what the store and the simulator hold.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)]

use std::path::Path;

use feedback_api::Status;
use feedback_sim::{Route, SimHandle};
use feedback_store::{Shared, Store};
use feedback_sync::{Priority, Report, SyncSettings, Syncer};

use super::common::Rig;

pub fn memory_syncer(rig: &Rig, settings: SyncSettings) -> (Syncer, Shared) {
    let shared = Shared::new(Store::open_memory().unwrap()).unwrap();
    let syncer = Syncer::new(
        rig.client.clone(),
        shared.clone(),
        rig.clock.clone(),
        settings,
    );
    (syncer, shared)
}

pub fn file_syncer(rig: &Rig, path: &Path, settings: SyncSettings) -> (Syncer, Shared) {
    let shared = Shared::new(Store::open(path).unwrap()).unwrap();
    let syncer = Syncer::new(
        rig.client.clone(),
        shared.clone(),
        rig.clock.clone(),
        settings,
    );
    (syncer, shared)
}

/// Stored ids of `status` in the store file at `path`, newest first, read with a plain
/// connection (another process may be writing it).
pub fn stored_in(path: &Path, status: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut stmt = conn
        .prepare("SELECT id FROM items WHERE status = ?1 ORDER BY received DESC, k ASC")
        .unwrap();
    stmt.query_map([status], |r| r.get(0))
        .unwrap()
        .collect::<Result<Vec<String>, _>>()
        .unwrap()
}

/// Stored ids of `status`, newest first.
pub fn stored_ids(shared: &Shared, status: &str) -> Vec<String> {
    shared.read(|s| s.ids_with_status(status).unwrap())
}

pub fn stored_status(shared: &Shared, id: &str) -> String {
    shared.read(|s| {
        s.item(id)
            .unwrap()
            .unwrap()
            .feedback
            .status
            .as_str()
            .to_owned()
    })
}

/// The simulator's ids of `status`, newest first.
pub fn sim_ids(sim: &SimHandle, status: &Status) -> Vec<String> {
    super::common::expected_ids(sim, |it| it.feedback.status == *status)
}

pub fn list_requests(sim: &SimHandle) -> u64 {
    sim.stats().route(Route::FeedbackList)
}

/// A head walk, then backfill until the status is mirrored to its end.
pub async fn mirror(syncer: &Syncer, status: &Status) -> Report {
    let mut total = syncer.head(status, Priority::User).await.unwrap();
    while let Some(page) = syncer.backfill_page(status, Priority::User).await.unwrap() {
        total.added += page.added;
        total.changed += page.changed;
        total.requests += page.requests;
    }
    total
}

pub fn pages(items: usize) -> u64 {
    u64::try_from(items.div_ceil(100)).unwrap()
}

/// Sets the status of the simulator's items with these ids (an archive edit on the service).
pub fn set_status(sim: &SimHandle, ids: &[String], status: &Status) {
    let mut data = sim.state().write();
    for id in ids {
        assert!(data.set_status(id, status), "no item {id} in the simulator");
    }
}
