//! `AppState`: plain data that `update` changes and `view` draws. No channels, handles or cells.

use std::collections::HashMap;
use std::sync::Arc;

use jiff::Timestamp;
use ratatui_textarea::TextArea;

use super::rows::{Row, Window};
use feedback_api::{FeedbackDetail, RateLimit, Wait};
use feedback_core::query::{Highlights, QueryError};
use feedback_core::text::Clean;
pub use feedback_store::{ANY_STATUS, Chosen, ViewSpec, ViewStatus};

// The status bar's state: freshness, messages, a fatal explanation.
mod status;
pub use status::{Fatal, Note, SyncView};
mod log;
pub use log::{Logged, MessageLog};
mod searches;
pub use searches::{Browsing, SearchHistory};
// Which screen owns the keyboard.
mod mode;
pub use mode::{Mode, Pointer};
mod budget;
pub use budget::{LOW_BUDGET, budget_low};

/// Which part of the screen takes keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Projects,
    Apps,
    Tags,
    List,
}

impl Focus {
    pub const ORDER: [Focus; 4] = [Focus::Projects, Focus::Apps, Focus::Tags, Focus::List];
}

/// Loading state of a pane or of the list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Load {
    #[default]
    Idle,
    Loading,
    Loaded,
    /// Why, as shown.
    Failed(Clean),
}

/// One selectable entry of a side pane: the raw value used in queries and its labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub label: Clean,
    /// Platform (apps) or count (tags).
    pub detail: Clean,
}

/// A side pane.
#[derive(Debug, Clone, Default)]
pub struct Pane {
    pub entries: Vec<Entry>,
    pub selected: usize,
    pub load: Load,
    pub request_id: u64,
}

/// The feedback list: the ordered keys of the current view (a query over the store) and the
/// rows of the window around the screen. Never every item: a view of a million keys costs 8 MB
/// here, and the rows a few hundred.
#[derive(Debug, Clone, Default)]
pub struct ListView {
    /// Store keys of the view, newest first.
    pub keys: Arc<[i64]>,
    /// The rows near the screen.
    pub window: Window,
    /// Position of the selection in `keys`.
    pub selected: usize,
    pub offset: usize,
    pub viewport_rows: usize,
    /// The latest query asked for; answers to older ones are dropped (latest wins).
    pub query_id: u64,
    /// That query, while it runs.
    pub in_flight: Option<InFlight>,
    /// The view `keys` are of.
    pub shown: Option<ViewSpec>,
    /// How much of its view `keys` hold.
    pub held: Held,
    /// A search that reads details: how many of the items it is about have them (the title).
    pub basis: Option<feedback_store::Coverage>,
    /// The latest window of rows asked for.
    pub rows_id: u64,
    /// The last failure of a store read, shown in the list until the next success.
    pub error: Option<Clean>,
    /// Rows put on top since the view was chosen (by syncs and arrivals): the `new_count` rows
    /// below the woken ones are marked new and the title says "N new".
    pub new_count: usize,
    /// How many of the first keys are woken items, shown on top until read (`store::woken`):
    /// new rows land below them.
    pub woken: usize,
    /// The backfill pages the user's scrolling asks for.
    pub paging: Paging,
    /// Enter was pressed on a row still being read: the detail opens when it arrives.
    pub open_when_loaded: bool,
}

impl ListView {
    /// An answer for the current view came in (until then the list says loading).
    #[must_use]
    pub fn loaded(&self) -> bool {
        self.held != Held::Nothing
    }

    /// `keys` are the first screen's only (start-up): the whole view is on its way.
    #[must_use]
    pub fn partial(&self) -> bool {
        self.held == Held::FirstScreen
    }

    /// A query of the view runs.
    #[must_use]
    pub fn querying(&self) -> bool {
        self.in_flight.is_some()
    }

    /// A backfill page the user's scrolling asked for is in flight.
    #[must_use]
    pub fn fetching(&self) -> bool {
        matches!(self.paging, Paging::Fetching { .. })
    }
}

/// How much of its view the list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Held {
    /// Nothing answered yet.
    #[default]
    Nothing,
    /// The first screen's keys only (start-up's first frame).
    FirstScreen,
    /// Every key of the view.
    Whole,
}

/// The view query in flight.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InFlight {
    /// The view it asks for.
    pub spec: ViewSpec,
    /// Rows that appear above the old first row count as new (not when only triage changed:
    /// an undone `d` brings its item back, it did not arrive).
    pub count_new: bool,
    /// Webhook arrivals stored before it was asked: its answer holds them, so the status bar's
    /// count moves with the rows (see `AppState::arrivals`).
    pub arrivals_asked: usize,
    /// The user moved the selection while it ran: its anchor is stale, and its answer keeps
    /// the selection and the screen on the items moved to since.
    pub moved: bool,
}

/// The backfill pages the user's scrolling asks for, one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paging {
    #[default]
    Idle,
    /// The user's last movement ended within a screen of the end of the view: one page is
    /// wanted (sent when paging is allowed, then the wish is spent).
    Wanted,
    /// Wanted, but held back while the rate-limit budget is low (worked out afresh each time
    /// paging is considered: every tick).
    Paused,
    /// A page is in flight; `more`: the user moved near the end again meanwhile.
    Fetching { more: bool },
}

impl Paging {
    /// A movement ended near the end of the view (`near`) or not.
    #[must_use]
    pub fn moved(self, near: bool) -> Self {
        match self {
            Paging::Fetching { .. } => Paging::Fetching { more: near },
            _ if near => Paging::Wanted,
            _ => Paging::Idle,
        }
    }

    /// The page in flight answered (or the status changed under it).
    #[must_use]
    pub fn answered(self) -> Self {
        match self {
            Paging::Fetching { more: true } => Paging::Wanted,
            Paging::Fetching { more: false } => Paging::Idle,
            other => other,
        }
    }
}

/// Keeps the selection and the screen on their items when a view is queried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Anchor {
    /// The selected item, and its position as a fallback when it left the view.
    pub selected: Option<(i64, usize)>,
    /// The top row on screen; `None` keeps the list at its top, where new rows show.
    pub top: Option<i64>,
    /// The first row of the view before: rows above it afterwards are new.
    pub first: Option<i64>,
}

/// The `/` search over the store.
#[derive(Debug, Clone)]
pub struct TextFilter {
    pub input: TextArea<'static>,
    /// True while the prompt has the keyboard.
    pub editing: bool,
    /// Why the query cannot run, and where in it: the span is of `error_of`.
    pub error: Option<QueryError>,
    /// The text (trimmed) the error was found in; the prompt marks the span only while it shows
    /// that text.
    pub error_of: String,
    /// The words to highlight in the list and the detail.
    pub highlights: Highlights,
    /// The item selected when the prompt took the keyboard: it stays selected through every
    /// edit while it matches (a half-typed word matching nothing does not lose it).
    pub origin: Option<i64>,
    /// The completions `Tab` is going through, while the prompt shows one of them.
    pub completing: Option<Completing>,
    /// Where `Up`/`Down`/`Ctrl-R` are in the search history, while the prompt shows a search
    /// from it (any other key ends it, the text staying).
    pub browsing: Option<Browsing>,
    /// The stored values of the metadata qualifiers `Tab` asked for (`version`, `meta.plan`),
    /// read once per prompt.
    pub values: std::collections::HashMap<String, Vec<String>>,
    /// The prompt's text when `Tab` asked for values: it completes when they arrive, if the
    /// text is still this.
    pub awaiting: Option<String>,
}

/// `Tab`'s completions of one word: the one shown is `candidates[at]`, and the prompt's text
/// is `shown` while it is there (any edit ends the cycle).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completing {
    pub start: usize,
    pub candidates: Vec<String>,
    pub at: usize,
    /// The text after the word (it stays as it was).
    pub rest: String,
    pub shown: String,
}

/// The detail view of one item.
#[derive(Debug, Clone)]
pub struct DetailView {
    pub id: String,
    /// The id as the title shows it.
    pub shown_id: Clean,
    pub load: Load,
    pub scroll: u16,
    /// When the stored metadata and delivery were fetched (`None`: never).
    pub detail_at: Option<Timestamp>,
    /// A fetch of the detail from the service is in flight.
    pub refreshing: bool,
}

/// A detail as far as it is known, sanitized.
#[derive(Debug, Clone)]
pub struct Known {
    pub detail: Arc<FeedbackDetail>,
    /// When its metadata and delivery were fetched from the service; `None`: never (only the
    /// list fields, or a webhook's metadata, are known; the links are not).
    pub fetched: Option<Timestamp>,
}

/// Everything on screen.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent settings and flags of the screen (colour, mouse, help, quit, …)"
)]
pub struct AppState {
    pub now: Timestamp,
    /// Where local times are shown (the system zone; UTC in tests).
    pub tz: jiff::tz::TimeZone,
    pub width: u16,
    pub height: u16,
    pub focus: Focus,
    pub projects: Pane,
    pub apps: Pane,
    pub tags: Pane,
    /// The view the list shows (or is querying): status, the panes' filters, the search
    /// applied, a pinned key set. Every reader of "the current view" reads it here.
    pub view: ViewSpec,
    pub list: ListView,
    pub sync: SyncView,
    pub text_filter: Option<TextFilter>,
    pub detail: Option<DetailView>,
    /// Sanitized details read from the store or fetched this session.
    pub details: HashMap<String, Known>,
    pub help: bool,
    /// First line of the help overlay on screen (clamped to the overlay's layout by whoever
    /// sends `Msg::HelpScroll`); reset when the overlay closes.
    pub help_scroll: u16,
    pub note: Option<Note>,
    /// Every note said since the start, whole (`Note` is the one on the status bar now).
    pub log: MessageLog,
    /// The searches kept with Enter in the `/` prompt.
    pub searches: SearchHistory,
    /// The message log's overlay when open: its first line on screen (clamped to its layout
    /// by whoever sends `Msg::LogScroll`).
    pub log_open: Option<u16>,
    pub rate: RateLimit,
    pub wait: Option<Wait>,
    pub in_flight: u32,
    pub spinner: u8,
    pub fatal: Option<Fatal>,
    pub mouse_captured: bool,
    /// The status bar hints at the keys of the screen on top (`hints = false` in the config).
    pub hints: bool,
    /// False when `NO_COLOR` is set: styles use only bold/reverse/underline.
    pub color: bool,
    /// False over SSH or without a display: `o` then shows and copies the link instead.
    pub can_open_browser: bool,
    /// Why `can_open_browser` is false ("over SSH", "no display"), for the note after `o`.
    pub no_browser_reason: &'static str,
    /// Why a link is being copied instead of opened (no browser, or the browser failed); the
    /// copy's outcome note starts with it, so the reason is not overwritten by the outcome.
    pub copy_instead: Option<Clean>,
    /// An item action (copy link, open link) waiting for that item's detail to arrive.
    pub pending: Option<(String, super::action::Action)>,
    /// Seconds between automatic refreshes (0: off), and when the next one is due.
    pub refresh_seconds: u64,
    pub next_refresh: Option<Timestamp>,
    pub next_request_id: u64,
    pub quit: bool,
    /// A webhook receiver feeds this inbox (`--listen`).
    pub live: bool,
    /// Items that arrived by webhook this session (shown or not under the current filters),
    /// as far as the list shows them: the count moves when the list's answer holding them
    /// lands, so the status bar and the rows change in one frame.
    pub arrivals: usize,
    /// Items that arrived by webhook and are stored, whether or not the list shows them yet.
    pub arrivals_stored: usize,
    /// Local triage: the view's unseen count, undo, the snooze picker and the note editor.
    pub triage: super::triage::TriageState,
    // The preview, the sidebar's switch and the panes' type-ahead.
    pub reading: super::reading::Reading,
    /// Set by `update` when the screen must be redrawn.
    pub dirty: bool,
    // Saved views and the command palette.
    pub views: super::saved_views::ViewsState,
    /// The `:` palette, while open.
    pub palette: Option<super::palette::Palette>,
    /// Marks, privacy mode, theme, `|` commands.
    pub acting: super::acting::ActingState,
    /// The grouped view, its picker and the trends panel.
    pub insight: super::insight::InsightState,
    // The Top issues screen.
    pub top_issues: Option<super::top_issues::TopIssuesScreen>,
    /// `S`'s similar items or a cluster's, pinned in the list.
    pub similar: super::similar::SimilarState,
    /// The team that shares triage state, when one is configured.
    pub team: Option<super::team::TeamState>,
    /// The link prompt (`ctrl-k`), while open.
    pub link_prompt: Option<super::linking::LinkPrompt>,
    /// `[mail]`, the templates, and the reply being composed (`R`).
    pub mail: super::replying::MailState,
}

impl AppState {
    #[must_use]
    pub fn new(now: Timestamp, width: u16, height: u16) -> Self {
        Self {
            now,
            tz: jiff::tz::TimeZone::UTC,
            width,
            height,
            focus: Focus::List,
            projects: Pane::default(),
            apps: Pane::default(),
            tags: Pane::default(),
            view: ViewSpec::default(),
            list: ListView::default(),
            sync: SyncView {
                background: true,
                ..SyncView::default()
            },
            text_filter: None,
            detail: None,
            details: HashMap::new(),
            help: false,
            help_scroll: 0,
            note: None,
            log: MessageLog::default(),
            searches: SearchHistory::default(),
            log_open: None,
            rate: RateLimit::default(),
            wait: None,
            in_flight: 0,
            spinner: 0,
            fatal: None,
            mouse_captured: true,
            hints: true,
            color: true,
            can_open_browser: true,
            no_browser_reason: "no browser",
            copy_instead: None,
            pending: None,
            refresh_seconds: 0,
            next_refresh: None,
            next_request_id: 1,
            quit: false,
            live: false,
            arrivals: 0,
            arrivals_stored: 0,
            triage: super::triage::TriageState::default(),
            // reading
            reading: super::reading::Reading::default(),
            dirty: true,
            // Saved views and the command palette.
            views: super::saved_views::ViewsState::new(&[], None),
            palette: None,
            acting: super::acting::ActingState::default(),
            insight: super::insight::InsightState::default(),
            // similar
            top_issues: None,
            similar: super::similar::SimilarState::default(),
            team: None,
            link_prompt: None,
            mail: super::replying::MailState::default(),
        }
    }

    /// A fresh request id.
    pub fn request_id(&mut self) -> u64 {
        let id = self.next_request_id;
        self.next_request_id += 1;
        id
    }

    /// Rows the view holds.
    #[must_use]
    pub fn visible_len(&self) -> usize {
        self.list.keys.len()
    }

    /// The selected row, when its row is loaded.
    #[must_use]
    pub(crate) fn selected_row(&self) -> Option<&Row> {
        self.list.window.get(self.list.selected)
    }

    /// The store query the list shows.
    #[must_use]
    pub fn view_spec(&self) -> ViewSpec {
        self.view.clone()
    }

    /// The pane that `focus` names (None for the list).
    #[must_use]
    pub fn pane(&self, focus: Focus) -> Option<&Pane> {
        match focus {
            Focus::Projects => Some(&self.projects),
            Focus::Apps => Some(&self.apps),
            Focus::Tags => Some(&self.tags),
            Focus::List => None,
        }
    }

    pub(crate) fn pane_mut(&mut self, focus: Focus) -> Option<&mut Pane> {
        match focus {
            Focus::Projects => Some(&mut self.projects),
            Focus::Apps => Some(&mut self.apps),
            Focus::Tags => Some(&mut self.tags),
            Focus::List => None,
        }
    }
}
