//! Highlights match what FTS5's unicode61 tokenizer (remove_diacritics 2) matches, plain words
//! by their stems (the store's tests check the tokenizer against SQLite itself).

use super::super::*;

/// The highlighted pieces of `text` for `query`.
fn lit(query: &str, text: &str) -> Vec<String> {
    let ranges = parse(query).unwrap().highlights().ranges(text);
    ranges.into_iter().map(|r| text[r].to_owned()).collect()
}

#[test]
fn words_match_whole_tokens_ignoring_case_and_accents() {
    assert_eq!(
        lit("=crash", "Crash! It crashed; CRASH."),
        ["Crash", "CRASH"]
    );
    assert_eq!(lit("cafe", "Café au lait at the CAFÉ"), ["Café", "CAFÉ"]);
    assert_eq!(lit("café", "a cafe"), ["cafe"]);
    assert_eq!(lit("uber", "Über-fast"), ["Über"]);
    assert_eq!(
        lit("x", "x\u{301}y x"),
        ["x"],
        "a combining accent joins its token"
    );
    assert_eq!(lit("xy", "x\u{301}y"), ["x\u{301}y"]);
}

#[test]
fn plain_words_and_phrases_match_their_stems_and_exact_ones_as_written() {
    assert_eq!(
        lit(
            "crash",
            "Crash! It crashed; CRASHES, crashing. Crashy acrash"
        ),
        ["Crash", "crashed", "CRASHES", "crashing"]
    );
    assert_eq!(lit("crashes", "it crashed"), ["crashed"]);
    assert_eq!(lit("=crashes", "it crashed, crashes"), ["crashes"]);
    assert_eq!(
        lit("\"app crashes\"", "the app crashed; apps crash; app closes"),
        ["app crashed", "apps crash"]
    );
    assert_eq!(
        lit("=\"app crashes\"", "the app crashed; the app crashes"),
        ["app crashes"]
    );
    assert_eq!(lit("=sync*", "Syncing"), ["Syncing"], "=word* is a prefix");
}

#[test]
fn prefixes_and_phrases() {
    assert_eq!(
        lit("crash*", "Crashed then crash, not acrash"),
        ["Crashed", "crash"]
    );
    assert_eq!(
        lit(
            "=\"app crashes\"",
            "the app crashes; app, then crashes; app  --  crashes"
        ),
        ["app crashes", "app  --  crashes"]
    );
    assert_eq!(lit("\"app cra\"*", "App Crashing"), ["App Crashing"]);
    assert_eq!(
        lit("e-mail", "my e-mail; e mail; email"),
        ["e-mail", "e mail"]
    );
}

#[test]
fn negated_words_are_not_highlighted_and_overlaps_merge() {
    assert_eq!(lit("refund -crash", "refund after crash"), ["refund"]);
    assert_eq!(
        lit("NOT (crash OR bug) refund", "crash bug refund"),
        ["refund"]
    );
    assert_eq!(lit("a OR \"a b\"", "a b c"), ["a b"]);
    assert_eq!(
        lit("tag:bug refund", "bug refund"),
        ["refund"],
        "qualifiers light nothing"
    );
}

#[test]
fn works_on_multibyte_and_sanitized_text() {
    assert_eq!(lit("日本語", "これは 日本語 です"), ["日本語"]);
    assert_eq!(lit("straße", "STRASSE Straße"), ["Straße"]);
    let shown = crate::text::sanitize_line("\u{1b}[31mrefund\u{1b}[0m now\u{202e}");
    assert_eq!(lit("refund", &shown), ["refund"]);
}

#[test]
fn a_query_pins_one_app_only_when_every_match_must_be_of_it() {
    let pins = |q: &str| parse(q).unwrap().pins_one_app();
    assert!(pins("app:trailhead-ios"));
    assert!(pins("crash app:\"Trailhead iOS\" tag:bug"));
    assert!(!pins("crash"));
    assert!(!pins("app:a OR app:b"));
    assert!(!pins("-app:trailhead-ios"));
    assert!(!pins(""));
}
