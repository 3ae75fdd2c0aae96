//! The bulk benches' store: `items` generated items (the simulator's data, seed 7), made once in
//! `target/bulk/` as a sync stores them (list pages: no details), oldest first as a first
//! mirror's backfill reaches them.
#![allow(unreachable_pub)] // shared by the benches that include it

use std::path::{Path, PathBuf};
use std::time::Instant;

use feedback_sim as sim;
use feedback_store::Store;

/// The store of `items` items, made when it is not there yet.
pub fn path(items: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bulk");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("store-{items}.db"));
    if path.exists() {
        return path;
    }
    let partial = dir.join(format!("store-{items}.db.partial"));
    let _ = std::fs::remove_file(&partial);
    let anchor: jiff::Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
    let started = Instant::now();
    {
        let mut store = Store::open(&partial).unwrap();
        let data = sim::data::generate(7, items, anchor);
        store.check_account(&data.projects).unwrap();
        store.put_projects(&data.projects).unwrap();
        store.put_apps(&data.apps, None).unwrap();
        // Oldest first, in pages, as a first mirror's backfill reaches them.
        let all: Vec<_> = data.items().map(|d| d.feedback).collect();
        for chunk in all.rchunks(5000) {
            store.put_items(chunk, anchor).unwrap();
        }
    }
    std::fs::rename(&partial, &path).unwrap();
    eprintln!("made {} in {:.1?}", path.display(), started.elapsed());
    path
}
