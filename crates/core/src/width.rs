//! Display width and cutting of already-sanitized text, in terminal cells, measured exactly as
//! ratatui 0.30 draws it.
//!
//! ratatui draws a `Span` grapheme cluster by grapheme cluster (`unicode-segmentation`),
//! skipping clusters that hold a control character, each taking `CellWidth::cell_width` cells;
//! a `Line` then places the next span `UnicodeWidthStr::width(content)` cells further on (its
//! *advance*). The two agree except for a few sequences (Arabic lam-alef, whose ligature
//! `unicode-width` counts as one cell, and halfwidth katakana sound marks, to which ratatui adds
//! one), where the drawing is the wider. So:
//!
//! - [`width`] counts each cluster as the larger of the two, for layout and cutting;
//! - [`truncate`] and [`fit`] cut only between clusters, so a ZWJ family, a skin tone, a keycap,
//!   a flag or a VS16 emoji is kept or dropped whole and never shifts the columns after it;
//! - [`fit`] pads to an *advance* of exactly the column, so in a `Line` the next span starts
//!   where the column ends (when the drawing is wider, only the padding spills, and the next
//!   span draws over it).

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// Terminal cells `text` takes: cluster by cluster, the larger of what ratatui draws and how far
/// it moves on (a control character, which it skips, still moves a `Line` on by one).
#[must_use]
pub fn width(text: &str) -> usize {
    text.graphemes(true).map(cluster_cells).sum()
}

/// Where a ratatui `Line` starts the span after one holding `text`.
#[must_use]
pub fn advance(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Cells one grapheme cluster takes: what ratatui draws of it (nothing for a cluster with a
/// control character, which it skips) or its advance, whichever is larger.
fn cluster_cells(cluster: &str) -> usize {
    let drawn = if cluster.contains(char::is_control) {
        0
    } else {
        drawn_cells(cluster)
    };
    drawn.max(advance(cluster))
}

/// Cells ratatui 0.30 draws a cluster without a control character in (its `CellWidth` for
/// `str`): a single byte takes one; anything else what `unicode-width` counts, plus one for each
/// halfwidth katakana (semi-)voiced sound mark, which `unicode-width` counts as none and
/// terminals draw in a cell of its own. The inbox's tests draw clusters with ratatui and hold
/// this to what it draws.
fn drawn_cells(cluster: &str) -> usize {
    if cluster.len() == 1 {
        return 1;
    }
    let marks = cluster
        .chars()
        .filter(|c| matches!(c, '\u{FF9E}' | '\u{FF9F}'))
        .count();
    UnicodeWidthStr::width(cluster) + marks
}

/// Cuts `text` to at most `max` cells, ending with `…` when something was cut.
#[must_use]
pub fn truncate(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    push_truncated(&mut out, text, max);
    out
}

/// Appends `text` cut to at most `max` cells. One pass that stops at the cut, so a 10,000
/// character message costs no more than a short one.
fn push_truncated(out: &mut String, text: &str, max: usize) {
    // Byte index of the end of the longest prefix that still leaves room for the ellipsis.
    let mut fits_ellipsis = 0;
    let mut used = 0;
    for (i, cluster) in text.grapheme_indices(true) {
        used += cluster_cells(cluster);
        if used > max {
            if max > 0 {
                out.push_str(&text[..fits_ellipsis]);
                out.push('…');
            }
            return;
        }
        if used < max {
            fits_ellipsis = i + cluster.len();
        }
    }
    out.push_str(text);
}

/// Cuts `text` to at most `max` cells by taking clusters out of its middle: the first `head`
/// cells (at most), `…`, then as many of its last cells as fit. Text that fits is kept whole.
#[must_use]
pub fn elide(text: &str, max: usize, head: usize) -> String {
    if width(text) <= max {
        return text.to_owned();
    }
    if max == 0 {
        return String::new();
    }
    let head = head.min(max - 1);
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut used = 0;
    for cluster in text.graphemes(true) {
        let cells = cluster_cells(cluster);
        if used + cells > head {
            break;
        }
        used += cells;
        out.push_str(cluster);
    }
    out.push('…');
    let room = max - 1 - used;
    let mut tail_used = 0;
    let tail_start = text
        .grapheme_indices(true)
        .rev()
        .take_while(|(_, cluster)| {
            tail_used += cluster_cells(cluster);
            tail_used <= room
        })
        .last()
        .map_or(text.len(), |(i, _)| i);
    out.push_str(&text[tail_start..]);
    out
}

/// Cuts `text` to `cells` and pads it with spaces to an advance of exactly `cells`.
#[must_use]
pub fn fit(text: &str, cells: usize) -> String {
    let mut out = String::with_capacity(cells + 8);
    push_truncated(&mut out, text, cells);
    let used = advance(&out);
    out.extend(std::iter::repeat_n(' ', cells.saturating_sub(used)));
    out
}
