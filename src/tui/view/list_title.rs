//! The list's title: the status, the count (or the matches of a search), the rows new since
//! the view was chosen, and, with the sidebar hidden, the active filters, so that they stay in
//! sight (issue 10).

use ratatui::text::{Line, Span};

use super::list::thousands;
use super::theme::Theme;
use crate::text::sanitize_line;
use crate::tui::state::AppState;

/// Cells a filter's label keeps in the title.
const FILTER_CELLS: usize = 24;

pub(super) fn title(state: &AppState, theme: Theme) -> Line<'static> {
    let status = if state.filters.any_status {
        "new and archived".to_owned()
    } else {
        state.filters.status.to_string()
    };
    let mut spans = vec![Span::raw(format!(" Feedback · {status} "))];
    let list = &state.list;
    let searching = state
        .text_filter
        .as_ref()
        .is_some_and(|f| !f.applied.is_empty());
    // Counted only when the keys are the whole of the view on screen (not the first screen's
    // at start-up, nor the last view's while the new one's query runs).
    if list.loaded && !list.partial && list.shown.as_ref() == Some(&state.view_spec()) {
        // Rows, said as such: the view bar's numbers count the unseen ones.
        let rows = list.keys.len();
        if searching {
            let count = if rows == 1 {
                "1 match".to_owned()
            } else {
                format!("{} matches", thousands(rows))
            };
            spans.push(Span::styled(format!("· {count} "), theme.active()));
        } else {
            spans.push(Span::raw(format!(
                "· {} ",
                crate::text::output::counted(rows, "item")
            )));
        }
    }
    // reading: with the sidebar hidden, the title keeps the active filters in sight.
    if !crate::tui::reading::sidebar_shown(state) {
        let f = &state.filters;
        for (name, chosen) in [("project", &f.project), ("app", &f.app), ("tag", &f.tag)] {
            if let Some(chosen) = chosen {
                let label = crate::width::truncate(&sanitize_line(&chosen.label), FILTER_CELLS);
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
