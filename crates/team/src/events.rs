//! Reading the team's events after a position, in the server's order. A team's events are
//! numbered as they commit (the schema's counter, locked by each writing transaction until it
//! commits), so a reader that has seen number N has seen every committed event before it: none
//! is skipped, whatever else runs on the server. `NOTIFY` only hints that there is more; this
//! read is the truth.

use feedback_core::team_event::{EventChange, TeamEvent};

use super::TeamError;
use super::actions::Team;
use super::schema::{SCHEMA, readable_time};

/// Where a reader is in the team's events: the number of the last one read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Position {
    pub seq: i64,
}

impl Position {
    /// Before every event.
    #[must_use]
    pub fn start() -> Self {
        Self { seq: 0 }
    }
}

impl Team {
    /// At most `limit` events after `after`, oldest first.
    pub async fn events_after(
        &self,
        after: &Position,
        limit: i64,
    ) -> Result<Vec<TeamEvent>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT {} FROM {SCHEMA}.events
                     WHERE team_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
                    event_columns()
                ),
                &[&self.team_id(), &after.seq, &limit],
            )
            .await?;
        Ok(rows.iter().filter_map(event).collect())
    }

    /// The id of the event at `seq`, if the team has one there: a store checks that the event
    /// its position is after is still the one it read (a database restored from an earlier
    /// copy has another, or none).
    pub async fn event_id_at(&self, seq: i64) -> Result<Option<String>, TeamError> {
        let row = self
            .client()
            .query_opt(
                &format!("SELECT event_id FROM {SCHEMA}.events WHERE team_id = $1 AND seq = $2"),
                &[&self.team_id(), &seq],
            )
            .await?;
        Ok(row.and_then(|r| r.try_get(0).ok()))
    }

    /// The events of one item, oldest first (its history).
    pub async fn history(&self, item_id: &str) -> Result<Vec<TeamEvent>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT {} FROM {SCHEMA}.events WHERE team_id = $1 AND item_id = $2 ORDER BY seq",
                    event_columns()
                ),
                &[&self.team_id(), &item_id],
            )
            .await?;
        Ok(rows.iter().filter_map(event).collect())
    }
}

/// The columns an event is read from, in the order [`event`] takes them (its time as
/// [`readable_time`] reads it).
fn event_columns() -> String {
    format!(
        "seq, event_id, member::text, item_id, kind, body::text, {}",
        readable_time("at")
    )
}

/// An event from a row of [`event_columns`]; `None` (said in the log, with its number) for a
/// row that does not read, which the others do not wait for.
fn event(row: &tokio_postgres::Row) -> Option<TeamEvent> {
    let read = || -> Result<TeamEvent, tokio_postgres::Error> {
        let kind: String = row.try_get(4)?;
        let body: String = row.try_get(5)?;
        Ok(TeamEvent {
            seq: row.try_get(0)?,
            event_id: row.try_get(1)?,
            member: row.try_get(2)?,
            item_id: row.try_get(3)?,
            change: EventChange::decode(&kind, &body),
            at: row.try_get(6)?,
        })
    };
    match read() {
        Ok(event) => Some(event),
        Err(error) => {
            let seq = row.try_get::<_, i64>(0).ok();
            tracing::warn!(?seq, %error, "a team event that does not read: skipped");
            None
        }
    }
}
