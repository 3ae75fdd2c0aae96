//! Which actions each screen takes: one table, read by the key translation (a key whose action
//! the screen on top does not take is answered "`d` does nothing in the help", never passed on
//! to the screen under it nor swallowed) and by the help (the keys of the screen you are on
//! first). A screen that takes every key as typing or choosing (the prompt, the palette, the
//! pickers, the note editor) has its own keys, not actions.

use super::action::Action;
use super::state::Mode;

/// What a mode takes of the key map's actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Every action.
    All,
    /// The moves when `moves`, and these, in the order its help lists them.
    Only {
        moves: bool,
        actions: &'static [Action],
    },
    /// No action: every key is typing or choosing.
    Typing,
}

/// The moves, which scroll a text or move a selection on every screen that shows one.
pub(crate) const MOVES: [Action; 6] = [
    Action::MoveDown,
    Action::MoveUp,
    Action::PageDown,
    Action::PageUp,
    Action::Top,
    Action::Bottom,
];

const HELP: &[Action] = &[Action::Help, Action::Back, Action::Leave, Action::Quit];

const MESSAGES: &[Action] = &[
    Action::CopyMessage,
    Action::CopyLink,
    Action::CopyId,
    Action::CopyJson,
    Action::CopyMarkdown,
    Action::Back,
    Action::Leave,
    Action::Quit,
    Action::Messages,
    Action::Help,
];

const FATAL: &[Action] = &[Action::Reload, Action::Back, Action::Quit];

const TOP_ISSUES: &[Action] = &[
    Action::NextItem,
    Action::PrevItem,
    Action::Open,
    Action::Back,
    Action::Leave,
    Action::Quit,
    Action::TopIssues,
    Action::Help,
    Action::Messages,
];

/// The detail: it scrolls, acts on its item, moves to the next and previous item, and goes
/// back; Enter does not close it.
const DETAIL: &[Action] = &[
    Action::NextItem,
    Action::PrevItem,
    Action::Back,
    Action::Leave,
    Action::Quit,
    Action::Reload,
    Action::CopyLink,
    Action::CopyMessage,
    Action::CopyId,
    Action::OpenLink,
    Action::CopyMarkdown,
    Action::CopyJson,
    Action::Pipe,
    Action::ToggleSeen,
    Action::ToggleStar,
    Action::ToggleDone,
    Action::Snooze,
    Action::EditNote,
    Action::UndoTriage,
    Action::Similar,
    Action::Claim,
    Action::Assign,
    Action::EditLabels,
    Action::EditLinks,
    Action::Reply,
    Action::TogglePrivacy,
    Action::TogglePreview,
    Action::ToggleSidebar,
    Action::Enrich,
    Action::TopIssues,
    Action::ToggleMouse,
    Action::Palette,
    Action::Help,
    Action::Messages,
];

/// The grouped view: its groups move and open; the view, the status and the search change
/// under it; an item's keys need an item, which the groups are not.
const GROUPED: &[Action] = &[
    Action::NextItem,
    Action::PrevItem,
    Action::Open,
    Action::Back,
    Action::Leave,
    Action::Quit,
    Action::GroupBy,
    Action::Trends,
    Action::Enrich,
    Action::Filter,
    Action::ToggleStatus,
    Action::Reload,
    Action::View(1),
    Action::View(2),
    Action::View(3),
    Action::View(4),
    Action::View(5),
    Action::View(6),
    Action::View(7),
    Action::View(8),
    Action::View(9),
    Action::NextView,
    Action::ClearAll,
    Action::FocusNext,
    Action::FocusPrev,
    Action::ToggleSidebar,
    Action::TogglePrivacy,
    Action::ToggleMouse,
    Action::Palette,
    Action::Help,
    Action::Messages,
];

impl Mode {
    /// The actions this mode takes.
    #[must_use]
    pub fn takes(self) -> Takes {
        match self {
            Mode::Normal => Takes::All,
            Mode::Detail => Takes::Only {
                moves: true,
                actions: DETAIL,
            },
            Mode::Grouped => Takes::Only {
                moves: true,
                actions: GROUPED,
            },
            Mode::TopIssues => Takes::Only {
                moves: true,
                actions: TOP_ISSUES,
            },
            Mode::Help => Takes::Only {
                moves: true,
                actions: HELP,
            },
            Mode::Messages => Takes::Only {
                moves: true,
                actions: MESSAGES,
            },
            Mode::Fatal => Takes::Only {
                moves: false,
                actions: FATAL,
            },
            Mode::ActingPicker
            | Mode::GroupPicker
            | Mode::NoteEditor
            | Mode::TriagePicker
            | Mode::TeamPrompt
            | Mode::LinkPrompt
            | Mode::ReplyComposer
            | Mode::Palette
            | Mode::FilterPrompt => Takes::Typing,
        }
    }

    /// True when this mode takes `action` (a typing mode takes none).
    #[must_use]
    pub(crate) fn takes_action(self, action: Action) -> bool {
        match self.takes() {
            Takes::All => true,
            Takes::Only { moves, actions } => {
                (moves && MOVES.contains(&action)) || actions.contains(&action)
            }
            Takes::Typing => false,
        }
    }

    /// The screen as a sentence names it: "does nothing in the help".
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Fatal => "the error screen",
            Mode::Help => "the help",
            Mode::Messages => "the message log",
            Mode::ActingPicker | Mode::GroupPicker | Mode::TriagePicker => "the picker",
            Mode::NoteEditor => "the note editor",
            Mode::TeamPrompt => "the team's prompt",
            Mode::LinkPrompt => "the link prompt",
            Mode::ReplyComposer => "the reply",
            Mode::Palette => "the palette",
            Mode::FilterPrompt => "the search prompt",
            Mode::TopIssues => "Top issues",
            Mode::Detail => "the detail",
            Mode::Grouped => "the grouped view",
            Mode::Normal => "the list",
        }
    }

    /// What the status bar hints at on this screen, most useful first (the bar drops the
    /// hints first when short of room).
    #[must_use]
    pub fn hints(self) -> Hints {
        match self {
            Mode::Normal => Hints::Keys(&[(Action::Quit, "quit"), (Action::Help, "help")]),
            Mode::Detail => Hints::Keys(&[
                (Action::Back, "back"),
                (Action::NextItem, "next"),
                (Action::CopyLink, "copy link"),
                (Action::Help, "help"),
            ]),
            Mode::Grouped => Hints::Keys(&[
                (Action::Open, "open group"),
                (Action::GroupBy, "group by"),
                (Action::Back, "back"),
                (Action::Help, "help"),
            ]),
            Mode::TopIssues => Hints::Keys(&[
                (Action::Open, "open"),
                (Action::Back, "back"),
                (Action::Help, "help"),
            ]),
            Mode::Messages => {
                Hints::Keys(&[(Action::CopyMessage, "copy"), (Action::Back, "close")])
            }
            Mode::Help => Hints::Keys(&[(Action::Back, "close")]),
            Mode::Fatal => Hints::Keys(&[(Action::Reload, "retry"), (Action::Quit, "quit")]),
            Mode::FilterPrompt => Hints::Typing("tab complete  ↑ history  enter keep  esc clear"),
            Mode::Palette => Hints::Typing("enter run  esc cancel"),
            Mode::NoteEditor => Hints::Typing("enter save  alt-enter new line  esc cancel"),
            Mode::ActingPicker
            | Mode::GroupPicker
            | Mode::TriagePicker
            | Mode::TeamPrompt
            | Mode::LinkPrompt => Hints::Typing("enter choose  esc cancel"),
            Mode::ReplyComposer => Hints::Typing("enter go on  tab subject  esc cancel"),
        }
    }
}

/// A screen's hints: its actions with a word each (the keys as bound), or, for a screen that
/// takes every key, its own keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hints {
    Keys(&'static [(Action, &'static str)]),
    Typing(&'static str),
}
