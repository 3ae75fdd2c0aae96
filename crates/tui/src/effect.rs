//! What `update` asks the outside world to do. The executor in `tui::runtime` runs store reads
//! on blocking threads and sync jobs as tokio tasks, or makes a quick local call (clipboard,
//! browser, mouse capture); results come back as `Msg`s carrying the request id they answer.

use jiff::Timestamp;

use super::action::SyncJob;
use super::state::{Anchor, ViewSpec};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// The ordered keys of a view and the rows around where `anchor` puts the screen, which is
    /// `rows` high. A newer query makes an older one's answer moot (latest wins).
    Query {
        request_id: u64,
        spec: ViewSpec,
        anchor: Anchor,
        rows: usize,
        /// "Now" for the search's `age:`.
        now: Timestamp,
        /// At most this many keys: the first frame's query reads only the first screen's, and
        /// the whole view follows off the UI thread.
        limit: Option<usize>,
        /// The open detail's item: its states are read with the rows, whether the view still
        /// holds it or not (a teammate's done takes it out of the Inbox; its detail shows so).
        open: Option<String>,
    },
    /// The rows of `keys`, which start at view position `start`.
    LoadRows {
        request_id: u64,
        start: usize,
        keys: Vec<i64>,
    },
    /// Pane entries with stored counts for a status (apps of one project when given).
    LoadPanes {
        request_id: u64,
        status: String,
        project: Option<String>,
    },
    /// The stored detail of an item.
    LoadDetail {
        id: String,
    },
    /// The item's detail from the service, stored, then shown.
    FetchDetail {
        id: String,
    },
    Sync(SyncJob),
    /// Remember the view for the next start (the store's `meta`, key `last_view`).
    SaveView(ViewSpec),
    /// Read the search history (answered by `Msg::SearchesLoaded`).
    LoadSearches,
    /// Read the values stored under a metadata qualifier's keys (`name`, as the prompt
    /// completes it: `version`, `meta.plan`); answered by `Msg::CompletionValues`.
    CompletionValues {
        name: String,
        key: feedback_core::query::MetaKey,
    },
    /// Keep `text` as the newest search of the history.
    RememberSearch {
        text: String,
        at: Timestamp,
    },
    Copy {
        what: &'static str,
        text: feedback_core::text::Clean,
    },
    OpenUrl {
        url: String,
    },
    SetMouseCapture(bool),
    /// Make a triage change to these items, in one transaction; answered by `Msg::Triaged`.
    Triage {
        ids: Vec<String>,
        change: feedback_store::TriageChange,
        at: Timestamp,
        cause: crate::triage::Cause,
        what: String,
        /// With a team, the member: done, snooze and notes go to the team's outbox in the same
        /// transaction.
        team: Option<String>,
    },
    /// Make each item's own change (an undo step); answered by `Msg::Triaged`.
    TriageUndo {
        changes: Vec<(String, feedback_store::TriageChange)>,
        at: Timestamp,
        team: Option<String>,
        /// What was undone, said once committed ("Undone: done of 2qgddabg").
        what: String,
    },
    /// Read the store's write counts (another process may have stored items or triaged).
    StoreRevs,
    /// Edit `text` in `$EDITOR` (then `$VISUAL`) with the terminal handed over; answered by
    /// `Msg::NoteEdited`.
    EditNote {
        ids: Vec<String>,
        text: String,
    },
    // Saved views and the command palette.
    /// Count the unseen items of each view (in order); answered by `Msg::ViewsCounted`.
    CountViews {
        request_id: u64,
        specs: Vec<ViewSpec>,
        /// "Now" for snoozes and `age:`.
        now: Timestamp,
    },
    /// `:save-view`: write the view into the config file; answered by `Msg::ViewWritten`.
    WriteView {
        path: std::path::PathBuf,
        view: feedback_config::views::SavedView,
    },
    // Acting on items.
    /// Read the ids of these marked items (a `V` range past the rows read); answered by
    /// `Msg::MarksResolved`.
    ResolveMarks {
        request_id: u64,
        keys: Vec<i64>,
    },
    /// Read the ids of the items with these keys, in their order (a whole view, to mark it
    /// seen); answered by `Msg::ViewIds`.
    ViewIds {
        request_id: u64,
        keys: std::sync::Arc<[i64]>,
    },
    /// Read these items' stored details; answered by `Msg::Gathered`.
    Gather {
        request_id: u64,
        ids: Vec<String>,
    },
    /// Run `argv` (no shell) with the terminal handed over and `input` on its stdin; answered
    /// by `Msg::Piped`.
    Pipe {
        name: feedback_core::text::Clean,
        argv: Vec<String>,
        input: feedback_core::text::Clean,
        items: usize,
        /// After it exits, "exit N — press a key to return" waits for a key.
        wait: bool,
    },
    // Grouped view and trends.
    /// The custom metadata keys stored; answered by `Msg::MetaKeys`.
    MetaKeys,
    /// The pivot of a view; answered by `Msg::Pivoted`.
    Pivot {
        request_id: u64,
        spec: ViewSpec,
        by: feedback_store::pivot::By,
        now: Timestamp,
    },
    /// The trend of a view; answered by `Msg::Trended`.
    Trend {
        request_id: u64,
        spec: ViewSpec,
        by: feedback_store::pivot::By,
        now: Timestamp,
    },
    /// Queue the view's items without a detail for the background; answered by `Msg::Enqueued`.
    QueueDetails {
        spec: ViewSpec,
        now: Timestamp,
    },
    /// Empty the enrichment queue; answered by `Msg::QueueCleared`.
    ClearQueue,
    /// Count the details queued; answered by `Msg::QueueCount`.
    QueuedCount,
    // Top issues.
    /// Cluster the view's items (off the UI thread, progress reported).
    TopIssues {
        request_id: u64,
        spec: ViewSpec,
        now: Timestamp,
    },
    // The items similar to one item.
    /// `Store::similar` for the item with key `key`; answered by `Msg::SimilarFound`.
    FindSimilar {
        request_id: u64,
        key: i64,
        limit: usize,
    },
    // The team.
    /// Record these changes in the team's outbox, in order; answered by `Msg::TeamRecorded`.
    TeamRecord {
        /// The member making them.
        member: String,
        changes: Vec<(String, feedback_team::Change)>,
        at: Timestamp,
    },
    /// Ask the live link to send the outbox now.
    TeamSend,
    /// Tell the live link which item this member has open (`None`: none).
    TeamLooking(Option<String>),
    /// The views changed (one was saved): the searches the executor runs name them by
    /// `view:` from now on.
    ViewsChanged(std::sync::Arc<[crate::views::View]>),
    /// The team's history of an item, from the store's replica; answered by `Msg::TeamHistory`.
    TeamHistory {
        id: String,
    },
    /// Read the states of an undo step's items as they are now (after the writes queued before
    /// it), to undo it; answered by `Msg::UndoStates`. `confirmed`: the user said to undo it
    /// even if they changed since.
    UndoStates {
        step: crate::triage::UndoStep,
        confirmed: bool,
    },
}
