//! The query language's tokenizer agrees with the full-text index: the words a query looks up
//! and highlights are the ones FTS5 (`unicode61`, `remove_diacritics 2`) stored.

use crate::query::index_words;

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
