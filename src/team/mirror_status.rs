//! What `team status` says of the shared mirror: whether the team shares one, who walks for it
//! and since when, the walk state and the budget the syncer last published, and how far each
//! member's store has followed. Each member's process records its own position after a follow.

use jiff::Timestamp;
use tokio_postgres::types::Json;

use super::TeamError;
use super::actions::Team;
use super::mirror::Syncer;
use super::schema::{CHANNEL, SCHEMA};

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
                    "SELECT walk, written_at, budget FROM {SCHEMA}.mirror_walk WHERE team_id = $1"
                ),
                &[&team_id],
            )
            .await?;
        let (walk, budget) = match walk_row {
            Some(r) => (
                Some((serde_json::from_slice(r.get::<_, &[u8]>(0))?, r.get(1))),
                r.get::<_, Option<Json<serde_json::Value>>>(2).map(|j| j.0),
            ),
            None => (None, None),
        };
        let positions = self
            .client()
            .query(
                &format!(
                    "SELECT member::text, seq, at FROM {SCHEMA}.mirror_positions
                     WHERE team_id = $1 ORDER BY seq, member"
                ),
                &[&team_id],
            )
            .await?
            .iter()
            .map(|r| MirrorPosition {
                member: r.get(0),
                seq: r.get(1),
                at: r.get(2),
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
        let hint = format!("{} ask", self.team_id());
        Ok(self
            .client()
            .query_one(
                &format!(
                    "WITH asked AS (
                         INSERT INTO {SCHEMA}.mirror_asks AS a (team_id, asked_at)
                         VALUES ($1, clock_timestamp())
                         ON CONFLICT (team_id) DO UPDATE SET asked_at = excluded.asked_at
                         RETURNING asked_at)
                     SELECT asked_at FROM asked, LATERAL (SELECT pg_notify($2, $3)) AS hinted"
                ),
                &[&self.team_id(), &CHANNEL, &hint],
            )
            .await?
            .get(0))
    }

    /// The latest ask, and the start of the latest walk the syncer published whole.
    pub async fn mirror_asks(&self) -> Result<(Option<Timestamp>, Option<Timestamp>), TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT asked_at, served_at FROM {SCHEMA}.mirror_asks WHERE team_id = $1"),
                &[&self.team_id()],
            )
            .await?;
        Ok(row.map_or((None, None), |r| (r.get(0), r.get(1))))
    }

    /// Says that the walk started at `started` is published whole: the asks before it are
    /// served.
    pub async fn mirror_served(&self, started: Timestamp) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!(
                    "INSERT INTO {SCHEMA}.mirror_asks AS a (team_id, served_at) VALUES ($1, $2)
                     ON CONFLICT (team_id) DO UPDATE
                         SET served_at = greatest(a.served_at, excluded.served_at)"
                ),
                &[&self.team_id(), &started],
            )
            .await?;
        Ok(())
    }

    /// Records how far this member's store has followed the mirror.
    pub async fn record_mirror_position(&self, seq: i64) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!(
                    "INSERT INTO {SCHEMA}.mirror_positions AS p (team_id, seq) VALUES ($1, $2)
                     ON CONFLICT (team_id, member) DO UPDATE
                         SET seq = excluded.seq, at = clock_timestamp()"
                ),
                &[&self.team_id(), &seq],
            )
            .await?;
        Ok(())
    }
}
