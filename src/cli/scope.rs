//! The flags `--app`/`--project` and `--since`/`--until` made ready for each command: `list`
//! (ids, the window, what the store knows of older items), `search` (ids from the store's
//! catalog and the window, narrowing its query) and the inbox (the view it starts on).

use super::names::{Resolved, Resolver};
use super::{CliError, since};
use crate::api::Client;
use crate::store::{Chosen, Store};

/// `list`'s flags made ready: names made ids (the store's catalog first), the window made
/// instants, and what the store knows of the items older than `--since`.
pub async fn prepare_list(
    client: &Client,
    args: &super::list::ListArgs,
    store: Option<&Store>,
) -> Result<(super::list::ListArgs, since::ListWindow), CliError> {
    let window = since::Window::new(
        args.since.as_deref(),
        args.until.as_deref(),
        &super::search_cmd::context_now(),
    )?;
    let (project, app) = Resolver::new(store, Some(client))
        .scope(args.project.as_deref(), args.app.as_deref())
        .await?;
    let mut args = args.clone();
    args.project = project.map(|p| p.id);
    args.app = app.map(|a| a.id);
    let older_stored = match (store, window.since) {
        (Some(store), Some(since)) if args.all => since::older_stored(store, &args.query(), since),
        _ => None,
    };
    Ok((
        args,
        since::ListWindow {
            window,
            older_stored,
        },
    ))
}

/// What `search`'s flags add to its query: the ids of `--project`/`--app` and the window.
#[derive(Debug, Clone, Default)]
pub struct Narrow {
    pub project: Option<String>,
    pub app: Option<String>,
    pub window: since::Window,
}

impl Narrow {
    /// The flags of `search`, resolved by `catalog` (over the store only: search is offline).
    pub async fn of_search(
        mut catalog: Resolver<'_>,
        project: Option<&str>,
        app: Option<&str>,
        window: since::Window,
    ) -> Result<Self, CliError> {
        let (project, app) = catalog.scope(project, app).await?;
        Ok(Self {
            project: project.map(|p| p.id),
            app: app.map(|a| a.id),
            window,
        })
    }

    /// The store's view of the compiled query, narrowed by the flags (an AND with it).
    #[must_use]
    pub fn view(&self, mut sql: crate::store::search::Sql) -> crate::store::ViewQuery {
        self.window.narrow(&mut sql);
        let mut view = crate::store::ViewQuery::default().search(sql);
        view.project.clone_from(&self.project);
        view.app.clone_from(&self.app);
        view
    }
}

/// The inbox's `--project`/`--app`: resolved (the store's catalog first), then written as the
/// view the inbox starts on, the one it would restore: the remembered status stays, the tag
/// and the search go (they would narrow the list the flags ask for). The inbox then remembers
/// this view as it remembers any other.
pub async fn start_view(
    store: &mut Store,
    client: &Client,
    project: Option<&str>,
    app: Option<&str>,
) -> Result<(), CliError> {
    let (project, app) = Resolver::new(Some(store), Some(client))
        .scope(project, app)
        .await?;
    let chosen = |r: Resolved| Chosen {
        label: crate::text::Clean::line(&r.name),
        value: r.id,
    };
    // Without a remembered view, the default one lists `new`.
    let mut spec = store.last_view().unwrap_or_default();
    spec.project = project.map(chosen);
    spec.app = app.map(chosen);
    spec.tag = None;
    spec.search = crate::query::SearchText::default();
    Ok(store.save_view(&spec)?)
}
