//! Lenient JSON reading for everything the server or a webhook sends.
//!
//! JavaScript backends emit a lone UTF-16 surrogate (`"\ud800"`) when a string was cut in the
//! middle of an emoji, and serde_json rejects the whole document for it. A body whose bytes are
//! not UTF-8 is rejected the same way. One end user's half emoji must never cost a page, a pane
//! or a signed webhook, so every body is read through [`from_slice`]: a lone surrogate escape
//! becomes `\uFFFD` and invalid UTF-8 becomes U+FFFD, then serde_json reads it as usual. Valid
//! surrogate pairs and everything else are left exactly as they were, and a body with nothing
//! to repair is not copied.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

/// What a lone surrogate escape is replaced with (same length, so offsets in errors hold).
const REPLACEMENT_ESCAPE: &[u8; 6] = b"\\uFFFD";

/// Parses `body` as `T`, first repairing lone surrogate escapes and invalid UTF-8.
pub fn from_slice<T: DeserializeOwned>(body: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice(&repair(body))
}

/// `body` with every lone surrogate escape replaced by `\uFFFD` and every invalid UTF-8
/// sequence by U+FFFD; borrowed when there is nothing to repair.
#[must_use]
pub fn repair(body: &[u8]) -> Cow<'_, [u8]> {
    let text = match String::from_utf8_lossy(body) {
        Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    };
    match first_lone_surrogate(&text) {
        None => text,
        Some(start) => Cow::Owned(replace_lone_surrogates(&text, start)),
    }
}

/// The value of the `\uXXXX` escape at `at` (which points at the backslash), if it is one.
fn escape_at(bytes: &[u8], at: usize) -> Option<u16> {
    let hex = bytes.get(at..at + 6)?;
    if hex[0] != b'\\' || hex[1] != b'u' {
        return None;
    }
    let digits = std::str::from_utf8(&hex[2..]).ok()?;
    u16::from_str_radix(digits, 16).ok()
}

fn is_high(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// What starts at a backslash.
enum Escape {
    /// A lone surrogate escape: replace these 6 bytes.
    Lone,
    /// Anything else: copy this many bytes.
    Keep(usize),
}

fn classify(bytes: &[u8], at: usize) -> Escape {
    match escape_at(bytes, at) {
        Some(unit) if is_high(unit) => match escape_at(bytes, at + 6) {
            Some(next) if is_low(next) => Escape::Keep(12),
            _ => Escape::Lone,
        },
        Some(unit) if is_low(unit) => Escape::Lone,
        Some(_) => Escape::Keep(6),
        // `\"`, `\\`, `\n`, … (or a stray backslash, which serde_json reports as before).
        None => Escape::Keep(2),
    }
}

/// Byte offset of the first lone surrogate escape. Backslashes only occur inside strings in
/// valid JSON, and escapes are consumed whole, so `\\ud800` (an escaped backslash) is not one.
fn first_lone_surrogate(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|b| *b == b'\\') {
        let at = i + offset;
        match classify(bytes, at) {
            Escape::Lone => return Some(at),
            Escape::Keep(len) => i = at + len,
        }
        if i >= bytes.len() {
            break;
        }
    }
    None
}

fn replace_lone_surrogates(bytes: &[u8], start: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..start]);
    let mut i = start;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match classify(bytes, i) {
            Escape::Lone => {
                out.extend_from_slice(REPLACEMENT_ESCAPE);
                i += 6;
            }
            Escape::Keep(len) => {
                let end = (i + len).min(bytes.len());
                out.extend_from_slice(&bytes[i..end]);
                i = end;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(body: &str) -> String {
        let value: serde_json::Value = from_slice(body.as_bytes()).unwrap();
        value["m"].as_str().unwrap().to_owned()
    }

    #[test]
    fn serde_json_alone_rejects_a_lone_surrogate() {
        assert!(serde_json::from_slice::<serde_json::Value>(br#"{"m":"a\ud800b"}"#).is_err());
    }

    #[test]
    fn lone_high_and_low_surrogates_become_replacement_characters() {
        assert_eq!(message(r#"{"m":"a\ud800b"}"#), "a\u{FFFD}b");
        assert_eq!(message(r#"{"m":"a\uDC00"}"#), "a\u{FFFD}");
        assert_eq!(message(r#"{"m":"\ud83d"}"#), "\u{FFFD}");
        assert_eq!(message(r#"{"m":"\ud83d\ud83d\ude00"}"#), "\u{FFFD}😀");
        assert_eq!(message(r#"{"m":"\ude00\ud83d"}"#), "\u{FFFD}\u{FFFD}");
    }

    #[test]
    fn valid_pairs_and_escaped_backslashes_are_untouched() {
        assert_eq!(message(r#"{"m":"\ud83d\ude00"}"#), "😀");
        assert_eq!(message(r#"{"m":"\\ud800"}"#), "\\ud800");
        assert_eq!(message(r#"{"m":"\\\ud800"}"#), "\\\u{FFFD}");
        let clean = br#"{"m":"plain \" \\ \u00e9"}"#;
        assert!(matches!(repair(clean), Cow::Borrowed(_)));
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        let body = b"{\"m\":\"a\xED\xA0\x80b\xFF\"}";
        assert!(message(std::str::from_utf8(&repair(body)).unwrap()).starts_with('a'));
        let value: serde_json::Value = from_slice(body).unwrap();
        assert!(value["m"].as_str().unwrap().contains('\u{FFFD}'));
    }

    #[test]
    fn a_truncated_escape_is_still_an_error_not_a_panic() {
        for body in [r#"{"m":"\ud8"#, r#"{"m":"\"#, r#"{"m":"\ud800\u"#, "\\"] {
            assert!(
                from_slice::<serde_json::Value>(body.as_bytes()).is_err(),
                "{body}"
            );
        }
    }
}
