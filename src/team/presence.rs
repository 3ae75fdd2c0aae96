//! Presence: which members are connected and which item each has open, from a heartbeat each
//! inbox sends. A heartbeat older than [`PRESENCE_EXPIRY_SECONDS`] (by the server's clock)
//! means nothing, so a laptop closed mid-look leaves no ghost. A change of the item looked at
//! is hinted on the team's channel (`team_id presence`) so the others see it at once.

use super::TeamError;
use super::actions::Team;
use super::schema::{CHANNEL, SCHEMA};

/// How long a heartbeat counts, in seconds (an inbox sends one every third of it).
pub const PRESENCE_EXPIRY_SECONDS: i64 = 45;

/// A member connected now, and the item they have open (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presence {
    pub member: String,
    pub item_id: Option<String>,
}

impl Team {
    /// Says this member is connected and has `item` open (`None`: none); hints the others when
    /// the item changed.
    pub async fn heartbeat(&self, item: Option<&str>) -> Result<(), TeamError> {
        let row = self
            .client()
            .query_one(
                &format!(
                    "WITH before AS (
                         SELECT item_id, seen_at FROM {SCHEMA}.presence
                         WHERE team_id = $1 AND member = current_user)
                     INSERT INTO {SCHEMA}.presence (team_id, item_id) VALUES ($1, $2)
                     ON CONFLICT (team_id, member) DO UPDATE SET item_id = $2, seen_at = now()
                     RETURNING (SELECT item_id IS DISTINCT FROM $2
                                    OR seen_at < now() - interval '{PRESENCE_EXPIRY_SECONDS} seconds'
                                FROM before) IS NOT FALSE"
                ),
                &[&self.team_id(), &item],
            )
            .await?;
        let changed: bool = row.get(0);
        if changed {
            self.client()
                .execute(
                    "SELECT pg_notify($1, $2)",
                    &[&CHANNEL, &format!("{} presence", self.team_id())],
                )
                .await?;
        }
        Ok(())
    }

    /// The members connected now (a heartbeat within the expiry), by name.
    pub async fn presence(&self) -> Result<Vec<Presence>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT member::text, item_id FROM {SCHEMA}.presence
                     WHERE team_id = $1 AND seen_at > now() - interval '{PRESENCE_EXPIRY_SECONDS} seconds'
                     ORDER BY member"
                ),
                &[&self.team_id()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| Presence {
                member: r.get(0),
                item_id: r.get(1),
            })
            .collect())
    }
}
