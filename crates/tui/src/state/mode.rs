//! Which screen owns the keyboard: the one on top. Keys, pastes and clicks are routed by this
//! one answer (`runtime::translate` and `update`), so no two places can disagree about what is
//! open.

use super::AppState;

/// The screen on top, most covering first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The fatal screen: quit, or try again.
    Fatal,
    /// The help overlay: it scrolls, and closes.
    Help,
    /// The message log's overlay: it scrolls, copies, and closes.
    Messages,
    /// A picker of the acting keys (the pipe's commands, the copy formats): takes every key.
    ActingPicker,
    /// The `=` group-by picker: takes every key.
    GroupPicker,
    /// The note editor: takes every key.
    NoteEditor,
    /// A triage picker (snooze): takes every key.
    TriagePicker,
    /// A team key's prompt (take over, assign, labels): takes every key.
    TeamPrompt,
    /// The link prompt (`ctrl-k`): takes every key.
    LinkPrompt,
    /// The reply composer (`R`): takes every key.
    ReplyComposer,
    /// The `:` command palette: takes every key.
    Palette,
    /// The `/` prompt while typing.
    FilterPrompt,
    /// The Top issues screen.
    TopIssues,
    /// An item's detail.
    Detail,
    /// The grouped view (`=`).
    Grouped,
    /// The list and the side panes.
    Normal,
}

/// What a click or the wheel reaches in a mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pointer {
    /// The grouped view's groups.
    Groups,
    /// The list and the side panes (a click selects, the wheel scrolls).
    List,
    /// The detail: the wheel scrolls it, a click does nothing.
    Detail,
    /// Top issues: the wheel moves its selection, a click does nothing.
    TopIssues,
    /// Something covers the list: nothing.
    Nothing,
}

impl Mode {
    /// What a click or the wheel reaches: nothing under an overlay, a picker or an editor.
    #[must_use]
    pub fn pointer(self) -> Pointer {
        match self {
            Mode::Grouped => Pointer::Groups,
            // The prompt leaves the list under it in sight and within reach.
            Mode::Normal | Mode::FilterPrompt => Pointer::List,
            Mode::Detail => Pointer::Detail,
            Mode::TopIssues => Pointer::TopIssues,
            Mode::Fatal
            | Mode::Help
            | Mode::Messages
            | Mode::ActingPicker
            | Mode::GroupPicker
            | Mode::NoteEditor
            | Mode::TriagePicker
            | Mode::TeamPrompt
            | Mode::LinkPrompt
            | Mode::ReplyComposer
            | Mode::Palette => Pointer::Nothing,
        }
    }
}

impl AppState {
    /// True when the list has something `h` goes back from: a focused side pane, or a similar
    /// list shown in it (on the other screens it closes the screen on top).
    #[must_use]
    pub(crate) fn can_leave(&self) -> bool {
        self.focus != super::Focus::List || self.similar.shown.is_some()
    }

    /// The screen that owns the keyboard now.
    #[must_use]
    pub fn mode(&self) -> Mode {
        if self.fatal.is_some() {
            Mode::Fatal
        } else if self.help {
            Mode::Help
        } else {
            self.mode_below_help()
        }
    }

    /// The screen the help is over (the screen on top when no help is open): its keys are
    /// the help's first.
    #[must_use]
    pub fn mode_below_help(&self) -> Mode {
        if self.fatal.is_some() {
            Mode::Fatal
        } else if self.log_open.is_some() {
            Mode::Messages
        } else if self.acting.picker.is_some() {
            Mode::ActingPicker
        } else if self.insight.picker.is_some() {
            Mode::GroupPicker
        } else if self.triage.note.is_some() {
            Mode::NoteEditor
        } else if self.triage.picker.is_some() {
            Mode::TriagePicker
        } else if self.team.as_ref().is_some_and(|t| t.prompt.is_some()) {
            Mode::TeamPrompt
        } else if self.link_prompt.is_some() {
            Mode::LinkPrompt
        } else if self.mail.composer.is_some() {
            Mode::ReplyComposer
        } else if self.palette.is_some() {
            Mode::Palette
        } else if self.text_filter.as_ref().is_some_and(|f| f.editing) {
            Mode::FilterPrompt
        } else if self.top_issues.is_some() {
            Mode::TopIssues
        } else if self.detail.is_some() {
            Mode::Detail
        } else if self.insight.grouped.is_some() {
            Mode::Grouped
        } else {
            Mode::Normal
        }
    }
}
