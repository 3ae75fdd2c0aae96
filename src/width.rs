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
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Cuts `text` to `cells` and pads it with spaces to exactly `cells`.
#[must_use]
pub fn fit(text: &str, cells: usize) -> String {
    let mut out = truncate(text, cells);
    let pad = cells.saturating_sub(width(&out));
    out.extend(std::iter::repeat_n(' ', pad));
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
    fn emoji_never_overflow_the_column() {
        for cells in 0..8 {
            assert!(width(&fit("Love it 🎉🎉🎉", cells)) == cells, "{cells}");
        }
    }
}
