//! The inbox's side of local triage (`store::triage`): what `update` keeps (the triage overlay
//! with the view's unseen count, the undo steps, writes in flight, the snooze picker and the
//! note editor) and what a write reports back. Nothing is shown as done before the store committed it: a key sends
//! `Write::Triage`, the writer commits, `Msg::Triaged` updates the rows.

use std::collections::HashMap;

use jiff::{SignedDuration, Timestamp};
use ratatui_textarea::TextArea;

use crate::overlay::Overlay;
use crate::state::AppState;
use crate::team::TeamShown;
use feedback_store::{Triage, TriageChange};

mod snooze;
pub use snooze::{CHOICES, choice_time};

pub use feedback_config::triage::SEEN_DELAY_MS;
/// Undo steps kept.
pub(crate) const UNDO_DEPTH: usize = 20;

/// Where "mark all in this view seen" is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllSeen {
    /// A view of this many items asked to be confirmed: the same key again goes on.
    Confirming { items: usize },
    /// The view's ids are being read (`Read::ViewIds`).
    Reading { request_id: u64 },
}

/// The triage part of `AppState`.
#[derive(Debug, Clone)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent settings (advance, an editor, no store) and what was said once"
)]
pub struct TriageState {
    /// Every item's triage state the inbox holds, and the view's unseen count.
    pub overlay: Overlay,
    /// The store's triage write count as of the last query (`store::TRIAGE_REV`).
    pub rev: i64,
    /// When the earliest snooze ends: the view is read again then.
    pub next_wake: Option<Timestamp>,
    /// Each step undoes one action (a triage key's or a team key's), newest last.
    pub undo: Vec<UndoStep>,
    /// `U` pressed while writes were in flight: undone once they committed (the step of the
    /// action just sent is not kept before its answer).
    pub undo_waiting: usize,
    pub writing: u32,
    /// The team changes sent to the outbox and not answered yet, in the order they were sent
    /// (the writes' lane answers in that order): what each answer does.
    pub recording: std::collections::VecDeque<Recording>,
    /// A `U`'s items are being read (`Write::UndoStates`): another `U` waits for it.
    pub undo_reading: bool,
    /// Opening a detail marks its item seen after this long.
    pub seen_delay: SignedDuration,
    /// After an action the selection moves to the next item.
    pub advance: bool,
    /// How long the open detail has been in sight, towards its seen mark.
    pub seen_timer: Option<SeenTimer>,
    /// `$EDITOR` has the terminal (the detail is out of sight) until `Msg::NoteEdited`.
    pub editing_outside: bool,
    pub picker: Option<SnoozePicker>,
    pub note: Option<NoteEditor>,
    /// "Mark all seen" on its way: asked to confirm, or reading the view's ids.
    pub all_seen: Option<AllSeen>,
    /// Notes typed and left with Esc unsaved, by the items they were for: `N` there again
    /// brings the text back (saving or emptying it drops the draft).
    pub drafts: HashMap<Vec<String>, String>,
    /// `--no-store`: triage lives in memory; said once, at the first action.
    pub memory_only: bool,
    pub memory_said: bool,
    /// `$EDITOR` or `$VISUAL` is set: `N` runs it instead of the inline editor.
    pub external_editor: bool,
}

impl Default for TriageState {
    fn default() -> Self {
        Self {
            overlay: Overlay::default(),
            rev: 0,
            next_wake: None,
            undo: Vec::new(),
            undo_waiting: 0,
            writing: 0,
            recording: std::collections::VecDeque::new(),
            undo_reading: false,
            seen_delay: SignedDuration::from_millis(
                i64::try_from(SEEN_DELAY_MS).unwrap_or(i64::MAX),
            ),
            advance: true,
            seen_timer: None,
            editing_outside: false,
            picker: None,
            all_seen: None,
            note: None,
            drafts: HashMap::new(),
            memory_only: false,
            memory_said: false,
            external_editor: false,
        }
    }
}

/// The time an item has been in sight (in the detail or the preview), counted tick to tick from the first tick after it
/// opened (a key carries no time: counting from the last tick's would start up to a tick
/// early), and only while nothing covers it (help, picker, note editor, `$EDITOR`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenTimer {
    pub id: String,
    pub shown: SignedDuration,
    /// The last tick that counted; `None` at the start and after a pause.
    pub last: Option<Timestamp>,
    /// The item was marked seen in this stay in sight (a `u` since is left alone).
    pub spent: bool,
}

/// At most this much counts between two ticks: after the loop was held up (a blocked
/// terminal), the gap was not time in sight.
pub(crate) const MAX_SEEN_STEP: SignedDuration = SignedDuration::from_millis(500);

/// The `z` picker: a few times, or a typed duration.
#[derive(Debug, Clone, Default)]
pub struct SnoozePicker {
    pub ids: Vec<String>,
    pub selected: usize,
    /// A duration being typed (`3d`), which Enter takes over the selection.
    pub input: String,
    pub error: Option<feedback_core::text::Clean>,
}

/// The inline note editor of `N`.
#[derive(Debug, Clone)]
pub struct NoteEditor {
    pub ids: Vec<String>,
    pub area: TextArea<'static>,
    /// The text the editor opened with (the stored note, or the draft): leaving with Esc keeps
    /// the text as a draft only when it differs from the stored note.
    pub stored: String,
    /// The editor opened on a kept draft.
    pub draft: bool,
}

/// What started a triage write, which decides what its answer does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// A key: undoable, and the selection advances when configured.
    Key,
    /// The detail was shown long enough: seen, quietly.
    Shown,
    /// `U`.
    Undo,
    /// Every item of the view at once ("mark all seen"): undoable; the selection stays.
    All,
}

/// How to undo one action, and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoStep {
    /// The action as a noun ("claim", "done", "labels"), for `Undone: claim of 2qgddabg`.
    pub what: String,
    pub undo: Undo,
}

/// The part of an item's state an action changed, per item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undo {
    /// Each item's inverse change (`TriageChange::inverse`), and its state as the action left
    /// it (a change since, on the same field, is told before undoing over it).
    Triage {
        changes: Vec<(String, TriageChange)>,
        left: Vec<(String, Triage)>,
    },
    /// Each item's team state before and after a team key's change.
    Team(Vec<(String, TeamUndo)>),
}

impl UndoStep {
    /// The items the step changes.
    #[must_use]
    pub fn ids(&self) -> Vec<String> {
        match &self.undo {
            Undo::Triage { changes, .. } => changes.iter().map(|(id, _)| id.clone()).collect(),
            Undo::Team(items) => items.iter().map(|(id, _)| id.clone()).collect(),
        }
    }
}

/// The states of an undo step's items as the store holds them now (the team's with this
/// member's unsent changes laid over): an item out of the view is known here too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UndoStates {
    pub triage: HashMap<String, Triage>,
    pub team: HashMap<String, TeamShown>,
}

impl UndoStates {
    /// Reads `ids`' states from `store`.
    ///
    /// # Errors
    /// The store's.
    pub fn read(
        store: &feedback_store::Store,
        ids: &[String],
    ) -> Result<Self, feedback_store::StoreError> {
        let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let triage = store.triage_of(&refs)?;
        let team = feedback_team_sync::states_now(store, ids)?
            .into_iter()
            .map(|state| (state.item_id.clone(), TeamShown::from(state)))
            .collect();
        Ok(Self { triage, team })
    }
}

/// What a team change did to one item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamUndo {
    /// The owner went from `before` to `after`.
    Owner {
        before: Option<String>,
        after: Option<String>,
    },
    /// These labels were added (they were not there) and removed (they were).
    Labels {
        added: Vec<String>,
        removed: Vec<String>,
    },
    /// The link to `url` was `before` (none: not linked) and the change made it `after`.
    Link {
        url: String,
        before: Option<feedback_core::link::Link>,
        after: Option<feedback_core::link::Link>,
    },
}

/// What the answer to a team change in the outbox does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recording {
    /// A key's change: said ("Claimed fb_1"), then kept for `U`.
    Action { said: String, step: UndoStep },
    /// An undo's changes: "Undone: …" said; the step goes back on the stack when they could
    /// not be recorded (nothing was undone).
    Undoing { said: String, step: UndoStep },
}

/// A committed triage write: every item's state after it, and how to undo it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Triaged {
    /// Each item's state after the write, in the order of `before`.
    pub after: Vec<(String, Triage)>,
    pub before: Vec<(String, Triage)>,
    /// The changes that undo this write, per item (empty for an undo).
    pub undo: Vec<(String, TriageChange)>,
    /// Done or snooze changed: items may have left the view or come back.
    pub hides: bool,
    /// The store's triage write count just after this write.
    pub rev: i64,
    pub cause: Cause,
    /// What was done, for the note ("starred", "snoozed until Mon 09:00").
    pub what: String,
    /// How many changes went to the team's outbox with it (to be sent).
    pub shared: usize,
}

/// The committed triage state of item `id` as the inbox knows it (untouched when it holds
/// none).
#[must_use]
pub fn known(state: &AppState, id: &str) -> Triage {
    state.triage.overlay.shown(id)
}

/// The glyphs of a state, in a fixed order (● unseen, ★ starred, ✓ done, ◷ woken, ⏾ snoozed,
/// ✎ note), so
/// the state shows without colour.
#[must_use]
pub(crate) fn glyphs(state: &Triage, now: Timestamp) -> String {
    let mut out = String::new();
    for (on, glyph) in [
        (!state.seen, '●'),
        (state.starred, '★'),
        (state.done, '✓'),
        (state.woke(now).is_some(), '◷'),
        (state.snoozed(now), '⏾'),
        (state.has_note(), '✎'),
    ] {
        if on {
            out.push(glyph);
        }
    }
    out
}
