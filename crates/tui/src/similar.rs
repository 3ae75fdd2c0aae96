//! A fixed set of keys in the ordinary list: `S`'s items similar to the selected one,
//! best first, or a Top issues cluster's items, newest first. The keys go into the list's query
//! (`ViewSpec::pinned`), so everything the list does (open, marks, copies, pipe, triage, the
//! preview) works on them unchanged; a heading says what the list is. The list as it was (its
//! keys, selection and scroll, the open detail, the Top issues screen) is kept aside and put
//! back by `Esc`. Plain data and pure text: transitions are in `update::similar`.

use std::fmt::Write as _;
use std::sync::Arc;

use crate::state::{DetailView, ListView};
use crate::top_issues::TopIssuesScreen;
use feedback_core::query::Highlights;
use feedback_core::text::Clean;
use feedback_core::text::output::first_line;
use feedback_core::width::{truncate, width};
use feedback_store::similar::Similar;

/// At most this many similar items are listed (the heading then says "showing N of TOTAL").
/// The store scores every candidate anyway: listing them all costs only their rows, and makes
/// the list's count the heading's, so `V` and an export take every duplicate.
pub const MAX_SHOWN: usize = 10_000;
/// Cells the quoted message keeps in the heading, at most and at least.
pub(crate) const QUOTE_CELLS: usize = 40;
pub(crate) const QUOTE_MIN: usize = 12;
/// Apps named in the heading; the rest are counted as "+N more".
pub(crate) const APPS_NAMED: usize = 3;

/// The `S` request in flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub request_id: u64,
    /// The item asked about: an answer is dropped once it is no longer selected.
    pub key: i64,
    /// Its message's first line, for the heading.
    pub quote: Clean,
}

/// What a key set is, for its heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heading {
    /// `S`: the items similar to the one quoted, `total` of them (the list may show fewer),
    /// from these apps (raw names, most first).
    Similar {
        quote: Clean,
        total: usize,
        /// The apps' names ("no app" for the items without one), most first.
        apps: Vec<(Clean, usize)>,
    },
    /// Enter on a Top issues cluster: its label's first line and its size.
    Cluster { quote: Clean, count: usize },
}

/// A key set to show: its keys (pinned in the view, `ViewSpec::pinned`) and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeySet {
    pub keys: Arc<[i64]>,
    pub shown: Shown,
}

/// What the key set the list shows is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub heading: Heading,
    /// The words the likeness was measured on, marked in the rows (as a search's are): they
    /// show why an item is listed.
    pub highlights: Highlights,
}

/// What `Esc` puts back.
#[derive(Debug, Clone)]
pub struct Saved {
    pub list: ListView,
    pub detail: Option<DetailView>,
    /// The Top issues screen the cluster was opened from (`Esc` goes back to it first).
    pub top_issues: Option<TopIssuesScreen>,
}

/// The similar list's part of `AppState`.
#[derive(Debug, Clone, Default)]
pub struct SimilarState {
    pub finding: Option<Finding>,
    /// What the list's pinned keys are, while a key set is shown.
    pub shown: Option<Shown>,
    /// The list before the first key set (a second `S` from a key set keeps it).
    pub saved: Option<Box<Saved>>,
}

/// A message (raw, as the store holds it) as a heading quotes it: its first line, as one line.
#[must_use]
pub fn quote(message: &str) -> Clean {
    Clean::line(first_line(message))
}

/// The apps of an answer (raw names; `None`: no app) as shown, with their counts.
#[must_use]
pub(crate) fn app_names(apps: Vec<(Option<String>, usize)>) -> Vec<(Clean, usize)> {
    apps.into_iter()
        .map(|(name, n)| {
            (
                name.as_deref().map_or(Clean::fixed("no app"), Clean::line),
                n,
            )
        })
        .collect()
}

/// The key set of an `S` answer (the matches' keys, best first); `None` when there are none.
#[must_use]
pub(crate) fn from_similar(quote: Clean, similar: Similar) -> Option<KeySet> {
    if similar.matches.is_empty() {
        return None;
    }
    Some(KeySet {
        keys: similar.matches.iter().map(|m| m.key).collect(),
        shown: Shown {
            highlights: highlights(&similar.terms),
            heading: Heading::Similar {
                quote,
                total: similar.total,
                apps: app_names(similar.apps),
            },
        },
    })
}

/// The highlights of these (folded, indexed) words: each quoted as a phrase of the search
/// language, so that no word reads as an operator.
#[must_use]
pub fn highlights(terms: &[String]) -> Highlights {
    let phrases: Vec<String> = terms
        .iter()
        .map(|t| format!("\"{}\"", t.replace('"', "")))
        .collect();
    feedback_core::query::parse(&phrases.join(" "))
        .map(|q| q.highlights())
        .unwrap_or_default()
}

/// The heading's text (sanitized), within `room` cells: `Similar to "…" · 214 items ·
/// Trailhead 120, Pathfinder 60` or `Top issue "…" · 37 items`. `shown` is how many rows the
/// list has. The quote gives way first (down to [`QUOTE_MIN`] cells), so that the count and the
/// apps stay in sight; then the end is cut.
#[must_use]
pub(crate) fn heading_text(heading: &Heading, shown: usize, room: usize) -> String {
    let (lead, quote, rest) = match heading {
        Heading::Similar { quote, total, apps } => {
            let mut rest = format!("\" · {}", items(*total));
            if shown < *total {
                let _ = write!(
                    rest,
                    " (showing {})",
                    feedback_core::text::output::thousands(shown)
                );
            }
            let named: Vec<String> = apps
                .iter()
                .take(APPS_NAMED)
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            if !named.is_empty() {
                rest.push_str(" · ");
                rest.push_str(&named.join(", "));
            }
            if apps.len() > APPS_NAMED {
                let _ = write!(rest, ", +{} more", apps.len() - APPS_NAMED);
            }
            ("Similar to \"", quote.clone(), rest)
        }
        Heading::Cluster { quote, count } => (
            "Top issue \"",
            quote.clone(),
            format!("\" · {}", items(*count)),
        ),
    };
    let left = room.saturating_sub(width(lead) + width(&rest));
    let quote = truncate(&quote, left.clamp(QUOTE_MIN, QUOTE_CELLS));
    truncate(&format!("{lead}{quote}{rest}"), room)
}

/// "1 item", "1,234 items".
fn items(n: usize) -> String {
    feedback_core::text::output::counted(n, "item")
}

#[cfg(test)]
mod tests {
    use super::*;
    use feedback_store::similar::Match;

    fn similar(keys: &[i64], total: usize, apps: &[(&str, usize)]) -> Similar {
        Similar {
            matches: keys.iter().map(|&key| Match { key, score: 1.0 }).collect(),
            total,
            apps: apps
                .iter()
                .map(|(a, n)| (Some((*a).to_owned()), *n))
                .collect(),
            terms: vec!["splash".into()],
        }
    }

    #[test]
    fn heading_counts_names_the_apps_and_says_when_rows_are_fewer() {
        let apps = [
            ("Trailhead", 120),
            ("Pathfinder", 60),
            ("Beacon", 34),
            ("Summit", 2),
        ];
        let set = from_similar(Clean::fixed("App closes"), similar(&[3, 1], 216, &apps)).unwrap();
        assert_eq!(&*set.keys, &[3, 1]);
        assert_eq!(
            heading_text(&set.shown.heading, 2, 200),
            "Similar to \"App closes\" · 216 items (showing 2) · Trailhead 120, Pathfinder 60, \
             Beacon 34, +1 more"
        );
        assert_eq!(
            heading_text(&set.shown.heading, 216, 200),
            "Similar to \"App closes\" · 216 items · Trailhead 120, Pathfinder 60, Beacon 34, \
             +1 more"
        );
    }

    #[test]
    fn a_narrow_heading_cuts_the_quote_first() {
        let set = from_similar(
            Clean::fixed("App closes itself right after the splash screen"),
            similar(&[1], 214, &[("Trailhead", 120), ("Beacon", 94)]),
        )
        .unwrap();
        assert_eq!(
            heading_text(&set.shown.heading, 1, 80),
            "Similar to \"App closes itse…\" · 214 items (showing 1) · Trailhead 120, Beacon 94"
        );
        assert_eq!(
            heading_text(&set.shown.heading, 214, 70),
            "Similar to \"App closes itself…\" · 214 items · Trailhead 120, Beacon 94"
        );
        assert_eq!(
            heading_text(&set.shown.heading, 214, 30).chars().count(),
            30
        );
    }

    #[test]
    fn the_measured_words_are_highlighted() {
        let marks = highlights(&["splash".into(), "or".into(), "crash\"".into()]);
        let text = "The splash screen or a crash";
        let marked: Vec<&str> = marks.ranges(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(marked, ["splash", "or", "crash"]);
        assert!(highlights(&[]).is_empty());
    }

    #[test]
    fn no_match_is_no_key_set() {
        assert_eq!(from_similar(Clean::fixed("x"), similar(&[], 0, &[])), None);
    }

    #[test]
    fn hostile_text_is_sanitized_and_cut() {
        let quote = quote("\u{1b}[2J\u{1b}]52;c;ZXZpbA==\u{7}Wipe\u{202e}gnp.exe\nsecond");
        assert!(!quote.contains('\u{1b}') && !quote.contains('\u{202e}'));
        assert!(!quote.contains("second"));
        let heading = Heading::Cluster {
            quote: super::quote(&format!("{}\u{1b}[31m", "long ".repeat(30))),
            count: 1,
        };
        let text = heading_text(&heading, 1, 200);
        assert!(!text.contains('\u{1b}'));
        assert!(text.ends_with("…\" · 1 item"), "{text}");
        let apps = Heading::Similar {
            quote: Clean::fixed("q"),
            total: 1,
            apps: app_names(vec![(Some("Evil\u{1b}[31m".into()), 1), (None, 1)]),
        };
        let text = heading_text(&apps, 1, 200);
        assert!(
            !text.contains('\u{1b}') && text.ends_with(", no app 1"),
            "{text}"
        );
    }
}
