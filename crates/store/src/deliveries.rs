//! The webhook deliveries a receiver acknowledged, by idempotency key (`webhook_seen`), so a
//! redelivery is recognised after a restart. A key is written in the transaction that stores
//! what its delivery brought, so the two are durable together before the delivery is answered.

use jiff::Timestamp;
use rusqlite::OptionalExtension;

use super::{Sighting, Store, StoreError, Written};

impl Store {
    /// Whether a delivery with `key` was recorded.
    pub fn delivery_seen(&self, key: &str) -> Result<bool, StoreError> {
        self.conn
            .prepare_cached("SELECT 1 FROM webhook_seen WHERE key = ?1")
            .and_then(|mut select| select.query_row([key], |_| Ok(())).optional())
            .map(|found| found.is_some())
            .map_err(|e| self.error(e))
    }

    /// Records the delivery with `key`, first seen at `now`, and stores what it brought
    /// (`sightings`, made at `sighted`), in one transaction. `None`: the key was recorded
    /// before, and nothing is written.
    pub fn put_delivery(
        &mut self,
        key: &str,
        now: Timestamp,
        sightings: &[Sighting<'_>],
        sighted: Timestamp,
    ) -> Result<Option<Written>, StoreError> {
        let sharing = self.sharing_deliveries;
        self.transact(|tx| {
            let added = tx
                .prepare_cached(
                    "INSERT INTO webhook_seen (key, seen_at) VALUES (?1, ?2)
                     ON CONFLICT (key) DO NOTHING",
                )?
                .execute(rusqlite::params![key, now.as_microsecond()])?;
            if added == 0 {
                return Ok(None);
            }
            super::team_deliveries::put_and_note(tx, sightings, sighted, sharing).map(Some)
        })
    }

    /// When more than `above` keys are recorded, forgets the oldest down to `keep`; returns how
    /// many were forgotten.
    pub fn prune_deliveries(&mut self, above: usize, keep: usize) -> Result<usize, StoreError> {
        let above = i64::try_from(above).unwrap_or(i64::MAX);
        let keep = i64::try_from(keep).unwrap_or(i64::MAX);
        self.transact(|tx| {
            let count: i64 = tx.query_row("SELECT count(*) FROM webhook_seen", [], |r| r.get(0))?;
            if count <= above {
                return Ok(0);
            }
            tx.execute(
                "DELETE FROM webhook_seen WHERE key IN
                   (SELECT key FROM webhook_seen ORDER BY seen_at LIMIT ?1)",
                [count - keep.min(count)],
            )
        })
    }

    /// How many delivery keys are recorded.
    pub fn deliveries_seen(&self) -> Result<usize, StoreError> {
        self.conn
            .query_row("SELECT count(*) FROM webhook_seen", [], |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| usize::try_from(n).unwrap_or(0))
            .map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(second).unwrap()
    }

    #[test]
    fn a_key_is_recorded_once_and_the_oldest_are_pruned_by_count() {
        let mut store = Store::open_memory().unwrap();
        assert!(!store.delivery_seen("fb_1").unwrap());
        let first = store.put_delivery("fb_1", at(10), &[], at(1)).unwrap();
        assert_eq!(first, Some(Written::default()));
        assert!(store.delivery_seen("fb_1").unwrap());
        assert_eq!(
            store.put_delivery("fb_1", at(11), &[], at(1)).unwrap(),
            None
        );
        for (i, key) in ["fb_2", "fb_3", "fb_4"].iter().enumerate() {
            let now = at(20 + i64::try_from(i).unwrap());
            store.put_delivery(key, now, &[], now).unwrap();
        }
        assert_eq!(store.prune_deliveries(4, 2).unwrap(), 0);
        assert_eq!(store.prune_deliveries(3, 2).unwrap(), 2);
        assert_eq!(store.deliveries_seen().unwrap(), 2);
        let kept: Vec<bool> = ["fb_1", "fb_2", "fb_3", "fb_4"]
            .iter()
            .map(|k| store.delivery_seen(k).unwrap())
            .collect();
        assert_eq!(kept, [false, false, true, true]);
    }

    #[test]
    fn a_schema_11_store_gains_the_record_of_deliveries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sqlite3");
        {
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            crate::schema::migrations()
                .to_version(&mut conn, 11)
                .unwrap();
        }
        assert!(crate::schema::latest() >= 12);
        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.deliveries_seen().unwrap(), 0);
        store.put_delivery("fb_1", at(1), &[], at(1)).unwrap();
        drop(store);
        assert!(Store::open(&path).unwrap().delivery_seen("fb_1").unwrap());
    }
}
