//! The journal an inbox receiver (`--listen`, the live demo) once wrote beside its store, one per
//! port: deliveries acknowledged once their line was synced there, and stored by the inbox
//! afterwards. The receiver now stores each item in the transaction that records its delivery,
//! before answering, so it writes no journal; one left by an earlier version is stored at start
//! (what it holds that the store lacks), then emptied.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use super::stored::{CaughtUp, store_journaled};
use feedback_store::Store;

/// The journal of a receiver on `addr` for the store at `store` (`None`: a store in memory,
/// which keeps nothing either).
#[must_use]
pub fn path(store: Option<&Path>, addr: SocketAddr) -> Option<PathBuf> {
    let store = store?;
    let name = store.file_name()?.to_string_lossy();
    Some(store.with_file_name(format!("{name}.webhooks-{}.jsonl", addr.port())))
}

/// Stores what the journal at `journal` holds and the store lacks, then empties it: every
/// item in it is then stored, or belongs to no project of the store's account. When anything
/// fails the journal is kept whole for the next start.
///
/// # Errors
/// The journal cannot be read or emptied (a symlink or a FIFO in its place is refused), or
/// the store cannot take its items.
pub fn catch_up(store: &mut Store, journal: &Path) -> Result<CaughtUp, String> {
    let shown = journal.display();
    let Some(bytes) = feedback_config::private_files::read_record(journal)
        .map_err(|e| format!("cannot read the journal {shown}: {e}"))?
    else {
        return Ok(CaughtUp::default());
    };
    let caught_up = store_journaled(store, &bytes)
        .map_err(|e| format!("cannot store the journal's items: {e}"))?;
    feedback_config::private_files::create_truncated(journal)
        .and_then(|file| file.sync_all())
        .map_err(|e| format!("cannot empty the journal {shown}: {e}"))?;
    Ok(caught_up)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_journal_is_beside_the_store_one_per_port_and_none_in_memory() {
        let addr: SocketAddr = ([127, 0, 0, 1], 8787).into();
        let at = path(Some(Path::new("/d/stores/default.sqlite3")), addr).unwrap();
        assert_eq!(
            at,
            Path::new("/d/stores/default.sqlite3.webhooks-8787.jsonl")
        );
        assert_eq!(path(None, addr), None);
    }

    #[test]
    fn a_journal_that_is_not_there_is_nothing_to_catch_up() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open_memory().unwrap();
        let caught_up = catch_up(&mut store, &dir.path().join("none.jsonl")).unwrap();
        assert_eq!(caught_up.stored, 0);
    }
}
