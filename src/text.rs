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

pub mod fields;
pub mod output;

use std::borrow::Cow;

/// Marker shown in place of a removed escape sequence (the whole sequence becomes one marker).
///
/// U+241B SYMBOL FOR ESCAPE is printable everywhere and says what was there.
pub const ESCAPE_MARKER: char = '␛';

/// Marker shown in place of any other removed invisible/control character.
///
/// U+FFFD REPLACEMENT CHARACTER: the conventional "something unusable was
/// here" glyph. It is printable, has width 1, and is itself left unchanged by
/// the sanitizer, which keeps sanitizing idempotent.
pub const CONTROL_MARKER: char = '\u{FFFD}';

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

/// Byte index of the first character the scanner would change, if any.
fn first_dirty(input: &str, mode: Mode) -> Option<usize> {
    let mut prev = None;
    for (i, c) in input.char_indices() {
        let dirty = match c {
            '\n' => mode == Mode::Line,
            ZWJ => !zwj_joins_emoji(prev, input[i + ZWJ.len_utf8()..].chars().next()),
            _ => is_control(c) || matches!(c, '\u{2028}' | '\u{2029}') || is_invisible(c),
        };
        if dirty {
            return Some(i);
        }
        prev = Some(c);
    }
    None
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
mod tests {
    use super::*;

    /// The first character a safe output must not contain, judged
    /// independently of the implementation's own classification.
    fn forbidden(s: &str, line: bool) -> Option<char> {
        const SINGLES: &str = "\u{61C}\u{AD}\u{34F}\u{115F}\u{1160}\u{180E}\u{200B}\u{200C}\u{200E}\
            \u{200F}\u{2028}\u{2029}\u{3164}\u{FEFF}\u{FFA0}";
        const RANGES: &[(char, char)] = &[
            ('\0', '\x1f'),
            ('\x7f', '\u{9f}'),
            ('\u{202A}', '\u{202E}'),
            ('\u{2060}', '\u{2069}'),
            ('\u{FFF9}', '\u{FFFB}'),
            ('\u{E0000}', '\u{E007F}'),
        ];
        let chars: Vec<char> = s.chars().collect();
        chars.iter().enumerate().find_map(|(i, &c)| {
            let bad = match c {
                '\n' => line,
                ZWJ => {
                    let emoji_at = |j: Option<usize>| {
                        j.and_then(|j| chars.get(j))
                            .is_some_and(|&n| is_emoji_like(n))
                    };
                    !(emoji_at(i.checked_sub(1)) && emoji_at(Some(i + 1)))
                }
                _ => SINGLES.contains(c) || RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c)),
            };
            bad.then_some(c)
        })
    }

    /// Both outputs are safe, sanitizing them again is a borrowed no-op, and `is_clean` agrees.
    fn assert_safe(input: &str) {
        for (line, out) in [(false, sanitize(input)), (true, sanitize_line(input))] {
            if let Some(c) = forbidden(&out, line) {
                panic!("{c:?} survived in {out:?} (line={line}) from {input:?}");
            }
            let again = if line {
                sanitize_line(&out)
            } else {
                sanitize(&out)
            };
            assert!(
                matches!(again, Cow::Borrowed(_)),
                "not idempotent: {input:?}"
            );
            assert_eq!(again, out);
        }
        assert!(is_clean(&sanitize(input)));
        assert_eq!(
            is_clean(input),
            matches!(sanitize(input), Cow::Borrowed(_)),
            "{input:?}"
        );
    }

    fn check(f: fn(&str) -> Cow<'_, str>, cases: &[(&str, &str)]) {
        for &(input, expected) in cases {
            let out = f(input);
            assert_eq!(out, expected, "input {input:?}");
            assert_eq!(
                matches!(out, Cow::Borrowed(_)),
                input == expected,
                "allocation for {input:?}"
            );
            assert_safe(input);
        }
    }

    #[test]
    #[rustfmt::skip]
    fn plain_text_is_unchanged_and_borrowed() {
        let texts = ["", "plain ASCII, 100% ok!", "café naïve Ωμέγα", "中文 日本語 한국어", "emoji 😀🎉👍🏽",
            "مرحبا بالعالم", "שלום עולם", "👨\u{200D}👩\u{200D}👧", "kept markers ␛ \u{FFFD}", "a ~ [ ] \\ ^ _"];
        for text in texts {
            check(sanitize, &[(text, text)]);
            check(sanitize_line, &[(text, text)]);
            assert!(is_clean(text));
        }
        check(sanitize, &[("two\nlines\n", "two\nlines\n")]);
    }

    #[test]
    #[rustfmt::skip]
    fn sgr_colours_become_one_marker_per_sequence() {
        check(sanitize, &[("\x1b[31mred\x1b[0m", "␛red␛"), ("\x1b[1;38;5;196mbold\x1b[m", "␛bold␛")]);
    }

    #[test]
    #[rustfmt::skip]
    fn cursor_moves_and_screen_clears_are_neutralised() {
        check(sanitize, &[("\x1b[2J\x1b[Hhome", "␛␛home"), ("\x1b[10;10Hx\x1b[3Ay", "␛x␛y"),
            ("\x1b[?1049h\x1b[?25l", "␛␛"), ("\x1b7x\x1b8", "␛x␛")]);
    }

    #[test]
    #[rustfmt::skip]
    fn osc_title_clipboard_and_hyperlink_payloads_are_dropped() {
        check(sanitize, &[("a\x1b]0;pwned\x07b", "a␛b"), ("a\x1b]2;title\x1b\\b", "a␛b"),
            ("\x1b]52;c;aGVsbG8=\x07", "␛"), ("\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", "␛click␛")]);
    }

    #[test]
    #[rustfmt::skip]
    fn dcs_apc_pm_sos_payloads_are_dropped() {
        check(sanitize, &[("\x1bP+q544e\x1b\\ok", "␛ok"), ("\x1b_apc\x1b\\ok", "␛ok"),
            ("\x1b^pm\x07ok", "␛ok"), ("\x1bXsos\x1b\\ok", "␛ok")]);
    }

    #[test]
    #[rustfmt::skip]
    fn eight_bit_c1_sequences_are_neutralised() {
        check(sanitize, &[("\u{9B}31mred", "␛red"), ("\u{9D}0;title\u{9C}ok", "␛ok"),
            ("\u{90}dcs\u{9C}ok", "␛ok"), ("\u{9F}apc\x07ok", "␛ok"), ("\u{98}s\u{9C}\u{9E}p\u{9C}", "␛␛"),
            ("\u{9C}", "\u{FFFD}"), ("\u{85}\u{80}", "\u{FFFD}\u{FFFD}")]);
    }

    #[test]
    #[rustfmt::skip]
    fn unterminated_sequences_end_at_string_end_or_control_char() {
        check(sanitize, &[("red\x1b[31", "red␛"), ("\x1b[", "␛"), ("\x1b]0;title", "␛"), ("\u{9D}", "␛"),
            ("\x1b]0;title\nnext", "␛\nnext"), ("\x1b[31\nnext", "␛\nnext"), ("\x1b]0;a\x1b[2Jb", "␛␛b"),
            ("\x1b]0;t\u{85}x", "␛\u{FFFD}x"), ("\x1b[31\u{E9}t", "␛\u{E9}t"), ("\x1b[1 1m", "␛1m")]);
        check(sanitize_line, &[("\x1b]0;title\nnext", "␛ next")]);
    }

    #[test]
    #[rustfmt::skip]
    fn terminal_queries_and_reset_are_neutralised() {
        check(sanitize, &[("\x1b[6n", "␛"), ("\x1b[c", "␛"), ("\x1b[>c", "␛"), ("\x1bZ", "␛"),
            ("\x1bcok", "␛ok"), ("\x1b(Bok", "␛ok"), ("\x1b#8", "␛")]);
    }

    #[test]
    #[rustfmt::skip]
    fn lone_escape_and_c0_del_c1_controls_become_markers() {
        check(sanitize, &[("\x1b", "␛"), ("a\x1b", "a␛"), ("\x1b\x1b", "␛␛"), ("\x1b\u{E9}", "␛\u{E9}"),
            ("\x1b\x1b[\x1b]", "␛␛␛"), ("\x00\x07\x08\x0b\x0c\x7f", "������"), ("a\x00b\x1fc", "a�b�c")]);
    }

    #[test]
    #[rustfmt::skip]
    fn line_breaks_are_normalised_in_multi_line_text() {
        check(sanitize, &[("a\r\nb", "a\nb"), ("a\rb", "a\nb"), ("a\r\r\nb", "a\n\nb"), ("a\r", "a\n"),
            ("a\u{2028}b\u{2029}c", "a\nb\nc")]);
    }

    #[test]
    #[rustfmt::skip]
    fn tabs_expand_to_four_spaces_in_multi_line_text() {
        check(sanitize, &[("a\tb", "a    b"), ("\t\t", "        ")]);
    }

    #[test]
    #[rustfmt::skip]
    fn line_breaks_and_tabs_become_single_spaces_in_one_line_text() {
        check(sanitize_line, &[("a\nb", "a b"), ("a\r\nb", "a b"), ("a\rb", "a b"), ("a\tb", "a b"),
            ("a\u{2028}b\u{2029}c", "a b c"), ("\x1b[31mred\x1b[0m\n", "␛red␛ ")]);
    }

    #[test]
    #[rustfmt::skip]
    fn bidi_controls_are_replaced() {
        check(sanitize, &[("\u{202E}gnp.exe", "�gnp.exe"), ("\u{2066}x\u{2069}", "�x�"),
            ("a\u{200E}b\u{200F}c\u{61C}d", "a�b�c�d"), ("\u{202A}\u{202B}\u{202C}\u{202D}\u{2067}\u{2068}", "������")]);
    }

    #[test]
    #[rustfmt::skip]
    fn zero_width_and_invisible_chars_are_replaced() {
        check(sanitize, &[("a\u{200B}b\u{200C}c", "a�b�c"), ("\u{FEFF}x", "�x"), ("\u{2060}\u{2064}", "��"),
            ("\u{180E}\u{AD}\u{34F}", "���"), ("\u{115F}\u{1160}\u{3164}\u{FFA0}", "����"),
            ("\u{FFF9}\u{FFFA}\u{FFFB}", "���"), ("\u{E0000}\u{E0041}\u{E007F}", "���")]);
    }

    #[test]
    #[rustfmt::skip]
    fn zwj_is_kept_only_between_emoji() {
        check(sanitize, &[("👨\u{200D}👩\u{200D}👧", "👨\u{200D}👩\u{200D}👧"), ("❤\u{FE0F}\u{200D}🔥", "❤\u{FE0F}\u{200D}🔥"),
            ("🏳\u{FE0F}\u{200D}🌈", "🏳\u{FE0F}\u{200D}🌈"), ("a\u{200D}b", "a�b"), ("\u{200D}👩", "�👩"),
            ("👩\u{200D}", "👩�"), ("👩\u{200D}\u{200D}👩", "👩��👩"), ("👩\u{200D}\x1b[0m👩", "👩�␛👩"),
            ("\x1b[0m\u{200D}👩", "␛�👩")]);
    }

    #[test]
    fn long_message_with_sprinkled_escapes_is_clean() {
        let mut input = String::new();
        for i in 0..10_000 {
            input.push('x');
            match i % 97 {
                0 => input.push_str("\x1b[31m"),
                13 => input.push_str("\x1b]0;t\x07"),
                29 => input.push_str("\u{9B}2J"),
                41 => input.push_str("\r\n\u{202E}"),
                _ => {}
            }
        }
        let out = sanitize(&input);
        let bad = |c: char| matches!(c, '\0'..='\x09' | '\x0b'..='\x1f' | '\x7f'..='\u{9f}');
        assert!(!out.chars().any(bad), "control character left");
        assert_eq!(out.chars().filter(|&c| c == 'x').count(), 10_000);
        assert_safe(&input);
    }

    struct XorShift(u64);

    impl XorShift {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            usize::try_from(self.0 % u64::try_from(n).expect("small")).expect("fits")
        }
    }

    #[test]
    fn random_strings_are_always_safe_and_idempotent() {
        const ALPHABET: &str = "\x1b\x1b\x1b[]PX^_\\\x07\u{9B}\u{9C}\u{9D}\u{90}\u{85}\x7f\0\u{202E}\u{2066}\
            \u{200F}\u{200B}\u{FEFF}\u{200D}\u{200D}\u{FE0F}\u{2028}aZmc09;? \n\r\t😀👩❤中\u{5D0}\u{E0041}";
        let alphabet: Vec<char> = ALPHABET.chars().collect();
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let len = rng.below(40);
            let input: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            assert_safe(&input);
        }
    }

    /// `assets/hostile_strings.json`, the corpus every sink is tested with.
    #[derive(serde::Deserialize)]
    struct Corpus {
        hostile: Vec<String>,
        enum_values: Vec<String>,
        kept: Vec<String>,
        long: String,
    }

    fn corpus() -> Corpus {
        serde_json::from_str(include_str!("../assets/hostile_strings.json"))
            .unwrap_or_else(|e| panic!("corpus: {e}"))
    }

    #[test]
    fn hostile_corpus_comes_out_safe() {
        let corpus = corpus();
        assert!(corpus.hostile.len() >= 40 && corpus.enum_values.len() >= 8);
        assert_eq!(corpus.long.chars().count(), 10_000);
        let dirty = corpus.hostile.iter().chain(&corpus.enum_values);
        for input in dirty.chain(&corpus.kept).chain([&corpus.long]) {
            assert_safe(input);
        }
        for input in corpus.hostile.iter().chain(&corpus.enum_values) {
            assert!(!is_clean(input), "{input:?} is not hostile");
        }
        for kept in &corpus.kept {
            assert!(
                matches!(sanitize(kept), Cow::Borrowed(_)),
                "{kept:?} must be kept"
            );
        }
    }
}
