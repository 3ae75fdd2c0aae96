//! The local store as the offline commands (`search`, `stats`) read it: only what it holds,
//! unless `--sync`, which first runs a head sync of both statuses (what is new since the last
//! sync; the first one mirrors the newest pages). With a team configured, the team's state is
//! caught up first (or, the database away, said on stderr). A store that anything writes to while the
//! command runs (the sync, `--with-detail`'s fetches) is shared: read on its own connection.

use super::CliError;
use crate::context::Context;
use crate::context::store::{open_store, store_path};
use feedback_api::Status;
use feedback_store::{Shared, Store};
use feedback_sync::{Priority, SyncError, Syncer};

/// The store an offline command reads.
pub enum Offline {
    /// Nothing writes to it.
    Alone(Store),
    /// A sync or fetched details write to it.
    Shared(Shared),
}

impl Offline {
    /// Opens the store `command` reads (`search`, `stats`: named in the errors): there must be
    /// one, unless `sync` makes it. `shared` when something will write to it; with `sync`, the
    /// head sync has run when this returns.
    pub async fn open(
        global: &Context,
        command: &str,
        sync: bool,
        shared: bool,
    ) -> Result<Self, CliError> {
        let path = store_path(global)?.ok_or_else(|| {
            CliError::Usage(format!(
                "{command} reads the local store, and --no-store has none"
            ))
        })?;
        if !path.exists() && !sync {
            return Err(CliError::Other(format!(
                "no store yet at {}: run `feedback-inbox sync` first",
                path.display()
            )));
        }
        let store = open_store(global)?.ok_or_else(|| CliError::Other("no store".to_owned()))?;
        let team = crate::context::team::configured(global)?.is_some();
        if !(sync || shared || team) {
            return Ok(Self::Alone(store));
        }
        let shared = Shared::new(store)?;
        if sync {
            head_sync(global, &shared).await?;
        }
        // The team's owners and labels as they are now (searched with `assignee:`, `label:`).
        crate::context::team::catch_up_before_reading(global, &shared).await?;
        Ok(Self::Shared(shared))
    }

    /// Runs `f` on the store (the reading connection of a shared one).
    pub fn read<T>(&self, f: impl FnOnce(&Store) -> T) -> T {
        match self {
            Self::Alone(store) => f(store),
            Self::Shared(shared) => shared.read(f),
        }
    }

    /// The shared store, when something writes to it.
    #[must_use]
    pub fn shared(&self) -> Option<&Shared> {
        match self {
            Self::Alone(_) => None,
            Self::Shared(shared) => Some(shared),
        }
    }
}

/// `--sync`: discovery (the account check) and a head sync of `new` then `archived`, with a
/// line on stderr saying what it brought (every request counted, discovery's too), and a note
/// for a status not yet mirrored to its end (the results are partial). Another process's sync
/// (an inbox) is no failure: a warning, and the command runs on what is stored.
async fn head_sync(global: &Context, shared: &Shared) -> Result<(), CliError> {
    let client = super::client(global, false)?;
    let syncer = Syncer::new(
        client,
        shared.clone(),
        feedback_core::clock::system(),
        crate::context::store::sync_settings(global)?,
    );
    match sync_heads(&syncer).await {
        Ok((added, requests)) => eprintln!(
            "synced: {} added in {}",
            feedback_core::text::output::counted(added, "item"),
            feedback_core::text::output::counted(requests, "request")
        ),
        Err(SyncError::Busy) => {
            eprintln!("warning: another sync is running on this store; searching what is stored");
        }
        Err(error) => return Err(error.into()),
    }
    for status in [Status::New, Status::Archived] {
        if !syncer.read_state(&status, false).await?.complete {
            eprintln!(
                "note: {}: partly mirrored — run `feedback-inbox sync` for every item",
                status.as_str()
            );
        }
    }
    Ok(())
}

/// Discovery (when the catalog is due) and the head walks under one session; the items added
/// and requests sent.
async fn sync_heads(syncer: &Syncer) -> Result<(usize, u32), SyncError> {
    let _session = syncer.session()?;
    let mut requests = syncer.discovery_if_due().await?.requests;
    let mut added = 0;
    for status in [Status::New, Status::Archived] {
        let report = syncer.head(&status, Priority::User).await?;
        added += report.added;
        requests += report.requests;
    }
    Ok((added, requests))
}
