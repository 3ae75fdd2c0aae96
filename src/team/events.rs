//! Reading the team's events after a position, in the server's order. A position is the pair
//! (transaction, sequence): events are read only from transactions older than every one still
//! running, so an event whose transaction commits after a later-numbered one is read in its
//! turn, never skipped. `NOTIFY` only hints that there is more; this read is the truth.

use jiff::Timestamp;

use super::TeamError;
use super::actions::Team;
use super::schema::SCHEMA;

/// Where a reader is in the team's events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Position {
    /// The transaction id (`xid8`, as text).
    pub tx: String,
    pub seq: i64,
}

impl Position {
    /// Before every event.
    #[must_use]
    pub fn start() -> Self {
        Self {
            tx: "0".to_owned(),
            seq: 0,
        }
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
    pub body: serde_json::Value,
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
                     WHERE team_id = $1 AND (tx, seq) > ($2::text::xid8, $3)
                       AND tx < pg_snapshot_xmin(pg_current_snapshot())
                     ORDER BY tx, seq LIMIT $4"
                ),
                &[&self.team_id(), &after.tx, &after.seq, &limit],
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
const EVENT_COLUMNS: &str = "tx::text, seq, event_id, member::text, item_id, kind, body, at";

/// An event from a row of [`EVENT_COLUMNS`].
fn event(row: &tokio_postgres::Row) -> Event {
    Event {
        position: Position {
            tx: row.get(0),
            seq: row.get(1),
        },
        event_id: row.get(2),
        member: row.get(3),
        item_id: row.get(4),
        kind: row.get(5),
        body: row.get(6),
        at: row.get(7),
    }
}
