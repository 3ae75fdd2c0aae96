//! The items a webhook receiver stored that wait to be shared with the team's mirror
//! (`webhook listen --team`): noted in the transaction that records the delivery, so a
//! delivery acknowledged while the team's database is away is shared once it is back, and
//! taken out only once the team's database has them.

use rusqlite::{Transaction, params};

use super::{Sighting, Store, StoreError};
use feedback_api::{Extras, Feedback};

/// Notes the items of `sightings` to be shared.
fn note(tx: &Transaction<'_>, sightings: &[Sighting<'_>]) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached("INSERT OR IGNORE INTO team_deliveries (id) VALUES (?1)")?;
    for sighting in sightings {
        insert.execute([sighting.feedback.id.as_str()])?;
    }
    Ok(())
}

/// Stores `sightings` (made at `at`), noting them to be shared when `sharing`.
pub(super) fn put_and_note(
    tx: &Transaction<'_>,
    sightings: &[Sighting<'_>],
    at: jiff::Timestamp,
    sharing: bool,
) -> rusqlite::Result<super::Written> {
    let written = super::write::items::put_all(tx, sightings, at)?;
    if sharing {
        note(tx, sightings)?;
    }
    Ok(written)
}

impl Store {
    /// Whether the deliveries this connection records are noted for the team's mirror.
    pub fn share_deliveries(&mut self, on: bool) {
        self.sharing_deliveries = on;
    }

    /// Stores what a delivery brought that was journaled but not recorded with its key (a
    /// receiver's catch-up), noted for the team's mirror in the same commit when this
    /// connection shares its deliveries.
    pub fn put_delivered(
        &mut self,
        sightings: &[Sighting<'_>],
        at: jiff::Timestamp,
    ) -> Result<super::Written, StoreError> {
        let sharing = self.sharing_deliveries;
        self.transact(|tx| put_and_note(tx, sightings, at, sharing))
    }

    /// Up to `limit` items waiting to be shared, as the store holds them now (an item the
    /// store no longer holds is not shared, and its note is taken out with the rest).
    pub fn deliveries_to_share(&self, limit: usize) -> Result<DeliveriesToShare, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ids: Vec<String> = self
            .conn()
            .prepare_cached("SELECT id FROM team_deliveries ORDER BY id LIMIT ?1")
            .and_then(|mut s| s.query_map([limit], |row| row.get(0))?.collect())
            .map_err(|e| self.error(e))?;
        let mut shared = self.described(&ids)?;
        shared.ids = ids;
        Ok(shared)
    }

    /// Takes out the notes of `shared`, once the team's database has its items.
    pub fn deliveries_shared(&mut self, shared: &DeliveriesToShare) -> Result<(), StoreError> {
        self.transact(|tx| {
            let mut delete = tx.prepare_cached("DELETE FROM team_deliveries WHERE id = ?1")?;
            for id in &shared.ids {
                delete.execute(params![id])?;
            }
            Ok(())
        })
    }

    /// The newest `limit` items listed under `status`, with what the store knows of each beyond
    /// its list fields: what a member's own head walk read, to share with the team's mirror.
    pub fn newest_to_share(
        &self,
        status: &str,
        limit: usize,
    ) -> Result<DeliveriesToShare, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ids: Vec<String> = self
            .conn()
            .prepare_cached("SELECT id FROM items WHERE status = ?1 ORDER BY k LIMIT ?2")
            .and_then(|mut s| {
                s.query_map(params![status, limit], |row| row.get(0))?
                    .collect()
            })
            .map_err(|e| self.error(e))?;
        self.described(&ids)
    }

    /// The items of `ids` the store holds, each with what it knows of it beyond its list
    /// fields (covering no notes).
    fn described(&self, ids: &[String]) -> Result<DeliveriesToShare, StoreError> {
        let mut shared = DeliveriesToShare {
            ids: Vec::new(),
            items: Vec::with_capacity(ids.len()),
            extras: Vec::with_capacity(ids.len()),
        };
        for id in ids {
            if let Some((item, extras)) = self.item_with_extras(id)? {
                shared.items.push(item);
                shared.extras.push(extras);
            }
        }
        Ok(shared)
    }
}

/// Items waiting to be shared, and the notes they cover.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeliveriesToShare {
    /// The notes covered.
    pub ids: Vec<String>,
    /// The items the store holds of them.
    pub items: Vec<Feedback>,
    /// What the store knows of each of `items` beyond its list fields (by position): the
    /// delivery's metadata.
    pub extras: Vec<Option<Extras>>,
}

impl DeliveriesToShare {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use jiff::Timestamp;

    use super::*;
    use feedback_api::{FeedbackId, ProjectRef, Status};

    fn item(n: usize) -> Feedback {
        Feedback {
            id: FeedbackId(format!("fb_{n}")),
            message: format!("message {n}"),
            reporter_email: None,
            status: Status::New,
            received_at: Timestamp::from_second(1_790_000_000).unwrap(),
            tags: Vec::new(),
            app: None,
            project: ProjectRef {
                id: "prj_1".into(),
                name: "Acme".into(),
            },
        }
    }

    fn delivered(store: &mut Store, key: &str, feedback: &Feedback) {
        let sighting = Sighting {
            feedback,
            listed: None,
            metadata: None,
            delivery: None,
        };
        let at = feedback.received_at;
        store.put_delivery(key, at, &[sighting], at).unwrap();
    }

    #[test]
    fn the_newest_items_of_a_status_are_read_to_share() {
        let mut store = Store::open_memory().unwrap();
        let items: Vec<Feedback> = (0..4)
            .map(|n| {
                let mut item = item(n);
                item.received_at =
                    Timestamp::from_second(1_790_000_000 + i64::try_from(n).unwrap()).unwrap();
                item
            })
            .collect();
        store.put_items(&items, Timestamp::UNIX_EPOCH).unwrap();
        let newest = store.newest_to_share("new", 2).unwrap();
        let ids: Vec<&str> = newest.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["fb_3", "fb_2"]);
        assert_eq!(newest.extras, [None, None]);
        assert!(
            store
                .newest_to_share("archived", 2)
                .unwrap()
                .items
                .is_empty()
        );
    }

    #[test]
    fn deliveries_recorded_while_sharing_wait_until_the_team_has_them() {
        let mut store = Store::open_memory().unwrap();
        delivered(&mut store, "k0", &item(0));
        assert!(
            store.deliveries_to_share(10).unwrap().is_empty(),
            "not sharing"
        );
        store.share_deliveries(true);
        delivered(&mut store, "k1", &item(1));
        delivered(&mut store, "k2", &item(2));
        // A redelivery records nothing, so notes nothing twice.
        delivered(&mut store, "k2", &item(2));
        let first = store.deliveries_to_share(1).unwrap();
        assert_eq!(first.ids, ["fb_1"]);
        assert_eq!(first.items, [item(1)]);
        store.deliveries_shared(&first).unwrap();
        let rest = store.deliveries_to_share(10).unwrap();
        assert_eq!(rest.ids, ["fb_2"]);
        store.deliveries_shared(&rest).unwrap();
        assert!(store.deliveries_to_share(10).unwrap().is_empty());
        // A journaled delivery stored at a receiver's catch-up is noted as well.
        let caught_up = item(3);
        let sighting = Sighting {
            feedback: &caught_up,
            listed: None,
            metadata: None,
            delivery: None,
        };
        store
            .put_delivered(&[sighting], caught_up.received_at)
            .unwrap();
        assert_eq!(store.deliveries_to_share(10).unwrap().ids, ["fb_3"]);
    }
}
