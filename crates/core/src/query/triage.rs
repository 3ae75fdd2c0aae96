//! The triage qualifiers a query names (`is:unseen`, `is:seen`, `is:starred`, `is:done`,
//! `is:snoozed`, `has:note`): they read the user's triage state rather than the items.

use super::ast::{Expr, FilterKind, Has, Is};

impl super::Query {
    /// True when the query names any triage qualifier (`is:…`, `has:note`, `note:`, the
    /// links' `has:ticket` and `ticket:`, the team's `assignee:`, `label:`, `note-by:`): a
    /// triage change or a link
    /// may then move items in or out of its view.
    #[must_use]
    pub fn names_triage(&self) -> bool {
        self.root().is_some_and(|e| names(e, is_triage))
    }
}

/// True when a filter anywhere in `expr` is one `wanted` holds for.
pub(super) fn names(expr: &Expr, wanted: fn(&FilterKind) -> bool) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(|p| names(p, wanted)),
        Expr::Not(inner) => names(inner, wanted),
        Expr::Text(_) => false,
        Expr::Filter(f) => wanted(&f.kind),
    }
}

/// A qualifier that reads the triage state.
fn is_triage(kind: &FilterKind) -> bool {
    matches!(
        kind,
        FilterKind::Is(_)
            | FilterKind::Has(Has::Note | Has::Ticket)
            | FilterKind::Ticket(_)
            | FilterKind::RepliedBy(_)
            | FilterKind::Replied { .. }
            | FilterKind::Assignee(_)
            | FilterKind::Label(_)
            | FilterKind::NoteBy(_)
            | FilterKind::Note(_)
            // A view hides done and snoozed items, and may name triage itself.
            | FilterKind::View(_)
    )
}

/// `is:done` or `is:snoozed`, or a view (which hides what it hides itself).
pub(super) fn is_hidden(kind: &FilterKind) -> bool {
    matches!(
        kind,
        FilterKind::Is(Is::Done | Is::Snoozed) | FilterKind::View(_)
    )
}

/// A view (`view:NAME`).
pub(super) fn is_view(kind: &FilterKind) -> bool {
    matches!(kind, FilterKind::View(_))
}
