//! Every triage state the inbox holds, kept once: what the store committed for the items it
//! shows (the rows' window, the open detail: read with them, or answered by a write) and what
//! the writes in flight will leave. The rows, the detail, the preview and the unseen count read
//! it here, and a write's answer changes it in one place. Only committed states are shown:
//! nothing looks done before the store has it.

use std::collections::HashMap;

use crate::team::TeamShown;
use feedback_store::Triage;

/// The triage overlay (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct Overlay {
    /// As committed, by item id.
    committed: HashMap<String, Triage>,
    /// What the writes in flight will leave, by item id (cleared when none is in flight).
    pending: HashMap<String, Triage>,
    /// The view's unseen count as of its last query.
    unseen_at_query: usize,
    /// The items this window changed since that query, with whether each was seen then: the
    /// unseen count moves by what changed.
    seen_at_query: HashMap<String, bool>,
    /// How many items the view held at that query (the count never passes it).
    view_len: usize,
    /// The team's state of the items held (owner, labels, changes waiting to be sent), as
    /// read with them; items the team never touched are absent.
    team: HashMap<String, TeamShown>,
}

impl Overlay {
    /// The committed state of `id` (untouched when the inbox holds none).
    #[must_use]
    pub fn shown(&self, id: &str) -> Triage {
        self.get(id).cloned().unwrap_or_default()
    }

    /// The committed state of `id`, when the inbox holds one (for drawing, without a copy).
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Triage> {
        self.committed.get(id)
    }

    /// The state `id` will have once the writes in flight commit: a key pressed again before
    /// their answer toggles from it.
    #[must_use]
    pub fn next(&self, id: &str) -> Triage {
        self.pending
            .get(id)
            .cloned()
            .unwrap_or_else(|| self.shown(id))
    }

    /// The team's state of `id`, when the team touched it.
    #[must_use]
    pub fn team(&self, id: &str) -> Option<&TeamShown> {
        self.team.get(id)
    }

    /// The short names of the links on the rows read (`ticket:` completes them), each once,
    /// sorted.
    #[must_use]
    pub fn ticket_names(&self) -> Vec<String> {
        let names: std::collections::BTreeSet<String> = self
            .team
            .values()
            .flat_map(|shown| shown.links.iter().map(|l| l.short.to_string()))
            .collect();
        names.into_iter().collect()
    }

    /// The team's states read with a view's rows: they replace what is held (`replace`, a
    /// new query) or join it (rows read on a scroll).
    pub(crate) fn team_read(&mut self, states: HashMap<String, TeamShown>, replace: bool) {
        if replace {
            self.team = states;
        } else {
            self.team.extend(states);
        }
    }

    /// A write of `state` to `id` is on its way.
    pub fn writing(&mut self, id: &str, state: Triage) {
        self.pending.insert(id.to_owned(), state);
    }

    /// No write is in flight any more.
    pub fn settled(&mut self) {
        self.pending.clear();
    }

    /// A write committed `after` for `id`, which was `before`.
    pub fn commit(&mut self, id: &str, before: &Triage, after: Triage) {
        self.seen_at_query
            .entry(id.to_owned())
            .or_insert(before.seen);
        self.committed.insert(id.to_owned(), after);
    }

    /// A view query's answer: its unseen count and length, and the states of the rows read
    /// with it (what else is held goes, but `keep`'s: the open detail's item).
    pub fn queried(
        &mut self,
        unseen: usize,
        len: usize,
        rows: HashMap<String, Triage>,
        keep: Option<&str>,
    ) {
        self.unseen_at_query = unseen;
        self.view_len = len;
        self.seen_at_query.clear();
        self.replace(rows, keep);
    }

    /// Rows read after the query (a scroll): their states replace what is held, but the
    /// states this window committed since the query stay (a read may have started before).
    pub(crate) fn rows_read(&mut self, rows: HashMap<String, Triage>, keep: Option<&str>) {
        let own: Vec<(String, Triage)> = self
            .seen_at_query
            .keys()
            .filter_map(|id| Some((id.clone(), self.committed.get(id)?.clone())))
            .collect();
        self.replace(rows, keep);
        self.committed.extend(own);
    }

    fn replace(&mut self, rows: HashMap<String, Triage>, keep: Option<&str>) {
        let kept = keep.and_then(|id| Some((id.to_owned(), self.committed.remove(id)?)));
        self.committed = rows;
        if let Some((id, state)) = kept {
            self.committed.entry(id).or_insert(state);
        }
    }

    /// The view's unseen items: its last query's count, moved by what this window changed
    /// since.
    #[must_use]
    pub fn unseen(&self) -> usize {
        let mut unseen = self.unseen_at_query;
        for (id, was_seen) in &self.seen_at_query {
            let seen = self.committed.get(id).is_some_and(|t| t.seen);
            match (was_seen, seen) {
                (true, false) => unseen += 1,
                (false, true) => unseen = unseen.saturating_sub(1),
                _ => {}
            }
        }
        unseen.min(self.view_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(on: bool) -> Triage {
        Triage {
            seen: on,
            ..Triage::default()
        }
    }

    #[test]
    fn the_unseen_count_follows_what_this_window_committed_since_the_query() {
        let mut overlay = Overlay::default();
        let rows: HashMap<String, Triage> =
            [("a".to_owned(), seen(false)), ("b".to_owned(), seen(true))].into();
        overlay.queried(10, 40, rows, None);
        assert_eq!(overlay.unseen(), 10);
        overlay.commit("a", &seen(false), seen(true));
        assert_eq!(overlay.unseen(), 9);
        // Toggled back: counted once, from the state at the query.
        overlay.commit("a", &seen(true), seen(false));
        assert_eq!(overlay.unseen(), 10);
        overlay.commit("b", &seen(true), seen(false));
        assert_eq!(overlay.unseen(), 11);
        // A scroll's rows, read before the write: the committed state stays.
        overlay.rows_read([("b".to_owned(), seen(true))].into(), None);
        assert!(!overlay.shown("b").seen);
        assert_eq!(overlay.unseen(), 11);
        // The next query counts afresh.
        overlay.queried(7, 40, HashMap::new(), None);
        assert_eq!(overlay.unseen(), 7);
    }

    #[test]
    fn a_write_in_flight_is_what_a_key_toggles_from_but_not_what_shows() {
        let mut overlay = Overlay::default();
        overlay.queried(1, 1, [("a".to_owned(), seen(false))].into(), None);
        overlay.writing("a", seen(true));
        assert!(overlay.next("a").seen);
        assert!(!overlay.shown("a").seen, "shown once committed");
        overlay.settled();
        assert!(!overlay.next("a").seen);
    }

    #[test]
    fn the_open_details_item_is_kept_when_the_rows_change() {
        let mut overlay = Overlay::default();
        let starred = Triage {
            starred: true,
            ..Triage::default()
        };
        overlay.queried(0, 1, [("a".to_owned(), starred.clone())].into(), None);
        overlay.queried(0, 1, HashMap::new(), Some("a"));
        assert_eq!(overlay.shown("a"), starred);
        overlay.queried(0, 1, HashMap::new(), None);
        assert_eq!(overlay.shown("a"), Triage::default());
    }
}
