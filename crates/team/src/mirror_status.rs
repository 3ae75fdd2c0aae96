//! What `team status` says of the shared mirror: whether the team shares one, who walks for it
//! and since when, the walk state and the budget the syncer last published, and how far each
//! member's store has followed. Each member's process records its own position after a follow.

use jiff::Timestamp;
use tokio_postgres::types::Json;

use super::TeamError;
use super::actions::Team;
use super::mirror::Syncer;
use super::schema::{SCHEMA, readable_time};

/// The team's shared mirror as its database holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct MirrorStatus {
    /// The team shares one mirror (`team set shared-mirror on`).
    pub shared: bool,
    /// Who walks (or last walked) for the team.
    pub syncer: Option<Syncer>,
    /// The number of the mirror's last write.
    pub last_seq: i64,
    /// The walk state the syncer last published (JSON as its store gave it), and when.
    pub walk: Option<(serde_json::Value, Timestamp)>,
    /// The service's rate limit as the syncer last read it.
    pub budget: Option<serde_json::Value>,
    /// Each member's store's position, most behind first.
    pub positions: Vec<MirrorPosition>,
}

/// How far one member's store has followed the mirror.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorPosition {
    pub member: String,
    pub seq: i64,
    pub at: Timestamp,
}

impl Team {
    /// The shared mirror's state, a query for each part (not one snapshot: the parts are read
    /// a moment apart, which figures for people allow).
    pub async fn mirror_status(&self) -> Result<MirrorStatus, TeamError> {
        let team_id = self.team_id();
        let shared = self.shared_mirror().await?;
        let syncer = self.syncer().await?;
        let last_seq = self.mirror_last_seq().await?;
        let walk_row = self
            .client()
            .query_opt(
                &format!(
                    "SELECT walk, {}, budget FROM {SCHEMA}.mirror_walk WHERE team_id = $1",
                    readable_time("written_at")
                ),
                &[&team_id],
            )
            .await?;
        // A walk state or budget that does not read is said and left out: the rest is shown.
        let (walk, budget) = match walk_row {
            Some(r) => {
                let walk = r
                    .try_get::<_, &[u8]>(0)
                    .ok()
                    .and_then(|bytes| {
                        serde_json::from_slice(bytes)
                            .inspect_err(|error| {
                                tracing::warn!(%error, "the team's walk state does not read");
                            })
                            .ok()
                    })
                    .zip(r.try_get(1).ok());
                let budget = r
                    .try_get::<_, Option<Json<serde_json::Value>>>(2)
                    .ok()
                    .flatten()
                    .map(|j| j.0);
                (walk, budget)
            }
            None => (None, None),
        };
        let positions = self
            .client()
            .query(
                &format!(
                    "SELECT member::text, seq, {} FROM {SCHEMA}.mirror_positions
                     WHERE team_id = $1 ORDER BY seq, member",
                    readable_time("at")
                ),
                &[&team_id],
            )
            .await?
            .iter()
            .filter_map(|r| {
                Some(MirrorPosition {
                    member: r.try_get(0).ok()?,
                    seq: r.try_get(1).ok()?,
                    at: r.try_get(2).ok()?,
                })
            })
            .collect();
        Ok(MirrorStatus {
            shared,
            syncer,
            last_seq,
            walk,
            budget,
            positions,
        })
    }

    /// The number of the mirror's last write (0 before any).
    pub async fn mirror_last_seq(&self) -> Result<i64, TeamError> {
        let row = self
            .client()
            .query_one(
                &format!("SELECT max(seq) FROM {SCHEMA}.mirror_items WHERE team_id = $1"),
                &[&self.team_id()],
            )
            .await?;
        Ok(row.get::<_, Option<i64>>(0).unwrap_or(0))
    }

    /// The database's clock now: when a walk starts, to say later which asks it served.
    pub async fn server_now(&self) -> Result<Timestamp, TeamError> {
        Ok(self
            .client()
            .query_one("SELECT clock_timestamp()", &[])
            .await?
            .get(0))
    }

    /// Asks the team's syncer for a walk of the lists' tops; when it was asked (the server's
    /// clock): a walk started after that serves it. The syncer's live link is hinted
    /// (`NOTIFY … 'TEAM ask'`) so an idle syncer serves it at once.
    pub async fn ask_mirror_walk(&self) -> Result<Timestamp, TeamError> {
        Ok(self
            .client()
            .query_one(
                &format!("SELECT {SCHEMA}.ask_mirror_walk($1)"),
                &[&self.team_id()],
            )
            .await?
            .try_get(0)?)
    }

    /// The latest ask, and the start of the latest walk the syncer published whole.
    pub async fn mirror_asks(&self) -> Result<(Option<Timestamp>, Option<Timestamp>), TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!(
                    "SELECT {}, {} FROM {SCHEMA}.mirror_asks WHERE team_id = $1",
                    readable_time("asked_at"),
                    readable_time("served_at")
                ),
                &[&self.team_id()],
            )
            .await?;
        Ok(row.map_or((None, None), |r| {
            (r.try_get(0).ok().flatten(), r.try_get(1).ok().flatten())
        }))
    }

    /// Says that the walk started at `started` is published whole: the asks before it are
    /// served.
    pub async fn mirror_served(&self, started: Timestamp) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.mirror_served($1, $2)"),
                &[&self.team_id(), &started],
            )
            .await?;
        Ok(())
    }

    /// Records how far this member's store has followed the mirror.
    pub async fn record_mirror_position(&self, seq: i64) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.record_mirror_position($1, $2)"),
                &[&self.team_id(), &seq],
            )
            .await?;
        Ok(())
    }
}
