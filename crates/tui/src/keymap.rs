//! Keys → actions. Defaults below; `config.toml` may rebind any action under `[keys]`
//! (`action = "key"` or `action = ["key", "key"]`); a key it binds is taken from the action it
//! was a default of. An unknown action, an unknown key name or a key the file binds to two
//! actions is reported with the file's line. Ctrl-C is not in the table: it
//! always quits, from every screen and prompt (see [`is_interrupt`]), so it cannot be bound.

use std::collections::{BTreeMap, HashMap};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;
use thiserror::Error;

use super::action::Action;
use feedback_config::views::line_of;

/// A key with the modifiers that matter (Shift is folded into the character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Chord {
    pub code: ChordCode,
    pub ctrl: bool,
    pub alt: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ChordCode {
    Char(char),
    Named(&'static str),
    F(u8),
}

const NAMED: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("pageup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("backspace", KeyCode::Backspace),
    ("delete", KeyCode::Delete),
    ("insert", KeyCode::Insert),
];

impl Chord {
    /// Parses `j`, `G`, `?`, `space`, `enter`, `ctrl-d`, `alt-x`, `shift-tab`, `f5`, ...
    #[must_use]
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower
                .strip_prefix("ctrl-")
                .or_else(|| lower.strip_prefix("c-"))
            {
                ctrl = true;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower
                .strip_prefix("alt-")
                .or_else(|| lower.strip_prefix("m-"))
            {
                alt = true;
                rest = &rest[rest.len() - r.len()..];
            } else if lower == "shift-tab" {
                return Some(Self {
                    code: ChordCode::Named("backtab"),
                    ctrl,
                    alt,
                });
            } else {
                break;
            }
        }
        let code = Self::parse_code(rest)?;
        Some(Self { code, ctrl, alt })
    }

    fn parse_code(text: &str) -> Option<ChordCode> {
        let mut chars = text.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Some(ChordCode::Char(c));
        }
        let lower = text.to_ascii_lowercase();
        if lower == "space" {
            return Some(ChordCode::Char(' '));
        }
        if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
            return (1..=12).contains(&n).then_some(ChordCode::F(n));
        }
        NAMED
            .iter()
            .find(|(name, _)| *name == lower)
            .map(|(name, _)| ChordCode::Named(name))
    }

    /// The chord of a terminal key event.
    #[must_use]
    pub(crate) fn from_event(key: &KeyEvent) -> Option<Self> {
        let code = match key.code {
            KeyCode::Char(c) => ChordCode::Char(c),
            KeyCode::F(n) => ChordCode::F(n),
            other => ChordCode::Named(NAMED.iter().find(|(_, k)| *k == other)?.0),
        };
        Some(Self {
            code,
            ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
            alt: key.modifiers.contains(KeyModifiers::ALT),
        })
    }

    /// Ctrl-C, which is never looked up in the table.
    fn is_interrupt(&self) -> bool {
        self.ctrl && matches!(self.code, ChordCode::Char('c' | 'C'))
    }

    /// How the chord is written in help and config.
    #[must_use]
    pub(crate) fn label(&self) -> String {
        let key = match self.code {
            ChordCode::Char(' ') => "space".to_owned(),
            ChordCode::Char(c) => c.to_string(),
            ChordCode::Named(n) => n.to_owned(),
            ChordCode::F(n) => format!("f{n}"),
        };
        format!(
            "{}{}{key}",
            if self.ctrl { "ctrl-" } else { "" },
            if self.alt { "alt-" } else { "" }
        )
    }
}

const DEFAULTS: &[(Action, &[&str])] = &[
    (Action::MoveDown, &["j", "down"]),
    (Action::MoveUp, &["k", "up"]),
    (Action::Top, &["g", "home"]),
    (Action::Bottom, &["G", "end"]),
    (Action::PageDown, &["pagedown", "ctrl-d"]),
    (Action::PageUp, &["pageup", "ctrl-u"]),
    (Action::Open, &["enter"]),
    (Action::Back, &["esc"]),
    (Action::FocusNext, &["tab"]),
    (Action::FocusPrev, &["backtab"]),
    (Action::ClearFilter, &["x"]),
    (Action::ToggleStatus, &["s"]),
    (Action::Filter, &["/"]),
    (Action::Reload, &["r"]),
    (Action::CopyLink, &["y"]),
    (Action::CopyMessage, &["Y"]),
    (Action::CopyId, &["i"]),
    (Action::OpenLink, &["o"]),
    (Action::Help, &["?"]),
    (Action::Quit, &["q"]),
    (Action::ToggleMouse, &["m"]),
    (Action::ToggleSeen, &["u"]),
    (Action::ToggleStar, &["*"]),
    (Action::ToggleDone, &["d"]),
    (Action::Snooze, &["z"]),
    (Action::EditNote, &["N"]),
    (Action::UndoTriage, &["U"]),
    // Saved views and the command palette.
    (Action::View(1), &["1"]),
    (Action::View(2), &["2"]),
    (Action::View(3), &["3"]),
    (Action::View(4), &["4"]),
    (Action::View(5), &["5"]),
    (Action::View(6), &["6"]),
    (Action::View(7), &["7"]),
    (Action::View(8), &["8"]),
    (Action::View(9), &["9"]),
    (Action::NextView, &[";"]),
    (Action::ClearAll, &["X"]),
    (Action::Palette, &[":"]),
    // Acting on items.
    (Action::ToggleMark, &["space"]),
    (Action::MarkRange, &["V"]),
    (Action::CopyMarkdown, &["c"]),
    (Action::CopyJson, &["C"]),
    (Action::Pipe, &["|"]),
    (Action::TogglePrivacy, &["P"]),
    // Preview, next/previous item, sidebar.
    (Action::TogglePreview, &["p"]),
    (Action::NextItem, &["J", "]"]),
    (Action::PrevItem, &["K", "["]),
    (Action::ToggleSidebar, &["b"]),
    // Grouped view and trends.
    (Action::GroupBy, &["="]),
    (Action::Trends, &["t"]),
    (Action::Enrich, &["e"]),
    // Top issues.
    (Action::TopIssues, &["T"]),
    (Action::Similar, &["S"]),
    // The team.
    (Action::Claim, &["a"]),
    (Action::Assign, &["A"]),
    (Action::EditLabels, &["L"]),
    // An editor's key for a link (`l` stays free to mean forward, as `h` means back).
    (Action::EditLinks, &["ctrl-k"]),
    // As aerc and neomutt reply.
    (Action::Reply, &["R"]),
    (Action::Messages, &["M"]),
    (Action::MarkAllSeen, &["ctrl-a"]),
    (Action::Leave, &["h", "left", "backspace"]),
];

/// The key table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: HashMap<Chord, Action>,
    /// Keys per action, in the order given, for help.
    keys: BTreeMap<usize, (Action, Vec<Chord>)>,
}

#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file}:{line}: {message}")]
pub struct KeymapError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum KeyList {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize, Default)]
struct KeysDoc {
    #[serde(default)]
    keys: BTreeMap<toml::Spanned<String>, toml::Spanned<KeyList>>,
}

impl Default for Keymap {
    fn default() -> Self {
        let table: Vec<(Action, Vec<Chord>)> = DEFAULTS
            .iter()
            .map(|(a, keys)| (*a, keys.iter().filter_map(|k| Chord::parse(k)).collect()))
            .collect();
        Self::from_table(table)
    }
}

impl Keymap {
    fn from_table(table: Vec<(Action, Vec<Chord>)>) -> Self {
        let mut bindings = HashMap::new();
        let mut keys = BTreeMap::new();
        for (action, chords) in table {
            for chord in &chords {
                bindings.insert(*chord, action);
            }
            let order = Action::ALL
                .iter()
                .position(|(a, _, _)| *a == action)
                .unwrap_or(usize::MAX);
            keys.insert(order, (action, chords));
        }
        Self { bindings, keys }
    }

    /// Defaults with the `[keys]` table of a config file's text applied.
    pub fn from_config(text: &str, file: &str) -> Result<Self, KeymapError> {
        let doc: KeysDoc = toml::from_str(text).map_err(|e| KeymapError {
            file: file.to_owned(),
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            message: e.message().to_owned(),
        })?;
        let mut table: BTreeMap<Action, (Vec<Chord>, Option<usize>)> = DEFAULTS
            .iter()
            .map(|(a, k)| {
                (
                    *a,
                    (k.iter().filter_map(|k| Chord::parse(k)).collect(), None),
                )
            })
            .collect();
        for (name, value) in doc.keys {
            let line = line_of(text, name.span().start);
            let err = |message: String| KeymapError {
                file: file.to_owned(),
                line,
                message,
            };
            let action = Action::from_name(name.get_ref())
                .ok_or_else(|| err(unknown_action(name.get_ref())))?;
            let names = match value.into_inner() {
                KeyList::One(k) => vec![k],
                KeyList::Many(ks) => ks,
            };
            let chords = names
                .iter()
                .map(|k| match Chord::parse(k) {
                    Some(chord) if chord.is_interrupt() => Err(err(format!(
                        "\"{k}\" always quits and cannot be bound to {}",
                        action.name()
                    ))),
                    Some(chord) => Ok(chord),
                    None => Err(err(format!(
                        "unknown key name \"{k}\" for {}",
                        action.name()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            table.insert(action, (chords, Some(line)));
        }
        // A key the file binds leaves the action it was a default of (`back = "backspace"`
        // takes Backspace from `leave`); two actions the file binds to one key are an error.
        let bound: Vec<Chord> = table
            .values()
            .filter(|(_, line)| line.is_some())
            .flat_map(|(chords, _)| chords.iter().copied())
            .collect();
        for (chords, line) in table.values_mut() {
            if line.is_none() {
                chords.retain(|c| !bound.contains(c));
            }
        }
        check_duplicates(&table, file)?;
        Ok(Self::from_table(
            table.into_iter().map(|(a, (k, _))| (a, k)).collect(),
        ))
    }

    /// The action bound to a key event (Ctrl-C is handled before the table: [`is_interrupt`]).
    #[must_use]
    pub fn action(&self, key: &KeyEvent) -> Option<Action> {
        self.bindings.get(&Chord::from_event(key)?).copied()
    }

    /// (keys, action name, description) for every action, in help order.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn help_rows(&self) -> Vec<(String, &'static str, &'static str)> {
        self.action_rows()
            .into_iter()
            .map(|(_, keys, name, text)| (keys, name, text))
            .collect()
    }

    /// [`Keymap::help_rows`] with each row's action.
    #[must_use]
    pub(crate) fn action_rows(&self) -> Vec<(Action, String, &'static str, &'static str)> {
        Action::ALL
            .iter()
            .map(|(action, name, text)| {
                let keys = self
                    .keys
                    .values()
                    .find(|(a, _)| a == action)
                    .map(|(_, chords)| {
                        chords
                            .iter()
                            .map(Chord::label)
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default();
                (*action, keys, *name, *text)
            })
            .collect()
    }

    /// The first key bound to `action`, for hints.
    #[must_use]
    pub fn key_for(&self, action: Action) -> String {
        self.keys
            .values()
            .find(|(a, _)| *a == action)
            .and_then(|(_, chords)| chords.first())
            .map_or_else(|| "—".to_owned(), Chord::label)
    }
}

impl PartialOrd for Action {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Action {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let pos = |a: &Action| Action::ALL.iter().position(|(x, _, _)| x == a);
        pos(self).cmp(&pos(other))
    }
}

/// True for Ctrl-C, which quits at once wherever it is pressed (`q` goes back in the detail and
/// is text in the prompt, so it cannot be the same action).
#[must_use]
pub(crate) fn is_interrupt(key: &KeyEvent) -> bool {
    matches!(key.code, KeyCode::Char('c' | 'C')) && key.modifiers.contains(KeyModifiers::CONTROL)
}

fn unknown_action(name: &str) -> String {
    let known: Vec<&str> = Action::ALL.iter().map(|(_, n, _)| *n).collect();
    format!("unknown action \"{name}\" (actions: {})", known.join(", "))
}

fn check_duplicates(
    table: &BTreeMap<Action, (Vec<Chord>, Option<usize>)>,
    file: &str,
) -> Result<(), KeymapError> {
    let mut seen: HashMap<Chord, (Action, Option<usize>)> = HashMap::new();
    for (action, (chords, line)) in table {
        for chord in chords {
            if let Some((other, other_line)) = seen.insert(*chord, (*action, *line))
                && other != *action
            {
                return Err(KeymapError {
                    file: file.to_owned(),
                    line: line.or(other_line).unwrap_or(1),
                    message: format!(
                        "key \"{}\" is bound to both {} and {}",
                        chord.label(),
                        other.name(),
                        action.name()
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
