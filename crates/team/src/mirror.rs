//! The shared mirror's footing in the team's database: the syncer's lease and the fenced
//! writes of the service's items. One process at a time holds the lease ([`Team::take_syncer`]),
//! renews it well before it expires ([`Team::renew_syncer`]) and gives it up when it stops
//! ([`Team::release_syncer`]); another takes it over once it has expired, with the next
//! generation. Expiry is the server's clock, never a member's. Each page of the mirror is
//! written in one transaction that first locks the lease's row and checks the generation
//! still holds it ([`Team::mirror_page`]): a takeover waits for that transaction, and a syncer
//! that lost the lease has its write refused ([`MirrorWrite::Fenced`]), nothing written.
//! Members read the mirror from the number of the last write they have ([`Team::mirror_after`]).

use jiff::Timestamp;
use tokio_postgres::types::Json;

use super::TeamError;
use super::actions::Team;
use super::schema::{SCHEMA, readable_time};
use feedback_api::{Extras, Feedback};

/// How long a lease lasts unless renewed, in seconds: a syncer that crashed or lost its
/// connection is taken over within this (and a renewal every third of it keeps a live one).
pub const LEASE_SECONDS: i64 = 15;

/// A hold on the team's syncer lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    /// Raised by every takeover: the fence each write checks.
    pub generation: i64,
    pub expires_at: Timestamp,
}

/// Who holds the lease, as the database says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Syncer {
    pub member: String,
    pub generation: i64,
    pub since: Timestamp,
    pub expires_at: Timestamp,
    /// Not expired, by the server's clock now.
    pub alive: bool,
}

/// What became of a page written to the mirror: a fenced page is not written, which its
/// writer must not take for done.
#[must_use]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MirrorWrite {
    /// Written: how many items changed (an item as it was already is not written again).
    Written { changed: u64 },
    /// The lease is no longer this generation's: nothing was written.
    Fenced,
}

/// One item of the mirror, with the number of its last write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorItem {
    pub seq: i64,
    pub id: String,
    /// The item as the syncer stored it; `None`: the service no longer has it.
    pub item: Option<Feedback>,
    /// What a member's store knew of it beyond its list fields, when one shared it.
    pub extras: Option<Extras>,
}

/// An item as the mirror keeps it, as bytes (the service's text may hold NUL, which
/// PostgreSQL's text and jsonb refuse).
struct Stored<'a> {
    id: &'a [u8],
    /// The item's JSON.
    item: Vec<u8>,
    /// Its extras' JSON, when given.
    extras: Option<Vec<u8>>,
}

fn as_stored<'a>(
    item: &'a Feedback,
    extras: Option<&Option<Extras>>,
) -> Result<Stored<'a>, TeamError> {
    let extras = match extras.and_then(Option::as_ref) {
        Some(extras) => Some(serde_json::to_vec(extras)?),
        None => None,
    };
    Ok(Stored {
        id: item.id.as_str().as_bytes(),
        item: serde_json::to_vec(item)?,
        extras,
    })
}

/// `items` (with their `extras`, by position) as the mirror's functions take them: the ids,
/// the items' JSON and the extras' JSON (`None`: none given), each by position.
type Columns = (Vec<Vec<u8>>, Vec<Vec<u8>>, Vec<Option<Vec<u8>>>);

fn as_columns(items: &[Feedback], extras: &[Option<Extras>]) -> Result<Columns, TeamError> {
    let mut columns: Columns = (Vec::new(), Vec::new(), Vec::new());
    for (n, item) in items.iter().enumerate() {
        let stored = as_stored(item, extras.get(n))?;
        columns.0.push(stored.id.to_vec());
        columns.1.push(stored.item);
        columns.2.push(stored.extras);
    }
    Ok(columns)
}

fn lease_of(row: &tokio_postgres::Row) -> Result<Lease, TeamError> {
    Ok(Lease {
        generation: row.try_get(0)?,
        expires_at: row.try_get(1)?,
    })
}

/// Seconds as the statements take them.
fn secs(seconds: i64) -> i32 {
    i32::try_from(seconds).unwrap_or(i32::MAX)
}

impl Team {
    /// Takes the syncer's lease for `seconds` when nobody holds it (never taken, expired or
    /// released); `None` while another holds it.
    pub async fn take_syncer(&self, seconds: i64) -> Result<Option<Lease>, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT generation, expires_at FROM {SCHEMA}.take_syncer($1, $2)"),
                &[&self.team_id(), &secs(seconds)],
            )
            .await?;
        row.as_ref().map(lease_of).transpose()
    }

    /// Renews `lease` for `seconds` from now; `None` when it is no longer held (it expired, and
    /// may have been taken over): the syncer must stop writing.
    pub async fn renew_syncer(
        &self,
        lease: &Lease,
        seconds: i64,
    ) -> Result<Option<Lease>, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT generation, expires_at FROM {SCHEMA}.renew_syncer($1, $2, $3)"),
                &[&self.team_id(), &lease.generation, &secs(seconds)],
            )
            .await?;
        row.as_ref().map(lease_of).transpose()
    }

    /// Gives the lease up at once (a syncer that stops): another process may take it now.
    pub async fn release_syncer(&self, lease: &Lease) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.release_syncer($1, $2)"),
                &[&self.team_id(), &lease.generation],
            )
            .await?;
        Ok(())
    }

    /// Who holds (or last held) the lease; `None` when nobody ever took it.
    pub async fn syncer(&self) -> Result<Option<Syncer>, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!(
                    "SELECT member::text, generation, {}, {},
                            expires_at > clock_timestamp()
                     FROM {SCHEMA}.syncer WHERE team_id = $1",
                    readable_time("since"),
                    readable_time("expires_at")
                ),
                &[&self.team_id()],
            )
            .await?;
        row.map(|r| {
            Ok(Syncer {
                member: r.try_get(0)?,
                generation: r.try_get(1)?,
                since: r.try_get(2)?,
                expires_at: r.try_get(3)?,
                alive: r.try_get(4)?,
            })
        })
        .transpose()
    }

    /// Writes `items` (a page as the service listed them) into the mirror in one transaction,
    /// fenced by `lease`: when its generation no longer holds the lease, nothing is written.
    pub async fn mirror_page(
        &mut self,
        lease: &Lease,
        items: &[Feedback],
    ) -> Result<MirrorWrite, TeamError> {
        self.mirror_write(lease, (items, &[]), &[], None, None)
            .await
    }

    /// Writes into the mirror, in one transaction fenced by `lease` (nothing is written when
    /// its generation no longer holds the lease): `items` as the syncer stored them, each with
    /// what its store knew beyond the list fields (`extras`, by position; missing: nothing,
    /// and what the mirror held is kept), the items the service no longer has (`removed`), and
    /// the walk state that describes them, when given (JSON as the syncer's store gives it),
    /// with the service's rate limit as the syncer last read it (`budget`).
    pub async fn mirror_write(
        &mut self,
        lease: &Lease,
        (items, extras): (&[Feedback], &[Option<Extras>]),
        removed: &[String],
        walk: Option<&serde_json::Value>,
        budget: Option<&serde_json::Value>,
    ) -> Result<MirrorWrite, TeamError> {
        let (ids, items, extras) = as_columns(items, extras)?;
        let removed: Vec<&[u8]> = removed.iter().map(String::as_bytes).collect();
        let walk = walk.map(serde_json::to_vec).transpose()?;
        // One statement, so one transaction: the function checks the lease (and keeps its row
        // locked until the end, which a takeover waits for) before it writes.
        let row = self
            .client()
            .query_one(
                &format!("SELECT {SCHEMA}.mirror_write($1, $2, $3, $4, $5, $6, $7, $8)"),
                &[
                    &self.team_id(),
                    &lease.generation,
                    &ids,
                    &items,
                    &extras,
                    &removed,
                    &walk,
                    &budget.map(Json),
                ],
            )
            .await?;
        Ok(match row.try_get::<_, Option<i64>>(0)? {
            Some(changed) => MirrorWrite::Written {
                changed: u64::try_from(changed).unwrap_or(0),
            },
            None => MirrorWrite::Fenced,
        })
    }

    /// Adds items a member's webhook receiver stored to the mirror, in one transaction: only
    /// those it does not hold, so an item several receivers delivered is there once, and the
    /// syncer's copy (newer: listed after, maybe archived) or its removal is never undone by a
    /// delivery; the delivery's metadata (`extras`, by position) is added to an item that has
    /// none. Not fenced: a receiver is not the syncer, and it only adds. How many items were
    /// added or described.
    pub async fn mirror_deliver(
        &mut self,
        items: &[Feedback],
        extras: &[Option<Extras>],
    ) -> Result<u64, TeamError> {
        let (ids, items, extras) = as_columns(items, extras)?;
        let row = self
            .client()
            .query_one(
                &format!("SELECT {SCHEMA}.mirror_deliver($1, $2, $3, $4)"),
                &[&self.team_id(), &ids, &items, &extras],
            )
            .await?;
        Ok(u64::try_from(row.try_get::<_, i64>(0)?).unwrap_or(0))
    }

    /// Shares what a member's store knows of the item `id` beyond its list fields (a detail it
    /// read from the service) with the mirror's copy, when the mirror holds the item and did
    /// not know it so; whether it was written. Not fenced: it never touches the item itself.
    pub async fn mirror_share_extras(&self, id: &str, extras: &Extras) -> Result<bool, TeamError> {
        let row = self
            .client()
            .query_one(
                &format!("SELECT {SCHEMA}.mirror_share_extras($1, $2, $3)"),
                &[
                    &self.team_id(),
                    &id.as_bytes(),
                    &serde_json::to_vec(extras)?,
                ],
            )
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Whether the team shares one mirror of the account (off until a member turns it on).
    pub async fn shared_mirror(&self) -> Result<bool, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT shared FROM {SCHEMA}.mirror_setting WHERE team_id = $1"),
                &[&self.team_id()],
            )
            .await?;
        Ok(row.is_some_and(|r| r.try_get(0).unwrap_or(false)))
    }

    /// Turns the team's shared mirror on or off, for every member.
    pub async fn set_shared_mirror(&self, shared: bool) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.set_shared_mirror($1, $2)"),
                &[&self.team_id(), &shared],
            )
            .await?;
        Ok(())
    }

    /// The walk state the last syncer wrote with its items; `None` before any.
    pub async fn mirror_walk(&self) -> Result<Option<serde_json::Value>, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT walk FROM {SCHEMA}.mirror_walk WHERE team_id = $1"),
                &[&self.team_id()],
            )
            .await?;
        row.map(|r| serde_json::from_slice(r.try_get::<_, &[u8]>(0)?).map_err(TeamError::from))
            .transpose()
    }

    /// The mirror's items written after number `after`, in the order written, at most `limit`.
    pub async fn mirror_after(&self, after: i64, limit: i64) -> Result<Vec<MirrorItem>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT seq, item_id, removed, item, extras FROM {SCHEMA}.mirror_items
                     WHERE team_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"
                ),
                &[&self.team_id(), &after, &limit],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let seq: i64 = r.get(0);
                // Written from a Rust string, so UTF-8; one that is not is said, and skipped.
                let Ok(id) = String::from_utf8(r.get::<_, Vec<u8>>(1)) else {
                    tracing::warn!(seq, "a mirror item whose id is not UTF-8");
                    return None;
                };
                if r.get::<_, bool>(2) {
                    return Some(MirrorItem {
                        seq,
                        id,
                        item: None,
                        extras: None,
                    });
                }
                // Extras that do not read cost only themselves: the item still comes.
                let extras = match r
                    .get::<_, Option<&[u8]>>(4)
                    .map(serde_json::from_slice::<Extras>)
                    .transpose()
                {
                    Ok(extras) => extras,
                    Err(error) => {
                        tracing::warn!(seq, %error, "a mirror item's extras that do not read");
                        None
                    }
                };
                match serde_json::from_slice::<Feedback>(r.get::<_, &[u8]>(3)) {
                    Ok(item) => Some(MirrorItem {
                        seq,
                        id,
                        item: Some(item),
                        extras,
                    }),
                    // Written from a decoded item, so it decodes; one that does not is said,
                    // and the others still come.
                    Err(error) => {
                        tracing::warn!(seq, %error, "a mirror item that does not read");
                        None
                    }
                }
            })
            .collect())
    }
}
