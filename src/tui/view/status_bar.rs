//! The status bar: active filters, loaded count and end, a spinner while requests run, the
//! rate-limit budget (highlighted when low), the retry countdown, the last message, key hints.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::cells::paragraph_line;
use super::theme::Theme;
use crate::api::WaitReason;
use crate::clock::until;
use crate::tui::action::Action;
use crate::tui::keymap::Keymap;
use crate::tui::state::AppState;
use crate::tui::update::LOW_BUDGET;
use crate::width::{truncate, width};

const SPINNER: [&str; 8] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧"];

pub fn render(frame: &mut Frame, area: Rect, state: &AppState, keymap: &Keymap, theme: Theme) {
    let cells = usize::from(area.width);
    let mut left: Vec<Span> = vec![Span::styled(
        format!(" {} ", state.filters.status),
        theme.active(),
    )];
    for (name, chosen) in [
        ("project", &state.filters.project),
        ("app", &state.filters.app),
        ("tag", &state.filters.tag),
    ] {
        if let Some(c) = chosen {
            left.push(Span::styled(
                format!("{name}:{} ", truncate(&c.label, 16)),
                theme.active(),
            ));
        }
    }
    if let Some(f) = &state.text_filter {
        left.push(Span::styled(
            format!("/{} ", truncate(&f.applied, 12)),
            theme.active(),
        ));
    }
    let end = if state.list.end { " · end" } else { "" };
    left.push(Span::raw(format!(
        "{} loaded{end} ",
        state.list.store.len()
    )));
    if state.live {
        left.push(Span::styled(
            format!("live: {} arrived ", state.arrivals),
            theme.good(),
        ));
    }
    if state.in_flight > 0 {
        left.push(Span::styled(
            format!("{} ", SPINNER[usize::from(state.spinner) % SPINNER.len()]),
            theme.accent(),
        ));
    }
    let mut right: Vec<Span> = Vec::new();
    if state.list.prefetch_paused {
        right.push(Span::styled("paging paused: budget low ", theme.warn()));
    }
    if let Some(wait) = &state.wait {
        let secs = until(state.now, wait.until).as_secs();
        let why = match wait.reason {
            WaitReason::RateLimited => "rate limited; retrying in",
            WaitReason::Pacing => "budget spent; next request in",
            WaitReason::Retry { .. } => "request failed; retrying in",
        };
        right.push(Span::styled(format!("{why} {secs}s "), theme.warn()));
    }
    if let (Some(remaining), Some(limit)) = (state.rate.remaining, state.rate.limit) {
        let reset = state
            .rate
            .seconds_to_reset(state.now)
            .map(|s| format!(" ↻{s}s"))
            .unwrap_or_default();
        let style = if remaining < LOW_BUDGET {
            theme.warn()
        } else {
            theme.dim()
        };
        right.push(Span::styled(format!("{remaining}/{limit}{reset} "), style));
    }
    right.push(Span::styled(
        format!(
            "{} help {} quit ",
            keymap.key_for(Action::Help),
            keymap.key_for(Action::Quit)
        ),
        theme.dim(),
    ));
    let used = spans_width(&left) + spans_width(&right);
    if let Some(note) = &state.note {
        let room = cells.saturating_sub(used + 1);
        if room > 3 {
            let style = if note.error {
                theme.error()
            } else {
                theme.good()
            };
            left.push(Span::styled(
                format!("{} ", truncate(&note.text, room - 1)),
                style,
            ));
        }
    }
    let gap = cells.saturating_sub(spans_width(&left) + spans_width(&right));
    left.push(Span::raw(" ".repeat(gap)));
    left.extend(right);
    paragraph_line(frame.buffer_mut(), area, &Line::from(left));
}

fn spans_width(spans: &[Span]) -> usize {
    spans.iter().map(|s| width(&s.content)).sum()
}
