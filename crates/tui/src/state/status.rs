//! The state the status bar shows: how fresh the store is, the last message, and the
//! full-screen explanation that replaces the inbox.

use std::collections::HashSet;

use jiff::Timestamp;

/// How fresh the store is, for the status bar.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent facts about the sync, each set by its own message"
)]
pub struct SyncView {
    /// When the current status last synced to its head (`None`: never).
    pub as_of: Option<Timestamp>,
    /// The current status is mirrored to its end: no backfill page is left.
    pub complete: bool,
    /// The last sync could not reach the service: the inbox runs on what is stored.
    pub offline: Option<String>,
    /// Sync jobs in flight.
    pub running: u32,
    /// Statuses head-synced this session.
    pub headed: HashSet<String>,
    /// Background work may go on (stops on a failure until the next `r`, and when it has
    /// nothing to do until the next head sync; while another process holds the sync lock,
    /// until it frees).
    pub background: bool,
    /// A background job is in flight.
    pub background_busy: bool,
    /// Offline: when the head is tried again by itself, and the wait before that (30 s,
    /// doubling to 5 min; 0 once a sync succeeds).
    pub retry_at: Option<Timestamp>,
    pub retry_seconds: u64,
    /// The job in flight is such a retry: its failure says nothing (the status bar does).
    pub retrying: bool,
    /// Another process (a window, `sync`) holds the store's sync lock: when to try again. The
    /// lock is checked before any request, so a try costs nothing on the network.
    pub busy_retry_at: Option<Timestamp>,
    /// A job the user asked for (`r`, the list's next page) that found the lock held: it runs
    /// when the lock frees, instead of the background's next step.
    pub waiting_turn: Option<crate::action::SyncJob>,
    /// Another process synced while the lock was held: what it stored reaches the view when
    /// the lock is ours again (its writes send no message here).
    pub others_synced: bool,
    /// The store's item write count as of the view's last query (`store::ITEMS_REV`): when a
    /// refresh that stored nothing finds it moved, another process (`sync` from cron, a window)
    /// stored items, and the view is read again.
    pub items_rev: i64,
    /// The store changed while a query ran: the view is queried again on the next tick (one
    /// query for any number of changes).
    pub requery_due: bool,
    /// The store's items changed (not only triage) since the due query was set: it counts the
    /// rows that appeared on top as new.
    pub requery_counts_new: bool,
    /// The store changed: the panes' counts are read again on the next tick, unless a read of
    /// them is under way (`panes_reading`), then after it.
    pub panes_due: bool,
    pub panes_reading: bool,
}

/// A message in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// What the status bar says (errors carry the service's and the system's words).
    pub text: feedback_core::text::Clean,
    pub error: bool,
    /// When an informational note disappears; errors stay until dismissed.
    pub until: Option<Timestamp>,
}

/// A full-screen explanation that replaces the inbox (401/403 at startup).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fatal {
    pub title: String,
    pub body: feedback_core::text::Clean,
}
