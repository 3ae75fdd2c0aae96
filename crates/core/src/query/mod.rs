//! The search language of `/`, saved views and `feedback-inbox search`: words, phrases,
//! prefixes, `OR`, `NOT`/`-`, parentheses and qualifiers (`app:`, `tag:`, `age:<7d`, …), parsed
//! into a tree ([`parse`]) and used to highlight the matched words ([`Query::highlights`]). The
//! store compiles a parsed query to SQL (`store::search`); nothing here reads the store.
//!
//! Every error carries the byte range of the input it is about, so the inbox can underline it;
//! no input panics (property-tested).

mod ast;
mod basis;
mod categories;
pub mod complete;
mod fold;
mod highlight;
mod lex;
mod names;
mod parse;
mod qualifier;
mod search_text;
mod stem;
mod triage;

#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::text::Clean;

pub use ast::{AgeCmp, Assignee, Expr, Filter, FilterKind, Form, Has, Is, MetaKey, Text};
pub use basis::{Basis, based_on};
pub use highlight::Highlights;
pub use names::{begins, fold_case, known_list, names};
pub use parse::{MAX_DEPTH, MAX_INPUT_BYTES, MAX_TERMS};
pub use qualifier::{age_cutoff, date, duration, local_instant, metadata_keys};
pub use search_text::SearchText;
pub use stem::{stem, stems};

/// The folded tokens of `text`, exactly as the full-text index stores them (FTS5 `unicode61`,
/// `remove_diacritics 2`), in order: what a similarity query looks up.
#[must_use]
pub fn index_words(text: &str) -> Vec<String> {
    highlight::tokenize(text)
        .into_iter()
        .map(|t| t.folded)
        .collect()
}

/// A query the user can fix: what is wrong, and where (bytes of the input, on char boundaries).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct QueryError {
    pub span: Range<usize>,
    /// One line, sanitized as the error is made: it quotes the user's words and stored names.
    pub message: Clean,
}

impl QueryError {
    /// An error saying `message` (a value quoted in it is made `Clean` on its own first, so an
    /// escape cut off at its end never takes the message's next characters).
    #[must_use]
    pub fn new(span: Range<usize>, message: Clean) -> Self {
        Self { span, message }
    }
}

/// A parsed query; the empty query matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Query {
    root: Option<Expr>,
}

/// Parses a query; blank input gives the empty query.
pub fn parse(input: &str) -> Result<Query, QueryError> {
    parse::parse_expr(input).map(|root| Query { root })
}

impl Query {
    /// True for a blank query (it matches every item).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The tree, `None` when empty.
    #[must_use]
    pub fn root(&self) -> Option<&Expr> {
        self.root.as_ref()
    }

    /// True when the query names `is:done` or `is:snoozed` (either way): it then sees done and
    /// snoozed items, which the default view leaves out. A query that names a view
    /// (`view:Inbox`) counts too: each view leaves out what it leaves out, in its own condition.
    #[must_use]
    pub fn asks_for_hidden(&self) -> bool {
        self.root
            .as_ref()
            .is_some_and(|e| triage::names(e, triage::is_hidden))
    }

    /// True when the query names a status (`status:new`) anywhere: without one it spans both.
    #[must_use]
    pub fn names_status(&self) -> bool {
        self.root
            .as_ref()
            .is_some_and(|e| triage::names(e, |k| matches!(k, FilterKind::Status(_))))
    }

    /// True when the query names a view (`view:NAME`) anywhere.
    #[must_use]
    pub fn names_view(&self) -> bool {
        self.root
            .as_ref()
            .is_some_and(|e| triage::names(e, triage::is_view))
    }

    /// True when every match must be of one app: the query is an `app:` qualifier, or an AND
    /// with one among its parts (the list then needs no APP column).
    #[must_use]
    pub fn pins_one_app(&self) -> bool {
        let is_app =
            |e: &Expr| matches!(e, Expr::Filter(f) if matches!(f.kind, FilterKind::App(_)));
        match &self.root {
            Some(Expr::And(parts)) => parts.iter().any(is_app),
            Some(other) => is_app(other),
            None => false,
        }
    }

    /// The words, phrases and prefixes the query looks for (not those it excludes).
    #[must_use]
    pub fn highlights(&self) -> Highlights {
        let mut out = Highlights::default();
        if let Some(root) = &self.root {
            collect_positive(root, false, &mut out);
        }
        out
    }
}

fn collect_positive(expr: &Expr, negated: bool, out: &mut Highlights) {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => {
            for part in parts {
                collect_positive(part, negated, out);
            }
        }
        Expr::Not(inner) => collect_positive(inner, !negated, out),
        Expr::Text(text) if !negated => out.push(&text.text, text.form),
        Expr::Text(_) | Expr::Filter(_) => {}
    }
}

/// The language in brief, for the help overlay; docs/search.md describes it in full.
pub const HELP: &str = "\
Search (newest first; words are matched case- and accent-insensitively)
  crash               crash, crashes, crashed: words with the same English stem
  =crash              the word as written only (=\"app crashes\" for a phrase)
  refund crash        both words (AND is implied)
  \"app crashes\"       the words next to each other
  crash*              words starting with crash (2 letters at least)
  refund OR credit    either; ( ) groups: (refund OR credit) tag:billing
  -spam  NOT spam     without
Qualifiers (values may be quoted: app:\"Trailhead iOS\"; case-insensitive)
  app:NAME project:NAME   by name (or its start), slug or id
  platform:ios  tag:bug  status:archived  id:ID
  email:ana@  from:ana    part of the reporter's address
  version:2.3.1  os:17.2  locale:de-DE  meta.KEY:VALUE (any metadata)
  has:email  has:link  has:tag  has:app  has:note  note:TEXT (in a note)
  has:ticket  ticket:TEXT   your links (tickets), by address or title; has:link: the
                            service's issue-tracker delivery
  is:replied  replied-by:NAME  replied-by:me  replied:<2d   replies to the reporter
  is:unseen  is:seen  is:starred  is:done  is:snoozed   (your triage state)
  is:mine  is:unclaimed  assignee:me  assignee:NAME     (with a team)
  label:NAME  note-by:NAME  note-by:me  owner:NAME      (with a team)
  view:Starred  view:\"My view\"  the items a view lists, as it lists them
Done and snoozed items are left out unless the search names is:done or is:snoozed
  after:2026-11-01  before:2026-11-01   (local time; after includes the day)
  age:<7d  age:>2w        units m h d w";
