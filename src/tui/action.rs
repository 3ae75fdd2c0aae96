//! User intents (`Action`, named in snake_case so `config.toml` can bind them) and everything
//! that reaches `update` (`Msg`): actions, network results, time and size.

use std::sync::Arc;

use jiff::Timestamp;

use crate::api::{ApiError, App, Feedback, FeedbackDetail, Page, Project, RateLimit, Tag, Wait};

/// What a key (or the mouse) asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    MoveDown,
    MoveUp,
    Top,
    Bottom,
    PageDown,
    PageUp,
    Open,
    Back,
    FocusNext,
    FocusPrev,
    ClearFilter,
    ToggleStatus,
    Filter,
    Reload,
    CopyLink,
    CopyMessage,
    CopyId,
    OpenLink,
    Help,
    Quit,
    ToggleMouse,
}

impl Action {
    /// Every action with its config name and help text, in help order.
    pub const ALL: &'static [(Action, &'static str, &'static str)] = &[
        (Action::MoveDown, "move_down", "next row / scroll down"),
        (Action::MoveUp, "move_up", "previous row / scroll up"),
        (Action::Top, "top", "first row"),
        (Action::Bottom, "bottom", "last loaded row (loads more)"),
        (Action::PageDown, "page_down", "one screen down"),
        (Action::PageUp, "page_up", "one screen up"),
        (Action::Open, "open", "open detail / apply pane selection"),
        (
            Action::Back,
            "back",
            "go back, close overlay, clear text filter",
        ),
        (Action::FocusNext, "focus_next", "focus next pane"),
        (Action::FocusPrev, "focus_prev", "focus previous pane"),
        (
            Action::ClearFilter,
            "clear_filter",
            "clear the focused pane's filter",
        ),
        (
            Action::ToggleStatus,
            "toggle_status",
            "switch status new / archived",
        ),
        (Action::Filter, "filter", "filter loaded items by text"),
        (Action::Reload, "reload", "reload / retry"),
        (Action::CopyLink, "copy_link", "copy issue-tracker link"),
        (Action::CopyMessage, "copy_message", "copy message"),
        (Action::CopyId, "copy_id", "copy id"),
        (
            Action::OpenLink,
            "open_link",
            "open issue-tracker link in browser",
        ),
        (Action::Help, "help", "show / hide this help"),
        (Action::Quit, "quit", "quit (from the list) or go back"),
        (
            Action::ToggleMouse,
            "toggle_mouse",
            "release / capture the mouse",
        ),
    ];

    /// The action's config name.
    #[must_use]
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(a, _, _)| *a == self)
            .map_or("", |(_, n, _)| n)
    }

    /// The action with config name `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(a, _, _)| *a)
    }
}

/// Which pane a discovery request fills.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaneKind {
    Projects,
    Apps,
    Tags,
}

/// A discovery answer.
#[derive(Debug, Clone)]
pub enum PaneData {
    Projects(Vec<Project>),
    Apps(Vec<App>),
    Tags(Vec<Tag>),
}

/// How a page answer is merged into the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// The first page for the current filters: replaces the list.
    First,
    /// The next page by cursor: appended.
    Next,
    /// The newest page on refresh: new items prepended.
    Refresh,
}

/// A copy finished (or could not be done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopyOutcome {
    /// The text certainly landed somewhere (system clipboard, tmux's paste buffer).
    Copied {
        what: &'static str,
        how: &'static str,
    },
    /// The text was handed to the terminal (OSC 52), which may or may not keep it: the note
    /// says what was sent and on what it depends, never that it was copied.
    Sent {
        what: &'static str,
        how: &'static str,
    },
    Failed {
        what: &'static str,
        reason: String,
    },
}

/// Everything `update` reacts to.
#[derive(Debug, Clone)]
pub enum Msg {
    Action(Action),
    /// Ctrl-C: quit at once, from any screen or prompt (unlike `q`, which goes back in the
    /// detail and types a `q` in the prompt).
    Interrupt,
    /// A bracketed paste: text for the `/` prompt, never keys.
    Paste(String),
    /// Scroll the help overlay by `lines` (`i32::MIN`/`i32::MAX`: to the top/bottom), never
    /// past `max`, which the caller computed from the overlay's layout.
    HelpScroll {
        lines: i32,
        max: u16,
    },
    /// A printable key typed into the text filter, or an edit key, forwarded as-is.
    FilterInput(ratatui::crossterm::event::KeyEvent),
    /// Mouse: select the list row at this screen row, or scroll by lines.
    ClickRow(u16),
    Scroll(i32),
    Tick(Timestamp),
    Resize {
        width: u16,
        height: u16,
    },
    PaneLoaded {
        request_id: u64,
        result: Result<PaneData, Arc<ApiError>>,
    },
    PageLoaded {
        request_id: u64,
        kind: PageKind,
        result: Result<Page<Feedback>, Arc<ApiError>>,
    },
    DetailLoaded {
        id: String,
        result: Result<Box<FeedbackDetail>, Arc<ApiError>>,
    },
    Waiting(Wait),
    RateLimited(RateLimit),
    Copied(CopyOutcome),
    /// The browser was asked to open `url`, or could not be (`Err(reason)`).
    Opened {
        url: String,
        result: Result<(), String>,
    },
    /// A new item arrived from outside (webhook receiver).
    Arrived(Box<Feedback>),
}
