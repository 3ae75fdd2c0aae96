//! What a query's answer rests on besides the list's rows. `version:`, `os:`, `locale:`,
//! `meta.KEY:` read an item's metadata and `has:link` its delivery links, and the list endpoint
//! brings neither: they come with the item's detail (or a webhook delivery, for metadata). Such
//! a query can only answer for the items whose details are stored, so its answer says how many
//! those are ("based on 3 of 300 items with details"), counted over the query's scope: the query
//! without its detail qualifiers.

use super::Query;
use super::ast::{Expr, FilterKind, Has};

/// Which stored details a query's answer rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// Metadata only (`items.meta_at`: a detail or a webhook delivery brought it).
    Metadata,
    /// Delivery links (`has:link`), which only a detail brings (`items.detail_at`).
    Delivery,
}

impl Query {
    /// The details the query's answer rests on; `None` when the list's rows answer it alone.
    #[must_use]
    pub fn basis(&self) -> Option<Basis> {
        let mut found = None;
        if let Some(root) = &self.root {
            visit(root, &mut found);
        }
        found
    }

    /// The items the answer is about: the query less its parts that rest on details. Of a
    /// top-level AND, the parts that do not; any other query that rests on details is about
    /// every item (its scope is the empty query).
    #[must_use]
    pub fn without_details(&self) -> Query {
        let rests = |e: &Expr| {
            let mut found = None;
            visit(e, &mut found);
            found.is_some()
        };
        let root = match &self.root {
            Some(Expr::And(parts)) => {
                let mut kept: Vec<Expr> = parts.iter().filter(|p| !rests(p)).cloned().collect();
                match kept.len() {
                    0 => None,
                    1 => kept.pop(),
                    _ => Some(Expr::And(kept)),
                }
            }
            Some(other) if rests(other) => None,
            other => other.clone(),
        };
        Query { root }
    }
}

/// Notes in `found` the details `expr` rests on; delivery links outrank metadata (a detail
/// brings both, a webhook metadata alone).
fn visit(expr: &Expr, found: &mut Option<Basis>) {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().for_each(|p| visit(p, found)),
        Expr::Not(inner) => visit(inner, found),
        Expr::Text(_) => {}
        Expr::Filter(f) => match f.kind {
            FilterKind::Has(Has::Link) => *found = Some(Basis::Delivery),
            FilterKind::Meta { .. } if found.is_none() => *found = Some(Basis::Metadata),
            _ => {}
        },
    }
}

/// "based on 3 of 300 items with details": the words every answer resting on details shows.
#[must_use]
pub fn based_on(with_detail: u64, total: u64) -> String {
    let n = crate::text::output::thousands;
    let noun = if total == 1 { "item" } else { "items" };
    format!(
        "based on {} of {} {noun} with details",
        n(with_detail),
        n(total)
    )
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::{Basis, based_on};

    #[test]
    fn metadata_and_link_qualifiers_rest_on_details_anywhere_in_the_query() {
        let basis = |q: &str| parse(q).map(|q| q.basis()).ok().flatten();
        assert_eq!(basis("version:3.10.0"), Some(Basis::Metadata));
        assert_eq!(basis("crash -os:17.2"), Some(Basis::Metadata));
        assert_eq!(basis("tag:bug OR meta.plan:pro"), Some(Basis::Metadata));
        assert_eq!(basis("locale:de-DE has:link"), Some(Basis::Delivery));
        assert_eq!(basis("has:link"), Some(Basis::Delivery));
        for plain in [
            "",
            "crash",
            "app:x tag:bug",
            "has:email",
            "is:starred email:a@",
        ] {
            assert_eq!(basis(plain), None, "{plain}");
        }
    }

    #[test]
    fn the_scope_keeps_the_parts_of_an_and_that_do_not_rest_on_details() {
        let scope = |q: &str| parse(q).map(|q| q.without_details()).ok();
        assert_eq!(scope("crash version:3.10.0"), parse("crash").ok());
        assert_eq!(
            scope("crash tag:bug version:3.10.0"),
            parse("crash tag:bug").ok()
        );
        assert_eq!(scope("version:3.10.0"), parse("").ok());
        assert_eq!(scope("tag:bug OR os:17"), parse("").ok());
        assert_eq!(scope("tag:bug"), parse("tag:bug").ok());
    }

    #[test]
    fn based_on_names_both_numbers_with_thousands() {
        assert_eq!(based_on(3, 3000), "based on 3 of 3,000 items with details");
        assert_eq!(based_on(1, 1), "based on 1 of 1 item with details");
    }
}
