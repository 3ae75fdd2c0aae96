//! The one sanitizer for untrusted text.
//!
//! Every string that comes from the server (messages, emails, tags, names,
//! metadata, links, error messages) passes through [`sanitize`] or
//! [`sanitize_line`] before it reaches a terminal, the clipboard, CLI output
//! (table, text, CSV) or a log. A terminal interprets escape sequences and
//! control characters in whatever it prints, so unfiltered server text could
//! set the window title, write the clipboard (OSC 52), move the cursor, clear
//! the screen, make the terminal type an answer into our stdin, change
//! colours, or reorder text visually with bidi overrides (the classic
//! `"\u{202E}gnp.exe"` trick). Instead of deleting such characters silently we
//! replace them with a visible marker, so a reader can tell that something was
//! removed. Each function returns `Cow::Borrowed` when nothing changes, so the
//! common case (ordinary text) never allocates.

mod clean;
pub mod output;

pub use clean::Clean;

use std::borrow::Cow;

/// Marker shown in place of a removed escape sequence (the whole sequence becomes one marker).
///
/// U+241B SYMBOL FOR ESCAPE is printable everywhere and says what was there.
pub(crate) const ESCAPE_MARKER: char = '␛';

/// Marker shown in place of any other removed invisible/control character.
///
/// U+FFFD REPLACEMENT CHARACTER: the conventional "something unusable was
/// here" glyph. It is printable, has width 1, and is itself left unchanged by
/// the sanitizer, which keeps sanitizing idempotent.
pub(crate) const CONTROL_MARKER: char = '\u{FFFD}';

const ESC: char = '\u{1B}';
const ZWJ: char = '\u{200D}';

/// Multi-line display text: keeps '\n', turns "\r\n" and lone '\r' into '\n', U+2028/U+2029 into '\n',
/// expands '\t' to 4 spaces, and neutralises escape sequences, control, bidi and invisible characters.
#[must_use]
pub fn sanitize(input: &str) -> Cow<'_, str> {
    clean(input, Mode::Multi)
}

/// One-line display text (table cells, list rows, status bar): like `sanitize` but every line break
/// becomes a single space ' ' and '\t' becomes a single space.
///
/// A newline inside a cell would break the layout of a table or a CSV row, so
/// it is flattened rather than kept.
#[must_use]
pub fn sanitize_line(input: &str) -> Cow<'_, str> {
    clean(input, Mode::Line)
}

/// True when `sanitize` would change nothing (fast path; used by callers and tests).
#[must_use]
pub fn is_clean(input: &str) -> bool {
    first_dirty(input, Mode::Multi).is_none()
}

/// Which output the caller wants: line breaks kept (`Multi`) or flattened (`Line`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Multi,
    Line,
}

fn clean(input: &str, mode: Mode) -> Cow<'_, str> {
    match first_dirty(input, mode) {
        None => Cow::Borrowed(input),
        Some(start) => {
            let (head, tail) = input.split_at(start);
            let mut out = String::with_capacity(input.len() + 8);
            out.push_str(head);
            let scanner = Scanner {
                rest: tail,
                last: head.chars().next_back(),
                out,
                mode,
            };
            Cow::Owned(scanner.run())
        }
    }
}

/// Byte index of the first character the scanner would change, if any. Printable ASCII is
/// always kept, so runs of it are skipped without decoding ([`printable_run`]: most text, and
/// all of serialized JSON's syntax, is such a run); every other character is judged whole.
fn first_dirty(input: &str, mode: Mode) -> Option<usize> {
    let bytes = input.as_bytes();
    let mut at = 0;
    let mut prev = None;
    loop {
        let run = printable_run(&bytes[at..]);
        if run > 0 {
            prev = Some(char::from(bytes[at + run - 1]));
            at += run;
        }
        let c = input[at..].chars().next()?;
        let dirty = match c {
            '\n' => mode == Mode::Line,
            ZWJ => !zwj_joins_emoji(prev, input[at + ZWJ.len_utf8()..].chars().next()),
            _ => is_control(c) || matches!(c, '\u{2028}' | '\u{2029}') || is_invisible(c),
        };
        if dirty {
            return Some(at);
        }
        prev = Some(c);
        at += c.len_utf8();
    }
}

/// Length of the run of printable ASCII (`' '..='~'`) that `bytes` starts with, judged eight
/// bytes at a time (a bulk export scans every byte it writes).
fn printable_run(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte of `x` is below `n` (n <= 128); never a false "no".
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        // A byte of 0x80 and above, of a control below the space, or DEL (0x7F: its xor is 0).
        if (x & HIGH) | below(x, 0x20) | below(x ^ (ONES * 0x7F), 1) != 0 {
            break;
        }
        at += 8;
    }
    at + bytes[at..]
        .iter()
        .position(|b| !(b' '..=b'~').contains(b))
        .unwrap_or(bytes.len() - at)
}

/// C0 controls (including '\t', '\n', '\r', ESC), DEL and C1 controls.
fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// Characters that draw nothing but can reorder or hide text: bidi embeddings,
/// overrides, isolates and marks, zero-width characters, the BOM, fillers and
/// tag characters. ZWJ is handled separately because emoji need it.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{200E}' | '\u{200F}' | '\u{061C}' // bidi embeddings, overrides, marks
        | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, bidi isolates, deprecated formats
        | '\u{200B}' | '\u{200C}' | '\u{FEFF}' | '\u{180E}' | '\u{00AD}' | '\u{034F}'
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers
        | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation
        | '\u{E0000}'..='\u{E007F}' // tag characters (emoji tag sequences are not worth keeping)
    )
}

/// Rough emoji test, good enough to keep ZWJ sequences such as 👨‍👩‍👧 or ❤️‍🔥.
fn is_emoji_like(c: char) -> bool {
    matches!(c,
        '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{2300}'..='\u{23FF}'
        | '\u{2B00}'..='\u{2BFF}' | '\u{FE0F}'
    )
}

fn zwj_joins_emoji(before: Option<char>, after: Option<char>) -> bool {
    before.is_some_and(is_emoji_like) && after.is_some_and(is_emoji_like)
}

/// Rewrites the part of the input that starts at the first dirty character.
struct Scanner<'a> {
    rest: &'a str,
    /// Last input character consumed (for the ZWJ-between-emoji rule).
    last: Option<char>,
    out: String,
    mode: Mode,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let mut chars = self.rest.chars();
        let c = chars.next()?;
        self.rest = chars.as_str();
        self.last = Some(c);
        Some(c)
    }

    fn bump_if(&mut self, accept: impl Fn(char) -> bool) -> bool {
        let hit = self.peek().is_some_and(accept);
        if hit {
            self.bump();
        }
        hit
    }

    fn run(mut self) -> String {
        loop {
            let before = self.last;
            let Some(c) = self.bump() else { break };
            self.step(c, before);
        }
        self.out
    }

    fn step(&mut self, c: char, before: Option<char>) {
        match c {
            ESC => self.escape(),
            '\u{9B}' => self.control_sequence(),
            '\u{90}' | '\u{98}' | '\u{9D}' | '\u{9E}' | '\u{9F}' => self.control_string(),
            '\r' => {
                self.bump_if(|n| n == '\n');
                self.line_break();
            }
            '\n' | '\u{2028}' | '\u{2029}' => self.line_break(),
            '\t' => self
                .out
                .push_str(if self.mode == Mode::Line { " " } else { "    " }),
            ZWJ if zwj_joins_emoji(before, self.peek()) => self.out.push(ZWJ),
            _ if c == ZWJ || is_control(c) || is_invisible(c) => self.out.push(CONTROL_MARKER),
            _ => self.out.push(c),
        }
    }

    fn line_break(&mut self) {
        self.out
            .push(if self.mode == Mode::Line { ' ' } else { '\n' });
    }

    /// ESC was consumed. Dispatches on the next character (ECMA-48 / ECMA-35):
    /// CSI, the string sequences, or a short `ESC intermediates* final`
    /// sequence such as RIS (`ESC c`) or `ESC ( B`. A lone ESC is one marker.
    fn escape(&mut self) {
        match self.peek() {
            Some('[') => {
                self.bump();
                self.control_sequence();
            }
            Some(']' | 'P' | 'X' | '^' | '_') => {
                self.bump();
                self.control_string();
            }
            _ => {
                while self.bump_if(|c| matches!(c, ' '..='/')) {}
                self.bump_if(|c| matches!(c, '0'..='~'));
                self.out.push(ESCAPE_MARKER);
            }
        }
    }

    /// CSI introducer consumed: parameters 0x30–0x3F, intermediates 0x20–0x2F,
    /// final 0x40–0x7E. A character that does not fit ends the sequence and is
    /// left for normal processing, so a broken sequence cannot swallow text.
    fn control_sequence(&mut self) {
        while self.bump_if(|c| matches!(c, '0'..='?')) {}
        while self.bump_if(|c| matches!(c, ' '..='/')) {}
        self.bump_if(|c| matches!(c, '@'..='~'));
        self.out.push(ESCAPE_MARKER);
    }

    /// OSC, DCS, SOS, PM or APC introducer consumed: drops the payload up to
    /// BEL or ST. Without a terminator the payload ends at the next control
    /// character (left for normal processing, so a newline survives) or at the
    /// end of the string.
    fn control_string(&mut self) {
        loop {
            match self.peek() {
                Some('\u{7}' | '\u{9C}') => {
                    self.bump();
                    break;
                }
                Some(ESC) if self.rest.as_bytes().get(1) == Some(&b'\\') => {
                    self.bump();
                    self.bump();
                    break;
                }
                Some(c) if !is_control(c) => {
                    self.bump();
                }
                _ => break,
            }
        }
        self.out.push(ESCAPE_MARKER);
    }
}

#[cfg(test)]
mod tests;
