//! `--app` and `--project` by id, name or slug, for `list`, `tags`, `apps`, `search` and the
//! inbox. A value is matched as the search language's `app:`/`project:` match it
//! ([`feedback_core::query::names`]: the id exactly, the name or slug in any case), so a name
//! means the same in a flag and in a query.
//!
//! Where the names come from: a UUID is taken as it is (no lookup); otherwise the local store's
//! catalog (the projects and apps last listed, and the names stored items carry) answers when it
//! knows the name, without a request; else `/v1/projects` or `/v1/apps` is asked, once each. A
//! command that goes online anyway (`list`, `tags`, `apps`, the inbox) trusts the store's
//! catalog only while sync's discovery listed it less than [`feedback_sync::CATALOG_FRESH`] ago: a
//! renamed app or one moved to another project must not be matched on an old name. `search`,
//! offline, always reads the store. A
//! name several entries share is a usage error listing them (name, slug, id, project), so a
//! script never acts on a guess; a name nothing has lists the known ones. Every name shown is
//! sanitized: it is server text.

use std::path::Path;

use super::CliError;
use crate::context::Context;
use feedback_api::{App, Client, Project};
use feedback_core::query::{begins, known_list, names};
use feedback_core::text::{Clean, sanitize_line};
use feedback_store::Store;

/// Which catalog a flag names into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    App,
    Project,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Self::App => "app",
            Self::Project => "project",
        }
    }
}

/// A flag's value made an id, with the name to show for it (the id when no catalog had it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub id: String,
    /// As the service or the store has it (raw: each use shows it as a `Clean`).
    pub name: String,
}

/// The projects and apps names are matched against.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub projects: Vec<Project>,
    pub apps: Vec<App>,
}

impl Catalog {
    /// The name of the project with `id` as the apps table shows it (the id when unlisted),
    /// sanitized as one line.
    #[must_use]
    pub(crate) fn project_label(&self, id: &str) -> Clean {
        Clean::line(self.project_name(id).unwrap_or(id))
    }

    /// The project's name, when listed.
    fn project_name(&self, id: &str) -> Option<&str> {
        self.projects
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.name.as_str())
    }
}

/// True for a value the service takes as an id (a hyphenated UUID): it is used as given.
#[must_use]
pub(crate) fn is_id(value: &str) -> bool {
    feedback_api::query::check_uuid(value).is_ok()
}

/// Matches `value` among `kind`'s entries of `catalog` (apps only of `project`, when given):
/// one entry, none, or the ambiguity error. A value that is no entry's id, name or slug
/// matches the entries whose name or slug it begins, as the search language's `app:` does.
fn find(
    catalog: &Catalog,
    kind: Kind,
    value: &str,
    project: Option<&str>,
) -> Result<Option<Resolved>, CliError> {
    let exact = candidates(catalog, kind, project, |id, name, slug| {
        names(value, id, name, slug)
    });
    let hits = if exact.is_empty() {
        candidates(catalog, kind, project, |_, name, slug| {
            begins(value, name, slug)
        })
    } else {
        exact
    };
    let mut ids: Vec<&str> = hits.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    match (ids.len(), hits.first()) {
        (0, _) | (_, None) => Ok(None),
        (1, Some(hit)) => Ok(Some(Resolved {
            id: hit.id.clone(),
            name: hit.name.clone(),
        })),
        _ => Err(ambiguous(kind, value, &hits)),
    }
}

/// `kind`'s entries of `catalog` (apps only of `project`, when given) that `matches` takes by
/// their id, name and slug.
fn candidates(
    catalog: &Catalog,
    kind: Kind,
    project: Option<&str>,
    matches: impl Fn(&str, &str, Option<&str>) -> bool,
) -> Vec<Candidate> {
    match kind {
        Kind::Project => catalog
            .projects
            .iter()
            .filter(|p| matches(&p.id, &p.name, p.slug.as_deref()))
            .map(Candidate::of_project)
            .collect(),
        Kind::App => catalog
            .apps
            .iter()
            // An app of no known project is no app of the project given.
            .filter(|a| project.is_none_or(|p| a.project_id.as_deref() == Some(p)))
            .filter(|a| matches(&a.id, &a.name, a.slug.as_deref()))
            .map(|a| Candidate::of_app(a, catalog))
            .collect(),
    }
}

/// One entry a name matched, as the ambiguity error lists it: the id and name as given, every
/// text listed as shown (server text, sanitized here as the entry is taken from the catalog).
#[derive(Debug)]
struct Candidate {
    id: String,
    name: String,
    shown_id: Clean,
    shown_name: Clean,
    slug: Option<Clean>,
    project: Option<Clean>,
}

impl Candidate {
    fn of_project(p: &Project) -> Self {
        Self {
            id: p.id.clone(),
            name: p.name.clone(),
            shown_id: Clean::line(&p.id),
            shown_name: Clean::line(&p.name),
            slug: p.slug.as_deref().map(Clean::line),
            project: None,
        }
    }

    fn of_app(a: &App, catalog: &Catalog) -> Self {
        let project = a
            .project_id
            .as_deref()
            .map(|id| Clean::line(catalog.project_name(id).unwrap_or(id)));
        Self {
            id: a.id.clone(),
            name: a.name.clone(),
            shown_id: Clean::line(&a.id),
            shown_name: Clean::line(&a.name),
            slug: a.slug.as_deref().map(Clean::line),
            project,
        }
    }
}

/// `--app "X" matches 2 apps; give a slug or an id:` and one line per candidate.
fn ambiguous(kind: Kind, value: &str, hits: &[Candidate]) -> CliError {
    let word = kind.word();
    let mut lines = vec![format!(
        "--{word} \"{}\" matches {} {word}s; give a slug or an id:",
        sanitize_line(value),
        hits.len()
    )];
    for hit in hits {
        let project = hit
            .project
            .as_deref()
            .map(|p| format!("  project {p}"))
            .unwrap_or_default();
        lines.push(format!(
            "  {}  slug {}  id {}{project}",
            hit.shown_name,
            hit.slug.as_ref().map_or("-", Clean::as_str),
            hit.shown_id
        ));
    }
    CliError::Usage(lines.join("\n"))
}

/// `no app named "X"; known: … (name, slug or id)`, as the search language says it.
fn unknown(kind: Kind, value: &str, catalog: &Catalog) -> CliError {
    let known: Vec<&str> = match kind {
        Kind::Project => catalog.projects.iter().map(|p| p.name.as_str()).collect(),
        Kind::App => catalog.apps.iter().map(|a| a.name.as_str()).collect(),
    };
    let word = kind.word();
    CliError::Usage(format!(
        "no {word} named \"{}\"; {} (name, slug or id)",
        sanitize_line(value),
        known_list(known, &format!("the account lists no {word}s"))
    ))
}

/// Resolves flags: the store's catalog first, then the service's lists, each fetched at most
/// once (none without a client: `search` stays offline).
pub struct Resolver<'a> {
    store: Option<Catalog>,
    client: Option<&'a Client>,
    fetched: Catalog,
    fetched_projects: bool,
    fetched_apps: bool,
}

impl<'a> Resolver<'a> {
    /// A resolver over `store`'s catalog (if any) and, when given, the service; with a client,
    /// the store's catalog only when fresh (see the module's doc).
    #[must_use]
    pub fn new(store: Option<&Store>, client: Option<&'a Client>) -> Self {
        let now = jiff::Timestamp::now();
        let store = store
            .filter(|s| client.is_none() || is_fresh(s, now))
            .and_then(|s| {
                store_catalog(s)
                    .inspect_err(|e| tracing::debug!(error = %e, "store catalog unreadable"))
                    .ok()
            });
        Self {
            store,
            client,
            fetched: Catalog::default(),
            fetched_projects: false,
            fetched_apps: false,
        }
    }

    /// The id `value` means (apps only of `project`, when given).
    pub async fn resolve(
        &mut self,
        kind: Kind,
        value: &str,
        project: Option<&str>,
    ) -> Result<Resolved, CliError> {
        if is_id(value) {
            return Ok(self.named_id(kind, value));
        }
        if let Some(store) = &self.store
            && let Some(found) = find(store, kind, value, project)?
        {
            return Ok(found);
        }
        if self.client.is_none() {
            let empty = Catalog::default();
            return Err(unknown(kind, value, self.store.as_ref().unwrap_or(&empty)));
        }
        self.fetch(kind).await?;
        if kind == Kind::App && find(&self.fetched, kind, value, project).is_err() {
            // The candidates' projects are then named, not only given as ids.
            self.fetch(Kind::Project).await?;
        }
        find(&self.fetched, kind, value, project)?
            .ok_or_else(|| unknown(kind, value, &self.fetched))
    }

    /// An id as given, with its name when the store lists it.
    fn named_id(&self, kind: Kind, id: &str) -> Resolved {
        let name = self.store.as_ref().and_then(|c| match kind {
            Kind::Project => c.project_name(id).map(ToOwned::to_owned),
            Kind::App => c.apps.iter().find(|a| a.id == id).map(|a| a.name.clone()),
        });
        Resolved {
            id: id.to_owned(),
            name: name.unwrap_or_else(|| id.to_owned()),
        }
    }

    /// Lists `kind` from the service, once.
    async fn fetch(&mut self, kind: Kind) -> Result<(), CliError> {
        let Some(client) = self.client else {
            return Ok(());
        };
        match kind {
            Kind::Project if !self.fetched_projects => {
                self.fetched.projects = client.list_projects().await?;
                self.fetched_projects = true;
            }
            Kind::App if !self.fetched_apps => {
                self.fetched.apps = client.list_apps(None).await?;
                self.fetched_apps = true;
            }
            _ => {}
        }
        Ok(())
    }

    /// `--project` then `--app` (an app name is looked for in the project given).
    pub async fn scope(
        &mut self,
        project: Option<&str>,
        app: Option<&str>,
    ) -> Result<(Option<Resolved>, Option<Resolved>), CliError> {
        let project = match project {
            Some(value) => Some(self.resolve(Kind::Project, value, None).await?),
            None => None,
        };
        let within = project.as_ref().map(|p| p.id.as_str());
        let app = match app {
            Some(value) => Some(self.resolve(Kind::App, value, within).await?),
            None => None,
        };
        Ok((project, app))
    }

    /// The name of every project, from the store when it knows them all, else listed once.
    pub async fn project_names(&mut self, ids: &[&str]) -> Result<Catalog, CliError> {
        if let Some(store) = &self.store
            && ids.iter().all(|id| store.project_name(id).is_some())
        {
            return Ok(store.clone());
        }
        self.fetch(Kind::Project).await?;
        Ok(self.fetched.clone())
    }
}

/// True when sync's discovery listed the store's catalog less than
/// [`feedback_sync::CATALOG_FRESH`] before `now`.
fn is_fresh(store: &Store, now: jiff::Timestamp) -> bool {
    store
        .catalog_at()
        .inspect_err(|e| tracing::debug!(error = %e, "catalog time unreadable"))
        .ok()
        .flatten()
        .is_some_and(|at| feedback_core::clock::until(at, now) < feedback_sync::CATALOG_FRESH)
}

/// The store's catalog: the projects and apps last listed, then the ids and names stored items
/// carry that no list has (an app since deleted), as `app:` knows them, each with the project
/// of its stored items.
fn store_catalog(store: &Store) -> Result<Catalog, CliError> {
    let mut catalog = Catalog {
        projects: store.projects()?,
        apps: store.apps(None)?,
    };
    for (id, name) in store.named_projects()? {
        if !catalog.projects.iter().any(|p| p.id == id) {
            catalog.projects.push(Project {
                id,
                name,
                slug: None,
                created_at: None,
            });
        }
    }
    for (id, name, project_id) in store.named_apps()? {
        if !catalog.apps.iter().any(|a| a.id == id) {
            catalog.apps.push(App {
                id,
                project_id,
                name,
                slug: None,
                platform: None,
                app_identifier: None,
                region: None,
            });
        }
    }
    Ok(catalog)
}

/// The store of this command line when it exists and is of this build's schema, opened without
/// creating or upgrading anything; `None` otherwise (names are then asked of the service).
#[must_use]
pub(crate) fn existing_store(global: &Context) -> Option<Store> {
    let path = crate::context::store::store_path(global).ok().flatten()?;
    open_existing(&path)
}

/// The store at `path` when it exists and is this version's (nothing is created or migrated).
pub(crate) fn open_existing(path: &Path) -> Option<Store> {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0) {
        return None;
    }
    crate::context::store::check_store_file(path, "").ok()?;
    let version = crate::context::store::schema_version(path).ok()?;
    let latest = i64::try_from(feedback_store::schema::latest()).ok()?;
    if version != latest {
        return None;
    }
    Store::open(path)
        .inspect_err(|e| tracing::debug!(error = %e, "store not opened for names"))
        .ok()
}

#[cfg(test)]
mod tests;
