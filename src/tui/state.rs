//! `AppState`: plain data that `update` changes and `view` draws. No channels, handles or cells.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use jiff::Timestamp;
use ratatui_textarea::TextArea;

use super::store::{Anchor, Store};
use crate::api::{Cursor, FeedbackDetail, RateLimit, Status, Wait};

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
    Failed(String),
}

/// One selectable entry of a side pane: the raw value used in queries and sanitized labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub value: String,
    pub label: String,
    /// Platform (apps) or count (tags).
    pub detail: String,
}

/// A side pane.
#[derive(Debug, Clone, Default)]
pub struct Pane {
    pub entries: Vec<Entry>,
    pub selected: usize,
    pub load: Load,
    pub request_id: u64,
}

/// An applied filter: the raw value for the query and its label for the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub value: String,
    pub label: String,
}

/// Server-side filters of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filters {
    pub status: Status,
    pub project: Option<Chosen>,
    pub app: Option<Chosen>,
    pub tag: Option<Chosen>,
}

impl Default for Filters {
    fn default() -> Self {
        Self {
            status: Status::New,
            project: None,
            app: None,
            tag: None,
        }
    }
}

/// What the list is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ListLoad {
    #[default]
    Idle,
    First,
    More,
    Refresh,
}

/// The feedback list.
#[derive(Debug, Clone, Default)]
pub struct ListView {
    pub store: Store,
    /// Position in the visible rows (all rows, or the text filter's matches).
    pub selected: usize,
    pub offset: usize,
    pub viewport_rows: usize,
    pub next_cursor: Option<Cursor>,
    /// Where the next page of the walk down goes: the end, or (after the service rejected a
    /// cursor) the top, the walk then going down over the loaded rows to the deep end again.
    /// At `Top` the next request carries no cursor.
    pub next_at: Anchor,
    /// Cursors the walk down was given: one given twice means the server loops, and paging stops.
    pub cursors: HashSet<Cursor>,
    /// Restarts from the top after `invalid_cursor` since a page last came in past the deep end;
    /// a few are allowed, then the error is shown (a service refusing every cursor would loop).
    pub cursor_restarts: u32,
    /// True once the first page for the current filters came in. Until then `r` asks for that
    /// page again (keeping rows that arrived by webhook meanwhile), not for what is new: a
    /// refresh would stop at those rows and leave nothing below them.
    pub first_loaded: bool,
    /// True once a page came back without a next cursor.
    pub end: bool,
    pub load: ListLoad,
    /// The last failure of a list request, shown in the list until the next success.
    pub error: Option<String>,
    pub request_id: u64,
    /// Rows added on top since the list was (re)loaded, by refreshes and arrivals together: the
    /// first `new_count` rows are marked new and the title says "N new".
    pub new_count: usize,
    /// A refresh paging down from the newest item until it meets a loaded row; kept after a
    /// failure so that `r` resumes it instead of leaving a gap.
    pub refresh: Option<RefreshWalk>,
    /// Indices into the store matching the text filter, when one is active.
    pub matches: Option<Vec<usize>>,
    /// The next page is wanted but held back because the rate-limit budget is low; worked out
    /// afresh each time paging is considered (every tick), so it clears when the budget returns.
    pub prefetch_paused: bool,
}

/// A refresh that pages down until it meets the loaded rows.
#[derive(Debug, Clone)]
pub struct RefreshWalk {
    /// The newest row loaded before it began: the refresh is done once it gets past this row.
    pub boundary: Option<Box<str>>,
    /// Where its next page goes: below the newest rows it already put in.
    pub at: Anchor,
    /// The cursor of its next page (`None`: the newest page).
    pub cursor: Option<Cursor>,
    /// Cursors it was given, to stop if the server repeats one.
    pub cursors: HashSet<Cursor>,
    /// Rows it added so far.
    pub added: usize,
    /// Times it started again from the top after `invalid_cursor`.
    pub restarts: u32,
}

impl Default for RefreshWalk {
    /// A refresh about to ask for the newest page, whose rows go on top.
    fn default() -> Self {
        Self {
            boundary: None,
            at: Anchor::Top,
            cursor: None,
            cursors: HashSet::new(),
            added: 0,
            restarts: 0,
        }
    }
}

/// The `/` text filter.
#[derive(Debug, Clone)]
pub struct TextFilter {
    pub input: TextArea<'static>,
    /// The query the current `matches` were computed for (lower-cased).
    pub applied: String,
    /// True while the prompt has the keyboard.
    pub editing: bool,
}

/// The detail view of one item.
#[derive(Debug, Clone)]
pub struct DetailView {
    pub id: String,
    pub load: Load,
    pub scroll: u16,
}

/// A message in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub error: bool,
    /// When an informational note disappears; errors stay until dismissed.
    pub until: Option<Timestamp>,
}

/// A full-screen explanation that replaces the inbox (401/403 at startup).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fatal {
    pub title: String,
    pub body: String,
}

/// Everything on screen.
#[derive(Debug, Clone)]
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
    pub filters: Filters,
    pub list: ListView,
    pub text_filter: Option<TextFilter>,
    pub detail: Option<DetailView>,
    /// Sanitized details fetched while the current list is loaded.
    pub details: HashMap<String, Arc<FeedbackDetail>>,
    pub help: bool,
    /// First line of the help overlay on screen (clamped to the overlay's layout by whoever
    /// sends `Msg::HelpScroll`); reset when the overlay closes.
    pub help_scroll: u16,
    pub note: Option<Note>,
    pub rate: RateLimit,
    pub wait: Option<Wait>,
    pub in_flight: u32,
    pub spinner: u8,
    pub fatal: Option<Fatal>,
    pub mouse_captured: bool,
    /// False when `NO_COLOR` is set: styles use only bold/reverse/underline.
    pub color: bool,
    /// False over SSH or without a display: `o` then shows and copies the link instead.
    pub can_open_browser: bool,
    /// Why `can_open_browser` is false ("over SSH", "no display"), for the note after `o`.
    pub no_browser_reason: &'static str,
    /// Why a link is being copied instead of opened (no browser, or the browser failed); the
    /// copy's outcome note starts with it, so the reason is not overwritten by the outcome.
    pub copy_instead: Option<String>,
    /// An item action (copy link, open link) waiting for that item's detail to arrive.
    pub pending: Option<(String, super::action::Action)>,
    /// Seconds between automatic refreshes (0: off), and when the next one is due.
    pub refresh_seconds: u64,
    pub next_refresh: Option<Timestamp>,
    pub next_request_id: u64,
    pub quit: bool,
    /// A webhook receiver feeds this inbox (`--listen`).
    pub live: bool,
    /// Items that arrived by webhook this session (shown or not under the current filters).
    pub arrivals: usize,
    /// Set by `update` when the screen must be redrawn.
    pub dirty: bool,
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
            filters: Filters::default(),
            list: ListView::default(),
            text_filter: None,
            detail: None,
            details: HashMap::new(),
            help: false,
            help_scroll: 0,
            note: None,
            rate: RateLimit::default(),
            wait: None,
            in_flight: 0,
            spinner: 0,
            fatal: None,
            mouse_captured: true,
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
            dirty: true,
        }
    }

    /// A fresh request id.
    pub fn request_id(&mut self) -> u64 {
        let id = self.next_request_id;
        self.next_request_id += 1;
        id
    }

    /// Rows the list shows (all, or the text filter's matches).
    #[must_use]
    pub fn visible_len(&self) -> usize {
        self.list
            .matches
            .as_ref()
            .map_or(self.list.store.len(), Vec::len)
    }

    /// Store index of the `n`-th visible row.
    #[must_use]
    pub fn visible_index(&self, n: usize) -> Option<usize> {
        match &self.list.matches {
            Some(matches) => matches.get(n).copied(),
            None => (n < self.list.store.len()).then_some(n),
        }
    }

    /// The selected row, if any.
    #[must_use]
    pub fn selected_row(&self) -> Option<&super::store::Row> {
        self.visible_index(self.list.selected)
            .and_then(|i| self.list.store.get(i))
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

    pub fn pane_mut(&mut self, focus: Focus) -> Option<&mut Pane> {
        match focus {
            Focus::Projects => Some(&mut self.projects),
            Focus::Apps => Some(&mut self.apps),
            Focus::Tags => Some(&mut self.tags),
            Focus::List => None,
        }
    }
}
