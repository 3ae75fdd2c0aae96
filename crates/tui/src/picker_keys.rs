//! The keys every picker shares (pipe and copy formats, group-by, snooze, assign): `↑↓`,
//! `Tab`/`Shift-Tab` and `Ctrl-N`/`Ctrl-P` move; `j`/`k` move and `1`–`9` choose one of the
//! first nine entries while nothing is typed; `Enter` chooses the selected entry; `Esc` cancels
//! (and `q`, in a picker that takes no typing). Anything else is the picker's own: a letter
//! narrowing it, a duration.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key does in a picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PickerKey {
    /// The selection moves to this entry.
    Select(usize),
    /// This entry is chosen.
    Choose(usize),
    /// The picker closes, choosing nothing.
    Cancel,
    /// Not a picker key: the picker's own typing, or nothing.
    Other,
}

/// How a picker takes typing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Typing {
    /// It takes none: every letter is free for the picker's keys.
    None,
    /// It narrows or reads as you type; this is true once something is typed, and from then
    /// on letters and digits are typing.
    Some(bool),
}

/// What `key` does in a picker of `count` entries with `selected` selected.
#[must_use]
pub(crate) fn picker_key(
    key: &KeyEvent,
    selected: usize,
    count: usize,
    typing: Typing,
) -> PickerKey {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let free = match typing {
        Typing::None => true,
        Typing::Some(typed) => !typed,
    };
    let next = || PickerKey::Select((selected + 1) % count.max(1));
    let prev = || PickerKey::Select((selected + count.max(1) - 1) % count.max(1));
    match key.code {
        KeyCode::Esc => PickerKey::Cancel,
        KeyCode::Enter if count > 0 => PickerKey::Choose(selected.min(count - 1)),
        KeyCode::Down | KeyCode::Tab => next(),
        KeyCode::Up | KeyCode::BackTab => prev(),
        KeyCode::Char('n') if ctrl => next(),
        KeyCode::Char('p') if ctrl => prev(),
        KeyCode::Char('j') if free && !ctrl => next(),
        KeyCode::Char('k') if free && !ctrl => prev(),
        KeyCode::Char('q') if typing == Typing::None && !ctrl => PickerKey::Cancel,
        KeyCode::Char(c @ '1'..='9') if free && !ctrl => {
            let n = c as usize - '1' as usize;
            if n < count {
                PickerKey::Choose(n)
            } else {
                PickerKey::Other
            }
        }
        _ => PickerKey::Other,
    }
}

/// The number a picker shows before its entry `n` (counted from 0): `1.`–`9.` for the first
/// nine, blank after (an entry may itself start with a figure: "1. 1 hour").
#[must_use]
pub(crate) fn entry_number(n: usize) -> String {
    if n < 9 {
        format!("{}. ", n + 1)
    } else {
        "   ".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn moves_wrap_and_digits_choose_within_the_entries() {
        let none = Typing::None;
        assert_eq!(
            picker_key(&key(KeyCode::Char('j')), 2, 3, none),
            PickerKey::Select(0)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Char('k')), 0, 3, none),
            PickerKey::Select(2)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Down), 0, 3, none),
            PickerKey::Select(1)
        );
        assert_eq!(
            picker_key(&key(KeyCode::BackTab), 1, 3, none),
            PickerKey::Select(0)
        );
        assert_eq!(
            picker_key(
                &KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL),
                1,
                3,
                none
            ),
            PickerKey::Select(2)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Char('3')), 0, 3, none),
            PickerKey::Choose(2)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Char('4')), 0, 3, none),
            PickerKey::Other
        );
        assert_eq!(
            picker_key(&key(KeyCode::Enter), 1, 3, none),
            PickerKey::Choose(1)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Enter), 0, 0, none),
            PickerKey::Other
        );
        assert_eq!(
            picker_key(&key(KeyCode::Char('q')), 0, 3, none),
            PickerKey::Cancel
        );
        assert_eq!(
            picker_key(&key(KeyCode::Esc), 0, 3, none),
            PickerKey::Cancel
        );
    }

    #[test]
    fn once_something_is_typed_letters_and_digits_are_typing() {
        let empty = Typing::Some(false);
        let typed = Typing::Some(true);
        assert_eq!(
            picker_key(&key(KeyCode::Char('j')), 0, 3, empty),
            PickerKey::Select(1)
        );
        assert_eq!(
            picker_key(&key(KeyCode::Char('2')), 0, 3, empty),
            PickerKey::Choose(1)
        );
        // `q` types in a picker that reads typing, even before anything is typed.
        assert_eq!(
            picker_key(&key(KeyCode::Char('q')), 0, 3, empty),
            PickerKey::Other
        );
        for c in ['j', 'k', '2', 'q'] {
            assert_eq!(
                picker_key(&key(KeyCode::Char(c)), 0, 3, typed),
                PickerKey::Other
            );
        }
        assert_eq!(
            picker_key(&key(KeyCode::Down), 0, 3, typed),
            PickerKey::Select(1)
        );
    }

    #[test]
    fn the_first_nine_entries_are_numbered() {
        assert_eq!(entry_number(0), "1. ");
        assert_eq!(entry_number(8), "9. ");
        assert_eq!(entry_number(9), "   ");
    }
}
