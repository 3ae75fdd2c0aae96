//! Highlights match what FTS5's unicode61 tokenizer (remove_diacritics 2) matches; checked
//! against SQLite itself where it matters.

use super::super::*;

/// The highlighted pieces of `text` for `query`.
fn lit(query: &str, text: &str) -> Vec<String> {
    let ranges = parse(query).unwrap().highlights().ranges(text);
    ranges.into_iter().map(|r| text[r].to_owned()).collect()
}

#[test]
fn words_match_whole_tokens_ignoring_case_and_accents() {
    assert_eq!(
        lit("crash", "Crash! It crashed; CRASH."),
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
fn prefixes_and_phrases() {
    assert_eq!(
        lit("crash*", "Crashed then crash, not acrash"),
        ["Crashed", "crash"]
    );
    assert_eq!(
        lit(
            "\"app crashes\"",
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

/// Tokens of `text` as SQLite's FTS5 sees them, via a contentless table and fts5vocab.
fn sqlite_tokens(text: &str) -> Vec<String> {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2');
         CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');",
    )
    .unwrap();
    conn.execute("INSERT INTO t (x) VALUES (?1)", [text])
        .unwrap();
    let mut stmt = conn.prepare("SELECT term FROM v ORDER BY offset").unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn tokenizer_agrees_with_sqlite() {
    let texts = [
        "Hello, World! It's 10:30 — e-mail me at ana@example.com",
        "Café CAFÉ naïve Ångström Øre Łódź ǅemal ĳssel Straße İstanbul",
        "x\u{301}y \u{301}z Ǆ ǈ Ω Ѐ Ⅻ ⓐ Ａｂｃ 𐐀 ﬁne",
        "日本語のテキスト 中文 한국어 עברית العربية Ελληνικά",
        "emoji 🦀 crab 😀 smile, tab\tand\nnewline \u{1b}[31mred",
        "हिन्दी पाठ ক্ষ ﷺ ‍zero\u{200d}width",
    ];
    for text in texts {
        let ours: Vec<String> = super::super::highlight::tokenize(text)
            .into_iter()
            .map(|t| t.folded)
            .collect();
        assert_eq!(ours, sqlite_tokens(text), "{text}");
    }
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
