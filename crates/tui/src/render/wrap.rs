//! Hanging indent: a value wrapped to the room of its column, so that its continuation lines
//! start under the value, not at column 0 (detail metadata, help descriptions). Text is cut
//! between words when it can be, between grapheme clusters when a word is wider than the room.

use unicode_segmentation::UnicodeSegmentation;

use feedback_core::width::width;

/// `text` (one sanitized line) in pieces of at most `room` cells (at least one piece; `room` 0
/// counts as 1, so a cluster is never lost).
#[must_use]
pub(super) fn wrap(text: &str, room: usize) -> Vec<String> {
    wrap_first(text, room, room)
}

/// [`wrap`], the first piece in `first` cells and the others in `room`.
#[must_use]
pub(crate) fn wrap_first(text: &str, first: usize, room: usize) -> Vec<String> {
    let (first, rest) = (first.max(1), room.max(1));
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    for word in text.split_inclusive(' ') {
        let room = if lines.is_empty() { first } else { rest };
        let bare = width(word.trim_end_matches(' '));
        if used + bare <= room {
            line.push_str(word);
            used += width(word);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line).trim_end().to_owned());
            used = 0;
        }
        let room = if lines.is_empty() { first } else { rest };
        if bare <= room {
            line.push_str(word);
            used = width(word);
            continue;
        }
        // A word wider than the room: cut it between clusters.
        for cluster in word.graphemes(true) {
            let cells = width(cluster);
            let room = if lines.is_empty() { first } else { rest };
            if used + cells > room && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            line.push_str(cluster);
            used += cells;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{wrap, wrap_first};

    #[test]
    fn wraps_between_words_and_cuts_long_words() {
        assert_eq!(wrap("alpha beta gamma", 11), ["alpha beta", "gamma"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
        assert_eq!(wrap("ab cdefghij", 4), ["ab", "cdef", "ghij"]);
        assert_eq!(wrap_first("one two three", 7, 5), ["one two", "three"]);
        assert_eq!(wrap_first("one two three", 3, 9), ["one", "two three"]);
    }

    #[test]
    fn wide_characters_are_never_split_or_lost() {
        let lines = wrap("日本語テキスト", 5);
        assert!(
            lines.iter().all(|l| feedback_core::width::width(l) <= 5),
            "{lines:?}"
        );
        assert_eq!(lines.concat(), "日本語テキスト");
        assert_eq!(wrap("日", 1), ["日"]);
    }
}
