//! A pivot's totals: how many items the view has, and how many of them have their metadata
//! known ("based on 812 of 3,267 items"); from the kept counts when the view allows (`kept`).

use super::kept;
use crate::read::view_condition;
use crate::write::counts::Dim;
use crate::{Store, StoreError, ViewQuery};

impl Store {
    /// The view's items, and how many of them have their metadata known (`items.meta_at`: a
    /// detail or a webhook delivery brought it, even empty: such an item is known to have none,
    /// and fetching it again would bring nothing). From the kept counts when the view allows.
    pub(crate) fn covered(&self, view: &ViewQuery) -> Result<(u64, u64), StoreError> {
        if kept::eligible(view) {
            let mut total = self.kept_total(view, Dim::Items)?;
            let mut covered = self.kept_total(view, Dim::Covered)?;
            if let Some(hidden) = kept::hidden_view(view) {
                let (t, c) = self.counted_coverage(&hidden)?;
                total = total.saturating_sub(t);
                covered = covered.saturating_sub(c);
            }
            return Ok((total, covered));
        }
        self.counted_coverage(view)
    }

    /// [`Store::covered`] counted from the items.
    fn counted_coverage(&self, view: &ViewQuery) -> Result<(u64, u64), StoreError> {
        let (from, condition, params) =
            view_condition(self.conn(), view).map_err(|e| self.error(e))?;
        let sql = format!("SELECT count(*), count(items.meta_at) {from} WHERE {condition}");
        let mut counts = (0, 0);
        self.each_row(&sql, &params, |row| {
            counts = (
                row.get::<_, i64>(0)?.unsigned_abs(),
                row.get::<_, i64>(1)?.unsigned_abs(),
            );
            Ok(())
        })?;
        Ok(counts)
    }

    /// How many items `view` has: from the kept counts when the view allows.
    pub(super) fn pivot_total(&self, view: &ViewQuery) -> Result<u64, StoreError> {
        if !kept::eligible(view) {
            return self.view_count(view);
        }
        let mut total = self.kept_total(view, Dim::Items)?;
        if let Some(hidden) = kept::hidden_view(view) {
            total = total.saturating_sub(self.view_count(&hidden)?);
        }
        Ok(total)
    }
}
