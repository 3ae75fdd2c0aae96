//! The list's title: the status, the count (or the matches of a search), the rows new since
//! the view was chosen, and, with the sidebar hidden, the active filters, so that they stay in
//! sight.

use ratatui::text::{Line, Span};

use super::list::thousands;
use super::theme::Theme;
use crate::state::AppState;
use feedback_store::Coverage;

/// Cells a filter's label keeps in the title.
const FILTER_CELLS: usize = 24;

/// The title for a list `cells` wide (its borders included): a search's basis drops its key
/// hint, then its words, where the whole would be cut by the border.
pub(super) fn title(state: &AppState, cells: u16, theme: Theme) -> Line<'static> {
    let room = usize::from(cells.saturating_sub(2));
    let mut fitted = None;
    // The hint matters more than the words "based on": it says what `e` does (or is doing).
    let ladder = [(true, true), (false, true), (true, false), (false, false)];
    for (based, hinted) in ladder {
        let line = title_with(state, Basis { based, hinted }, theme);
        if line.width() <= room {
            return line;
        }
        fitted = Some(line);
    }
    fitted.unwrap_or_default()
}

/// How much a search's basis says: "· based on 3 of 300 with details · e fetches the rest"
/// in full, without "based on", without the key hint.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Basis {
    based: bool,
    hinted: bool,
}

fn title_with(state: &AppState, says: Basis, theme: Theme) -> Line<'static> {
    let status = if state.view.any_status() {
        "new and archived".to_owned()
    } else {
        state.view.listed().to_owned()
    };
    let mut spans = vec![Span::raw(format!(" Feedback · {status} "))];
    let list = &state.list;
    let searching = !state.view.search.is_empty();
    // Counted only when the keys are the whole of the view on screen (not the first screen's
    // at start-up, nor the last view's while the new one's query runs).
    if list.loaded() && !list.partial() && list.shown.as_ref() == Some(&state.view) {
        // Rows, said as such: the view bar's numbers count the unseen ones.
        let rows = list.keys.len();
        if searching {
            let count = if rows == 1 {
                "1 match".to_owned()
            } else {
                format!("{} matches", thousands(rows))
            };
            spans.push(Span::styled(format!("· {count} "), theme.active()));
            spans.extend(list.basis.map(|b| basis(b, state, says, theme)));
        } else {
            spans.push(Span::raw(format!(
                "· {} ",
                feedback_core::text::output::counted(rows, "item")
            )));
        }
    }
    // With the sidebar hidden, the title keeps the active filters in sight.
    if !crate::reading::sidebar_shown(state) {
        let f = &state.view;
        for (name, chosen) in [("project", &f.project), ("app", &f.app), ("tag", &f.tag)] {
            if let Some(chosen) = chosen {
                let label = feedback_core::width::truncate(&chosen.label, FILTER_CELLS);
                spans.push(Span::styled(format!("· {name}: {label} "), theme.active()));
            }
        }
    }
    if list.new_count > 0 {
        // The arrow says some of them are above the rows on screen.
        let arrow = if list.offset > 0 { "↑ " } else { "" };
        spans.push(Span::styled(
            format!("· {} new {arrow}", thousands(list.new_count)),
            theme.good(),
        ));
    }
    Line::from(spans)
}

/// "· based on 3 of 300 with details · e fetches the rest": a search that reads details
/// (`version:`) matches only among the items whose details are stored, and says how many.
fn basis(coverage: Coverage, state: &AppState, says: Basis, theme: Theme) -> Span<'static> {
    let n = |v: u64| thousands(usize::try_from(v).unwrap_or(usize::MAX));
    let complete = coverage.with_detail >= coverage.total;
    let hint = if complete || !says.hinted {
        ""
    } else if state.insight.enrich.is_some() {
        " · fetching details (e cancels)"
    } else {
        " · e fetches the rest"
    };
    let based = if says.based { "based on " } else { "" };
    let text = format!(
        "· {based}{} of {} with details{hint} ",
        n(coverage.with_detail),
        n(coverage.total)
    );
    Span::styled(text, if complete { theme.dim() } else { theme.warn() })
}
