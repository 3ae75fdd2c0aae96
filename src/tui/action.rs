//! User intents (`Action`, named in snake_case so `config.toml` can bind them) and everything
//! that reaches `update` (`Msg`): actions, network results, time and size.

use std::sync::Arc;

use jiff::Timestamp;

use crate::api::{App, Project, RateLimit, Status, Wait};
use crate::store::search::QueryError;
use crate::store::{Counts, StoredDetail};
use crate::tui::rows::Window;

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
    ToggleSeen,
    ToggleStar,
    ToggleDone,
    Snooze,
    EditNote,
    UndoTriage,
    // views: saved views and the command palette.
    /// Switch to the Nth view (1–9).
    View(u8),
    NextView,
    ClearAll,
    Palette,
    // Acting on items (helper "acting").
    ToggleMark,
    MarkRange,
    CopyMarkdown,
    CopyJson,
    Pipe,
    TogglePrivacy,
    // reading: preview, next/previous item, sidebar (issue 10, "Reading and moving").
    TogglePreview,
    NextItem,
    PrevItem,
    ToggleSidebar,
    // similar: Top issues (issue 11).
    TopIssues,
}

impl Action {
    /// Every action with its config name and help text, in help order.
    pub const ALL: &'static [(Action, &'static str, &'static str)] = &[
        (Action::MoveDown, "move_down", "next row / scroll down"),
        (Action::MoveUp, "move_up", "previous row / scroll up"),
        (Action::Top, "top", "first row"),
        (Action::Bottom, "bottom", "last stored row (fetches more)"),
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
        (Action::Filter, "filter", "search the stored items"),
        (Action::Reload, "reload", "sync what is new / retry"),
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
        (Action::ToggleSeen, "toggle_seen", "mark seen / unseen"),
        (Action::ToggleStar, "toggle_star", "star / unstar"),
        (Action::ToggleDone, "toggle_done", "mark done / not done"),
        (Action::Snooze, "snooze", "snooze until a time (picker)"),
        (Action::EditNote, "edit_note", "edit the item's note"),
        (Action::UndoTriage, "undo", "undo the last triage action"),
        // views: saved views and the command palette.
        (Action::View(1), "view_1", "switch to view 1 (Inbox)"),
        (Action::View(2), "view_2", "switch to view 2 (Starred)"),
        (Action::View(3), "view_3", "switch to view 3 (Snoozed)"),
        (Action::View(4), "view_4", "switch to view 4 (Done)"),
        (Action::View(5), "view_5", "switch to view 5 (Archived)"),
        (Action::View(6), "view_6", "switch to view 6 (your first)"),
        (Action::View(7), "view_7", "switch to view 7"),
        (Action::View(8), "view_8", "switch to view 8"),
        (Action::View(9), "view_9", "switch to view 9"),
        (Action::NextView, "next_view", "switch to the next view"),
        (
            Action::ClearAll,
            "clear_all",
            "clear every filter and the search (Inbox)",
        ),
        (
            Action::Palette,
            "palette",
            "command palette: actions, views, save-view",
        ),
        // Acting on items (helper "acting").
        (
            Action::ToggleMark,
            "toggle_mark",
            "mark / unmark the item, move down",
        ),
        (
            Action::MarkRange,
            "mark_range",
            "mark from the last mark to here",
        ),
        (
            Action::CopyMarkdown,
            "copy_markdown",
            "copy a Markdown block for an issue",
        ),
        (Action::CopyJson, "copy_json", "copy the item's JSON"),
        (
            Action::Pipe,
            "pipe",
            "pipe item(s) as JSON lines to a command",
        ),
        (
            Action::TogglePrivacy,
            "toggle_privacy",
            "privacy: mask emails and custom values",
        ),
        // reading: preview, next/previous item, sidebar.
        (
            Action::TogglePreview,
            "toggle_preview",
            "show / hide the preview pane",
        ),
        (
            Action::NextItem,
            "next_item",
            "next item (in the detail too)",
        ),
        (
            Action::PrevItem,
            "prev_item",
            "previous item (in the detail too)",
        ),
        (
            Action::ToggleSidebar,
            "toggle_sidebar",
            "hide / show the side panes",
        ),
        // similar: Top issues (issue 11).
        (
            Action::TopIssues,
            "top_issues",
            "Top issues: this view's near-duplicates, largest first",
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

/// What the side panes list, read from the store for one status.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Panes {
    /// Stored items per project, app and tag, of the status listed.
    pub counts: Counts,
    /// The account's projects and apps as discovery last stored them (with no items yet, or
    /// none of this status, they are listed with 0).
    pub projects: Vec<Project>,
    pub apps: Vec<App>,
}

/// The answer to a view query: the ordered keys, where the anchor's items now are, and the
/// rows around the screen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewData {
    pub keys: Arc<[i64]>,
    /// Positions of the anchor's selected, top and first items in `keys`, when still there.
    pub selected: Option<usize>,
    pub top: Option<usize>,
    pub first: Option<usize>,
    pub window: Window,
    /// How fresh the view's status is in the store.
    pub freshness: Option<Freshness>,
    /// Only the first keys of the view (a limited query): the whole view is asked for next.
    pub partial: bool,
    /// The view's unseen count and the store's triage figures as of the query.
    pub triage: TriageFigures,
}

/// Triage figures read with a view: its unseen items, the store's triage write count (another
/// window's triage shows when it moves) and when the next snooze ends (the view is read again
/// then).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TriageFigures {
    pub unseen: usize,
    pub rev: i64,
    pub next_wake: Option<Timestamp>,
}

/// Why a view query gave no keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewError {
    /// The search text: shown in the prompt where it is wrong; the list keeps what it showed.
    Query(QueryError),
    /// The store failed.
    Store(String),
}

/// Network work the syncer does for the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncJob {
    /// Projects, apps and tags (checking the account), then the head of the status.
    Start(Status),
    /// What is new at the head of a status.
    Head(Status),
    /// One page deeper than the store reaches; `user` when the list's scrolling asked for it
    /// (it goes before background work), else background (it respects the budget floor).
    Backfill { status: Status, user: bool },
    /// The syncer's next piece of background work (gaps and deep ends of both statuses, then
    /// the reconcile walk that finds items that left `new`); `listed` is the status on screen,
    /// whose freshness comes back with the answer.
    Background { listed: Status },
}

/// How fresh a status is in the store.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Freshness {
    pub status: String,
    pub synced_at: Option<Timestamp>,
    pub complete: bool,
}

/// What a sync job did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Synced {
    pub added: usize,
    pub changed: usize,
    /// The status is mirrored to its end (a backfill found nothing deeper).
    pub reached_end: bool,
    /// The background has nothing to do for now.
    pub idle: bool,
    pub freshness: Option<Freshness>,
}

/// Why a sync job failed, as the inbox shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyncFailure {
    pub text: String,
    pub kind: FailureKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The service cannot be reached (or answers 5xx): the inbox runs on the store, offline.
    Offline,
    /// The key was refused or the plan has no API access: a full-screen explanation.
    Refused,
    /// The store holds another account's feedback: nothing of this one is written.
    WrongAccount,
    /// Another sync holds the store; this one was skipped.
    Busy,
    /// The inbox ended it.
    Cancelled,
    Other,
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
    /// Answer to `Effect::Query`.
    ViewLoaded {
        request_id: u64,
        result: Result<Box<ViewData>, ViewError>,
    },
    /// Answer to `Effect::LoadRows`.
    RowsLoaded {
        request_id: u64,
        result: Result<Window, String>,
    },
    /// Answer to `Effect::LoadPanes`.
    PanesLoaded {
        request_id: u64,
        result: Result<Box<Panes>, String>,
    },
    /// The stored detail (`None`: not stored), answer to `Effect::LoadDetail`.
    DetailStored {
        id: String,
        result: Result<Option<Box<StoredDetail>>, String>,
    },
    /// The detail the service sent, now stored; answer to `Effect::FetchDetail`.
    DetailLoaded {
        id: String,
        result: Result<Box<StoredDetail>, SyncFailure>,
    },
    Synced {
        job: SyncJob,
        result: Result<Synced, SyncFailure>,
    },
    Waiting(Wait),
    RateLimited(RateLimit),
    Copied(CopyOutcome),
    /// The browser was asked to open `url`, or could not be (`Err(reason)`).
    Opened {
        url: String,
        result: Result<(), String>,
    },
    /// A triage write committed (or failed; nothing of it was written).
    Triaged(Result<Box<crate::tui::triage::Triaged>, String>),
    /// The store's triage write count, answer to `Effect::TriageRev`.
    TriageRev(Result<i64, String>),
    /// The external editor ended: the note's new text (`None`: unchanged), or why not.
    NoteEdited {
        ids: Vec<String>,
        result: Result<Option<String>, String>,
    },
    /// A key for the snooze picker or the note editor.
    TriageInput(ratatui::crossterm::event::KeyEvent),
    /// An item arrived from outside (webhook receiver): `Ok(true)` stored and new to the
    /// store, `Ok(false)` not new (a repeat) or not stored (another account's project),
    /// `Err` the store could not take it.
    Arrived(Result<bool, String>),
    // views: saved views and the command palette.
    /// Unseen items per view (`None`: that view's count failed), answer to
    /// `Effect::CountViews`; `Err` when the store could not be read.
    ViewsCounted {
        request_id: u64,
        result: Result<Vec<Option<usize>>, String>,
        /// How long the count took: the next waits ten times as long (a big store's counts
        /// take a second; they must not keep a thread busy through a mirror).
        took: std::time::Duration,
    },
    /// `Effect::WriteView` finished: the view is in the config file, or why not.
    ViewWritten {
        view: crate::config::views::SavedView,
        result: Result<(), String>,
    },
    /// A key for the open `:` palette.
    PaletteInput(ratatui::crossterm::event::KeyEvent),
    // Acting on items (helper "acting").
    /// The marked items' ids read from the store (answer to `Effect::ResolveMarks`).
    MarksResolved {
        request_id: u64,
        result: Result<Vec<(i64, String)>, String>,
    },
    /// The items' stored details (answer to `Effect::Gather`), in the order asked.
    Gathered {
        request_id: u64,
        result: Result<Vec<crate::store::StoredDetail>, String>,
    },
    /// A `|` command ended: its exit code (`None`: killed by a signal), or why it did not run.
    Piped {
        name: String,
        items: usize,
        result: Result<Option<i32>, String>,
    },
    /// A key for the `|` command picker.
    PickerInput(ratatui::crossterm::event::KeyEvent),
    // reading: side panes' type-ahead and mouse clicks.
    /// A key for a side pane's type-ahead buffer (see `tui::reading::typeahead_key`).
    TypeAhead(crate::tui::reading::TypeKey),
    /// Mouse: select entry `entry` of side pane `pane` (computed from the panes' layout).
    ClickPane {
        pane: crate::tui::state::Focus,
        entry: usize,
    },
    // similar: Top issues (issue 11).
    /// Top issues' computation got this far (percent).
    TopIssuesProgress {
        request_id: u64,
        percent: u8,
    },
    /// Top issues computed (or failed).
    TopIssuesLoaded {
        request_id: u64,
        result: Result<Box<crate::store::similar::TopIssues>, String>,
    },
}
