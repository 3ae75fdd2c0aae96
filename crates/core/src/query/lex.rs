//! Splits a query into tokens: parentheses, operators, words, phrases and qualifiers, each with
//! its byte span. Errors (an unclosed quote, a lone `-`) point at the offending bytes.

use std::ops::Range;

use super::QueryError;
use crate::text::Clean;

/// One lexical token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    Open,
    Close,
    Or,
    And,
    /// `NOT` or a leading `-`.
    Not,
    /// A bare word or quoted phrase; `prefix` when it ends in `*`, `exact` when it starts
    /// with `=`.
    Text {
        text: &'a str,
        prefix: bool,
        exact: bool,
    },
    /// `name:value`; `value_span` is the value's bytes (inside the quotes when quoted).
    Qualifier {
        name: &'a str,
        value: &'a str,
        value_span: Range<usize>,
    },
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Token<'a> {
    pub(super) tok: Tok<'a>,
    pub(super) span: Range<usize>,
}

/// Splits `input` into tokens.
pub(super) fn lex(input: &str) -> Result<Vec<Token<'_>>, QueryError> {
    let mut lexer = Lexer { input, at: 0 };
    let mut out = Vec::new();
    while let Some(token) = lexer.next_token()? {
        out.push(token);
    }
    Ok(out)
}

struct Lexer<'a> {
    input: &'a str,
    at: usize,
}

/// Characters that end a bare word.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '"')
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.input.get(self.at..)?.chars().next()
    }

    fn next_token(&mut self) -> Result<Option<Token<'a>>, QueryError> {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.at += c.len_utf8();
        }
        let start = self.at;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let tok = match c {
            '(' | ')' => {
                self.at += 1;
                if c == '(' { Tok::Open } else { Tok::Close }
            }
            '"' => self.phrase(false)?,
            '=' => self.exact(start)?,
            '-' => {
                self.at += 1;
                if self.peek().is_none_or(|c| c.is_whitespace() || c == ')') {
                    return Err(QueryError::new(
                        start..self.at,
                        Clean::fixed("`-` excludes what follows it: write -word or -tag:spam"),
                    ));
                }
                Tok::Not
            }
            _ => self.word()?,
        };
        Ok(Some(Token {
            tok,
            span: start..self.at,
        }))
    }

    /// The text up to the next quote; `self.at` is on the opening quote.
    fn quoted(&mut self) -> Result<(&'a str, Range<usize>), QueryError> {
        let open = self.at;
        let inner = open + 1;
        let rest = self.input.get(inner..).unwrap_or("");
        let Some(len) = rest.find('"') else {
            return Err(QueryError::new(
                open..self.input.len(),
                Clean::fixed("unclosed quote: end the phrase with \""),
            ));
        };
        self.at = inner + len + 1;
        Ok((&rest[..len], inner..inner + len))
    }

    fn phrase(&mut self, exact: bool) -> Result<Tok<'a>, QueryError> {
        let (text, _) = self.quoted()?;
        let prefix = self.peek() == Some('*');
        if prefix {
            self.at += 1;
        }
        Ok(Tok::Text {
            text,
            prefix,
            exact,
        })
    }

    /// `=word` or `="a phrase"`; `self.at` is on the `=`.
    fn exact(&mut self, start: usize) -> Result<Tok<'a>, QueryError> {
        self.at += 1;
        let tok = match self.peek() {
            Some('"') => Some(self.phrase(true)?),
            Some(c) if !ends_word(c) => match self.word()? {
                Tok::Text { text, prefix, .. } => Some(Tok::Text {
                    text,
                    prefix,
                    exact: true,
                }),
                _ => None,
            },
            _ => None,
        };
        tok.ok_or_else(|| {
            QueryError::new(
                start..self.at,
                Clean::fixed("`=` matches words as written: write =crash or =\"two words\""),
            )
        })
    }

    fn word(&mut self) -> Result<Tok<'a>, QueryError> {
        let start = self.at;
        let rest = &self.input[start..];
        let len = rest.find(ends_word).unwrap_or(rest.len());
        let word = &rest[..len];
        self.at = start + len;
        if let Some((name, value)) = qualifier_parts(word) {
            let value_start = start + name.len() + 1;
            if value.is_empty() && self.peek() == Some('"') {
                let (value, value_span) = self.quoted()?;
                return Ok(Tok::Qualifier {
                    name,
                    value,
                    value_span,
                });
            }
            return Ok(Tok::Qualifier {
                name,
                value,
                value_span: value_start..self.at,
            });
        }
        Ok(match word {
            "OR" => Tok::Or,
            "AND" => Tok::And,
            "NOT" => Tok::Not,
            _ => match word.strip_suffix('*') {
                Some(text) => Tok::Text {
                    text,
                    prefix: true,
                    exact: false,
                },
                None => Tok::Text {
                    text: word,
                    prefix: false,
                    exact: false,
                },
            },
        })
    }
}

/// `name:value` when the word starts with a name (a letter, then letters, digits, `_`, `.`, `-`)
/// and a colon; `10:30` and `:)` stay words.
fn qualifier_parts(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once(':')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    let name_ok = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    name_ok.then_some((name, value))
}
