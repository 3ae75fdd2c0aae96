//! Links on items to what was made from them outside (a ticket, an issue, a doc). A store in no
//! team keeps its own (`links`), written here at once; a team's are read from its `link` and
//! `unlink` events into the replica (`team_links`, by `store::team`), and a member's changes not
//! yet sent wait in the outbox, laid over where they are shown (`team_sync::states_now`).
//! Every change bumps the triage counter, so another window reads its view (`has:ticket`) again.

use feedback_core::link::Link;
use feedback_core::team_event::Change;
use jiff::Timestamp;
use rusqlite::{Transaction, params};

use super::write_counts::{TRIAGE_REV, bump};
use super::{Store, StoreError};

/// One link on one item, as this store holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkRecord {
    pub item_id: String,
    pub link: Link,
    /// Who linked it: the team's member, or none for this store's own.
    pub author: Option<String>,
    pub at: Timestamp,
    /// The team's (from its events), not this store's own.
    pub team: bool,
}

impl Store {
    /// Keeps `changes` as this store's own links, in order, in one transaction: a link (a URL
    /// linked again takes the new title and time) or an unlink of an item. The other changes
    /// are the team's and are not kept here. How many items each change reached (an unlink of
    /// a URL an item did not hold reaches none).
    pub fn change_links(
        &mut self,
        changes: &[(String, Change)],
        now: Timestamp,
    ) -> Result<Vec<usize>, StoreError> {
        self.transact(|tx| {
            let mut put = tx.prepare_cached(
                "INSERT INTO links (item_id, url, title, author, at) VALUES (?1, ?2, ?3, NULL, ?4)
                 ON CONFLICT (item_id, url) DO UPDATE SET title = excluded.title, at = excluded.at",
            )?;
            let mut delete =
                tx.prepare_cached("DELETE FROM links WHERE item_id = ?1 AND url = ?2")?;
            let mut reached = Vec::with_capacity(changes.len());
            for (id, change) in changes {
                reached.push(match change {
                    Change::Link(link) => {
                        put.execute(params![id, link.url(), link.title(), now.as_microsecond()])?
                    }
                    Change::Unlink { url } => delete.execute(params![id, url])?,
                    _ => 0,
                });
            }
            bump(tx, TRIAGE_REV)?;
            Ok(reached)
        })
    }

    /// The links of `item_ids`, this store's and the team's (a URL both hold is the team's),
    /// each item's oldest first.
    pub fn links(&self, item_ids: &[String]) -> Result<Vec<LinkRecord>, StoreError> {
        let read = || -> rusqlite::Result<Vec<LinkRecord>> {
            let mut select = self.conn.prepare_cached(
                "SELECT url, title, author, at, 1 FROM team_links WHERE item_id = ?1
                 UNION ALL
                 SELECT url, title, author, at, 0 FROM links l WHERE item_id = ?1
                   AND NOT EXISTS (SELECT 1 FROM team_links t
                                   WHERE t.item_id = l.item_id AND t.url = l.url)
                 ORDER BY 4, 1",
            )?;
            let mut found = Vec::new();
            for id in item_ids {
                let rows = select.query_map([id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Option<String>>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, bool>(4)?,
                    ))
                })?;
                for row in rows {
                    let (url, title, author, at, team) = row?;
                    // Every row was written through `Link::new`; one that no longer reads
                    // (edited by hand) is left out rather than shown as something it is not.
                    let Ok(link) = Link::new(&url, title.as_deref()) else {
                        continue;
                    };
                    found.push(LinkRecord {
                        item_id: id.clone(),
                        link,
                        author,
                        at: Timestamp::from_microsecond(at).unwrap_or_default(),
                        team,
                    });
                }
            }
            Ok(found)
        };
        read().map_err(|e| self.error(e))
    }
}

/// The team's `link` event (number `seq`, by `author` at `at`) laid into the replica.
pub(super) fn team_linked(
    tx: &Transaction<'_>,
    item_id: &str,
    link: &Link,
    author: &str,
    at: Timestamp,
    seq: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO team_links (item_id, url, title, author, at, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (item_id, url) DO UPDATE SET title = excluded.title,
           author = excluded.author, at = excluded.at, seq = excluded.seq
         WHERE excluded.seq > team_links.seq",
    )?
    .execute(params![
        item_id,
        link.url(),
        link.title(),
        author,
        at.as_microsecond(),
        seq
    ])?;
    Ok(())
}

/// The team's `unlink` event (number `seq`) laid into the replica.
pub(super) fn team_unlinked(
    tx: &Transaction<'_>,
    item_id: &str,
    url: &str,
    seq: i64,
) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM team_links WHERE item_id = ?1 AND url = ?2 AND seq < ?3")?
        .execute(params![item_id, url, seq])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use feedback_core::team_event::{EventChange, TeamEvent};

    use crate::TeamBatch;

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(1_790_000_000 + second).unwrap()
    }

    fn link(url: &str, title: Option<&str>) -> Link {
        Link::new(url, title).unwrap()
    }

    fn urls(store: &Store, id: &str) -> Vec<(String, Option<String>, bool)> {
        store
            .links(&[id.to_owned()])
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.link.url().to_owned(),
                    r.link.title().map(str::to_owned),
                    r.team,
                )
            })
            .collect()
    }

    fn event(seq: i64, item: &str, change: Change) -> TeamEvent {
        TeamEvent {
            seq,
            event_id: format!("e{seq}"),
            member: "ana".to_owned(),
            item_id: item.to_owned(),
            change: EventChange::Known(change),
            at: at(seq),
        }
    }

    fn linked(ids: &[&str], link: &Link) -> Vec<(String, Change)> {
        ids.iter()
            .map(|id| ((*id).to_owned(), Change::Link(link.clone())))
            .collect()
    }

    fn unlinked(ids: &[&str], url: &str) -> Vec<(String, Change)> {
        ids.iter()
            .map(|id| {
                (
                    (*id).to_owned(),
                    Change::Unlink {
                        url: url.to_owned(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn a_link_is_kept_once_per_item_and_url_and_unlinked_by_its_url() {
        let mut store = Store::open_memory().unwrap();
        let t1 = link("https://t.example/T-1", Some("Crash"));
        assert_eq!(
            store
                .change_links(&linked(&["fb_1", "fb_2"], &t1), at(1))
                .unwrap(),
            [1, 1]
        );
        let retitled = link("https://t.example/T-1", Some("Crash on start"));
        store
            .change_links(&linked(&["fb_1"], &retitled), at(2))
            .unwrap();
        let t2 = link("https://t.example/T-2", None);
        store.change_links(&linked(&["fb_1"], &t2), at(3)).unwrap();
        assert_eq!(
            urls(&store, "fb_1"),
            [
                (
                    "https://t.example/T-1".to_owned(),
                    Some("Crash on start".to_owned()),
                    false
                ),
                ("https://t.example/T-2".to_owned(), None, false),
            ]
        );
        let both = unlinked(&["fb_1", "fb_2"], "https://t.example/T-1");
        assert_eq!(store.change_links(&both, at(4)).unwrap(), [1, 1]);
        assert_eq!(store.change_links(&both, at(5)).unwrap(), [0, 0]);
        assert_eq!(urls(&store, "fb_1").len(), 1);
        assert!(urls(&store, "fb_2").is_empty());
        // The team's other changes are not this store's to keep.
        assert_eq!(
            store
                .change_links(&[("fb_1".to_owned(), Change::Claim)], at(6))
                .unwrap(),
            [0]
        );
    }

    #[test]
    fn the_teams_links_follow_its_events_and_are_forgotten_with_its_replica() {
        let mut store = Store::open_memory().unwrap();
        store.team_start_replica("support", "ana").unwrap();
        let t1 = link("https://t.example/T-1", Some("Crash"));
        let batch = TeamBatch {
            events: vec![
                event(1, "fb_1", Change::Link(t1.clone())),
                event(2, "fb_1", Change::Link(link("https://t.example/T-2", None))),
                event(
                    3,
                    "fb_1",
                    Change::Unlink {
                        url: "https://t.example/T-2".to_owned(),
                    },
                ),
            ],
            seq: 3,
            caught_up: true,
            ..TeamBatch::default()
        };
        store.team_apply(&batch, at(10)).unwrap();
        // The same events read again change nothing.
        store.team_apply(&batch, at(11)).unwrap();
        let found = store.links(&["fb_1".to_owned()]).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].link, t1);
        assert_eq!(found[0].author.as_deref(), Some("ana"));
        assert!(found[0].team);
        // A URL this store linked itself and the team linked too shows once, as the team's.
        store.change_links(&linked(&["fb_1"], &t1), at(12)).unwrap();
        assert_eq!(urls(&store, "fb_1").len(), 1);
        store.team_start_replica("other", "ana").unwrap();
        assert_eq!(
            urls(&store, "fb_1"),
            [(
                "https://t.example/T-1".to_owned(),
                Some("Crash".to_owned()),
                false
            )]
        );
    }
}
