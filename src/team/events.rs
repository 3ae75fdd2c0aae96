//! Reading the team's events after a position, in the server's order. A team's events are
//! numbered as they commit (the schema's counter, locked by each writing transaction until it
//! commits), so a reader that has seen number N has seen every committed event before it: none
//! is skipped, whatever else runs on the server. `NOTIFY` only hints that there is more; this
//! read is the truth.

use jiff::Timestamp;

use super::TeamError;
use super::actions::Team;
use super::schema::SCHEMA;

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

/// One change, as the server recorded it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub position: Position,
    pub event_id: String,
    /// The member who acted (the role that wrote it: the database's word).
    pub member: String,
    pub item_id: String,
    pub kind: String,
    /// The change's JSON, as text (read as JSON only where it is needed).
    pub body: String,
    /// The server's time of the change.
    pub at: Timestamp,
}

impl Team {
    /// At most `limit` events after `after`, oldest first.
    pub async fn events_after(
        &self,
        after: &Position,
        limit: i64,
    ) -> Result<Vec<Event>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT {EVENT_COLUMNS} FROM {SCHEMA}.events
                     WHERE team_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"
                ),
                &[&self.team_id(), &after.seq, &limit],
            )
            .await?;
        Ok(rows.iter().map(event).collect())
    }

    /// The events of one item, oldest first (its history).
    pub async fn history(&self, item_id: &str) -> Result<Vec<Event>, TeamError> {
        let rows = self
            .client()
            .query(
                &format!(
                    "SELECT {EVENT_COLUMNS} FROM {SCHEMA}.events WHERE team_id = $1 AND item_id = $2 ORDER BY seq"
                ),
                &[&self.team_id(), &item_id],
            )
            .await?;
        Ok(rows.iter().map(event).collect())
    }
}

/// The columns an event is read from, in the order [`event`] takes them.
const EVENT_COLUMNS: &str = "seq, event_id, member::text, item_id, kind, body::text, at";

/// An event from a row of [`EVENT_COLUMNS`].
fn event(row: &tokio_postgres::Row) -> Event {
    Event {
        position: Position { seq: row.get(0) },
        event_id: row.get(1),
        member: row.get(2),
        item_id: row.get(3),
        kind: row.get(4),
        body: row.get(5),
        at: row.get(6),
    }
}
