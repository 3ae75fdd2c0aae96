//! Saved views: a name and a query (status, the three pane filters, the search). The built-in
//! ones come first, in a fixed order (Inbox, Starred, Snoozed, Done, Archived), then the user's
//! from `config.toml` (`config::views`). A view is active when the list shows exactly its
//! query; after the filters changed the bar names the view they started from, marked modified.
//! The unseen counts of every view are read in the store off the UI thread (`runtime::views`),
//! when triage or a sync changed the store, never per frame.

use jiff::Timestamp;

use crate::state::{Chosen, ViewSpec};
use feedback_config::views::ViewDef;

/// Wait at least this long between two counts of the views (a sync storing pages changes the
/// store many times a second), and at least ten times as long as the last count took.
pub(crate) const COUNT_EVERY_SECONDS: i64 = 2;
/// The rest after a count, as a multiple of the time it took.
pub(crate) const COUNT_REST_FACTOR: u32 = 10;

/// One view: a name and its query (`store::saved_views`, which `view:NAME` reads too).
pub use feedback_store::saved_views::NamedView as View;

/// The views part of `AppState`.
#[derive(Debug, Clone, Default)]
pub struct ViewsState {
    pub views: Vec<View>,
    /// The view last switched to (or matched): named, marked modified, when the filters left it.
    pub active: Option<usize>,
    /// Unseen items per view, as of the last count (`None`: not counted yet, or the count
    /// failed: a view whose search no longer compiles).
    pub counts: Vec<Option<usize>>,
    /// The store changed since the last count was asked for.
    pub due: bool,
    /// The count in flight (its request id), if any.
    pub counting: Option<u64>,
    /// When the last count was asked for, and how long to wait after it before the next.
    pub counted_at: Option<Timestamp>,
    pub rest: jiff::SignedDuration,
    /// Where `:save-view` writes (`None`: no config path is known, saving is refused).
    pub config_path: Option<std::path::PathBuf>,
    /// A `:save-view` write in flight.
    pub saving: bool,
}

impl ViewsState {
    /// The built-in views followed by `user`'s.
    #[must_use]
    pub fn new(user: &[ViewDef], config_path: Option<std::path::PathBuf>) -> Self {
        let views = feedback_store::saved_views::every(user, false);
        Self {
            counts: vec![None; views.len()],
            views,
            active: Some(0),
            due: true,
            config_path,
            ..Self::default()
        }
    }

    /// The team's views, after the others: Mine (new items this member owns) and Unclaimed
    /// (new items nobody owns). A view of the user's with the same name stays instead.
    pub fn add_team_views(&mut self) {
        let added = feedback_store::saved_views::add_team_views(&mut self.views);
        self.counts.extend(std::iter::repeat_n(None, added));
        self.due = true;
    }

    /// The views as the searches that name them by `view:` read them.
    #[must_use]
    pub fn shared(&self) -> std::sync::Arc<[View]> {
        self.views.clone().into()
    }

    /// The view whose query `spec` is, if any.
    #[must_use]
    pub fn matching(&self, spec: &ViewSpec) -> Option<usize> {
        self.views.iter().position(|v| same(&v.spec, spec))
    }

    /// What the bar marks: the view the list shows, or the one last chosen marked modified.
    #[must_use]
    pub fn shown(&self, spec: &ViewSpec) -> Shown {
        match self.matching(spec) {
            Some(n) => Shown::View(n),
            None => self.active.map_or(Shown::Custom, Shown::Modified),
        }
    }

    /// Adds a view or replaces the one of the same name (case aside); its position.
    pub fn put(&mut self, view: View) -> usize {
        if let Some(n) = self
            .views
            .iter()
            .position(|v| v.name.eq_ignore_ascii_case(&view.name))
        {
            self.views[n] = view;
            self.counts[n] = None;
            return n;
        }
        self.views.push(view);
        self.counts.push(None);
        self.views.len() - 1
    }
}

/// What the view bar marks as active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    View(usize),
    /// The filters changed since this view was chosen.
    Modified(usize),
    /// Filters that no view has, and none was chosen.
    Custom,
}

/// Two queries select the same items (labels aside, search blanks aside).
#[must_use]
pub fn same(a: &ViewSpec, b: &ViewSpec) -> bool {
    let value = |c: &Option<Chosen>| c.as_ref().map(|c| c.value.clone());
    a.status == b.status
        && value(&a.project) == value(&b.project)
        && value(&a.app) == value(&b.app)
        && value(&a.tag) == value(&b.tag)
        && a.search.trim() == b.search.trim()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_core::text::Clean;

    fn chosen(v: &str, label: &str) -> Chosen {
        Chosen {
            value: v.into(),
            label: Clean::line(label),
        }
    }

    #[test]
    fn views_match_by_values_not_labels() {
        let def = ViewDef {
            name: "Mine".into(),
            query: "crash".into(),
            status: "new".into(),
            project: Some("p1".into()),
            ..ViewDef::default()
        };
        let mut views = ViewsState::new(&[def], None);
        let names: Vec<_> = views.views.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            ["Inbox", "Starred", "Snoozed", "Done", "Archived", "Mine"]
        );
        let mut spec = ViewSpec {
            status: "new".into(),
            project: Some(chosen("p1", "Acme")),
            search: " crash ".into(),
            ..ViewSpec::default()
        };
        assert_eq!(views.matching(&spec), Some(5));
        assert_eq!(views.shown(&spec), Shown::View(5));
        spec.search = "crash tag:bug".into();
        assert_eq!(views.shown(&spec), Shown::Modified(0));
        views.active = None;
        assert_eq!(views.shown(&spec), Shown::Custom);
        let archived = ViewSpec {
            status: "archived".into(),
            ..ViewSpec::default()
        };
        assert_eq!(views.matching(&archived), Some(4));
    }

    #[test]
    fn put_replaces_a_view_of_the_same_name() {
        let mut views = ViewsState::new(&[], None);
        let view = |name: &str, search: &str| View {
            name: Clean::line(name),
            spec: ViewSpec {
                status: "new".into(),
                search: search.into(),
                ..ViewSpec::default()
            },
        };
        assert_eq!(views.put(view("Mine", "a")), 5);
        views.counts[5] = Some(3);
        assert_eq!(views.put(view("mine", "b")), 5);
        assert_eq!(views.views.len(), 6);
        assert_eq!(views.views[5].spec.search, "b");
        assert_eq!(views.counts[5], None);
    }
}
