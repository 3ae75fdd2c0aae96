//! Text written straight into one buffer row, cell by cell, for the list rows: the one place
//! drawn for every visible row of every frame, where the frame bench (`benches/tui.rs`) needs
//! it; the status bar, panes and detail use ratatui's own widgets. Each piece lands exactly as
//! rendering the equivalent `Span` in a `Line` would: the same symbols, styles and advance
//! (measured by grapheme cluster, `feedback_core::width`). Text whose characters are each one cell
//! wide and stand alone (ASCII, Latin, Greek, Cyrillic, common punctuation, arrows, box
//! drawing, the `␛`/`�` markers of sanitized text) takes the fast path; anything that needs
//! grapheme handling (wide CJK and emoji, combining marks, joiners, bidi and other controls)
//! is built as the same string and rendered through that `Span`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthChar;

use feedback_core::width::{advance, fit, truncate};

/// How a piece's text is cut to its column.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cut {
    /// As is.
    Whole,
    /// To at most this many cells, ending with `…` when cut (`width::truncate`).
    Truncate(usize),
    /// Cut like `Truncate`, then padded with spaces to exactly this many cells (`width::fit`).
    Fit(usize),
}

/// True when ratatui draws `c` as a grapheme of its own, one cell wide, whatever other such
/// characters surround it: those can be written one per cell.
#[must_use]
pub(crate) fn is_simple(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' '..='~');
    }
    matches!(c,
        '\u{a0}'..='\u{ac}'          // Latin-1 (not the soft hyphen, a format character)
        | '\u{ae}'..='\u{24f}'       // Latin-1, Latin Extended-A and -B
        | '\u{370}'..='\u{3ff}'      // Greek
        | '\u{400}'..='\u{482}'      // Cyrillic (not the combining marks U+0483..U+0489)
        | '\u{48a}'..='\u{52f}'
        | '\u{2010}'..='\u{2027}'    // dashes, quotes, bullets, `…`
        | '\u{2030}'..='\u{205e}'
        | '\u{2190}'..='\u{21ff}'    // arrows
        | '\u{2400}'..='\u{243f}'    // control pictures (`␛`)
        | '\u{2500}'..='\u{25ff}'    // box drawing, blocks, geometric shapes (`●`)
        | '\u{2800}'..='\u{28ff}'    // braille (the spinner)
        | '\u{fffd}') // `�`
        && c.width() == Some(1)
}

/// One buffer row written left to right, as the spans of a left-aligned `Line` would be.
pub(crate) struct RowWriter<'a> {
    buf: &'a mut Buffer,
    /// Index in `buf.content` of the cell at `left`.
    start: usize,
    y: u16,
    left: u16,
    /// Where the next piece starts; may run past `right`, like a `Line`'s spans.
    x: u16,
    right: u16,
}

impl<'a> RowWriter<'a> {
    /// A writer for the first row of `area` (clipped to the buffer).
    pub(super) fn new(buf: &'a mut Buffer, area: Rect) -> Self {
        let area = area.intersection(buf.area);
        let (start, right) = if area.is_empty() {
            (0, area.x)
        } else {
            (buf.index_of(area.x, area.y), area.right())
        };
        Self {
            buf,
            start,
            y: area.y,
            left: area.x,
            x: area.x,
            right,
        }
    }

    /// Writes `lead`, then `text` cut as `cut` says, then `tail`, in `style`: the same cells
    /// as rendering `Span::styled(lead + cut(text) + tail, style)` at the current position.
    pub(super) fn piece(&mut self, lead: &str, text: &str, cut: Cut, tail: &str, style: Style) {
        let plan = plan(text, cut);
        match plan {
            Some(plan) if lead.chars().all(is_simple) && tail.chars().all(is_simple) => {
                self.chars(lead.chars(), style);
                self.chars(plan.shown.chars(), style);
                if plan.ellipsis {
                    self.put('…', style);
                }
                self.chars(std::iter::repeat_n(' ', plan.pad), style);
                self.chars(tail.chars(), style);
            }
            _ => {
                let mut content = String::from(lead);
                match cut {
                    Cut::Whole => content.push_str(text),
                    Cut::Truncate(cells) => content.push_str(&truncate(text, cells)),
                    Cut::Fit(cells) => content.push_str(&fit(text, cells)),
                }
                content.push_str(tail);
                self.span(&content, style);
            }
        }
    }

    /// Renders `content` as one `Span` here, and moves on by its advance, as a `Line` does
    /// (which skips spans of no width).
    fn span(&mut self, content: &str, style: Style) {
        let cells = advance(content);
        if cells == 0 {
            return;
        }
        if self.x < self.right {
            let area = Rect {
                x: self.x,
                y: self.y,
                width: self.right - self.x,
                height: 1,
            };
            Span::styled(content, style).render(area, self.buf);
        }
        self.x = self
            .x
            .saturating_add(u16::try_from(cells).unwrap_or(u16::MAX));
    }

    fn chars(&mut self, chars: impl Iterator<Item = char>, style: Style) {
        for c in chars {
            self.put(c, style);
        }
    }

    fn put(&mut self, c: char, style: Style) {
        if self.x < self.right {
            let index = self.start + usize::from(self.x - self.left);
            if let Some(cell) = self.buf.content.get_mut(index) {
                cell.set_char(c).set_style(style);
            }
        }
        self.x = self.x.saturating_add(1);
    }
}

/// What the fast path writes of a text: the part shown, whether `…` follows, and the spaces
/// that pad it.
#[derive(Debug, PartialEq, Eq)]
struct Plan<'t> {
    shown: &'t str,
    ellipsis: bool,
    pad: usize,
}

/// The fast-path plan for `text` cut as `cut`, matching `width::truncate`/`fit` for text of
/// one-cell characters; `None` when a character that decides the output is not simple.
fn plan(text: &str, cut: Cut) -> Option<Plan<'_>> {
    let max = match cut {
        Cut::Whole => {
            return text.chars().all(is_simple).then_some(Plan {
                shown: text,
                ellipsis: false,
                pad: 0,
            });
        }
        Cut::Truncate(max) | Cut::Fit(max) => max,
    };
    let pad_to = |used: usize| match cut {
        Cut::Fit(cells) => cells.saturating_sub(used),
        _ => 0,
    };
    // Byte index where the character before the cut point starts: text kept before `…`.
    let mut keep = 0;
    for (n, (i, c)) in text.char_indices().enumerate() {
        if !is_simple(c) {
            return None;
        }
        if n + 1 == max {
            keep = i;
        }
        if n == max {
            // One character more than fits: cut, keeping `max - 1` and the ellipsis.
            let ellipsis = max > 0;
            return Some(Plan {
                shown: text.get(..keep).unwrap_or_default(),
                ellipsis,
                pad: pad_to(if ellipsis { max } else { 0 }),
            });
        }
    }
    Some(Plan {
        shown: text,
        ellipsis: false,
        pad: pad_to(text.chars().count()),
    })
}

#[cfg(test)]
mod tests;
