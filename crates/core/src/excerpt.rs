//! Untrusted text echoed in a message: sanitized to one line (`text`), then cut to a width
//! (`width`), so a server value or bad input can neither drive the terminal nor flood the line.

/// Untrusted `text` made one safe line of at most `cells` cells, for echoing server values and
/// bad input in messages.
#[must_use]
pub fn excerpt(text: &str, cells: usize) -> String {
    crate::width::truncate(&crate::text::sanitize_line(text), cells)
}
