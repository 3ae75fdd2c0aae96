//! Which parts of a message the query's words matched, found the way the full-text index found
//! them: the same tokenizer rules (FTS5 `unicode61`, `remove_diacritics 2`) and the same stems,
//! so "Café" lights up for `cafe`, `crash` and `crash*` light "Crashed" where `=crash` does
//! not, and a phrase lights only where its words are adjacent.

use std::ops::Range;

use super::ast::Form;
use super::categories::is_token_char;
use super::fold::{fold, is_diacritic};
use super::stem::{stem, stem_tokens};

/// The positive words, phrases and prefixes of a query (those not under a NOT).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    terms: Vec<Term>,
}

/// One word or phrase: its tokens, stemmed for [`Form::Stem`] and folded otherwise, the last
/// one a prefix for [`Form::Prefix`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    tokens: Vec<String>,
    form: Form,
}

/// A token of some text: where it is (bytes) and its folded form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) span: Range<usize>,
    pub(super) folded: String,
}

impl Highlights {
    /// Adds a word or phrase (raw user text); text without a token adds nothing.
    pub(super) fn push(&mut self, text: &str, form: Form) {
        let tokens: Vec<String> = match form {
            Form::Stem => stem_tokens(text),
            Form::Exact | Form::Prefix => tokenize(text).into_iter().map(|t| t.folded).collect(),
        };
        if !tokens.is_empty() {
            self.terms.push(Term { tokens, form });
        }
    }

    /// True when nothing would ever be highlighted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Byte ranges of `text` the highlights match, sorted, merged and on char boundaries.
    ///
    /// Works on raw or sanitized text alike (the sanitizer keeps letters and digits); a phrase
    /// covers its first token's start to its last token's end.
    #[must_use]
    pub fn ranges(&self, text: &str) -> Vec<Range<usize>> {
        if self.terms.is_empty() {
            return Vec::new();
        }
        let tokens = tokenize(text);
        let stems: Vec<String> = if self.terms.iter().any(|t| t.form == Form::Stem) {
            tokens
                .iter()
                .map(|t| stem(&t.folded).into_owned())
                .collect()
        } else {
            Vec::new()
        };
        let mut found: Vec<Range<usize>> = Vec::new();
        for term in &self.terms {
            for start in 0..tokens.len() {
                if let Some(range) = term.match_at(&tokens, &stems, start) {
                    found.push(range);
                }
            }
        }
        merge(found)
    }
}

impl Term {
    /// The byte range of `tokens[start..]` when the term matches there; `stems` are the
    /// tokens' stems (when any term is [`Form::Stem`]).
    fn match_at(&self, tokens: &[Token], stems: &[String], start: usize) -> Option<Range<usize>> {
        let end = start + self.tokens.len();
        let window = tokens.get(start..end)?;
        let last = self.tokens.len() - 1;
        let all = match self.form {
            Form::Stem => {
                let stemmed = stems.get(start..end)?;
                self.tokens
                    .iter()
                    .zip(stemmed)
                    .all(|(want, got)| got == want)
            }
            Form::Exact => self.tokens.iter().zip(window).all(|(w, g)| g.folded == *w),
            Form::Prefix => self
                .tokens
                .iter()
                .zip(window)
                .enumerate()
                .all(|(i, (w, g))| {
                    if i == last {
                        g.folded.starts_with(w.as_str())
                    } else {
                        g.folded == *w
                    }
                }),
        };
        let (first, end) = (window.first()?, window.last()?);
        all.then_some(first.span.start..end.span.end)
    }
}

/// Sorts and merges overlapping or touching ranges.
fn merge(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for range in ranges {
        match out.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => out.push(range),
        }
    }
    out
}

/// Splits `text` into tokens as FTS5's `unicode61` does: a token starts at a letter or digit and
/// runs over letters, digits and combining diacritics; everything else separates.
pub(super) fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut current: Option<Token> = None;
    for (at, c) in text.char_indices() {
        let continues = current.is_some() && is_diacritic(c);
        if is_token_char(c) || continues {
            let token = current.get_or_insert_with(|| Token {
                span: at..at,
                folded: String::new(),
            });
            token.span.end = at + c.len_utf8();
            if let Some(folded) = fold(c) {
                token.folded.push(folded);
            }
        } else if let Some(token) = current.take() {
            tokens.push(token);
        }
    }
    tokens.extend(current);
    tokens
}
