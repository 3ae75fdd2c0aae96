//! What `update` asks the outside world to do, typed by the lane it runs in: the executor in
//! `tui::runtime` runs each lane's effects where that lane says (store reads and writes on
//! their threads, network work in tokio tasks, quick local calls in place, the terminal handed
//! over), and each lane's enum is matched once, whole. Results come back as `Msg`s carrying
//! the request id they answer.

use jiff::Timestamp;

use super::action::SyncJob;
use super::state::{Anchor, ViewSpec};

/// An effect, by the lane it runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A read on the list's connection, on the reading thread (a view query goes before the
    /// other reads waiting).
    Read(Read),
    /// A read that walks many rows, on the counts' connection and thread: it never holds a view
    /// back.
    Count(Count),
    /// A triage or team write, or a read that must come after the writes queued: on the writes'
    /// thread, one at a time and in order (drained at quit).
    Write(Write),
    /// `:save-view`: write the view into the config file, on a blocking thread of its own;
    /// answered by `Msg::ViewWritten`.
    WriteView {
        path: std::path::PathBuf,
        view: feedback_config::views::SavedView,
    },
    /// A store write nothing waits for (a failure is logged), on a blocking thread of its own.
    Remember(Remember),
    /// Network work (a sync job, a detail fetch), in a tokio task.
    Network(Network),
    /// Cluster the view's items: seconds of work on a thread and connection of their own, with
    /// progress.
    TopIssues {
        request_id: u64,
        spec: ViewSpec,
        now: Timestamp,
    },
    /// The clipboard, the browser, the mouse capture, the team's live link: in place, in order
    /// with the frames.
    Local(Local),
    /// Needs the terminal handed over (`$EDITOR`, a pipe to a command): the loop runs it.
    Terminal(Handover),
}

/// Reads on the list's connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// The ordered keys of a view and the rows around where `anchor` puts the screen, which is
    /// `rows` high. A newer query makes an older one's answer moot (latest wins).
    Query {
        request_id: u64,
        /// Boxed: a view's spec is most of a query's size.
        spec: Box<ViewSpec>,
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
    /// The stored detail of an item.
    LoadDetail { id: String },
    /// Read the ids of these marked items (a `V` range past the rows read); answered by
    /// `Msg::MarksResolved`.
    ResolveMarks { request_id: u64, keys: Vec<i64> },
    /// Read the ids of the items with these keys, in their order (a whole view, to mark it
    /// seen); answered by `Msg::ViewIds`.
    ViewIds {
        request_id: u64,
        keys: std::sync::Arc<[i64]>,
    },
    /// Read these items' stored details; answered by `Msg::Gathered`.
    Gather { request_id: u64, ids: Vec<String> },
    /// `Store::similar` for the item with key `key`; answered by `Msg::SimilarFound`.
    FindSimilar {
        request_id: u64,
        key: i64,
        limit: usize,
    },
    /// Read the search history (answered by `Msg::SearchesLoaded`).
    LoadSearches,
    /// The team's history of an item, from the store's replica; answered by `Msg::TeamHistory`.
    TeamHistory { id: String },
}

/// Reads that walk many rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Count {
    /// Pane entries with stored counts for a status (apps of one project when given).
    LoadPanes {
        request_id: u64,
        status: String,
        project: Option<String>,
    },
    /// Read the values stored under a metadata qualifier's keys (`name`, as the prompt
    /// completes it: `version`, `meta.plan`); answered by `Msg::CompletionValues`.
    CompletionValues {
        name: String,
        key: feedback_core::query::MetaKey,
    },
    /// Count the unseen items of each view (in order); answered by `Msg::ViewsCounted`.
    CountViews {
        request_id: u64,
        specs: Vec<ViewSpec>,
        /// "Now" for snoozes and `age:`.
        now: Timestamp,
    },
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
    QueueDetails { spec: ViewSpec, now: Timestamp },
    /// Empty the enrichment queue; answered by `Msg::QueueCleared`.
    ClearQueue,
    /// Count the details queued; answered by `Msg::QueueCount`.
    QueuedCount,
}

/// Writes (and the reads that must follow them), in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
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
    /// Record these replies as sent by the desktop's mail client (with a team, told to it as
    /// `member`); answered by `Msg::RepliesRecorded`.
    RecordReplies {
        replies: Vec<feedback_store::NewReply>,
        member: Option<String>,
        at: Timestamp,
    },
    /// Keep these replies in the store's outbox (durable before the answer);
    /// answered by `Msg::RepliesQueued`.
    QueueReplies {
        replies: Vec<feedback_store::NewReply>,
        at: Timestamp,
    },
    /// Append `text` to each item's note (a `|` command's output, `capture = "note"`), each
    /// note read and written in one transaction, undoable; answered by `Msg::Triaged`.
    AppendNote {
        ids: Vec<String>,
        text: String,
        at: Timestamp,
        what: String,
        /// With a team, the member: the notes go to the team's outbox in the same transaction.
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
    /// Record these changes in the team's outbox, in order, or (no member: the store is in no
    /// team) keep the links among them in the store itself; answered by `Msg::TeamRecorded`.
    TeamRecord {
        /// The member making them.
        member: Option<String>,
        changes: Vec<(String, feedback_team::Change)>,
        at: Timestamp,
    },
    /// Read the states of an undo step's items as they are now (after the writes queued before
    /// it), to undo it; answered by `Msg::UndoStates`. `confirmed`: the user said to undo it
    /// even if they changed since.
    UndoStates {
        step: crate::triage::UndoStep,
        confirmed: bool,
    },
}

/// What the next start remembers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remember {
    /// Remember the view for the next start (the store's `meta`, key `last_view`).
    View(ViewSpec),
    /// Keep `text` as the newest search of the history.
    Search { text: String, at: Timestamp },
}

/// Network work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    Sync(SyncJob),
    /// Send what waits in the store's replies outbox by `[mail]` (with a team, each sent reply
    /// told to it as `member`); answered by `Msg::RepliesSent`.
    SendReplies {
        settings: feedback_config::mail::MailSettings,
        member: Option<String>,
    },
    /// The item's detail from the service, stored, then shown.
    FetchDetail {
        id: String,
    },
}

/// Quick calls in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Local {
    Copy {
        what: &'static str,
        text: feedback_core::text::Clean,
    },
    OpenUrl {
        url: String,
    },
    SetMouseCapture(bool),
    /// Ask the live link to send the outbox now.
    TeamSend,
    /// Tell the live link which item this member has open (`None`: none).
    TeamLooking(Option<String>),
    /// Tell the live link whether this member is composing a reply to that item.
    TeamReplying(bool),
    /// The views changed (one was saved): the searches the executor runs name them by
    /// `view:` from now on.
    ViewsChanged(std::sync::Arc<[crate::saved_views::View]>),
}

/// Work that takes the terminal over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handover {
    /// Edit `text` in `$EDITOR` (then `$VISUAL`) with the terminal handed over; answered by
    /// `Msg::NoteEdited`.
    EditNote { ids: Vec<String>, text: String },
    /// Edit a reply's `text` in the same editor; answered by `Msg::ReplyEdited`.
    EditReply { text: String },
    /// Run `argv` (no shell) with the terminal handed over and `input` on its stdin; answered
    /// by `Msg::Piped`.
    Pipe {
        name: feedback_core::text::Clean,
        argv: Vec<String>,
        input: feedback_core::text::Clean,
        /// The items' ids, in the order piped.
        items: Vec<String>,
        /// After it exits, "exit N — press a key to return" waits for a key.
        wait: bool,
        /// What is kept of what it prints (then its output is read as well as shown).
        capture: Option<feedback_config::looks::Capture>,
    },
}
