//! What `doctor` asks of the team's database, as the member connected: the schema's version,
//! whether row-level security is forced on every team table, whether a `NOTIFY` comes back on
//! this connection (a transaction-mode pooler drops it), and the server's clock.

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use tokio::sync::mpsc::UnboundedReceiver;

use super::TeamError;
use super::actions::Team;
use super::schema::SCHEMA;

/// The tables whose rows are a team's.
const TEAM_TABLES: &[&str] = &["teams", "events", "items", "notes", "presence"];

/// How long a `NOTIFY` may take to come back before it counts as not delivered.
pub const NOTIFY_WAIT: Duration = Duration::from_secs(2);

/// What the checks found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Row-level security is enabled and forced on every team table.
    pub rls_forced: bool,
    /// How long a `NOTIFY` took to come back; `None`: it did not within [`NOTIFY_WAIT`].
    pub notify: Option<Duration>,
    /// The server's clock minus this machine's.
    pub skew: SignedDuration,
}

impl Team {
    /// Runs the checks on this member's connection; `hints` is the connection's notifications
    /// ([`Team::open_listening`]).
    pub async fn diagnose(
        &self,
        hints: &mut UnboundedReceiver<crate::Notice>,
    ) -> Result<Diagnosis, TeamError> {
        let rls_forced: Option<bool> = self
            .client()
            .query_one(
                &format!(
                    "SELECT bool_and(relrowsecurity AND relforcerowsecurity)
                     FROM pg_class WHERE relnamespace = '{SCHEMA}'::regnamespace
                       AND relname = ANY($1)"
                ),
                &[&TEAM_TABLES],
            )
            .await?
            .get(0);
        let before = Timestamp::now();
        let server: Timestamp = self.client().query_one("SELECT now()", &[]).await?.get(0);
        let after = Timestamp::now();
        let middle = before + after.duration_since(before) / 2;
        let skew = server.duration_since(middle);
        let payload = format!("{} doctor", self.team_id());
        let sent = std::time::Instant::now();
        self.client()
            .execute("SELECT pg_notify($1, $2)", &[&self.channel(), &payload])
            .await?;
        let notify = tokio::time::timeout(NOTIFY_WAIT, async {
            while let Some(notice) = hints.recv().await {
                if notice.0.payload() == payload {
                    return Some(sent.elapsed());
                }
            }
            None
        })
        .await
        .ok()
        .flatten();
        Ok(Diagnosis {
            rls_forced: rls_forced.unwrap_or(false),
            notify,
            skew,
        })
    }
}
