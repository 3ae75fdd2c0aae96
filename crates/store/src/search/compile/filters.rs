//! The filters' SQL: tags, platforms, statuses, metadata keys, dates and ages, and the small
//! helpers they share.

use std::ops::Range;

use rusqlite::types::Value;

use super::super::resolve;
use super::Compiler;
use feedback_core::query::{
    AgeCmp, Has, MetaKey, QueryError, age_cutoff, fold_case, local_instant,
};

impl Compiler<'_> {
    pub(super) fn tag(&mut self, value: &str, span: &Range<usize>) -> Result<String, QueryError> {
        let next = "SELECT tag FROM item_tags WHERE tag > ?1 ORDER BY tag LIMIT 1";
        Ok(
            match resolve::spellings(self.conn, next, &[], value, span)? {
                Some(tags) if tags.is_empty() => self.unmatched_tag(value, span)?,
                Some(tags) => format!(
                    "items.k IN (SELECT k FROM item_tags WHERE tag IN ({}))",
                    self.text_params(&tags)
                ),
                None => {
                    let p = self.param(Value::Text(value.to_owned()));
                    format!("items.k IN (SELECT k FROM item_tags WHERE tag = {p} COLLATE NOCASE)")
                }
            },
        )
    }

    /// A tag no stored item carries: no result when the service lists it, otherwise an error.
    pub(super) fn unmatched_tag(
        &self,
        value: &str,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let listed = resolve::distinct(self.conn, "SELECT tag FROM server_tags", span)?;
        let want = fold_case(value);
        if listed.iter().any(|t| fold_case(t) == want) {
            return Ok("0".to_owned());
        }
        let known = resolve::distinct(
            self.conn,
            "SELECT DISTINCT tag FROM item_tags ORDER BY tag LIMIT 50",
            span,
        )?;
        Err(resolve::unknown_value("tag", value, known, span))
    }

    /// Apps of a platform; a platform neither stored nor one the service names is an error.
    pub(super) fn platform(
        &mut self,
        value: &str,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let refs = resolve::platform_refs(self.conn, value, span)?;
        if refs.is_empty() && !feedback_api::Platform::from(fold_case(value).as_str()).is_known() {
            let known = resolve::distinct(
                self.conn,
                "SELECT DISTINCT platform FROM app_refs UNION SELECT DISTINCT platform FROM apps WHERE platform IS NOT NULL",
                span,
            )?;
            return Err(resolve::unknown_value("platform", value, known, span));
        }
        Ok(key_list("items.app", &refs))
    }

    /// `status:new` and `status:archived` name the list an item is in; any other value names
    /// the service's own status of items kept in one of them (`items.unknown_status`).
    pub(super) fn status(
        &mut self,
        value: &str,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let known = feedback_api::Status::from(fold_case(value).as_str()).is_known();
        let (column, next) = if known {
            (
                "items.status",
                "SELECT status FROM items WHERE status > ?1 ORDER BY status LIMIT 1",
            )
        } else {
            (
                "items.unknown_status",
                "SELECT unknown_status FROM items WHERE unknown_status > ?1 \
                 ORDER BY unknown_status LIMIT 1",
            )
        };
        Ok(
            match resolve::spellings(self.conn, next, &[], value, span)? {
                Some(found) if found.is_empty() => {
                    if !known {
                        let known = resolve::distinct(
                            self.conn,
                            "SELECT DISTINCT status FROM items UNION \
                             SELECT DISTINCT unknown_status FROM items \
                             WHERE unknown_status IS NOT NULL LIMIT 50",
                            span,
                        )?;
                        return Err(resolve::unknown_value("status", value, known, span));
                    }
                    "0".to_owned()
                }
                Some(found) => format!("{column} IN ({})", self.text_params(&found)),
                None => {
                    let p = self.param(Value::Text(value.to_owned()));
                    format!("{column} = {p} COLLATE NOCASE")
                }
            },
        )
    }

    pub(super) fn meta(
        &mut self,
        key: &MetaKey,
        value: &str,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let (keys, built_in_only): (Vec<String>, bool) = match key {
            MetaKey::BuiltIn(keys) => (keys.iter().map(|k| (*k).to_owned()).collect(), true),
            MetaKey::Any(key) => {
                let next = "SELECT key FROM item_meta WHERE key > ?1 ORDER BY key LIMIT 1";
                match resolve::spellings(self.conn, next, &[], key, span)? {
                    Some(keys) => (keys, false),
                    None => (vec![key.clone()], false),
                }
            }
        };
        let mut per_key = Vec::new();
        for key in &keys {
            let next =
                "SELECT value FROM item_meta WHERE key = ?2 AND value > ?1 ORDER BY value LIMIT 1";
            let found = resolve::spellings(self.conn, next, &[key], value, span)?;
            if found.as_ref().is_some_and(Vec::is_empty) {
                continue;
            }
            let k = self.param(Value::Text(key.clone()));
            match found {
                Some(values) => {
                    per_key.push(format!(
                        "(key = {k} AND value IN ({}))",
                        self.text_params(&values)
                    ));
                }
                None => {
                    let v = self.param(Value::Text(value.to_owned()));
                    per_key.push(format!("(key = {k} AND value = {v} COLLATE NOCASE)"));
                }
            }
        }
        if per_key.is_empty() {
            return Ok("0".to_owned());
        }
        let custom = if built_in_only { "custom = 0 AND " } else { "" };
        Ok(format!(
            "items.k IN (SELECT k FROM item_meta WHERE {custom}({}))",
            per_key.join(" OR ")
        ))
    }

    /// Unix microseconds of a local date-time in the user's zone.
    pub(super) fn local_micros(
        &self,
        at: jiff::civil::DateTime,
        span: &Range<usize>,
    ) -> Result<i64, QueryError> {
        local_instant(at, &self.cx.tz, span).map(jiff::Timestamp::as_microsecond)
    }

    pub(super) fn age(
        &mut self,
        cmp: AgeCmp,
        age: jiff::SignedDuration,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let cutoff = age_cutoff(self.cx.now, age, span)?;
        Ok(self.received(after_cutoff(cmp), cutoff.as_microsecond()))
    }

    /// `replied:<2d`: the newest reply's time against now less the age.
    pub(super) fn replied(
        &mut self,
        cmp: AgeCmp,
        age: jiff::SignedDuration,
        span: &Range<usize>,
    ) -> Result<String, QueryError> {
        let cutoff = age_cutoff(self.cx.now, age, span)?;
        let p = self.param(Value::Integer(cutoff.as_microsecond()));
        Ok(super::super::triage::replied(after_cutoff(cmp), &p))
    }

    /// `received {op} micros`, said of the item's key (its received time, newest first, see
    /// `store::keys`), so the condition is a range of the table's own order: "at or after m" is
    /// `k <= key(m)`, "before m" is `k > key(m)`.
    pub(super) fn received(&mut self, op: &str, micros: i64) -> String {
        let (after, micros) = match op {
            ">" => (true, micros.saturating_add(1)),
            ">=" => (true, micros),
            "<=" => (false, micros.saturating_add(1)),
            _ => (false, micros),
        };
        let p = self.param(Value::Integer(crate::micros_key(micros)));
        if after {
            crate::at_or_after(&p)
        } else {
            crate::before(&p)
        }
    }
}

/// How a time compares with an age's cutoff (now less the age): younger than the age is after
/// the cutoff.
fn after_cutoff(cmp: AgeCmp) -> &'static str {
    match cmp {
        AgeCmp::Younger { inclusive: false } => ">",
        AgeCmp::Younger { inclusive: true } => ">=",
        AgeCmp::Older { inclusive: false } => "<",
        AgeCmp::Older { inclusive: true } => "<=",
    }
}

/// `column IN (keys)` for reference keys (our own integers, inlined); `0` for none.
pub(super) fn key_list(column: &str, keys: &[i64]) -> String {
    if keys.is_empty() {
        return "0".to_owned();
    }
    let list: Vec<String> = keys.iter().map(i64::to_string).collect();
    format!(
        "({column} IS NOT NULL AND {column} IN ({}))",
        list.join(", ")
    )
}

pub(super) fn has_sql(has: Has) -> String {
    match has {
        Has::Email => "(items.email IS NOT NULL AND items.email <> '')".to_owned(),
        Has::Link => {
            "(CASE WHEN json_valid(items.delivery) THEN EXISTS (SELECT 1 FROM json_each(items.delivery) \
             WHERE coalesce(json_extract(json_each.value, '$.external_url'), '') <> '') ELSE 0 END)"
                .to_owned()
        }
        Has::Tag => "(items.tags <> '[]')".to_owned(),
        Has::App => "(items.app IS NOT NULL)".to_owned(),
        Has::Note => super::super::triage::has_note().to_owned(),
        Has::Ticket => super::super::triage::has_ticket(),
    }
}

/// Escapes LIKE's wildcards so `email:a_b` means the text "a_b".
pub(super) fn escape_like(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if matches!(c, '\\' | '%' | '_') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
