//! The query language's tokenizer agrees with the full-text index: the words a query looks up
//! and highlights are the ones FTS5 (`unicode61`, `remove_diacritics 2`) stored.

use proptest::prelude::*;

use feedback_core::query::{index_words, stem, stems};

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
        assert_eq!(index_words(text), sqlite_tokens(text), "{text}");
    }
}

/// The stems the index keeps of a message are one token per word of it, in order, each the
/// word's stem: phrases over stems stay adjacent and a plain word finds its inflections.
#[test]
fn the_stems_column_holds_one_stem_per_word() {
    let texts = [
        "The app CRASHES when syncing; it crashed twice, crashing again",
        "Café CAFÉ naïve Ångström Øre Łódź ǅemal ĳssel Straße İstanbul",
        "x\u{301}y \u{301}z Ǆ ǈ Ω Ѐ Ⅻ ⓐ Ａｂｃ 𐐀 ﬁne 3.10.0 v2 1st",
        "日本語のテキスト 中文 한국어 עברית العربية Ελληνικά",
    ];
    for text in texts {
        let want: Vec<String> = index_words(text)
            .iter()
            .map(|w| stem(w).into_owned())
            .collect();
        assert_eq!(sqlite_tokens(&stems(text)), want, "{text}");
    }
    assert_eq!(
        sqlite_tokens(&stems("crashes crashed crashing")),
        ["crash", "crash", "crash"]
    );
}

proptest! {
    #[test]
    fn any_text_stems_to_one_index_token_per_word(text in "\\PC{0,40}") {
        let words = index_words(&text);
        let tokens = sqlite_tokens(&stems(&text));
        prop_assert_eq!(tokens.len(), words.len(), "{:?} -> {:?}", text, stems(&text));
    }
}
