//! Presence: which members are connected and which item each has open, from a heartbeat each
//! inbox sends. A heartbeat older than [`PRESENCE_EXPIRY_SECONDS`] (by the server's clock)
//! means nothing, so a laptop closed mid-look leaves no ghost. A change of the item looked at
//! is hinted on the team's channel (`team_id presence`) so the others see it at once. The
//! heartbeat is the schema's function's: the server's clock, the session's role.

use super::TeamError;
use super::actions::Team;
use super::schema::SCHEMA;

/// How long a heartbeat counts, in seconds (an inbox sends one every third of it).
pub const PRESENCE_EXPIRY_SECONDS: i64 = 45;

/// A member connected now, and the item they have open (if any).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Presence {
    pub member: String,
    pub item_id: Option<String>,
    /// Composing a reply to that item's reporter.
    pub replying: bool,
}

impl Team {
    /// Says this member is connected and has `item` open (`None`: none), composing a reply to
    /// its reporter when `replying`; hints the others when either changed.
    pub async fn heartbeat(&self, item: Option<&str>, replying: bool) -> Result<(), TeamError> {
        self.client()
            .execute(
                &format!("SELECT {SCHEMA}.heartbeat($1, $2, $3, $4)"),
                &[
                    &self.team_id(),
                    &item,
                    &i32::try_from(PRESENCE_EXPIRY_SECONDS).unwrap_or(i32::MAX),
                    &replying,
                ],
            )
            .await?;
        Ok(())
    }

    /// The members connected now (a heartbeat within the expiry), by name.
    pub async fn presence(&self) -> Result<Vec<Presence>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT member::text, item_id, replying FROM {SCHEMA}.presence
                     WHERE team_id = $1 AND seen_at > now() - interval '{PRESENCE_EXPIRY_SECONDS} seconds'
                     ORDER BY member"
                ),
                &[&self.team_id()],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(Presence {
                    member: r.try_get(0).ok()?,
                    item_id: r.try_get(1).ok()?,
                    replying: r.try_get(2).unwrap_or(false),
                })
            })
            .collect())
    }
}
