//! The flags that choose which items a command reads, declared once: `--app`/`--project`
//! ([`ScopeArgs`]: the inbox, `sync`, `tags`) and with `--since`/`--until` ([`FilterArgs`]:
//! `list`, `search`, `stats`). Each command keeps its own help text for them ([`helps`]),
//! since narrowing means something different to each. Here too is what the
//! flags become: ids resolved by [`Resolver`], the window, the narrowing of an offline query
//! ([`Narrow`]) and the view the inbox starts on.

use clap::{Arg, Args};

use super::names::{Resolved, Resolver};
use super::since::Window;
use super::{CliError, query_arg};
use feedback_api::Client;
use feedback_core::query::Query;
use feedback_store::search::Context;
use feedback_store::{Chosen, Store, ViewQuery};

/// `--app` and `--project`, by name, slug or id.
#[derive(Debug, Clone, Default, Args)]
pub struct ScopeArgs {
    /// Only this app (its name, slug or id).
    #[arg(long, value_name = "APP", add = super::completions::names::apps())]
    pub app: Option<String>,
    /// Only this project (its name, slug or id).
    #[arg(long, value_name = "PROJECT", add = super::completions::names::projects())]
    pub project: Option<String>,
}

impl ScopeArgs {
    /// True when either flag was given.
    #[must_use]
    pub(crate) fn is_set(&self) -> bool {
        self.app.is_some() || self.project.is_some()
    }

    /// `--project` then `--app` resolved by `names` (an app name is looked for in the project
    /// given).
    pub async fn resolve(
        &self,
        names: &mut Resolver<'_>,
    ) -> Result<(Option<Resolved>, Option<Resolved>), CliError> {
        names
            .scope(self.project.as_deref(), self.app.as_deref())
            .await
    }
}

/// `--app`/`--project` and the window `--since`/`--until`.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Only items received at or after WHEN: a date (2026-11-01, local), a date-time
    /// (2026-11-01T09:30) or an age (7d).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only items received before WHEN (same forms).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
}

impl FilterArgs {
    /// `--since`/`--until` as instants, read in `cx` (its zone for dates, its now for ages).
    pub fn window(&self, cx: &Context) -> Result<Window, CliError> {
        Window::new(self.since.as_deref(), self.until.as_deref(), cx)
    }
}

/// A command's own help for the flags it flattens, set where each flag stands:
/// `#[command(mut_args(helps(&[("app", "…")])))]` (`mut_arg` would move the flag to the end
/// of the command's list, and shell completions offer flags in that order).
pub fn helps(texts: &'static [(&'static str, &'static str)]) -> impl FnMut(Arg) -> Arg {
    move |arg| match texts.iter().find(|(id, _)| arg.get_id() == *id) {
        Some((_, help)) => arg.help(*help),
        None => arg,
    }
}

/// What an offline query is narrowed to by the flags: the ids of `--project`/`--app` and the
/// window.
#[derive(Debug, Clone, Default)]
pub struct Narrow {
    pub project: Option<String>,
    pub app: Option<String>,
    pub window: Window,
}

impl Narrow {
    /// The flags resolved by `catalog` (over the store only: the command is offline).
    pub async fn offline(
        mut catalog: Resolver<'_>,
        scope: &ScopeArgs,
        window: Window,
    ) -> Result<Self, CliError> {
        let (project, app) = scope.resolve(&mut catalog).await?;
        Ok(Self {
            project: project.map(|p| p.id),
            app: app.map(|a| a.id),
            window,
        })
    }

    /// The store's view of `query` compiled in `cx`, narrowed by the flags (an AND with it). A
    /// query the store cannot compile is a usage error shown under `text`, as typed.
    pub fn view(
        &self,
        store: &Store,
        query: &Query,
        cx: &Context,
        text: &str,
    ) -> Result<ViewQuery, CliError> {
        let mut sql = store
            .compile(query, cx)
            .map_err(|e| query_arg::query_error(text, &e))?;
        self.window.narrow(&mut sql);
        Ok(ViewQuery::default()
            .search(sql)
            .in_project(self.project.clone())
            .in_app(self.app.clone()))
    }
}

/// The inbox's `--project`/`--app`: resolved (the store's catalog first), then written as the
/// view the inbox starts on, the one it would restore: the remembered status stays, the tag
/// and the search go (they would narrow the list the flags ask for). The inbox then remembers
/// this view as it remembers any other.
pub(crate) async fn start_view(
    store: &mut Store,
    client: &Client,
    scope: &ScopeArgs,
) -> Result<(), CliError> {
    let (project, app) = scope
        .resolve(&mut Resolver::new(Some(store), Some(client)))
        .await?;
    let chosen = |r: Resolved| Chosen {
        label: feedback_core::text::Clean::line(&r.name),
        value: r.id,
    };
    // Without a remembered view, the default one lists `new`.
    let mut spec = store.last_view().unwrap_or_default();
    spec.project = project.map(chosen);
    spec.app = app.map(chosen);
    spec.tag = None;
    spec.search = feedback_core::query::SearchText::default();
    Ok(store.save_view(&spec)?)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use crate::Args;

    /// Each command's own help for the flags it shares reaches the flag: an id misspelt in
    /// [`super::helps`] would leave the shared text in place.
    #[test]
    fn each_command_says_what_its_narrowing_flags_mean() {
        let command = Args::command();
        let help = |sub: Option<&str>, flag: &str| {
            let owner = sub.map_or(&command, |name| command.find_subcommand(name).unwrap());
            let arg = owner.get_arguments().find(|a| a.get_id() == flag).unwrap();
            arg.get_help().map(ToString::to_string).unwrap_or_default()
        };
        let cases = [
            (None, "app", "Open the inbox on this app"),
            (None, "project", "Open the inbox on this project"),
            (Some("list"), "app", "(\"Trailhead Android\", any case)"),
            (Some("list"), "project", "Only this project: its name"),
            (Some("list"), "since", "With --all the walk stops"),
            (Some("list"), "until", "The newer pages are still read"),
            (
                Some("search"),
                "app",
                "as `app:` takes them), with the query",
            ),
            (Some("search"), "project", "), with the query"),
            (Some("search"), "since", "as age:<=7d"),
            (Some("search"), "until", "a date as before:"),
            (Some("sync"), "app", "a head walk of the app's part"),
            (Some("sync"), "project", "as `--app` does"),
            (Some("tags"), "app", "Only tags of this app"),
            (Some("tags"), "project", "Only tags of this project"),
            (Some("stats"), "app", "Only this app (its name, slug or id)"),
            (Some("stats"), "since", "or an age (7d)"),
            (Some("stats"), "until", "(same forms)"),
        ];
        for (sub, flag, expected) in cases {
            let shown = help(sub, flag);
            assert!(shown.contains(expected), "{sub:?} --{flag}: {shown}");
        }
    }
}
