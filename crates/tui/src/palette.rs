//! The `:` command palette: every action (from `Action::ALL`, so new actions appear by
//! themselves) and every view by name, fuzzy matched as the user types, best first, and the
//! typed commands that take an argument (`save-view NAME`). Matching uses `nucleo-matcher`, the
//! standalone matcher of the `nucleo` project: the list is a few dozen entries matched again on
//! each key, synchronously, where `nucleo` itself is built for big lists matched on a thread
//! pool, with results arriving later.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use ratatui_textarea::TextArea;
use unicode_segmentation::UnicodeSegmentation;

use crate::action::Action;
use crate::saved_views::View;

/// The typed command that saves the current filters as a view.
pub(crate) const SAVE_VIEW: &str = "save-view";

/// What an entry of the palette does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Action(Action),
    /// Switch to the view at this position.
    View(usize),
    /// `save-view NAME`: Enter on it without a name puts the command in the prompt.
    SaveView,
}

/// An entry that matches the typed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub target: Target,
    /// Sanitized, one line: what is shown and matched.
    pub label: String,
    /// What the entry does, shown dim beside it.
    pub hint: String,
    /// Graphemes of `label` that matched, ascending.
    pub indices: Vec<u32>,
}

/// The open palette.
#[derive(Debug, Clone)]
pub struct Palette {
    pub input: TextArea<'static>,
    /// Best first.
    pub matches: Vec<Match>,
    pub selected: usize,
    /// Why the last Enter did nothing (`save-view` without a name, a bad name).
    pub error: Option<feedback_core::text::Clean>,
}

impl Palette {
    /// An empty palette listing every entry.
    #[must_use]
    pub fn new(views: &[View]) -> Self {
        let mut input = TextArea::default();
        input.set_placeholder_text("type to find an action or a view; save-view NAME");
        let mut palette = Self {
            input,
            matches: Vec::new(),
            selected: 0,
            error: None,
        };
        palette.refresh(views);
        palette
    }

    /// The prompt's text.
    #[must_use]
    pub fn text(&self) -> String {
        self.input.lines().join(" ")
    }

    /// Matches the entries against the prompt's text again (the selection goes to the best).
    pub fn refresh(&mut self, views: &[View]) {
        self.matches = matches(&self.text(), views);
        self.selected = 0;
        self.error = None;
    }

    /// The argument of a typed `save-view NAME`, if that is what the prompt holds.
    #[must_use]
    pub(crate) fn save_view_name(&self) -> Option<String> {
        let text = self.text();
        let rest = text.trim_start().strip_prefix(SAVE_VIEW)?;
        (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim().to_owned())
    }
}

/// Every entry: the views, then the actions in help order (not the palette's own key, nor the
/// `view_N` keys: each view is listed by name with its key), then `save-view`.
fn entries(views: &[View]) -> Vec<(Target, String, String)> {
    let mut out: Vec<(Target, String, String)> = views
        .iter()
        .enumerate()
        .map(|(n, v)| {
            (
                Target::View(n),
                format!("view: {}", v.name),
                "switch to this view".to_owned(),
            )
        })
        .collect();
    out.extend(
        Action::ALL
            .iter()
            .filter(|(a, _, _)| !matches!(a, Action::Palette | Action::View(_)))
            .map(|(a, name, help)| {
                (
                    Target::Action(*a),
                    name.replace('_', "-"),
                    (*help).to_owned(),
                )
            }),
    );
    out.push((
        Target::SaveView,
        SAVE_VIEW.to_owned(),
        "NAME: save the filters as a view in config.toml".to_owned(),
    ));
    out
}

/// The entries that match `query` (all of them for an empty one), best first; ties keep the
/// entries' order.
#[must_use]
pub fn matches(query: &str, views: &[View]) -> Vec<Match> {
    // `save-view NAME` matches its entry by the command word only.
    let query = match query.trim_start().strip_prefix(SAVE_VIEW) {
        Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => SAVE_VIEW,
        _ => query,
    };
    let pattern = Pattern::parse(query, CaseMatching::Smart, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut scored: Vec<(u32, Match)> = entries(views)
        .into_iter()
        .filter_map(|(target, label, hint)| {
            // One char per grapheme, so the indices count what the screen shows.
            let chars: Vec<char> = label
                .graphemes(true)
                .filter_map(|g| g.chars().next())
                .collect();
            let mut indices = Vec::new();
            let score = pattern.indices(Utf32Str::Unicode(&chars), &mut matcher, &mut indices)?;
            indices.sort_unstable();
            indices.dedup();
            Some((
                score,
                Match {
                    target,
                    label,
                    hint,
                    indices,
                },
            ))
        })
        .collect();
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    scored.into_iter().map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_core::text::Clean;

    fn views() -> Vec<View> {
        feedback_store::saved_views::built_in()
    }

    #[test]
    fn an_empty_query_lists_views_then_actions_then_save_view() {
        let all = matches("", &views());
        assert_eq!(all[0].label, "view: Inbox");
        assert_eq!(all[4].label, "view: Archived");
        assert_eq!(all[5].target, Target::Action(Action::MoveDown));
        assert_eq!(all.last().unwrap().target, Target::SaveView);
        assert!(all.iter().all(|m| m.indices.is_empty()));
        // Every action but the palette's own and the view keys is there.
        let actions = all
            .iter()
            .filter(|m| matches!(m.target, Target::Action(_)))
            .count();
        let listed = Action::ALL
            .iter()
            .filter(|(a, _, _)| !matches!(a, Action::Palette | Action::View(_)))
            .count();
        assert_eq!(actions, listed);
    }

    #[test]
    fn fuzzy_matches_come_best_first_with_their_characters() {
        let found = matches("star", &views());
        assert!(!found.is_empty());
        let first = &found[0];
        assert!(
            first.label == "view: Starred" || first.label == "toggle-star",
            "{found:?}"
        );
        let toggle = found
            .iter()
            .find(|m| m.target == Target::Action(Action::ToggleStar))
            .unwrap();
        assert_eq!(toggle.indices, vec![7, 8, 9, 10]);
        assert!(matches("zzzz", &views()).is_empty());
        let snz = matches("snzd", &views());
        assert_eq!(snz[0].target, Target::View(2), "{snz:?}");
    }

    #[test]
    fn save_view_with_a_name_matches_its_command() {
        let found = matches("save-view Crashes on iOS", &views());
        assert_eq!(found[0].target, Target::SaveView);
        let mut palette = Palette::new(&views());
        palette.input.insert_str("save-view  My view ");
        assert_eq!(palette.save_view_name().as_deref(), Some("My view"));
        let mut other = Palette::new(&views());
        other.input.insert_str("save-viewer");
        assert_eq!(other.save_view_name(), None);
    }

    #[test]
    fn view_names_are_sanitized() {
        let mut list = views();
        list.push(View {
            name: Clean::fixed("evil\u{1b}[2Jname"),
            spec: crate::state::ViewSpec::default(),
        });
        let all = matches("", &list);
        assert!(all.iter().all(|m| !m.label.contains('\u{1b}')));
    }
}
