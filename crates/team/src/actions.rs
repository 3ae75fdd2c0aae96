//! A member's changes to shared triage state. Each is one transaction: the item's state is
//! changed (claims by compare-and-set: exactly one of two members claiming at once wins), the
//! event recorded with its client-made id (the same event sent twice is stored once), and a
//! hint sent on the team's channel. Done, snooze and labels take the last write as the server
//! orders them, never by members' clocks; notes are append-only.

use jiff::Timestamp;
use tokio_postgres::Client;
use tokio_postgres::error::SqlState;

use super::schema::{SCHEMA, readable_time};
use super::{TeamError, TeamUrl};
pub use feedback_core::team_event::Change;

/// The constraint that keeps an event id once per team (PostgreSQL's name for the schema's
/// `UNIQUE (team_id, event_id)` on `events`).
const EVENT_ID_CONSTRAINT: &str = "events_team_id_event_id_key";

/// A member connected to their team.
pub struct Team {
    client: Client,
    id: i64,
    name: String,
    member: String,
    /// The team's own hint channel (named by a secret only its members can read).
    channel: String,
    /// The id made with the team (`team init`): another one is another team.
    instance: String,
}

/// What a notification on the team's channel says (only a hint: the tables are the truth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// An event was committed at this sequence number.
    Event(i64),
    /// Someone's presence changed.
    Presence,
    /// The syncer published to the team's shared mirror.
    Mirror,
    /// A member asked the team's syncer for a walk of the lists' tops.
    Ask,
    /// A member shared or removed a reply template.
    Templates,
}

/// What became of a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Stored at this sequence number.
    Applied { seq: i64 },
    /// This event was stored before (sent twice): nothing changed.
    AlreadyApplied,
    /// Someone else owns the item (since `seconds` ago by the server's clock); nothing changed.
    Claimed(Claimed),
}

/// Who owns an item another member tried to claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub owner: Option<String>,
    pub seconds: i64,
}

/// One item's shared state.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemState {
    pub item_id: String,
    pub owner: Option<String>,
    pub done: bool,
    pub snoozed_until: Option<Timestamp>,
    pub labels: Vec<String>,
    pub last_seq: i64,
}

impl Team {
    /// Connects as the URL's role and finds its team: `team` when named, else the only one the
    /// role is in.
    pub async fn open(url: &TeamUrl, team: Option<&str>) -> Result<Self, TeamError> {
        Self::open_with(url, team, None).await
    }

    /// [`Team::open`], listening on the team's channel: each hint of a new event (its team's
    /// or another's: the payload says which) is passed to `hints`, which closes when the
    /// connection ends.
    pub async fn open_listening(
        url: &TeamUrl,
        team: Option<&str>,
        hints: tokio::sync::mpsc::UnboundedSender<crate::Notice>,
    ) -> Result<Self, TeamError> {
        let opened = Self::open_with(url, team, Some(hints)).await?;
        // The channel is a secret of lower-case letters, digits and `_`: an identifier as it is.
        opened
            .client
            .batch_execute(&format!("LISTEN \"{}\"", opened.channel))
            .await?;
        Ok(opened)
    }

    async fn open_with(
        url: &TeamUrl,
        team: Option<&str>,
        hints: Option<tokio::sync::mpsc::UnboundedSender<crate::Notice>>,
    ) -> Result<Self, TeamError> {
        let client = super::connect::connect_with(url, hints).await?;
        match super::schema::version(&client).await? {
            // The schema is there but not to this role: it is in no team (or was removed).
            None if super::schema::exists(&client).await? => return Err(TeamError::NotAMember),
            None => return Err(TeamError::NoSchema),
            Some(found) if found > super::schema::latest() => {
                return Err(TeamError::NewerSchema {
                    found,
                    known: super::schema::latest(),
                    by: super::schema::written_by(&client).await,
                });
            }
            Some(found) if found < super::schema::latest() => {
                return Err(TeamError::OlderSchema {
                    found,
                    needed: super::schema::latest(),
                });
            }
            Some(_) => {}
        }
        // Row-level security shows only the role's own teams.
        let rows = client
            .query(
                &format!(
                    "SELECT team_id, name, channel, instance::text FROM {SCHEMA}.teams ORDER BY name"
                ),
                &[],
            )
            .await?;
        let teams: Vec<(i64, String, String, String)> = rows
            .iter()
            .filter_map(|r| {
                Some((
                    r.try_get(0).ok()?,
                    r.try_get(1).ok()?,
                    r.try_get(2).ok()?,
                    r.try_get(3).ok()?,
                ))
            })
            .collect();
        let (team_id, name, channel, instance) = match (team, teams.as_slice()) {
            (Some(wanted), _) => teams
                .iter()
                .find(|(_, name, _, _)| name == wanted)
                .cloned()
                .ok_or_else(|| TeamError::NoTeam(wanted.to_owned()))?,
            (None, [one]) => one.clone(),
            (None, []) => return Err(TeamError::NotAMember),
            (None, many) => {
                let names: Vec<&str> = many.iter().map(|(_, n, _, _)| n.as_str()).collect();
                return Err(TeamError::ManyTeams(names.join(", ")));
            }
        };
        let member: String = client
            .query_one("SELECT current_user::text", &[])
            .await?
            .get(0);
        Ok(Self {
            client,
            id: team_id,
            name,
            member,
            channel,
            instance,
        })
    }

    pub(super) fn client(&self) -> &Client {
        &self.client
    }

    pub(super) fn team_id(&self) -> i64 {
        self.id
    }

    /// The id made with the team: a team dropped and made again under its name has another.
    #[must_use]
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The team's hint channel.
    pub(super) fn channel(&self) -> &str {
        &self.channel
    }

    /// What a notification on the team's channel hints for this team (`None`: another
    /// team's, or not one of ours).
    #[must_use]
    pub fn hint(&self, notice: &crate::Notice) -> Option<Hint> {
        if notice.0.channel() != self.channel {
            return None;
        }
        let (team, what) = notice.0.payload().split_once(' ')?;
        if team.parse::<i64>().ok()? != self.id {
            return None;
        }
        match what {
            "presence" => Some(Hint::Presence),
            "mirror" => Some(Hint::Mirror),
            "ask" => Some(Hint::Ask),
            "templates" => Some(Hint::Templates),
            seq => seq.parse().ok().map(Hint::Event),
        }
    }

    /// The team's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The member connected (the database role).
    #[must_use]
    pub fn member(&self) -> &str {
        &self.member
    }

    /// Records the feedback account the team serves when none is yet, by its project ids (the
    /// API gives an account no id: its projects stand for it, as in the store); refuses a store
    /// whose projects share none with the team's. A store that knows no project yet proves
    /// nothing and records nothing.
    pub async fn bind_account(
        &self,
        projects: &std::collections::BTreeSet<String>,
    ) -> Result<(), TeamError> {
        if projects.is_empty() {
            return Ok(());
        }
        let mine = serde_json::to_string(projects).unwrap_or_default();
        let row = self
            .client
            .query_one(
                &format!("SELECT {SCHEMA}.bind_account($1, $2)"),
                &[&self.id, &mine],
            )
            .await?;
        let recorded: Option<String> = row.try_get(0).ok().flatten();
        let Some(recorded) = recorded else {
            return Ok(());
        };
        let team: std::collections::BTreeSet<String> =
            serde_json::from_str(&recorded).unwrap_or_default();
        if team.is_empty() || !team.is_disjoint(projects) {
            return Ok(());
        }
        let names = |set: &std::collections::BTreeSet<String>| {
            let mut shown: Vec<&str> = set.iter().map(String::as_str).take(3).collect();
            if set.len() > 3 {
                shown.push("…");
            }
            format!("projects {}", shown.join(", "))
        };
        Err(TeamError::OtherAccount {
            team: names(&team),
            store: names(projects),
        })
    }

    /// The team's members.
    pub async fn members(&self) -> Result<Vec<String>, TeamError> {
        self.members_with_activity()
            .await
            .map(|members| members.into_iter().map(|(name, _)| name).collect())
    }

    /// The team's members, each with the server's time of their last event (`None`: none yet).
    pub async fn members_with_activity(
        &self,
    ) -> Result<Vec<(String, Option<Timestamp>)>, TeamError> {
        let rows = self
            .client
            .query(
                &format!(
                    "SELECT m.member::text, {}
                     FROM {SCHEMA}.members m WHERE m.team_id = $1 ORDER BY m.member",
                    readable_time(&format!(
                        "(SELECT max(e.at) FROM {SCHEMA}.events e
                          WHERE e.team_id = m.team_id AND e.member = m.member)"
                    ))
                ),
                &[&self.id],
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| Some((r.try_get(0).ok()?, r.try_get(1).ok()?)))
            .collect())
    }

    /// Applies `change` to `item_id` as the event `event_id` (made by the client once, so that
    /// sending it again is harmless).
    pub async fn apply(
        &self,
        event_id: &str,
        item_id: &str,
        change: &Change,
    ) -> Result<Outcome, TeamError> {
        let statement = self.apply_statement().await?;
        already_applied(self.try_apply(&statement, event_id, item_id, change).await)
    }

    /// [`Team::apply`] of each change (event id, item id, change), the requests pipelined on
    /// the one connection: the server runs them in this order, each in its own transaction,
    /// and the answers come back in it. A change whose item comes again later in `changes`
    /// should not be sent with it: were the first to fail and be sent again, the two would be
    /// applied out of order.
    pub async fn apply_all(
        &self,
        changes: &[(&str, &str, &Change)],
    ) -> Result<Vec<Result<Outcome, TeamError>>, TeamError> {
        let statement = self.apply_statement().await?;
        let statement = &statement;
        let answers = futures_util::future::join_all(changes.iter().map(
            |(event_id, item_id, change)| async move {
                already_applied(self.try_apply(statement, event_id, item_id, change).await)
            },
        ))
        .await;
        Ok(answers)
    }

    async fn apply_statement(&self) -> Result<tokio_postgres::Statement, TeamError> {
        // The function checks the member and the values, changes the state (a claim by
        // compare-and-set), appends the event and hints the team, in one transaction.
        Ok(self
            .client
            .prepare(&format!(
                "SELECT outcome, seq, owner, seconds
                 FROM {SCHEMA}.apply_change($1, $2, $3, $4, $5)"
            ))
            .await?)
    }

    async fn try_apply(
        &self,
        statement: &tokio_postgres::Statement,
        event_id: &str,
        item_id: &str,
        change: &Change,
    ) -> Result<Outcome, TeamError> {
        let (kind, body) = (change.kind(), change.body());
        let row = self
            .client
            .query_one(statement, &[&self.id, &event_id, &item_id, &kind, &body])
            .await
            .map_err(refused)?;
        let outcome: String = row.try_get(0)?;
        Ok(match outcome.as_str() {
            "applied" => Outcome::Applied {
                seq: row.try_get(1)?,
            },
            "already" => Outcome::AlreadyApplied,
            _ => Outcome::Claimed(Claimed {
                owner: row.try_get(2)?,
                seconds: row.try_get::<_, Option<i64>>(3)?.unwrap_or(0),
            }),
        })
    }

    /// The shared state of these items (those never changed are left out).
    pub async fn states(&self, item_ids: &[String]) -> Result<Vec<ItemState>, TeamError> {
        let rows = self
            .client
            .query(
                &format!(
                    "SELECT item_id, owner::text, done, {}, labels, last_seq
                     FROM {SCHEMA}.items WHERE team_id = $1 AND item_id = ANY($2) ORDER BY item_id",
                    readable_time("snoozed_until")
                ),
                &[&self.id, &item_ids],
            )
            .await?;
        // A row that does not read is said, with its item, and left out: the others come.
        Ok(rows
            .iter()
            .filter_map(|r| {
                let read = || -> Result<ItemState, tokio_postgres::Error> {
                    Ok(ItemState {
                        item_id: r.try_get(0)?,
                        owner: r.try_get(1)?,
                        done: r.try_get(2)?,
                        snoozed_until: r.try_get(3)?,
                        labels: r.try_get(4)?,
                        last_seq: r.try_get(5)?,
                    })
                };
                read()
                    .inspect_err(|error| {
                        let item = r.try_get::<_, String>(0).ok();
                        tracing::warn!(?item, %error, "a team item's state that does not read: skipped");
                    })
                    .ok()
            })
            .collect())
    }
}

/// The same event committed by another connection meanwhile is applied already (only the
/// event id's own constraint says so: two edits of one note at once are an error to retry).
fn already_applied(answer: Result<Outcome, TeamError>) -> Result<Outcome, TeamError> {
    match answer {
        Err(TeamError::Db(error))
            if error.code() == Some(&SqlState::UNIQUE_VIOLATION)
                && error.as_db_error().and_then(|e| e.constraint())
                    == Some(EVENT_ID_CONSTRAINT) =>
        {
            Ok(Outcome::AlreadyApplied)
        }
        other => other,
    }
}

/// A change the team's function refused for what it is (a value out of bounds, a member
/// that is not one, a note that is not this member's), said in the function's words; other
/// errors as they are.
fn refused(error: tokio_postgres::Error) -> TeamError {
    let refusal = error.code().is_some_and(|code| {
        [
            SqlState::from_code("FT001"),
            SqlState::INVALID_PARAMETER_VALUE,
            SqlState::INVALID_DATETIME_FORMAT,
            SqlState::DATETIME_FIELD_OVERFLOW,
        ]
        .contains(code)
    });
    match error.as_db_error() {
        Some(db) if refusal => TeamError::Name(db.message().to_owned()),
        _ => TeamError::Db(error),
    }
}
