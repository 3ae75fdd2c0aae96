//! Views by name: the built-in ones (Inbox, Starred, Snoozed, Done, Archived), the team's (Mine,
//! Unclaimed) and the user's `[[views]]`, each a name and a [`ViewSpec`]. The inbox lists them
//! in its view bar; the search language names one with `view:NAME` (the items that view
//! lists), in the inbox and on the command line alike, so both take their views from here.

use feedback_config::views::{BUILT_IN, ViewDef};
use feedback_core::text::Clean;

use super::view_spec::{ANY_STATUS, Chosen, ViewSpec};

/// A view and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedView {
    /// As shown: sanitized as it is read from the config file or typed.
    pub name: Clean,
    pub spec: ViewSpec,
}

/// Inbox (new, not done, not snoozed: done and snoozed items are hidden unless a search asks for
/// them), Starred, Snoozed, Done (your own states, of new and archived items alike) and
/// Archived, named as `config::views::BUILT_IN` names them.
#[must_use]
pub fn built_in() -> Vec<NamedView> {
    let [inbox, starred, snoozed, done, archived] = BUILT_IN;
    vec![
        view(inbox, "new", ""),
        view(starred, ANY_STATUS, "is:starred"),
        view(snoozed, ANY_STATUS, "is:snoozed"),
        view(done, ANY_STATUS, "is:done"),
        view(archived, "archived", ""),
    ]
}

/// The team's views: Mine (new items this member owns) and Unclaimed (new items nobody owns).
#[must_use]
pub(crate) fn team_views() -> Vec<NamedView> {
    vec![
        view("Mine", "new", "is:mine"),
        view("Unclaimed", "new", "is:unclaimed"),
    ]
}

/// The views a member has: the built-in ones, the user's `defs`, then the team's (when `team`)
/// unless a view of the user's has the name.
#[must_use]
pub fn every(defs: &[ViewDef], team: bool) -> Vec<NamedView> {
    let mut views = built_in();
    views.extend(defs.iter().map(from_def));
    if team {
        add_team_views(&mut views);
    }
    views
}

/// The team's views added after `views`, each unless a view there has its name (case aside);
/// how many were added.
pub fn add_team_views(views: &mut Vec<NamedView>) -> usize {
    let before = views.len();
    for view in team_views() {
        if !views
            .iter()
            .any(|v| v.name.eq_ignore_ascii_case(&view.name))
        {
            views.push(view);
        }
    }
    views.len() - before
}

/// A config entry as a view (a pane filter's label is its value until the panes name it).
#[must_use]
pub(crate) fn from_def(def: &ViewDef) -> NamedView {
    let chosen = |v: &Option<String>| {
        v.as_ref().map(|v| Chosen {
            value: v.clone(),
            label: Clean::line(v),
        })
    };
    NamedView {
        name: Clean::line(&def.name),
        spec: ViewSpec {
            status: def.status.as_str().into(),
            project: chosen(&def.project),
            app: chosen(&def.app),
            tag: chosen(&def.tag),
            search: def.query.as_str().into(),
            pinned: None,
        },
    }
}

/// The view `name` names: the one of that name (case aside), else the only one whose name
/// begins with it. Otherwise why not, for the user: no view has it, or several begin with it
/// (listed).
pub fn find<'a>(views: &'a [NamedView], name: &str) -> Result<&'a NamedView, String> {
    let wanted = name.to_lowercase();
    if let Some(view) = views.iter().find(|v| v.name.to_lowercase() == wanted) {
        return Ok(view);
    }
    let begins: Vec<&NamedView> = views
        .iter()
        .filter(|v| v.name.to_lowercase().starts_with(&wanted))
        .collect();
    match begins.as_slice() {
        [one] => Ok(one),
        [] if views.is_empty() => Err(format!("no view named \"{name}\": no views are known here")),
        [] => Err(format!(
            "no view named \"{name}\"; known: {}",
            listed(views.iter())
        )),
        several => Err(format!(
            "\"{name}\" begins several views: {}",
            listed(several.iter().copied())
        )),
    }
}

/// The views' names, as `view:` takes them, one after the other.
fn listed<'a>(views: impl Iterator<Item = &'a NamedView>) -> String {
    views
        .map(|v| quoted(&v.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A view's name as `view:` takes it: quoted when it holds a space.
#[must_use]
pub fn quoted(name: &str) -> String {
    if name.chars().any(char::is_whitespace) {
        format!("\"{name}\"")
    } else {
        name.to_owned()
    }
}

fn view(name: &str, status: &str, search: &str) -> NamedView {
    NamedView {
        name: Clean::line(name),
        spec: ViewSpec {
            status: status.into(),
            search: search.into(),
            ..ViewSpec::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(views: &[NamedView]) -> Vec<&str> {
        views.iter().map(|v| v.name.as_str()).collect()
    }

    #[test]
    fn a_view_is_found_by_its_name_or_the_only_one_it_begins() {
        let defs = [
            ViewDef {
                name: "Crashes on iOS".into(),
                query: "crash".into(),
                status: "new".into(),
                ..ViewDef::default()
            },
            ViewDef {
                name: "Crashes web".into(),
                status: "new".into(),
                ..ViewDef::default()
            },
        ];
        let views = every(&defs, true);
        assert_eq!(
            names(&views),
            [
                "Inbox",
                "Starred",
                "Snoozed",
                "Done",
                "Archived",
                "Crashes on iOS",
                "Crashes web",
                "Mine",
                "Unclaimed"
            ]
        );
        assert_eq!(find(&views, "DONE").unwrap().spec.search, "is:done");
        assert_eq!(find(&views, "unc").unwrap().name.as_str(), "Unclaimed");
        let several = find(&views, "crashes").unwrap_err();
        assert_eq!(
            several,
            "\"crashes\" begins several views: \"Crashes on iOS\", \"Crashes web\""
        );
        let none = find(&views, "bugs").unwrap_err();
        assert!(
            none.starts_with("no view named \"bugs\"; known: Inbox, Starred"),
            "{none}"
        );
        assert!(find(&[], "x").unwrap_err().contains("no views are known"));
    }

    #[test]
    fn a_user_view_keeps_a_team_views_name() {
        let mine = ViewDef {
            name: "mine".into(),
            query: "tag:mine".into(),
            status: "new".into(),
            ..ViewDef::default()
        };
        let views = every(std::slice::from_ref(&mine), true);
        assert_eq!(views.len(), 7, "{:?}", names(&views));
        assert_eq!(find(&views, "Mine").unwrap().spec.search, "tag:mine");
        assert_eq!(every(&[], false).len(), 5);
    }
}
