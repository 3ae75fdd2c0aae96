//! Counting the unseen items of many views at once (the views pane's figures).

use super::{Store, StoreError, ViewQuery};

impl Store {
    /// Unseen items of each view, in order; `None` stays `None` (a view whose search does not
    /// compile against the store). The seen items' keys are collected once into a temporary
    /// table (a user who has seen 300,000 items must not pay for that set once per view: a
    /// search's `is:unseen` would); each view then counts its items, and those of them in that
    /// table, each a walk of the view's index.
    pub(crate) fn unseen_counts(
        &self,
        views: &[Option<ViewQuery>],
    ) -> Result<Vec<Option<usize>>, StoreError> {
        let conn = &self.conn;
        conn.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS views_seen (k INTEGER PRIMARY KEY);
         DELETE FROM temp.views_seen;
         INSERT INTO temp.views_seen
             SELECT i.k FROM triage t JOIN items i ON i.id = t.id WHERE t.seen = 1;",
        )
        .map_err(|e| self.error(e))?;
        let counts = views
            .iter()
            .map(|view| {
                let Some(all) = view else {
                    return Ok(None);
                };
                let seen = seen_only(all.clone());
                let total = self.view_count(all)?;
                let seen = self.view_count(&seen)?;
                Ok(Some(
                    usize::try_from(total.saturating_sub(seen)).unwrap_or(usize::MAX),
                ))
            })
            .collect();
        // The table is kept empty between counts (its pages go back to the cache).
        conn.execute_batch("DELETE FROM temp.views_seen;")
            .map_err(|e| self.error(e))?;
        counts
    }
}

/// `view` narrowed to the items in `temp.views_seen`.
fn seen_only(mut view: ViewQuery) -> ViewQuery {
    const SEEN: &str = "items.k IN (SELECT k FROM temp.views_seen)";
    let (condition, params) = view.condition.take().unwrap_or_default();
    let condition = if condition.is_empty() {
        SEEN.to_owned()
    } else {
        format!("({condition}) AND {SEEN}")
    };
    view.condition = Some((condition, params));
    view
}
