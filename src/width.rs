//! Display-width helpers for already-sanitized text: columns are measured in terminal cells
//! (`unicode-width`), so wide characters (CJK, emoji) never push a column out of line.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Terminal cells `text` occupies.
#[must_use]
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Cuts `text` to at most `max` cells, ending with `…` when something was cut.
#[must_use]
pub fn truncate(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    push_truncated(&mut out, text, max);
    out
}

/// Appends `text` cut to at most `max` cells; returns the cells used. One pass that stops at
/// the cut, so a 10,000-character message costs no more than a short one.
fn push_truncated(out: &mut String, text: &str, max: usize) -> usize {
    // Byte index and cells at the last point where an ellipsis would still fit.
    let mut fits_ellipsis = (0, 0);
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > max {
            if max == 0 {
                return 0;
            }
            out.push_str(&text[..fits_ellipsis.0]);
            out.push('…');
            return fits_ellipsis.1 + 1;
        }
        used += w;
        if used < max {
            fits_ellipsis = (i + c.len_utf8(), used);
        }
    }
    out.push_str(text);
    used
}

/// Untrusted `text` made one safe line of at most `cells` cells, for echoing server values and
/// bad input in messages.
#[must_use]
pub fn excerpt(text: &str, cells: usize) -> String {
    truncate(&crate::text::sanitize_line(text), cells)
}

/// Cuts `text` to `cells` and pads it with spaces to exactly `cells`.
#[must_use]
pub fn fit(text: &str, cells: usize) -> String {
    let mut out = String::with_capacity(cells + 8);
    let used = push_truncated(&mut out, text, cells);
    out.extend(std::iter::repeat_n(' ', cells.saturating_sub(used)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_count_two_cells() {
        assert_eq!(width("同期"), 4);
        assert_eq!(fit("同期が遅い", 5), "同期…");
        assert_eq!(width(&fit("同期が遅い", 6)), 6);
        assert_eq!(fit("ab", 4), "ab  ");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abc", 0), "");
    }

    #[test]
    fn cut_keeps_as_much_as_fits_before_the_ellipsis() {
        assert_eq!(truncate("abcd", 4), "abcd");
        assert_eq!(truncate("abcde", 4), "abc…");
        assert_eq!(truncate("ab同", 3), "ab…");
        assert_eq!(truncate("a同", 3), "a同");
        assert_eq!(truncate("a同b", 3), "a…");
        assert_eq!(truncate("a同bc", 3), "a…");
        assert_eq!(truncate("x", 0), "");
        assert_eq!(truncate(&"A".repeat(10_000), 5), "AAAA…");
    }

    #[test]
    fn emoji_never_overflow_the_column() {
        for cells in 0..8 {
            assert!(width(&fit("Love it 🎉🎉🎉", cells)) == cells, "{cells}");
        }
    }
}
