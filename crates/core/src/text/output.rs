//! Text helpers every output shares, below the CLI, the TUI and the webhook receiver: the
//! first line of a message for one-line views, and serialized JSON made safe to print.

use std::fmt::Write as _;

/// The first line of a message, for one-line views.
#[must_use]
pub fn first_line(message: &str) -> &str {
    message
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
}

/// Makes serialized JSON safe to print on a terminal without changing its meaning: every
/// character the sanitizer would touch (C1 controls, bidi and zero-width characters; serde_json
/// already escapes C0) is written as a `\uXXXX` escape. Such characters can only occur inside
/// JSON strings, so escaping them anywhere in the text is exact.
#[must_use]
pub fn terminal_safe_json(json: String) -> String {
    if super::is_clean(&json) {
        return json;
    }
    let mut out = String::with_capacity(json.len() + 16);
    let mut buf = [0u8; 4];
    for c in json.chars() {
        if c == '\n' || super::is_clean(c.encode_utf8(&mut buf)) {
            out.push(c);
        } else {
            for unit in c.encode_utf16(&mut [0u16; 2]) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        }
    }
    out
}

/// [`terminal_safe_json`] of the serialized JSON at the end of `buf`, from `start`, in place.
pub fn terminal_safe_json_tail(buf: &mut Vec<u8>, start: usize) {
    // Printable ASCII (most lines) is clean as it is; anything else is judged as text.
    let tail = &buf[start..];
    if super::printable_run(tail) == tail.len()
        || std::str::from_utf8(tail).is_ok_and(super::is_clean)
    {
        return;
    }
    // serde_json writes UTF-8 only: the lossy reading changes nothing.
    let json = String::from_utf8_lossy(&buf[start..]).into_owned();
    buf.truncate(start);
    buf.extend_from_slice(terminal_safe_json(json).as_bytes());
}

/// `1 item`, `1,284 items`: a count people read and its noun, singular for one.
#[must_use]
pub fn counted(n: impl TryInto<u64>, noun: &str) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// `1284` as `1,284`: counts people read, in the inbox and on the command line alike (any
/// integer: `usize`, `u64`, `i64`; a minus sign stays in front).
#[must_use]
pub fn thousands(n: impl std::fmt::Display) -> String {
    let text = n.to_string();
    let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
    let mut out = String::with_capacity(text.len() + digits.len() / 3);
    out.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
