//! The account gate: nothing the service says is written to the store, and nothing is removed
//! from it, before the key's account is confirmed to be the one the store mirrors (the rule is
//! the store's: see `Store::check_account`). A list page or a detail whose projects the store
//! confirmed before confirms it at no cost; otherwise the account's project list is asked for
//! (one request) and checked. A 404 is proof that an item is gone only from a confirmed
//! account: another account's key answers 404 for every item of this store.
//!
//! Writers that are not a [`Syncer`] (`list --with-detail`) use [`confirm_account_for`].

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;

use super::{SyncError, Syncer};
use feedback_api::{Client, Feedback};
use feedback_store::sync_state as state;
use feedback_store::{self as store, Shared, Store};

/// Asks the account's project list and checks it against the store (a mismatch is
/// [`feedback_store::StoreError::AccountMismatch`], nothing written). `Ok(true)` when it
/// confirms the account; `Ok(false)` when the list was empty, which confirms nothing.
pub async fn check(client: &Client, store: &Shared) -> Result<bool, SyncError> {
    let projects = client.list_projects().await?;
    let listed = !projects.is_empty();
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.write(|s| s.check_account(&projects)))
        .await
        .map_err(|e| SyncError::Task(e.to_string()))??;
    Ok(listed)
}

/// Before `item` (fetched with `client`'s key) is written to `store`: `Ok(true)` when its
/// project is one the store confirms, or the account's project list confirms the account
/// (the project is then confirmed too); `Ok(false)` when nothing proves the account (an empty
/// project list): the item is not to be written. Another account is an error.
pub async fn confirm_account_for(
    client: &Client,
    store: &Shared,
    item: &Feedback,
) -> Result<bool, SyncError> {
    let project = BTreeSet::from([item.project.id.clone()]);
    if all_confirmed(store, &project).await? {
        return Ok(true);
    }
    if !check(client, store).await? {
        return Ok(false);
    }
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.write(|s| s.confirm_project_ids(&project)))
        .await
        .map_err(|e| SyncError::Task(e.to_string()))??;
    Ok(true)
}

/// Whether the store confirms every one of `projects`.
async fn all_confirmed(store: &Shared, projects: &BTreeSet<String>) -> Result<bool, SyncError> {
    let (store, projects) = (store.clone(), projects.clone());
    let known = tokio::task::spawn_blocking(move || store.read(Store::known_project_ids))
        .await
        .map_err(|e| SyncError::Task(e.to_string()))??;
    Ok(projects.is_subset(&known))
}

impl Syncer {
    /// Whether this key's account is the store's: once confirmed in this process it stays so;
    /// until then the project list is asked for and checked (one request). `Ok(false)`: an
    /// empty list, which proves nothing.
    pub(super) async fn account_confirmed(&self) -> Result<bool, SyncError> {
        if self.confirmed.load(Ordering::Acquire) {
            return Ok(true);
        }
        let listed = check(&self.client, &self.store).await?;
        if listed {
            self.confirm();
        }
        Ok(listed)
    }

    /// Marks the account confirmed (a check passed, or a page's projects were all confirmed).
    pub(super) fn confirm(&self) {
        self.confirmed.store(true, Ordering::Release);
    }

    /// The service answered 404 for `id`: the item leaves the store (and the re-read queue)
    /// once the account is confirmed. `Ok(true)` when it was removed; `Ok(false)` when nothing
    /// proves the account, and the item stays.
    pub(super) async fn forget_gone(&self, id: &str) -> Result<bool, SyncError> {
        if !self.account_confirmed().await? {
            return Ok(false);
        }
        let gone = id.to_owned();
        self.blocking(move |s| {
            s.write(|tx| {
                store::forget_id(tx, &gone)?;
                state::recheck_done(tx, &gone)
            })
        })
        .await?;
        Ok(true)
    }

    /// Before a detail is written: its project (and app) confirmed, as a list page's are
    /// (see `Syncer::confirm_page`); requests sent.
    pub(super) async fn confirm_detail(&self, item: &Feedback) -> Result<u32, SyncError> {
        self.confirm_items(std::slice::from_ref(item)).await
    }
}
