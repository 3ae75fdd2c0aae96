//! Woken items: a snooze that ended with nothing done to the item since (no key, no read that
//! marked it seen). The inbox shows them on top of the view, marked, until they are seen, so
//! an item put off for later does not come back unnoticed pages down.

use jiff::Timestamp;
use rusqlite::types::Value;

use super::read::{order, view_condition};
use super::{Store, StoreError, Triage, ViewQuery};

impl Triage {
    /// When the item's snooze ended, if it has woken as of `now` and nothing was done to it
    /// since (its state last changed before the snooze ended); never for a done item.
    #[must_use]
    pub fn woke(&self, now: Timestamp) -> Option<Timestamp> {
        let until = self.snoozed_until.filter(|until| *until <= now)?;
        let untouched = self.changed.is_none_or(|changed| changed < until);
        (untouched && !self.done).then_some(until)
    }
}

impl Store {
    /// The keys of `query`'s items that have woken as of `now` ([`Triage::woke`]), in the
    /// view's order.
    ///
    /// # Errors
    /// The store cannot be read.
    pub(crate) fn woken_keys(
        &self,
        query: &ViewQuery,
        now: Timestamp,
    ) -> Result<Vec<i64>, StoreError> {
        // Usually none: a look at the snoozes' own index answers that without reading the view.
        let any: bool = self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM triage
                   WHERE snoozed_until IS NOT NULL AND snoozed_until <= ?1 AND done = 0
                     AND changed < snoozed_until * 1000000)",
            )
            .and_then(|mut stmt| stmt.query_row([now.as_second()], |row| row.get(0)))
            .map_err(|e| self.error(e))?;
        if !any {
            return Ok(Vec::new());
        }
        let (from, condition, mut params) =
            view_condition(&self.conn, query).map_err(|e| self.error(e))?;
        params.push(Value::Integer(now.as_second()));
        let at = params.len();
        // `snoozed_until` is in seconds, `changed` in microseconds.
        let sql = format!(
            "SELECT items.k {from} WHERE {condition} AND items.id IN (
               SELECT id FROM triage
               WHERE snoozed_until IS NOT NULL AND snoozed_until <= ?{at} AND done = 0
                 AND changed < snoozed_until * 1000000)
             ORDER BY {}",
            order(query)
        );
        self.keys_of(&sql, params)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use jiff::SignedDuration;

    use super::*;
    use crate::TriageChange;
    use crate::tests::{T0, item, ts, view};
    use feedback_api::Status;

    fn at(seconds: i64) -> Timestamp {
        Timestamp::from_second(1_800_000_000 + seconds).unwrap()
    }

    /// The rule, written from its statement: the snooze ended by now, nothing changed since,
    /// not done.
    #[test]
    fn an_item_has_woken_when_its_snooze_ended_and_nothing_was_done_since() {
        let snoozed = Triage {
            snoozed_until: Some(at(100)),
            changed: Some(at(0)),
            ..Triage::default()
        };
        assert_eq!(snoozed.woke(at(99)), None, "still snoozed");
        assert_eq!(snoozed.woke(at(100)), Some(at(100)));
        let seen_after = Triage {
            changed: Some(at(150)),
            ..snoozed.clone()
        };
        assert_eq!(seen_after.woke(at(200)), None, "read since it woke");
        let done = Triage {
            done: true,
            ..snoozed.clone()
        };
        assert_eq!(done.woke(at(200)), None);
        assert_eq!(Triage::default().woke(at(200)), None);
    }

    #[test]
    fn the_woken_keys_of_a_view_are_those_the_rule_names() {
        let mut store = Store::open_memory().unwrap();
        let names = ["i0", "i1", "i2", "i3", "i4", "i5"];
        let items: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(n, id)| {
                item(
                    id,
                    &format!("2026-10-0{}T00:00:00Z", n + 1),
                    Status::New,
                    &[],
                )
            })
            .collect();
        store.put_items(&items, ts(T0)).unwrap();
        let ids = |ns: &[&str]| -> Vec<String> { ns.iter().map(|n| (*n).to_owned()).collect() };
        let snooze = |store: &mut Store, ns: &[&str], until: i64| {
            let change = TriageChange::Snooze(Some(at(until)));
            store.set_triage(&ids(ns), &change, at(0)).unwrap();
        };
        snooze(&mut store, &["i1", "i2", "i3", "i5"], 100);
        snooze(&mut store, &["i4"], 500);
        // i2 was read after it woke, i3 marked done before.
        let seen = TriageChange::Seen(true);
        store.set_triage(&ids(&["i2"]), &seen, at(150)).unwrap();
        store
            .set_triage(&ids(&["i3"]), &TriageChange::Done(true), at(50))
            .unwrap();
        let now = at(200);
        let woken = |store: &Store, now| {
            let keys = store.woken_keys(&view(Some("new")), now).unwrap();
            let items = store.items(&keys).unwrap();
            items
                .iter()
                .map(|s| s.feedback.id.to_string())
                .collect::<Vec<_>>()
        };
        let triage = store.triage_of(&names).unwrap();
        let mut expected: Vec<_> = names
            .iter()
            .filter(|id| triage.get(**id).is_some_and(|t| t.woke(now).is_some()))
            .map(|id| (*id).to_owned())
            .collect();
        // The view's order: newest first.
        expected.reverse();
        assert_eq!(woken(&store, now), expected);
        assert_eq!(expected, ["i5", "i1"]);
        assert!(woken(&store, now - SignedDuration::from_secs(150)).is_empty());
    }
}
