//! Word stems: what a search word matches unless it is written exact (`=crash`), so `crash`
//! finds "crashes" and "crashed". Stems are English (Snowball's Porter2 algorithm) of the folded
//! tokens the index stores. The store indexes each message's stems beside its words
//! ([`stems`]), the query compiler looks a word up by its stem ([`stem`]), and the highlighter
//! compares stems the same way, so what lights up is what the index matched.

use std::borrow::Cow;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::highlight::tokenize;

static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The stem of one folded token (as [`super::index_words`] gives them).
#[must_use]
pub fn stem(folded: &str) -> Cow<'_, str> {
    ENGLISH.stem(folded)
}

/// The stems of `text`'s tokens in order, one space between: what the index keeps of a message
/// for stemmed search. Tokenized again by the index, it gives one token per token of `text`,
/// so a phrase's words stay adjacent.
#[must_use]
pub fn stems(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for token in tokenize(text) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&stem(&token.folded));
    }
    out
}

/// The stems of a word or phrase the user wrote, as [`stems`] keeps them.
pub(super) fn stem_tokens(text: &str) -> Vec<String> {
    tokenize(text)
        .into_iter()
        .map(|t| stem(&t.folded).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_share_a_stem() {
        for (word, want) in [
            ("crash", "crash"),
            ("crashes", "crash"),
            ("crashed", "crash"),
            ("crashing", "crash"),
            ("syncing", "sync"),
            ("closes", "close"),
        ] {
            assert_eq!(stem(word), want, "{word}");
        }
        assert_eq!(stems("App CRASHES, then crashed"), "app crash then crash");
        assert_eq!(stems("Café 3.10.0"), "cafe 3 10 0");
        assert_eq!(stems("!!!"), "");
    }
}
