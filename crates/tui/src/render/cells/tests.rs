use ratatui::style::{Color, Modifier};
use ratatui::text::Line;
use unicode_width::UnicodeWidthStr;

use super::*;

const TEXTS: &[&str] = &[
    "",
    "a",
    "Message number 12: the sync button does nothing",
    "Nimbus Notes for iOS · ios",
    "—",
    "#bug #crash",
    "Grüße aus Köln, ça va? Ærø",
    "Привет, мир! Ελληνικά",
    "→ ↑ ↻ ● ⠋ ─│ “quotes” – dash…",
    "␛]0;pwned␛␛[2J␛[31mred␛[0m title",
    "invoice�fdp.exe and zero�width",
    "同期が遅いです",
    "ab同期",
    "abcdefghij同期",
    "Love it 😀👍🎉",
    "family 👨‍👩‍👧 here",
    "flag 🇩🇪🇫🇷",
    "e\u{301}te\u{301}",
    "\u{301}leading combining",
    "abcdefgh\u{301}",
    "abcdefghijkl\u{301}",
    "نص عربي שלום",
    "invoice\u{202e}fdp.exe",
    "zero\u{200b}width",
    "tab\there",
    "ctrl\u{7}bell",
    "warn ⚠\u{fe0f} ❤\u{fe0f}",
    "ﾊﾟﾊﾞ halfwidth",
    "ＣＪＫ fullwidth",
    "한국어 텍스트",
    "क्षत्रिय कः",
    "soft\u{ad}hyphen",
];

fn cuts() -> Vec<Cut> {
    let mut cuts = vec![Cut::Whole];
    for cells in 0..14 {
        cuts.push(Cut::Truncate(cells));
        cuts.push(Cut::Fit(cells));
    }
    cuts
}

fn styled() -> Style {
    Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD)
}

/// A row of `width` cells at x = 3 in a wider buffer, highlighted first like a selected row.
fn row(width: u16) -> (Buffer, Rect) {
    let mut buf = Buffer::empty(Rect::new(0, 0, 40, 2));
    let area = Rect::new(3, 1, width, 1);
    buf.set_style(area, Style::new().add_modifier(Modifier::REVERSED));
    (buf, area)
}

fn compose(lead: &str, text: &str, cut: Cut, tail: &str) -> String {
    let cut = match cut {
        Cut::Whole => text.to_owned(),
        Cut::Truncate(cells) => truncate(text, cells),
        Cut::Fit(cells) => fit(text, cells),
    };
    format!("{lead}{cut}{tail}")
}

/// The piece between two others, as the existing code draws it: spans of a `Line`.
fn by_line(width: u16, lead: &str, text: &str, cut: Cut, tail: &str) -> Buffer {
    let (mut buf, area) = row(width);
    Line::from(vec![
        Span::styled("ab ", Style::new().fg(Color::DarkGray)),
        Span::styled(compose(lead, text, cut, tail), styled()),
        Span::raw("xyz"),
    ])
    .render(area, &mut buf);
    buf
}

fn by_writer(width: u16, lead: &str, text: &str, cut: Cut, tail: &str) -> Buffer {
    let (mut buf, area) = row(width);
    let mut row = RowWriter::new(&mut buf, area);
    row.piece("", "ab ", Cut::Whole, "", Style::new().fg(Color::DarkGray));
    row.piece(lead, text, cut, tail, styled());
    row.piece("", "xyz", Cut::Whole, "", Style::new());
    buf
}

#[test]
fn pieces_land_exactly_as_spans_of_a_line() {
    for text in TEXTS {
        for cut in cuts() {
            for (lead, tail) in [("", ""), (" ", ""), ("", " "), ("  ", " ")] {
                for width in [0, 1, 2, 4, 7, 12, 20, 37] {
                    assert_eq!(
                        by_writer(width, lead, text, cut, tail),
                        by_line(width, lead, text, cut, tail),
                        "{text:?} {cut:?} lead {lead:?} tail {tail:?} in {width} cells"
                    );
                }
            }
        }
    }
}

#[test]
fn fast_path_plans_match_truncate_and_fit() {
    for text in TEXTS {
        for cut in cuts() {
            let Some(plan) = plan(text, cut) else {
                continue;
            };
            let mut drawn = plan.shown.to_owned();
            if plan.ellipsis {
                drawn.push('…');
            }
            drawn.extend(std::iter::repeat_n(' ', plan.pad));
            assert_eq!(drawn, compose("", text, cut, ""), "{text:?} {cut:?}");
        }
    }
    assert!(
        plan("abcdefgh\u{301}", Cut::Fit(4)).is_some(),
        "the cut decides"
    );
    assert!(plan("abcdefgh\u{301}", Cut::Fit(8)).is_none());
    assert!(plan("同期", Cut::Fit(8)).is_none());
}

fn simple_chars() -> Vec<char> {
    (0..=u32::from(char::MAX))
        .filter_map(char::from_u32)
        .filter(|c| is_simple(*c))
        .collect()
}

#[test]
fn each_simple_char_is_one_cell_of_its_own() {
    for c in simple_chars() {
        for text in [format!("a{c}a"), format!("{c}"), format!("…{c}{c}")] {
            assert_eq!(
                by_writer(12, "", &text, Cut::Fit(5), ""),
                by_line(12, "", &text, Cut::Fit(5), ""),
                "{c:?} U+{:04X}",
                u32::from(c)
            );
        }
    }
}

#[test]
fn simple_chars_never_join_or_change_width_in_pairs() {
    let chars = simple_chars();
    let mut pair = String::with_capacity(8);
    for a in &chars {
        for b in &chars {
            pair.clear();
            pair.push(*a);
            pair.push(*b);
            assert_eq!(UnicodeWidthStr::width(pair.as_str()), 2, "{pair:?}");
            assert_eq!(
                Span::raw(pair.as_str())
                    .styled_graphemes(Style::new())
                    .count(),
                2,
                "{pair:?}"
            );
        }
    }
}

fn any_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let pieces = prop::sample::select(vec![
        "a",
        " ",
        "é",
        "→",
        "同",
        "\u{301}",
        "\u{200d}",
        "\u{fe0f}",
        "\u{20e3}",
        "🇩",
        "🇪",
        "👨",
        "👩",
        "🏽",
        "1",
        "ل",
        "ا",
        "ﾞ",
        "ｶ",
        "…",
        "\x1b",
        "\u{85}",
        "\u{200b}",
        "ᄀ",
        "ᅡ",
        "\u{94d}",
        "👨\u{200d}👩\u{200d}👧",
        "1\u{fe0f}\u{20e3}",
        "❤\u{fe0f}",
    ]);
    let piece =
        prop_oneof![4 => pieces.prop_map(str::to_owned), 1 => any::<char>().prop_map(String::from)];
    prop::collection::vec(piece, 0..20).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    /// The writer measures and cuts grapheme clusters exactly as ratatui draws a `Line`.
    #[test]
    fn any_piece_lands_exactly_as_spans_of_a_line(
        text in any_text(),
        cells in 0usize..14,
        cut in 0u8..3,
        width in 0u16..30,
    ) {
        let cut = match cut {
            0 => Cut::Whole,
            1 => Cut::Truncate(cells),
            _ => Cut::Fit(cells),
        };
        proptest::prop_assert_eq!(
            by_writer(width, " ", &text, cut, " "),
            by_line(width, " ", &text, cut, " "),
            "{:?} {:?} in {} cells", text, cut, width
        );
    }
}
