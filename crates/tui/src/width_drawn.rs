//! What ratatui draws, cluster by cluster, against the display width the core measures
//! (`feedback_core::width`) for layout and cutting.

use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use unicode_segmentation::UnicodeSegmentation;

use feedback_core::width::{advance, elide, fit, truncate, width};

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
fn cut_keeps_as_much_as_fits_before_the_ellipsis() {
    assert_eq!(truncate("abcd", 4), "abcd");
    assert_eq!(truncate("abcde", 4), "abc…");
    assert_eq!(truncate("ab同", 3), "ab…");
    assert_eq!(truncate("a同", 3), "a同");
    assert_eq!(truncate("a同b", 3), "a…");
    assert_eq!(truncate("a同bc", 3), "a…");
    assert_eq!(truncate("x", 0), "");
    assert_eq!(truncate(&"A".repeat(10_000), 5), "AAAA…");
}

#[test]
fn emoji_never_overflow_the_column() {
    for cells in 0..8 {
        assert!(width(&fit("Love it 🎉🎉🎉", cells)) == cells, "{cells}");
    }
}

/// Emoji sequences that are one cluster of two cells, though their characters add up to more
/// (ZWJ family, skin tone) or fewer (keycap, VS16) cells.
const CLUSTERS: &[&str] = &[
    "👨\u{200d}👩\u{200d}👧",
    "👍🏽",
    "1\u{fe0f}\u{20e3}",
    "🇩🇪",
    "❤\u{fe0f}",
    "🏳\u{fe0f}\u{200d}🌈",
];

#[test]
fn emoji_sequences_are_measured_and_kept_whole() {
    for cluster in CLUSTERS {
        assert_eq!(width(cluster), 2, "{cluster:?}");
        assert_eq!(fit(&format!("a{cluster}b"), 4), format!("a{cluster}b"));
        assert_eq!(fit(&format!("a{cluster}bc"), 4), format!("a{cluster}…"));
        assert_eq!(fit(&format!("ab{cluster}c"), 4), "ab… ");
        assert_eq!(fit(&format!("a{cluster}"), 5), format!("a{cluster}  "));
        assert_eq!(
            truncate(&format!("{cluster}{cluster}"), 3),
            format!("{cluster}…")
        );
    }
}

#[test]
fn ligatures_and_sound_marks_pad_to_their_advance() {
    // ratatui draws lam-alef in two cells but moves a `Line` on by one.
    assert_eq!(width("لا"), 2);
    assert_eq!(advance("لا"), 1);
    assert_eq!(fit("لا", 3), "لا  ");
    assert_eq!(truncate("لاب", 2), "ل…");
    // ratatui draws a halfwidth voiced sound mark one cell wider than unicode-width counts it.
    assert_eq!(width("ｶﾞ"), 3);
    assert_eq!(fit("ｶﾞｶﾞ", 4), "ｶﾞ… ");
}

/// Renders `Line [cut, "|"]` in a row wider than `cells`, as a column followed by the next one.
fn rendered(cut: &str, cells: usize) -> Vec<String> {
    let area = Rect::new(0, 0, u16::try_from(cells + 12).unwrap(), 1);
    let mut buf = Buffer::empty(area);
    Line::from(vec![Span::raw(cut), Span::raw("|")]).render(area, &mut buf);
    buf.content()
        .iter()
        .map(|c| c.symbol().to_owned())
        .collect()
}

/// True when `prefix` is `text` up to the end of one of its clusters.
fn is_cluster_prefix(prefix: &str, text: &str) -> bool {
    text.grapheme_indices(true)
        .map(|(i, _)| i)
        .chain([text.len()])
        .any(|end| &text[..end] == prefix)
}

fn tricky() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", " ", "同", "\u{301}", "\u{200d}", "\u{fe0f}", "\u{20e3}", "🇩", "🇪", "👨", "👩", "🏽",
        "ل", "ا", "ﾞ", "ｶ", "…", "\n", "\x1b", "\u{85}", "\u{202e}", "\u{200b}", "ᄀ", "ᅡ", "क",
        "\u{94d}", "ष",
    ]);
    let piece = prop_oneof![
        3 => pieces.prop_map(str::to_owned),
        1 => prop::sample::select(CLUSTERS.to_vec()).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The next column lands exactly `cells` on, and nothing of the text is drawn past it.
    #[test]
    fn fitted_text_keeps_the_next_column_in_place(text in tricky(), cells in 0usize..16) {
        let cut = fit(&text, cells);
        let row = rendered(&cut, cells);
        prop_assert_eq!(&row[cells], "|", "{:?} fit to {} is {:?}: {:?}", text, cells, cut, row);
        prop_assert!(row[cells + 1..].iter().all(|s| s == " "), "{:?}: {:?}", cut, row);
        let pad = cut.strip_prefix(truncate(&text, cells).as_str());
        prop_assert!(pad.is_some_and(|p| p.chars().all(|c| c == ' ')), "{:?} → {:?}", text, cut);
    }

    /// A cut text never advances or draws past `cells`, and is the text itself when it fits.
    #[test]
    fn truncated_text_stays_within_its_cells(text in tricky(), cells in 0usize..16) {
        let cut = truncate(&text, cells);
        prop_assert!(width(&cut) <= cells, "{:?} → {:?}", text, cut);
        let row = rendered(&cut, cells);
        let bar = row.iter().position(|s| s == "|");
        prop_assert!(bar.is_some_and(|x| x <= cells), "{:?}: {:?}", cut, row);
        if width(&text) <= cells {
            prop_assert_eq!(&cut, &text);
        } else if cells > 0 {
            let kept = cut.strip_suffix('…').unwrap_or_default();
            prop_assert!(is_cluster_prefix(kept, &text), "{:?} → {:?}", text, cut);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// An elided text stays within its cells, is the text itself when it fits, and is else a
    /// cluster prefix of at most `head` cells, `…`, and a cluster suffix.
    #[test]
    fn elided_text_keeps_its_ends(text in tricky(), cells in 0usize..16, head in 0usize..16) {
        let cut = elide(&text, cells, head);
        prop_assert!(width(&cut) <= cells, "{:?} → {:?}", text, cut);
        if width(&text) <= cells {
            prop_assert_eq!(&cut, &text);
        } else if cells > 0 {
            // Some cluster prefix of at most `head` cells, `…`, then a cluster suffix.
            let ends: Vec<usize> = text.grapheme_indices(true).map(|(i, _)| i)
                .chain([text.len()]).collect();
            let shaped = ends.iter().any(|&h| {
                width(&text[..h]) <= head
                    && cut.strip_prefix(&text[..h]).and_then(|r| r.strip_prefix('…'))
                        .is_some_and(|tail| ends.iter().any(|&t| t >= h && &text[t..] == tail))
            });
            prop_assert!(shaped, "{:?} → {:?}", text, cut);
        }
    }
}

#[test]
fn elide_keeps_both_ends_of_a_long_name() {
    assert_eq!(elide("alexandra.smith", 10, 5), "alexa…mith");
    assert_eq!(elide("alexandra.stone", 10, 5), "alexa…tone");
    assert_eq!(elide("demo_bo", 10, 5), "demo_bo");
    assert_eq!(elide("demo_ana", 5, 0), "…_ana");
    assert_eq!(elide("demo_ana", 1, 3), "…");
    assert_eq!(elide("demo_ana", 0, 3), "");
}
