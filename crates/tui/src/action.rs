//! User intents (`Action`, named in snake_case so `config.toml` can bind them) and everything
//! that reaches `update` (`Msg`): actions, network results, time and size.

use std::sync::Arc;

use jiff::Timestamp;

use crate::failure::Failure;
use crate::rows::Window;
use feedback_api::{App, Project, RateLimit, Status, Wait};
use feedback_core::query::QueryError;
use feedback_store::{Counts, Coverage, StoredDetail};

// The table of every action (`Action::ALL`), in a file of its own.
mod all;

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
    // Saved views and the command palette.
    /// Switch to the Nth view (1–9).
    View(u8),
    NextView,
    ClearAll,
    Palette,
    // Acting on items.
    ToggleMark,
    MarkRange,
    CopyMarkdown,
    CopyJson,
    Pipe,
    TogglePrivacy,
    // Preview, next/previous item, sidebar.
    TogglePreview,
    NextItem,
    PrevItem,
    ToggleSidebar,
    // Grouped view and trends.
    GroupBy,
    Trends,
    Enrich,
    // Top issues.
    TopIssues,
    // The items similar to the selected one.
    Similar,
    // The team.
    /// Claim the item (unclaim it when it is yours; take it over, confirmed, when another's).
    Claim,
    /// Assign the item to a member (a picker).
    Assign,
    /// Add and remove the team's labels.
    EditLabels,
    /// Link the items to a ticket (or remove a link).
    EditLinks,
    /// Reply to the items' reporters by mail.
    Reply,
    /// Open the message log.
    Messages,
    /// Mark every item of the view seen.
    MarkAllSeen,
    /// Back from the detail, a side pane or an overlay, as `Back`; from the list itself
    /// (where `Back` clears the search) it does nothing.
    Leave,
}

impl Action {
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
    pub(crate) fn from_name(name: &str) -> Option<Self> {
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
    /// How many of the first `keys` are woken items put on top (`store::woken`).
    pub woken: usize,
    pub window: Window,
    /// How fresh the view's status is in the store.
    pub freshness: Option<Freshness>,
    /// Only the first keys of the view (a limited query): the whole view is asked for next.
    pub partial: bool,
    /// The view's unseen count and the store's triage figures as of the query.
    pub triage: TriageFigures,
    /// For a search that reads details (`version:`, `has:link`), how many of the items it is
    /// about have them; `None` for other views and for the first screen's partial answer.
    pub basis: Option<Coverage>,
}

/// Triage figures read with a view: its unseen items, the store's triage write count (another
/// window's triage shows when it moves) and when the next snooze ends (the view is read again
/// then).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TriageFigures {
    pub unseen: usize,
    pub rev: i64,
    /// The store's item write count (`store::ITEMS_REV`): another process stored items when it
    /// moves.
    pub items_rev: i64,
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
    /// The automatic refresh: the head of a status at the background's priority (it keeps the
    /// budget's floor and gives way to what the user asks for; at the user's when background
    /// sync is turned off, which leaves only the refresh the config asked for).
    Refresh(Status),
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
    /// A key whose action the screen on top does not take (`crate::mode_keys`): said,
    /// never passed to the screen under it.
    NotHere {
        key: String,
        mode: super::state::Mode,
    },
    /// Scroll the message log by `lines`, as `HelpScroll` scrolls the help.
    LogScroll {
        lines: i32,
        max: u16,
    },
    /// Scroll the help overlay by `lines` (`i32::MIN`/`i32::MAX`: to the top/bottom), never
    /// past `max`, which the caller computed from the overlay's layout.
    HelpScroll {
        lines: i32,
        max: u16,
    },
    /// A printable key typed into the text filter, or an edit key, forwarded as-is.
    FilterInput(ratatui::crossterm::event::KeyEvent),
    /// Mouse: select the list row at this row of the list body (0: its first), or scroll by
    /// lines.
    ClickRow(u16),
    Scroll(i32),
    Tick(Timestamp),
    Resize {
        width: u16,
        height: u16,
    },
    /// Answer to `Read::Query`.
    ViewLoaded {
        request_id: u64,
        result: Result<Box<ViewData>, ViewError>,
    },
    /// Answer to `Read::LoadRows`.
    RowsLoaded {
        request_id: u64,
        result: Result<Window, Failure>,
    },
    /// The search history, newest first (answer to `Read::LoadSearches`).
    SearchesLoaded(Result<Vec<String>, Failure>),
    /// A metadata qualifier's stored values, most items first (answer to
    /// `Count::CompletionValues`).
    CompletionValues {
        name: String,
        result: Result<Vec<String>, Failure>,
    },
    /// Answer to `Count::LoadPanes`.
    PanesLoaded {
        request_id: u64,
        result: Result<Box<Panes>, Failure>,
    },
    /// The stored detail (`None`: not stored), answer to `Read::LoadDetail`.
    DetailStored {
        id: String,
        result: Result<Option<Box<StoredDetail>>, Failure>,
    },
    /// The detail the service sent, now stored; answer to `Network::FetchDetail`.
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
    Triaged(Result<Box<crate::triage::Triaged>, Failure>),
    /// The store's write counts, answer to `Write::StoreRevs`.
    StoreRevs(Result<feedback_store::Revs, Failure>),
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
    Arrived(Result<bool, Failure>),
    /// What the team's live link says.
    Team(feedback_team_sync::live::News),
    /// Changes recorded in the team's outbox (how many), or why not.
    TeamRecorded(Result<usize, Failure>),
    /// A key in the link prompt.
    LinkInput(ratatui::crossterm::event::KeyEvent),
    /// A key in the reply composer.
    ReplyInput(ratatui::crossterm::event::KeyEvent),
    /// The external editor ended on the reply: its new text (`None`: unchanged), or why not.
    ReplyEdited(Result<Option<String>, String>),
    /// The replies the mail client sent were recorded (how many), or why not.
    RepliesRecorded(Result<usize, Failure>),
    /// The composed replies were written to the store's outbox (how many), or why not.
    RepliesQueued(Result<usize, Failure>),
    /// The outbox's replies were sent: what became of each, or why none could be.
    RepliesSent(Result<Vec<crate::replying::SentReply>, String>),
    /// The team's history of item `id`, oldest first: who, what (sanitized), when.
    TeamHistory {
        id: String,
        result: Result<Vec<crate::team::HistoryLine>, Failure>,
    },
    /// A key for the team key's prompt.
    TeamInput(ratatui::crossterm::event::KeyEvent),
    /// The states of an undo step's items now (`Write::UndoStates`), or why they could not be
    /// read.
    UndoStates {
        step: crate::triage::UndoStep,
        confirmed: bool,
        result: Result<crate::triage::UndoStates, Failure>,
    },
    // Saved views and the command palette.
    /// Unseen items per view (`None`: that view's count failed), answer to
    /// `Count::CountViews`; `Err` when the store could not be read.
    ViewsCounted {
        request_id: u64,
        result: Result<Vec<Option<usize>>, Failure>,
        /// How long the count took: the next waits ten times as long (a big store's counts
        /// take a second; they must not keep a thread busy through a mirror).
        took: std::time::Duration,
    },
    /// `Effect::WriteView` finished: the view is in the config file, or why not.
    ViewWritten {
        view: feedback_config::views::SavedView,
        result: Result<(), String>,
    },
    /// A key for the open `:` palette.
    PaletteInput(ratatui::crossterm::event::KeyEvent),
    // Acting on items.
    /// The view's items' ids, in its order (answer to `Read::ViewIds`).
    ViewIds {
        request_id: u64,
        result: Result<Vec<String>, Failure>,
    },
    /// The marked items' ids read from the store (answer to `Read::ResolveMarks`).
    MarksResolved {
        request_id: u64,
        result: Result<Vec<(i64, String)>, Failure>,
    },
    /// The items' stored details and triage states (answer to `Read::Gather`), in the
    /// order asked.
    Gathered {
        request_id: u64,
        result: Result<Vec<crate::acting::GatheredItem>, Failure>,
    },
    /// A `|` command ended: its exit code (`None`: killed by a signal), or why it did not run.
    Piped {
        name: feedback_core::text::Clean,
        /// The items' ids.
        items: Vec<String>,
        /// Why it did not run, as shown.
        result: Result<Option<i32>, feedback_core::text::Clean>,
        capture: Option<feedback_config::looks::Capture>,
        /// What it printed, as read for `capture` (at most `acting::CAPTURE_MAX_BYTES`).
        output: String,
    },
    /// A key for the `|` command picker.
    PickerInput(ratatui::crossterm::event::KeyEvent),
    // Side panes' type-ahead and mouse clicks.
    /// A key for a side pane's type-ahead buffer (see `tui::reading::typeahead_key`).
    TypeAhead(crate::reading::TypeKey),
    /// Mouse: select entry `entry` of side pane `pane` (computed from the panes' layout).
    ClickPane {
        pane: crate::state::Focus,
        entry: usize,
    },
    // Grouped view and trends.
    /// A key for the open `=` picker.
    InsightInput(ratatui::crossterm::event::KeyEvent),
    /// The store's custom metadata keys, for the `=` picker.
    MetaKeys(Result<Vec<String>, Failure>),
    /// Answer to `Count::Pivot`.
    Pivoted {
        request_id: u64,
        result: Result<Box<feedback_store::pivot::Pivot>, Failure>,
    },
    /// Answer to `Count::Trend`.
    Trended {
        request_id: u64,
        result: Result<Box<feedback_store::pivot::Trend>, Failure>,
    },
    /// Answer to `Count::QueueDetails`.
    Enqueued(Result<feedback_store::Enqueued, Failure>),
    /// Answer to `Count::ClearQueue`: how many details were still waiting.
    QueueCleared(Result<u64, Failure>),
    /// Answer to `Count::QueuedCount`: details queued and not fetched yet.
    QueueCount(Result<u64, Failure>),
    // Top issues.
    /// Top issues' computation got this far (percent).
    TopIssuesProgress {
        request_id: u64,
        percent: u8,
    },
    /// Top issues computed (or failed).
    TopIssuesLoaded {
        request_id: u64,
        result: Result<Box<feedback_store::similar::TopIssues>, Failure>,
    },
    // The items similar to the selected one.
    /// Answer to `Read::FindSimilar` (`None`: the item is no longer stored).
    SimilarFound {
        request_id: u64,
        result: Result<Option<Box<feedback_store::similar::Similar>>, Failure>,
    },
}
