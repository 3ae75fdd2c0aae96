//! The reading part of `AppState`: the preview pane's switch
//! and its debounce, the sidebar's switch, and a side pane's type-ahead buffer; and the key
//! translation of that buffer, which the run loop asks before the key map (in a pane, printable
//! keys are text except the pane's own keys; see [`typeahead_key`]).

use jiff::{SignedDuration, Timestamp};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, Msg};
use super::keymap::Keymap;
use super::state::{AppState, Focus, Mode};

/// The preview is on by itself from this many columns.
pub const PREVIEW_AUTO_WIDTH: u16 = 160;
/// The sidebar hides itself below this many columns (`b` can still show it down to 80).
pub(crate) const SIDEBAR_AUTO_WIDTH: u16 = 100;
/// The preview asks for an item once the selection rested this long (a held `j` asks for
/// nothing until it is let go).
pub(crate) const PREVIEW_DEBOUNCE: SignedDuration = SignedDuration::from_millis(150);
/// A type-ahead buffer ends this long after its last letter.
pub(crate) const TYPEAHEAD_LIFE: SignedDuration = SignedDuration::from_secs(1);

/// Whether the preview is shown, as chosen in `config.toml` (`preview = "auto" | true | false`).
pub use feedback_config::preview::PreviewSetting;

/// The preview pane.
#[derive(Debug, Clone, Default)]
pub struct Preview {
    pub setting: PreviewSetting,
    /// `p` was pressed: the user's choice wins over the setting until restart.
    pub user: Option<bool>,
    /// The item whose detail the preview asked for (its store read, then maybe the service).
    pub asked: Option<String>,
    /// The selection moved since the last tick (or a read was just sent): a further move waits
    /// for the selection to rest.
    pub moved: bool,
    /// When the selection has rested long enough to ask for its item.
    pub due: Option<Timestamp>,
    /// The item whose detail the preview fetches from the service.
    pub fetching: Option<String>,
}

/// A side pane's type-ahead buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeAhead {
    pub text: String,
    /// When the last letter was typed (the clock of the last tick).
    pub at: Timestamp,
}

/// The reading part of `AppState`.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub preview: Preview,
    /// `b`: the user's choice for the sidebar (`None`: shown from [`SIDEBAR_AUTO_WIDTH`]).
    pub sidebar: Option<bool>,
    pub typeahead: Option<TypeAhead>,
}

/// A key for the type-ahead buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKey {
    Char(char),
    Backspace,
}

/// True when the preview is switched on (whether or not there is room or a list to show it).
#[must_use]
pub fn preview_on(state: &AppState) -> bool {
    // The grouped view has no item to preview (the list's would be out of place).
    if state.insight.grouped.is_some() {
        return false;
    }
    let preview = &state.reading.preview;
    preview.user.unwrap_or(match preview.setting {
        PreviewSetting::Auto => state.width >= PREVIEW_AUTO_WIDTH,
        PreviewSetting::On => true,
        PreviewSetting::Off => false,
    })
}

/// True when the sidebar is shown at the state's width.
#[must_use]
pub(crate) fn sidebar_shown(state: &AppState) -> bool {
    state.width >= crate::layout::SIDEBAR_MIN_WIDTH
        && state
            .reading
            .sidebar
            .unwrap_or(state.width >= SIDEBAR_AUTO_WIDTH)
}

/// Actions whose keys keep their meaning in a side pane when no type-ahead buffer is live: the
/// pane's own navigation (moves, `x`, Tab, Enter, Esc), quitting, help and the palette. Any
/// other printable key (a letter, a digit, punctuation) starts a buffer there, so typing
/// "crash" in the Tags pane jumps to `crash` instead of copying (`c`) and syncing (`r`).
const PANE_KEYS: &[Action] = &[
    Action::MoveDown,
    Action::MoveUp,
    Action::Top,
    Action::Bottom,
    Action::PageDown,
    Action::PageUp,
    Action::ClearFilter,
    Action::FocusNext,
    Action::FocusPrev,
    Action::Open,
    Action::Back,
    Action::Leave,
    Action::Quit,
    Action::Help,
    Action::Palette,
];

/// The message a key makes for a side pane's type-ahead, if it is one. While a pane has the
/// keyboard (nothing over it):
/// - with no buffer live, a printable key starts one unless it is bound to one of
///   [`PANE_KEYS`] (those keep their meaning: `j` `k` `g` `G` `h` `x` `q` `?` `:`) or is a space;
/// - while a buffer is live, every printable key extends it (Backspace shortens it), except
///   the palette key (`:`), which ends the buffer and opens the palette (labels hold no `:`).
#[must_use]
pub(crate) fn typeahead_key(key: &KeyEvent, state: &AppState, keymap: &Keymap) -> Option<Msg> {
    let open = matches!(state.mode(), Mode::Normal | Mode::Grouped);
    if !open || state.focus == Focus::List {
        return None;
    }
    let live = state.reading.typeahead.is_some();
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    let bound = keymap.action(key);
    match key.code {
        KeyCode::Backspace if live => Some(Msg::TypeAhead(TypeKey::Backspace)),
        KeyCode::Char(_) if bound == Some(Action::Palette) => None,
        // A space extends a buffer (labels have spaces) but starts none.
        KeyCode::Char(c)
            if !c.is_control()
                && (live
                    || (!c.is_whitespace() && !bound.is_some_and(|a| PANE_KEYS.contains(&a)))) =>
        {
            Some(Msg::TypeAhead(TypeKey::Char(c)))
        }
        _ => None,
    }
}

/// Actions that end a type-ahead buffer before they do what they do.
#[must_use]
pub(crate) fn ends_typeahead(action: Action) -> bool {
    !matches!(action, Action::Help | Action::ToggleMouse)
}
