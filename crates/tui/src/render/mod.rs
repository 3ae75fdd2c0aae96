//! `render(frame, state, keymap)`: a pure function of state. Where each part goes comes from
//! `tui::layout`, which `update` goes by too; `layout` here finds what a click lands on.

// Acting on items.
mod acting;
mod cells;
mod detail;
mod help;
mod links;
mod list;
mod log;
mod panes;
mod popup;
mod replies;
mod status_bar;
mod team;
pub mod theme;
mod triage;
// The view bar and the command palette.
mod palette;
mod view_bar;
// Where a click lands, the preview pane, hanging indent.
pub mod layout;
mod list_title;
mod preview;
mod wrap;
// The key set's heading.
mod similar;
pub mod top_issues;

pub use help::scroll_range as help_scroll_range;
pub use log::scroll_range as log_scroll_range;
// Grouped view, picker and trends panel.
pub mod insight;
mod trends;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::keymap::Keymap;
use super::state::{AppState, Focus};
use theme::Theme;

use feedback_core::min_size::{MIN_HEIGHT, MIN_WIDTH};

pub fn render(frame: &mut Frame, state: &AppState, keymap: &Keymap) {
    let area = frame.area();
    let theme = Theme::named(state.acting.theme, state.color);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "terminal too small: {}x{}, need {MIN_WIDTH}x{MIN_HEIGHT}",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    if let Some(fatal) = &state.fatal {
        render_fatal(frame, area, fatal, keymap, theme);
        return;
    }
    let [main, status] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    // The sidebar when shown (`b`, and by width), the preview beside the list.
    let areas = crate::layout::areas_in(main, state);
    if let Some(side) = areas.side {
        panes::render(frame, side, state, theme);
    }
    if let Some(detail) = &state.detail {
        detail::render(frame, areas.content, state, detail, theme);
    } else if areas.side.is_none() && state.focus != Focus::List {
        panes::render_one(frame, areas.content, state, state.focus, theme);
    } else {
        // The view bar, one line above the list and the preview (from `layout`).
        if let Some(bar) = areas.bar {
            view_bar::render(frame, bar, state, theme);
        }
        // The trends panel under the bar; the groups in the list's place.
        if let Some(trends) = areas.trends {
            trends::render_trends(frame, trends, state, theme);
        }
        if state.insight.grouped.is_some() {
            insight::render_grouped(frame, areas.list, state, theme);
        } else {
            list::render(frame, areas.list, state, theme);
        }
        // The preview beside the list.
        if let Some(rect) = areas.preview {
            preview::render(frame, rect, state, theme);
        }
    }
    status_bar::render(frame, status, state, keymap, theme);
    triage::render_picker(frame, main, state, theme);
    triage::render_note(frame, main, state, theme);
    palette::render(frame, main, state, keymap, theme); // The `:` palette
    acting::render_picker(frame, main, state, theme);
    insight::render_picker(frame, main, state, theme); // The `=` picker
    team::render_prompt(frame, main, state, theme); // `a` take over, `A`, `L`
    links::render_prompt(frame, main, state, theme); // `ctrl-k`
    replies::render(frame, main, state, theme); // `R`
    // The Top issues screen over the content.
    if let Some(screen) = &state.top_issues {
        // The view's size, for "the newest 100,000 of N".
        let items = state.visible_len();
        top_issues::render(frame, areas.content, screen, state.now, items, theme);
    }
    log::render(frame, area, state, keymap, theme);
    if state.help {
        let mode = state.mode_below_help();
        help::render(frame, area, keymap, mode, theme, state.help_scroll);
    }
}

fn render_fatal(
    frame: &mut Frame,
    area: Rect,
    fatal: &super::state::Fatal,
    keymap: &Keymap,
    theme: Theme,
) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.error())
        .title(format!(" {} ", fatal.title));
    let lines = vec![
        Line::styled(fatal.title.clone(), theme.error()),
        Line::raw(""),
        Line::raw(fatal.body.clone()),
        Line::raw(""),
        Line::raw(
            "The key comes from FEEDBACK_API_KEY, or api_key_command / api_key in config.toml.",
        ),
        Line::raw("API access needs the Indie plan; keys are managed under /account/api-keys."),
        Line::raw("Try the demo data with: feedback-inbox demo"),
        Line::raw(""),
        Line::styled(
            format!(
                "{} retry   {} quit",
                keymap.key_for(super::action::Action::Reload),
                keymap.key_for(super::action::Action::Quit)
            ),
            theme.dim(),
        ),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}
