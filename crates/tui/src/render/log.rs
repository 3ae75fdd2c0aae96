//! The message log's overlay: every message the status bar said, oldest first and the newest
//! at the bottom, each with its time, wrapped whole under its time (never cut), errors in the
//! error style. It scrolls like the help; [`scroll_range`] gives the same layout's numbers to
//! the key translation.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::theme::Theme;
use crate::action::Action;
use crate::keymap::Keymap;
use crate::state::{AppState, MessageLog};

/// The overlay's widest: a line of log reads best under ~100 cells.
const MAX_WIDTH: u16 = 100;
/// `12:04:31  `: the time and the gap after it; a message's further lines start under it.
const TIME_CELLS: usize = 10;

/// The log as lines `cells` wide.
fn lines(
    log: &MessageLog,
    tz: &jiff::tz::TimeZone,
    cells: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    if log.dropped() > 0 {
        out.push(Line::styled(
            format!("({} older messages let go)", log.dropped()),
            theme.dim(),
        ));
    }
    if log.is_empty() {
        out.push(Line::styled("Nothing said yet.", theme.dim()));
    }
    let room = cells.saturating_sub(TIME_CELLS).max(1);
    for logged in log.entries() {
        let time = logged
            .at
            .to_zoned(tz.clone())
            .strftime("%H:%M:%S")
            .to_string();
        let text = if logged.times > 1 {
            format!("{} (×{})", logged.text, logged.times)
        } else {
            logged.text.to_string()
        };
        let style = if logged.error {
            theme.error()
        } else {
            ratatui::style::Style::new()
        };
        for (n, piece) in super::wrap::wrap(&text, room).into_iter().enumerate() {
            let lead = if n == 0 {
                Span::styled(format!("{time:<TIME_CELLS$}"), theme.dim())
            } else {
                Span::raw(" ".repeat(TIME_CELLS))
            };
            out.push(Line::from(vec![lead, Span::styled(piece, style)]));
        }
    }
    out
}

/// The overlay's box in a `area`, and its lines.
fn place(area: Rect, state: &AppState, theme: Theme) -> (Rect, Vec<Line<'static>>) {
    let popup = super::popup::centred(area, MAX_WIDTH.min(area.width), area.height);
    let inner = usize::from(popup.width.saturating_sub(2));
    (popup, lines(&state.log, &state.tz, inner, theme))
}

/// (rows of the log on screen, largest scroll) at the state's screen size.
#[must_use]
pub fn scroll_range(state: &AppState) -> (u16, u16) {
    let area = Rect::new(0, 0, state.width, state.height);
    let (popup, lines) = place(area, state, Theme::new(false));
    let visible = popup.height.saturating_sub(2);
    let total = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    (visible, total.saturating_sub(visible))
}

pub(super) fn render(
    frame: &mut Frame,
    area: Rect,
    state: &AppState,
    keymap: &Keymap,
    theme: Theme,
) {
    let Some(scroll) = state.log_open else {
        return;
    };
    let (popup, lines) = place(area, state, theme);
    let visible = popup.height.saturating_sub(2);
    let max_scroll = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .saturating_sub(visible);
    let scroll = scroll.min(max_scroll);
    let title = format!(
        " Messages ({} closes · {} copies) ",
        keymap.key_for(Action::Back),
        keymap.key_for(Action::CopyMessage)
    );
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    if scroll < max_scroll {
        block = block.title_bottom(Line::styled(" ↓ more ", theme.dim()).right_aligned());
    }
    if scroll > 0 {
        block = block.title_bottom(Line::styled(" ↑ older ", theme.dim()).left_aligned());
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(block),
        popup,
    );
}
