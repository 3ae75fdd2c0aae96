//! The triage qualifiers a query names (`is:unseen`, `is:seen`, `is:starred`, `is:done`,
//! `is:snoozed`, `has:note`): they read the user's triage state rather than the items.

use super::ast::{Expr, FilterKind, Has, Is};

impl super::Query {
    /// True when the query names any triage qualifier (`is:…`, `has:note`, `note:`, the
    /// team's `assignee:`, `label:`, `note-by:`): a triage change
    /// may then move items in or out of its view.
    #[must_use]
    pub fn names_triage(&self) -> bool {
        self.root().is_some_and(mentions)
    }
}

fn mentions(expr: &Expr) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(mentions),
        Expr::Not(inner) => mentions(inner),
        Expr::Text(_) => false,
        Expr::Filter(f) => matches!(
            f.kind,
            FilterKind::Is(_)
                | FilterKind::Has(Has::Note)
                | FilterKind::Assignee(_)
                | FilterKind::Label(_)
                | FilterKind::NoteBy(_)
                | FilterKind::Note(_)
                // A view hides done and snoozed items, and may name triage itself.
                | FilterKind::View(_)
        ),
    }
}

/// True when `expr` names `is:done` or `is:snoozed` anywhere, or a view (which hides what it
/// hides itself).
pub(super) fn names_hidden(expr: &Expr) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(names_hidden),
        Expr::Not(inner) => names_hidden(inner),
        Expr::Text(_) => false,
        Expr::Filter(f) => matches!(
            f.kind,
            FilterKind::Is(Is::Done | Is::Snoozed) | FilterKind::View(_)
        ),
    }
}

/// True when `expr` names a view anywhere.
pub(super) fn names_view(expr: &Expr) -> bool {
    match expr {
        Expr::And(parts) | Expr::Or(parts) => parts.iter().any(names_view),
        Expr::Not(inner) => names_view(inner),
        Expr::Text(_) => false,
        Expr::Filter(f) => matches!(f.kind, FilterKind::View(_)),
    }
}
