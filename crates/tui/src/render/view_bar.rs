//! The view bar, one line above the list: every view's number, name and unseen count (as last
//! counted in the store; the active view's is the list's), the active one marked (reversed, and in brackets so it shows without
//! colour), with a `*` when the filters were changed since it was chosen. When the views do not
//! fit, the bar scrolls so the active one shows, with `‹`/`›` where views are left out.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::theme::Theme;
use crate::saved_views::Shown;
use crate::state::AppState;
use feedback_core::width::{fit, truncate, width};

/// One view's part of the bar.
struct Part {
    text: String,
    active: bool,
}

fn parts(state: &AppState) -> (Vec<Part>, Option<usize>) {
    let views = &state.views;
    let shown = views.shown(&state.view);
    let (active, modified) = match shown {
        Shown::View(n) => (Some(n), false),
        Shown::Modified(n) => (Some(n), true),
        Shown::Custom => (None, false),
    };
    let parts = views
        .views
        .iter()
        .enumerate()
        .map(|(n, view)| {
            let number = if n < 9 {
                format!("{} ", n + 1)
            } else {
                String::new()
            };
            let name = truncate(&view.name, 24);
            let star = if modified && active == Some(n) {
                "*"
            } else {
                ""
            };
            // The active view's count is the list's own, the one the status bar shows: the
            // views' counts are read apart from the list (and lag it while items arrive). A
            // modified view's count stays the saved view's (its `*` says the list is not it).
            let counted = if active == Some(n) && !modified && state.list.loaded() {
                Some(state.triage.overlay.unseen())
            } else {
                views.counts.get(n).copied().flatten()
            };
            // The active view's count says what it counts (the list's title counts rows).
            let count = match counted {
                Some(c) if c > 0 && active == Some(n) => {
                    format!(" {} unseen", super::list::thousands(c))
                }
                Some(c) if c > 0 => format!(" {}", super::list::thousands(c)),
                _ => String::new(),
            };
            let body = format!("{number}{name}{star}{count}");
            let text = if active == Some(n) {
                format!("[{body}]")
            } else {
                format!(" {body} ")
            };
            Part {
                text,
                active: active == Some(n),
            }
        })
        .collect();
    (parts, active)
}

/// The first part shown: 0, or later when the active part would not fit otherwise.
fn first_shown(parts: &[Part], active: Option<usize>, cells: usize) -> usize {
    let Some(active) = active else { return 0 };
    let mut first = 0;
    // Room for the `‹` and `›` marks.
    while first < active
        && parts[first..=active]
            .iter()
            .map(|p| width(&p.text))
            .sum::<usize>()
            + 2
            > cells
    {
        first += 1;
    }
    first
}

pub(super) fn render(frame: &mut Frame, area: Rect, state: &AppState, theme: Theme) {
    let cells = usize::from(area.width);
    let (parts, active) = parts(state);
    let custom = active.is_none();
    let first = first_shown(&parts, active, cells);
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    if first > 0 {
        spans.push(Span::styled("‹", theme.dim()));
        used += 1;
    }
    if custom {
        let text = "[filtered] ";
        used += width(text);
        spans.push(Span::styled(text, theme.active()));
    }
    for (n, part) in parts.iter().enumerate().skip(first) {
        let w = width(&part.text);
        let last = n + 1 == parts.len();
        let room = cells.saturating_sub(used + usize::from(!last));
        if w > room {
            spans.push(Span::styled(
                fit("›", cells.saturating_sub(used)),
                theme.dim(),
            ));
            break;
        }
        let style = if part.active {
            theme.selected(true)
        } else {
            Style::new()
        };
        spans.push(Span::styled(part.text.clone(), style));
        used += w;
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
