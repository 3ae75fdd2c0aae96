//! The account's catalog (projects, apps, tags) and the account check, at the cost the issue
//! allows a re-sync: a page is stored without any catalog request while everything it names is
//! known and the catalog is fresh. Discovery (three requests) runs when the store has no
//! catalog yet, when the stored one is older than [`CATALOG_FRESH`], and before a page that
//! names a project or app the store does not know: a new project of this account, or another
//! account's items, which the project list then refuses before anything of them is written.

use std::collections::BTreeSet;
use std::time::Duration;

use super::{Report, SyncError, Syncer};
use feedback_api::lenient::CountedPage;
use feedback_api::{ApiError, App, Feedback, Project, Tag};
use feedback_store::Store;

/// How long a stored catalog is trusted before a sync reads it again (names and tag counts
/// change rarely; a new project or app is noticed on the first page that names it).
pub const CATALOG_FRESH: Duration = Duration::from_secs(3600);

/// The answers to discovery's three requests, not yet checked nor stored.
pub(super) struct Asked {
    projects: Result<Vec<Project>, ApiError>,
    apps: Result<Vec<App>, ApiError>,
    tags: Result<Vec<Tag>, ApiError>,
}

impl Syncer {
    /// Projects (checked against the account the store mirrors: a mismatch is an error and
    /// nothing of this account is written), apps and tags, into the store. The report counts
    /// its requests (three), so the totals a command prints are the requests it sent.
    pub async fn discovery(&self) -> Result<Report, SyncError> {
        let _session = self.session()?;
        let _turn = self.gate.turn(super::Priority::User).await;
        self.discover().await
    }

    /// [`Syncer::discovery`] when the store has no catalog or an older one than
    /// [`CATALOG_FRESH`]; otherwise nothing (no request).
    pub async fn discovery_if_due(&self) -> Result<Report, SyncError> {
        if !self.catalog_due().await? {
            return Ok(Report::default());
        }
        self.discovery().await
    }

    /// Discovery inside an operation that holds the session and its turn.
    pub(super) async fn discover(&self) -> Result<Report, SyncError> {
        self.discover_listing().await.map(|(report, _)| report)
    }

    /// [`Syncer::discover`], and whether the account listed any project (an empty list confirms
    /// for nothing).
    async fn discover_listing(&self) -> Result<(Report, bool), SyncError> {
        let catalog = self.ask_catalog().await;
        self.keep_catalog(catalog).await
    }

    /// The three lists of discovery, asked at once (nothing is stored before the project list
    /// is checked: see [`Syncer::keep_catalog`]).
    pub(super) async fn ask_catalog(&self) -> Asked {
        let scope = feedback_api::ScopeQuery::default();
        let (projects, apps, tags) = tokio::join!(
            self.client.list_projects(),
            self.client.list_apps(None),
            self.client.list_tags(&scope),
        );
        Asked {
            projects,
            apps,
            tags,
        }
    }

    /// Checks the project list against the store's account (another account's is an error and
    /// nothing of it is written), then stores the apps and tags; the report counts the three
    /// requests. The first failed answer is the error, in the order projects, apps, tags.
    pub(super) async fn keep_catalog(&self, asked: Asked) -> Result<(Report, bool), SyncError> {
        let projects = asked.projects?;
        let listed = !projects.is_empty();
        self.blocking(move |s| s.check_account(&projects)).await?;
        if listed {
            self.confirm();
        }
        let (apps, tags) = (asked.apps?, asked.tags?);
        let at = self.now();
        self.blocking(move |s| {
            s.put_apps(&apps, None)?;
            s.put_server_tags(&tags)?;
            s.mark_catalog(at)
        })
        .await?;
        let report = Report {
            requests: 3,
            ..Report::default()
        };
        Ok((report, listed))
    }

    /// Whether discovery is due: the store has no catalog, or one older than [`CATALOG_FRESH`].
    pub(super) async fn catalog_due(&self) -> Result<bool, SyncError> {
        let now = self.now();
        let at = self.blocking(|s| s.catalog_at()).await?;
        Ok(at.is_none_or(|at| feedback_core::clock::until(at, now) >= CATALOG_FRESH))
    }

    /// Runs discovery before a page is stored when the page names a project the account check
    /// has not confirmed, or an app neither the catalog nor any stored item knows; its
    /// requests are returned. The account just passed its check: the page's projects the
    /// list lacks (the service need not list every project an item names) are this account's
    /// and confirmed from now on, and its apps are known once the page is stored, so one
    /// such item costs one discovery, not one per page.
    pub(super) async fn confirm_page(&self, page: &CountedPage) -> Result<u32, SyncError> {
        self.confirm_items(&page.page.data).await
    }

    /// [`Syncer::confirm_page`] for any items about to be stored (pages', a detail's). Items whose
    /// projects are all confirmed confirm the account (see `account`).
    pub(super) async fn confirm_items<'a>(
        &self,
        items: impl IntoIterator<Item = &'a Feedback>,
    ) -> Result<u32, SyncError> {
        let mut projects = BTreeSet::new();
        let mut apps = BTreeSet::new();
        for item in items {
            projects.insert(item.project.id.clone());
            if let Some(app) = &item.app {
                apps.insert(app.id.clone());
            }
        }
        if projects.is_empty() {
            return Ok(0);
        }
        let named = projects.clone();
        let known = self
            .blocking(move |s| all_known(s, &projects, &apps))
            .await?;
        if known {
            self.confirm();
            return Ok(0);
        }
        let (report, listed) = self.discover_listing().await?;
        if listed {
            self.blocking(move |s| s.confirm_project_ids(&named))
                .await?;
        }
        Ok(report.requests)
    }
}

fn all_known(
    store: &mut Store,
    projects: &BTreeSet<String>,
    apps: &BTreeSet<String>,
) -> Result<bool, feedback_store::StoreError> {
    let all_confirmed = store.known_project_ids()?;
    if !projects.is_subset(&all_confirmed) {
        return Ok(false);
    }
    store.knows_apps(apps)
}
