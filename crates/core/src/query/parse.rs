//! Recursive-descent parser: `OR` binds loosest, then `AND` (also implicit between terms), then
//! `NOT`/`-`. Depth, length and term count are bounded so no input can exhaust the stack or
//! build a statement SQLite refuses.

use std::ops::Range;

use super::ast::{Expr, Form, Text};
use super::highlight::tokenize;
use super::lex::{Tok, Token, lex};
use super::{QueryError, qualifier};
use crate::text::Clean;

/// Longest query accepted, in bytes.
pub const MAX_INPUT_BYTES: usize = 4096;
/// Deepest nesting of parentheses and NOTs.
pub const MAX_DEPTH: usize = 32;
/// Most words, phrases and qualifiers in one query.
pub const MAX_TERMS: usize = 64;

/// Parses `input` into a tree; `None` for a blank query.
pub(super) fn parse_expr(input: &str) -> Result<Option<Expr>, QueryError> {
    if input.len() > MAX_INPUT_BYTES {
        let start = floor_char_boundary(input, MAX_INPUT_BYTES);
        return Err(QueryError::new(
            start..input.len(),
            Clean::line(&format!("query too long: at most {MAX_INPUT_BYTES} bytes")),
        ));
    }
    let tokens = lex(input)?;
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
        terms: 0,
        end: input.len(),
    };
    let expr = parser.or()?;
    if let Some(token) = parser.tokens.get(parser.at) {
        return Err(QueryError::new(
            token.span.clone(),
            Clean::fixed("unmatched `)`"),
        ));
    }
    Ok(Some(expr))
}

/// The largest char boundary of `s` at or before `at`.
pub(super) fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    at: usize,
    depth: usize,
    terms: usize,
    end: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Token<'a>> {
        self.tokens.get(self.at)
    }

    fn next_is(&self, tok: &Tok<'_>) -> bool {
        self.peek().is_some_and(|t| t.tok == *tok)
    }

    /// Span to blame when the input ends too early: the empty range at its end.
    fn end_span(&self) -> Range<usize> {
        self.end..self.end
    }

    fn or(&mut self) -> Result<Expr, QueryError> {
        let mut parts = vec![self.and()?];
        while self.next_is(&Tok::Or) {
            let span = self.tokens[self.at].span.clone();
            self.at += 1;
            if self
                .peek()
                .is_none_or(|t| matches!(t.tok, Tok::Close | Tok::Or | Tok::And))
            {
                return Err(QueryError::new(
                    span,
                    Clean::fixed("OR needs a term after it"),
                ));
            }
            parts.push(self.and()?);
        }
        Ok(flatten(parts, Expr::Or))
    }

    fn and(&mut self) -> Result<Expr, QueryError> {
        let mut parts = vec![self.unary()?];
        loop {
            match self.peek().map(|t| &t.tok) {
                None | Some(Tok::Close | Tok::Or) => break,
                Some(Tok::And) => {
                    let span = self.tokens[self.at].span.clone();
                    self.at += 1;
                    if self
                        .peek()
                        .is_none_or(|t| matches!(t.tok, Tok::Close | Tok::Or | Tok::And))
                    {
                        return Err(QueryError::new(
                            span,
                            Clean::fixed("AND needs a term after it"),
                        ));
                    }
                }
                Some(_) => {}
            }
            parts.push(self.unary()?);
        }
        Ok(flatten(parts, Expr::And))
    }

    fn deeper(&mut self, span: &Range<usize>) -> Result<(), QueryError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(QueryError::new(
                span.clone(),
                Clean::line(&format!(
                    "nested too deeply: at most {MAX_DEPTH} levels of ( ) and NOT"
                )),
            ));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Expr, QueryError> {
        let Some(token) = self.peek().cloned() else {
            return Err(QueryError::new(
                self.end_span(),
                Clean::fixed("expected a word or qualifier"),
            ));
        };
        match token.tok {
            Tok::Not => {
                self.at += 1;
                if self
                    .peek()
                    .is_none_or(|t| matches!(t.tok, Tok::Close | Tok::Or | Tok::And))
                {
                    return Err(QueryError::new(
                        token.span,
                        Clean::fixed("NOT needs a term after it"),
                    ));
                }
                self.deeper(&token.span)?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(Expr::Not(Box::new(inner)))
            }
            Tok::Open => self.group(token.span),
            Tok::Close => Err(QueryError::new(token.span, Clean::fixed("unmatched `)`"))),
            Tok::Or | Tok::And => Err(QueryError::new(
                token.span,
                Clean::fixed("OR and AND go between two terms (quote \"or\" to search the word)"),
            )),
            Tok::Text {
                text,
                prefix,
                exact,
            } => {
                self.at += 1;
                self.count_term(&token.span)?;
                let form = match (prefix, exact) {
                    (true, _) => Form::Prefix,
                    (false, true) => Form::Exact,
                    (false, false) => Form::Stem,
                };
                text_term(text, form, token.span).map(Expr::Text)
            }
            Tok::Qualifier {
                name,
                value,
                value_span,
            } => {
                self.at += 1;
                self.count_term(&token.span)?;
                qualifier::parse(name, value, token.span, value_span).map(Expr::Filter)
            }
        }
    }

    fn group(&mut self, open: Range<usize>) -> Result<Expr, QueryError> {
        self.at += 1;
        self.deeper(&open)?;
        if self.next_is(&Tok::Close) {
            let close = self.tokens[self.at].span.end;
            return Err(QueryError::new(
                open.start..close,
                Clean::fixed("empty parentheses"),
            ));
        }
        if self.peek().is_none() {
            return Err(QueryError::new(open, Clean::fixed("unclosed `(`")));
        }
        let inner = self.or()?;
        if !self.next_is(&Tok::Close) {
            return Err(QueryError::new(open, Clean::fixed("unclosed `(`")));
        }
        self.at += 1;
        self.depth -= 1;
        Ok(inner)
    }

    fn count_term(&mut self, span: &Range<usize>) -> Result<(), QueryError> {
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(QueryError::new(
                span.clone(),
                Clean::line(&format!("too many terms: at most {MAX_TERMS}")),
            ));
        }
        Ok(())
    }
}

/// Letters a prefix needs: the index merges the matches of every word that starts with it
/// before the first row, and for one letter that is most of the vocabulary (0.4–0.6 s at 1M).
pub(crate) const PREFIX_MIN_CHARS: usize = 2;

/// A text term, refused when it has nothing the index could match (`!!!`, a lone `*`), or is a
/// prefix too short to search quickly.
fn text_term(text: &str, form: Form, span: Range<usize>) -> Result<Text, QueryError> {
    let tokens = tokenize(text);
    let Some(last) = tokens.last() else {
        return Err(QueryError::new(
            span,
            Clean::fixed("nothing to search for here: words need a letter or digit"),
        ));
    };
    if form == Form::Prefix && last.folded.chars().count() < PREFIX_MIN_CHARS {
        return Err(QueryError::new(
            span,
            Clean::line(&format!(
                "a prefix needs at least {PREFIX_MIN_CHARS} letters (crash*)"
            )),
        ));
    }
    Ok(Text {
        text: text.to_owned(),
        form,
        span,
    })
}

/// One part stays itself; several become an `And`/`Or` node.
fn flatten(mut parts: Vec<Expr>, node: fn(Vec<Expr>) -> Expr) -> Expr {
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        node(parts)
    }
}
