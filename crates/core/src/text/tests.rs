//! Tests of the sanitizer, against the hostile corpus in `assets/hostile_strings.json`.

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

/// 20,000 strings of characters of `alphabet`, each shorter than `longest`, from `seed`.
fn random_strings(alphabet: &str, seed: u64, longest: usize) -> impl Iterator<Item = String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut rng = XorShift(seed);
    (0..20_000).map(move |_| {
        let len = rng.below(longest);
        (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect()
    })
}

#[test]
fn random_strings_are_always_safe_and_idempotent() {
    const ALPHABET: &str = "\x1b\x1b\x1b[]PX^_\\\x07\u{9B}\u{9C}\u{9D}\u{90}\u{85}\x7f\0\u{202E}\u{2066}\
        \u{200F}\u{200B}\u{FEFF}\u{200D}\u{200D}\u{FE0F}\u{2028}aZmc09;? \n\r\t😀👩❤中\u{5D0}\u{E0041}";
    for input in random_strings(ALPHABET, 0x9E37_79B9_7F4A_7C15, 40) {
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
    serde_json::from_str(include_str!("../../../../assets/hostile_strings.json"))
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

#[test]
fn clean_text_is_judged_as_the_rule_says_across_ascii_runs() {
    const ALPHABET: &str = "\x1b\u{9B}\x7f\0\u{202E}\u{200B}\u{FEFF}\u{200D}\u{200D}\u{2028}\
        aZ09 ~{}\":,\n\t😀👩❤中é\u{E0041}";
    for input in random_strings(ALPHABET, 0x2545_F491_4F6C_DD1D, 60) {
        assert_eq!(
            is_clean(&input),
            forbidden(&input, false).is_none(),
            "{input:?}"
        );
    }
}

/// Every byte value at every place of a 24-byte run of printable ASCII (the word-at-a-time
/// test sees each of the three words and the tail), against the byte-by-byte rule.
#[test]
fn the_printable_run_ends_at_the_first_byte_that_is_not_printable_ascii() {
    let printable = |b: &u8| (b' '..=b'~').contains(b);
    for len in [0, 1, 7, 8, 9, 16, 24, 27] {
        let base: Vec<u8> = (0..len)
            .map(|i| b'a' + u8::try_from(i % 26).unwrap())
            .collect();
        assert_eq!(super::printable_run(&base), len);
        for at in 0..len {
            for value in 0..=u8::MAX {
                let mut bytes = base.clone();
                bytes[at] = value;
                let expected = bytes.iter().position(|b| !printable(b)).unwrap_or(len);
                assert_eq!(
                    super::printable_run(&bytes),
                    expected,
                    "{value:#04x} at {at} of {len}"
                );
            }
        }
    }
}

/// The rule: JSON serialized after other lines in a buffer is made safe as it would be alone,
/// and what comes before it is left as it is.
#[test]
fn json_at_the_end_of_a_buffer_is_made_safe_in_place() {
    for value in [
        "plain",
        "bidi \u{202e}evil\u{202c} and zero\u{200b}width",
        "c1 \u{9b}31m and ünïcode",
        "\u{1b}[2J",
    ] {
        let json = serde_json::to_string(&value).unwrap();
        let mut buf = b"{\"before\":\"\xc2\x9b kept\"}\n".to_vec();
        let start = buf.len();
        buf.extend_from_slice(json.as_bytes());
        output::terminal_safe_json_tail(&mut buf, start);
        assert_eq!(&buf[..start], b"{\"before\":\"\xc2\x9b kept\"}\n");
        assert_eq!(
            std::str::from_utf8(&buf[start..]).unwrap(),
            output::terminal_safe_json(json)
        );
        assert!(is_clean(std::str::from_utf8(&buf[start..]).unwrap()));
    }
}
