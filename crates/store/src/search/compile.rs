//! Compiling a query to one SQL condition over `items`. Text terms become FTS5 MATCH
//! expressions built from quoted tokens (user text never reaches FTS5 syntax); adjacent pure-text
//! AND/OR groups share one MATCH; a NOT with no positive text beside it becomes `NOT IN`.
//! Every leaf is 0 or 1, never NULL, so `NOT` and `-` mean "every item the term does not match".
//! Parameters are numbered `?1…` (the store renumbers them when it adds its own).

use std::ops::Range;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::Context;
use super::resolve::{self, RefKind};
use feedback_core::query::{
    self, Assignee, Expr, Filter, FilterKind, Form, Query, QueryError, Text,
};

mod filters;

use feedback_core::text::Clean;
use filters::{escape_like, has_sql, key_list};

/// An SQL condition over `items` with its parameters (numbered from `?1`), and the full-text
/// match every result must have, when the query has one at its top: the store then walks that
/// match's index newest first (its rowids are the items' keys, in time order) and stops after a
/// screen, instead of collecting every match before ordering them. Opaque outside the store: a
/// caller compiles a query into one, narrows it by time, and hands it back to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Sql {
    pub(crate) condition: String,
    pub(crate) params: Vec<Value>,
    /// An FTS5 expression for `items_fts MATCH`, in addition to `condition`.
    pub(crate) fts: Option<String>,
}

/// Compiles `query` for the store behind `conn`: app and project names are looked up there
/// (an unknown one is an error at its value), `after:`/`before:` are read in `cx.tz`, and
/// `age:` is counted back from `cx.now`. The empty query compiles to `1`.
pub(crate) fn compile(conn: &Connection, query: &Query, cx: &Context) -> Result<Sql, QueryError> {
    let Some(root) = query.root() else {
        return Ok(Sql {
            condition: "1".to_owned(),
            params: Vec::new(),
            fts: None,
        });
    };
    let mut compiler = Compiler {
        conn,
        cx,
        params: Vec::new(),
    };
    let (fts, condition) = match driver(root) {
        Some((m, rest)) => (Some(m), compiler.conjunction(&rest)?),
        None => (None, compiler.expr(root)?),
    };
    Ok(Sql {
        condition,
        params: compiler.params,
        fts,
    })
}

impl Sql {
    /// This condition narrowed to items received at or after `since` and before `until`: ranges
    /// of the items' keys (their received times, see `store::keys`), as `after:` and `before:`
    /// compile.
    pub fn narrow_received(
        &mut self,
        since: Option<jiff::Timestamp>,
        until: Option<jiff::Timestamp>,
    ) {
        for (bound, after) in [(since, true), (until, false)] {
            if let Some(at) = bound {
                let key = crate::micros_key(at.as_microsecond());
                self.params.push(Value::Integer(key));
                let p = format!("?{}", self.params.len());
                let condition = if after {
                    crate::at_or_after(&p)
                } else {
                    crate::before(&p)
                };
                self.condition = format!("({}) AND {condition}", self.condition);
            }
        }
    }
}

impl crate::Store {
    /// [`compile`] against this store's names.
    pub fn compile(&self, query: &Query, cx: &Context) -> Result<Sql, QueryError> {
        compile(&self.conn, query, cx)
    }
}

/// The text match the whole query requires (the query itself when it is all text, or the text
/// terms of a top-level AND), with the parts left over.
fn driver(root: &Expr) -> Option<(String, Vec<&Expr>)> {
    if let Some(m) = fts(root) {
        return Some((m, Vec::new()));
    }
    let Expr::And(parts) = root else {
        return None;
    };
    let (positive, negative, rest) = split_and(parts);
    (!positive.is_empty()).then(|| (and_match(&positive, &negative), rest))
}

/// The FTS5 expression for `expr` when it is made of text terms alone (and is not a bare NOT,
/// which FTS5 cannot say).
fn fts(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Text(text) => Some(phrase(text)),
        Expr::Or(parts) => {
            let parts: Option<Vec<String>> = parts.iter().map(fts).collect();
            Some(format!("({})", parts?.join(" OR ")))
        }
        Expr::And(parts) => {
            let (positive, negative, rest) = split_and(parts);
            (rest.is_empty() && !positive.is_empty()).then(|| and_match(&positive, &negative))
        }
        Expr::Not(_) | Expr::Filter(_) => None,
    }
}

/// An AND group's parts: text (FTS-able), negated text, and everything else.
fn split_and(parts: &[Expr]) -> (Vec<String>, Vec<String>, Vec<&Expr>) {
    let (mut positive, mut negative, mut rest) = (Vec::new(), Vec::new(), Vec::new());
    for part in parts {
        if let Some(m) = fts(part) {
            positive.push(m);
        } else if let Some(m) = negated_fts(part) {
            negative.push(m);
        } else {
            rest.push(part);
        }
    }
    (positive, negative, rest)
}

fn negated_fts(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Not(inner) => fts(inner),
        _ => None,
    }
}

fn and_match(positive: &[String], negative: &[String]) -> String {
    let mut out = format!("({})", positive.join(" AND "));
    for n in negative {
        out = format!("({out} NOT {n})");
    }
    out
}

/// A word or phrase as an FTS5 expression on the column its form searches: stems for a plain
/// word or phrase (the user's words stemmed the way the messages were), the words as written
/// for an exact one and for a prefix (`*` outside the quotes).
fn phrase(text: &Text) -> String {
    match text.form {
        Form::Stem => format!("stems : {}", fts_string(&query::stems(&text.text))),
        Form::Exact => format!("message : {}", fts_string(&text.text)),
        Form::Prefix => format!("message : {} *", fts_string(&text.text)),
    }
}

/// One folded word matched as written (not by its stem), for lookups of a message's own words.
#[must_use]
pub fn exact_word(word: &str) -> String {
    format!("message : {}", fts_string(word))
}

/// Text as one FTS5 string, matched as written, never as syntax: quoted, quotes doubled.
#[must_use]
pub(crate) fn fts_string(text: &str) -> String {
    // NUL would end the string inside SQLite's FTS5 parser; to the tokenizer it only
    // separates words, as a space does.
    format!("\"{}\"", text.replace('"', "\"\"").replace('\0', " "))
}

struct Compiler<'a> {
    conn: &'a Connection,
    cx: &'a Context,
    params: Vec<Value>,
}

impl Compiler<'_> {
    fn param(&mut self, value: Value) -> String {
        self.params.push(value);
        format!("?{}", self.params.len())
    }

    fn text_params(&mut self, values: &[String]) -> String {
        let list: Vec<String> = values
            .iter()
            .map(|v| self.param(Value::Text(v.clone())))
            .collect();
        list.join(", ")
    }

    fn fts_in(&mut self, expression: String, positive: bool) -> String {
        let not = if positive { "" } else { "NOT " };
        let p = self.param(Value::Text(expression));
        format!("items.k {not}IN (SELECT rowid FROM items_fts WHERE items_fts MATCH {p})")
    }

    fn expr(&mut self, expr: &Expr) -> Result<String, QueryError> {
        if let Some(m) = fts(expr) {
            return Ok(self.fts_in(m, true));
        }
        match expr {
            Expr::And(parts) => self.and(parts),
            Expr::Or(parts) => self.or(parts),
            Expr::Not(inner) => match fts(inner) {
                Some(m) => Ok(self.fts_in(m, false)),
                None => Ok(format!("NOT ({})", self.expr(inner)?)),
            },
            Expr::Text(text) => Ok(self.fts_in(phrase(text), true)),
            Expr::Filter(filter) => self.filter(filter),
        }
    }

    /// Every part must hold (`1` for none).
    fn conjunction(&mut self, parts: &[&Expr]) -> Result<String, QueryError> {
        if parts.is_empty() {
            return Ok("1".to_owned());
        }
        let mut out = Vec::with_capacity(parts.len());
        for part in parts {
            out.push(format!("({})", self.expr(part)?));
        }
        Ok(out.join(" AND "))
    }

    fn and(&mut self, parts: &[Expr]) -> Result<String, QueryError> {
        let (positive, negative, rest) = split_and(parts);
        let mut out = Vec::new();
        if !positive.is_empty() {
            out.push(self.fts_in(and_match(&positive, &negative), true));
        } else if !negative.is_empty() {
            out.push(self.fts_in(format!("({})", negative.join(" OR ")), false));
        }
        for part in rest {
            out.push(format!("({})", self.expr(part)?));
        }
        Ok(out.join(" AND "))
    }

    fn or(&mut self, parts: &[Expr]) -> Result<String, QueryError> {
        let mut text = Vec::new();
        let mut rest = Vec::new();
        for part in parts {
            match fts(part) {
                Some(m) => text.push(m),
                None => rest.push(part),
            }
        }
        let mut out = Vec::new();
        if !text.is_empty() {
            out.push(self.fts_in(format!("({})", text.join(" OR ")), true));
        }
        for part in rest {
            out.push(format!("({})", self.expr(part)?));
        }
        Ok(out.join(" OR "))
    }

    fn filter(&mut self, filter: &Filter) -> Result<String, QueryError> {
        let span = &filter.value_span;
        Ok(match &filter.kind {
            FilterKind::App(v) => key_list(
                "items.app",
                &resolve::refs(self.conn, RefKind::App, v, span)?,
            ),
            FilterKind::Project(v) => key_list(
                "items.project",
                &resolve::refs(self.conn, RefKind::Project, v, span)?,
            ),
            FilterKind::Platform(v) => self.platform(v, span)?,
            FilterKind::Tag(v) => self.tag(v, span)?,
            FilterKind::Status(v) => self.status(v, span)?,
            FilterKind::Email(v) => {
                let p = self.param(Value::Text(format!("%{}%", escape_like(v))));
                format!("(items.email IS NOT NULL AND items.email LIKE {p} ESCAPE '\\')")
            }
            FilterKind::Id(v) => format!("items.id = {}", self.param(Value::Text(v.clone()))),
            FilterKind::Meta { key, value } => self.meta(key, value, span)?,
            FilterKind::Has(has) => has_sql(*has),
            FilterKind::Is(is) => {
                let now = self.cx.now.as_second();
                super::triage::is_sql(*is, now, |v| self.param(v))
            }
            FilterKind::After(at) => {
                let micros = self.local_micros(*at, span)?;
                self.received(">=", micros)
            }
            FilterKind::Before(at) => {
                let micros = self.local_micros(*at, span)?;
                self.received("<", micros)
            }
            FilterKind::Age { cmp, age } => self.age(*cmp, *age, span)?,
            FilterKind::Assignee(who) => {
                let name = self.member(who);
                super::triage::assignee(name.as_deref())
            }
            FilterKind::Label(label) => {
                let label = self.param(Value::Text(label.clone()));
                super::triage::label(&label)
            }
            FilterKind::NoteBy(who) => {
                let name = self.member(who);
                super::triage::note_by(name.as_deref())
            }
            FilterKind::Note(text) => {
                let p = self.param(Value::Text(format!("%{}%", escape_like(text))));
                super::triage::note_holds(&p)
            }
            FilterKind::RepliedBy(who) => {
                let name = self.member(who);
                super::triage::replied_by(name.as_deref())
            }
            FilterKind::Replied { cmp, age } => self.replied(*cmp, *age, &filter.value_span)?,
            FilterKind::Ticket(text) => {
                let p = self.param(Value::Text(format!("%{}%", escape_like(text))));
                super::triage::ticket(&p)
            }
            FilterKind::View(name) => self.view(name, &filter.span)?,
        })
    }

    /// `view:NAME`: the items the view lists, as the list reads them (its status, panes and
    /// search; done and snoozed items left out unless its search names them), as a condition on
    /// the same row (no set of the view's keys is collected, so a walk that stops after a screen
    /// stays cheap). A view's search naming a view is refused, so views cannot loop. Errors
    /// point at the whole qualifier, naming the view.
    fn view(&mut self, name: &str, span: &Range<usize>) -> Result<String, QueryError> {
        use crate::saved_views::{find, quoted};
        let view = find(&self.cx.views, name)
            .map_err(|m| QueryError::new(span.clone(), Clean::line(&m)))?;
        let inner = |message: &str| {
            QueryError::new(
                span.clone(),
                Clean::line(&format!("view {}: {message}", quoted(&view.name))),
            )
        };
        let parsed = view.spec.search.parsed().map_err(|e| inner(&e.message))?;
        if parsed.names_view() {
            return Err(inner("its search names a view, and views do not nest"));
        }
        let mut query = crate::view::query_of(self.conn, &view.spec, self.cx, false)
            .map_err(|e| inner(&e.message))?;
        // Its text match, which would drive a walk of its own, is a condition here like any
        // text that does not lead the query.
        let fts = query.fts.take();
        let (_, condition, params) = crate::read::view_condition(self.conn, &query)
            .map_err(|e| inner(&format!("cannot read the store: {e}")))?;
        let mut condition = crate::read::renumber(&condition, self.params.len());
        self.params.extend(params);
        if let Some(m) = fts {
            condition = format!("{condition} AND {}", self.fts_in(m, true));
        }
        // The view's own filters may be NULL on a row (an item without an app); a leaf here is
        // 0 or 1, so that `-view:` is every item the view does not list.
        Ok(format!("({condition}) IS 1"))
    }

    /// The parameter naming a member; `None` for `me` (the store's own member).
    fn member(&mut self, who: &Assignee) -> Option<String> {
        match who {
            Assignee::Me => None,
            Assignee::Named(name) => Some(self.param(Value::Text(name.clone()))),
        }
    }
}
