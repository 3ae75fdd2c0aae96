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
use super::schema::{CHANNEL, SCHEMA};
use crate::api::{Extras, Feedback};

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

/// Writes `items` (with their `extras`, by position) by `statement`, which takes the team, the
/// item's id, its JSON and its extras' JSON; how many rows it wrote.
async fn write_items(
    tx: &tokio_postgres::Transaction<'_>,
    statement: &tokio_postgres::Statement,
    team_id: i64,
    items: &[Feedback],
    extras: &[Option<Extras>],
) -> Result<u64, TeamError> {
    let mut written = 0;
    for (n, item) in items.iter().enumerate() {
        let stored = as_stored(item, extras.get(n))?;
        let row: [&(dyn tokio_postgres::types::ToSql + Sync); 4] =
            [&team_id, &stored.id, &stored.item, &stored.extras];
        written += tx.execute(statement, &row).await?;
    }
    Ok(written)
}

/// A hint to the members' live links that the mirror moved, sent when `tx` commits.
async fn hint_mirror(tx: &tokio_postgres::Transaction<'_>, team_id: i64) -> Result<(), TeamError> {
    tx.execute(
        "SELECT pg_notify($1, $2)",
        &[&CHANNEL, &format!("{team_id} mirror")],
    )
    .await?;
    Ok(())
}

fn lease_of(row: &tokio_postgres::Row) -> Lease {
    Lease {
        generation: row.get(0),
        expires_at: row.get(1),
    }
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
                &format!(
                    "INSERT INTO {SCHEMA}.syncer AS s (team_id, generation, since, expires_at)
                     VALUES ($1, 1, clock_timestamp(),
                             clock_timestamp() + $2::int4 * interval '1 second')
                     ON CONFLICT (team_id) DO UPDATE
                         SET member = session_user, generation = s.generation + 1,
                             since = clock_timestamp(),
                             expires_at = clock_timestamp() + $2::int4 * interval '1 second'
                         WHERE s.expires_at <= clock_timestamp()
                     RETURNING generation, expires_at"
                ),
                &[&self.team_id(), &secs(seconds)],
            )
            .await?;
        Ok(row.as_ref().map(lease_of))
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
                &format!(
                    "UPDATE {SCHEMA}.syncer
                     SET expires_at = clock_timestamp() + $3::int4 * interval '1 second'
                     WHERE team_id = $1 AND generation = $2 AND expires_at > clock_timestamp()
                     RETURNING generation, expires_at"
                ),
                &[&self.team_id(), &lease.generation, &secs(seconds)],
            )
            .await?;
        Ok(row.as_ref().map(lease_of))
    }

    /// Gives the lease up at once (a syncer that stops): another process may take it now.
    pub async fn release_syncer(&self, lease: &Lease) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!(
                    "UPDATE {SCHEMA}.syncer SET expires_at = clock_timestamp()
                     WHERE team_id = $1 AND generation = $2 AND expires_at > clock_timestamp()"
                ),
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
                    "SELECT member::text, generation, since, expires_at,
                            expires_at > clock_timestamp()
                     FROM {SCHEMA}.syncer WHERE team_id = $1"
                ),
                &[&self.team_id()],
            )
            .await?;
        Ok(row.map(|r| Syncer {
            member: r.get(0),
            generation: r.get(1),
            since: r.get(2),
            expires_at: r.get(3),
            alive: r.get(4),
        }))
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
        let team_id = self.team_id();
        let tx = self.client_mut().transaction().await?;
        // The lock a takeover's update waits for, until this page is committed or not.
        let held = tx
            .query_opt(
                &format!(
                    "SELECT 1 FROM {SCHEMA}.syncer
                     WHERE team_id = $1 AND generation = $2 AND expires_at > clock_timestamp()
                     FOR SHARE"
                ),
                &[&team_id, &lease.generation],
            )
            .await?;
        if held.is_none() {
            tx.rollback().await?;
            return Ok(MirrorWrite::Fenced);
        }
        let upsert = tx
            .prepare(&format!(
                "INSERT INTO {SCHEMA}.mirror_items AS m (team_id, item_id, seq, item, extras)
                 VALUES ($1, $2, 0, $3, $4)
                 ON CONFLICT (team_id, item_id) DO UPDATE
                     SET item = excluded.item, removed = false,
                         extras = coalesce(excluded.extras, m.extras)
                     WHERE m.item IS DISTINCT FROM excluded.item OR m.removed
                         OR m.extras IS DISTINCT FROM coalesce(excluded.extras, m.extras)"
            ))
            .await?;
        let mut changed = write_items(&tx, &upsert, team_id, items, extras).await?;
        if !removed.is_empty() {
            let remove = tx
                .prepare(&format!(
                    "INSERT INTO {SCHEMA}.mirror_items AS m (team_id, item_id, seq, item, removed)
                     VALUES ($1, $2, 0, 'null'::bytea, true)
                     ON CONFLICT (team_id, item_id) DO UPDATE SET removed = true
                         WHERE NOT m.removed"
                ))
                .await?;
            for id in removed {
                changed += tx.execute(&remove, &[&team_id, &id.as_bytes()]).await?;
            }
        }
        if let Some(walk) = walk {
            tx.execute(
                &format!(
                    "INSERT INTO {SCHEMA}.mirror_walk AS w (team_id, walk, generation, budget)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (team_id) DO UPDATE
                         SET walk = excluded.walk, generation = excluded.generation,
                             budget = coalesce(excluded.budget, w.budget),
                             written_at = clock_timestamp()"
                ),
                &[
                    &team_id,
                    &serde_json::to_vec(walk)?,
                    &lease.generation,
                    &budget.map(Json),
                ],
            )
            .await?;
        }
        if changed > 0 {
            hint_mirror(&tx, team_id).await?;
        }
        tx.commit().await?;
        Ok(MirrorWrite::Written { changed })
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
        let team_id = self.team_id();
        let tx = self.client_mut().transaction().await?;
        let insert = tx
            .prepare(&format!(
                "INSERT INTO {SCHEMA}.mirror_items AS m (team_id, item_id, seq, item, extras)
                 VALUES ($1, $2, 0, $3, $4)
                 ON CONFLICT (team_id, item_id) DO UPDATE SET extras = excluded.extras
                     WHERE m.extras IS NULL AND excluded.extras IS NOT NULL AND NOT m.removed"
            ))
            .await?;
        let added = write_items(&tx, &insert, team_id, items, extras).await?;
        if added > 0 {
            hint_mirror(&tx, team_id).await?;
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Shares what a member's store knows of the item `id` beyond its list fields (a detail it
    /// read from the service) with the mirror's copy, when the mirror holds the item and did
    /// not know it so; whether it was written. Not fenced: it never touches the item itself.
    pub async fn mirror_share_extras(&self, id: &str, extras: &Extras) -> Result<bool, TeamError> {
        let team_id = self.team_id();
        let written = self
            .client()
            .execute(
                &format!(
                    "WITH shared AS (
                         UPDATE {SCHEMA}.mirror_items SET extras = $3
                         WHERE team_id = $1 AND item_id = $2 AND NOT removed
                             AND extras IS DISTINCT FROM $3
                         RETURNING 1)
                     SELECT pg_notify($4, $5) FROM shared"
                ),
                &[
                    &team_id,
                    &id.as_bytes(),
                    &serde_json::to_vec(extras)?,
                    &CHANNEL,
                    &format!("{team_id} mirror"),
                ],
            )
            .await?;
        Ok(written > 0)
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
        Ok(row.is_some_and(|r| r.get(0)))
    }

    /// Turns the team's shared mirror on or off, for every member.
    pub async fn set_shared_mirror(&self, shared: bool) -> Result<(), TeamError> {
        super::admin::set_shared_mirror(self.client(), self.team_id(), shared).await
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
        row.map(|r| serde_json::from_slice(r.get::<_, &[u8]>(0)))
            .transpose()
            .map_err(TeamError::from)
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
