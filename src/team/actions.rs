//! A member's changes to shared triage state. Each is one transaction: the item's state is
//! changed (claims by compare-and-set: exactly one of two members claiming at once wins), the
//! event recorded with its client-made id (the same event sent twice is stored once), and a
//! hint sent on the team's channel. Done, snooze and labels take the last write as the server
//! orders them, never by members' clocks; notes are append-only.

use jiff::Timestamp;
use serde_json::json;
use tokio_postgres::Client;
use tokio_postgres::error::SqlState;

use super::schema::{CHANNEL, SCHEMA};
use super::{TeamError, TeamUrl};

/// The constraint that keeps an event id once per team (PostgreSQL's name for the schema's
/// `UNIQUE (team_id, event_id)` on `events`).
const EVENT_ID_CONSTRAINT: &str = "events_team_id_event_id_key";

/// A member connected to their team.
pub struct Team {
    client: Client,
    id: i64,
    name: String,
    member: String,
}

/// A change to one item's shared state (kept in a store's outbox as its JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// Own the item; lost when someone else owns it.
    Claim,
    /// Take the item over from `from`, who owns it now (confirmed by the user, recorded).
    TakeOver {
        from: String,
    },
    /// Give up your own item.
    Unclaim,
    /// Give the item to a member; `from`, the owner as the user saw it (the change is lost when
    /// the owner changed since).
    Assign {
        to: String,
        from: Option<String>,
    },
    Done(bool),
    Snooze(Option<Timestamp>),
    Labels {
        add: Vec<String>,
        remove: Vec<String>,
    },
    /// A note, or a new version of one (`note_id` again).
    Note {
        note_id: String,
        body: String,
    },
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
        hints: tokio::sync::mpsc::UnboundedSender<tokio_postgres::Notification>,
    ) -> Result<Self, TeamError> {
        let opened = Self::open_with(url, team, Some(hints)).await?;
        opened
            .client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .await?;
        Ok(opened)
    }

    async fn open_with(
        url: &TeamUrl,
        team: Option<&str>,
        hints: Option<tokio::sync::mpsc::UnboundedSender<tokio_postgres::Notification>>,
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
                &format!("SELECT team_id, name FROM {SCHEMA}.teams ORDER BY name"),
                &[],
            )
            .await?;
        let teams: Vec<(i64, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let (team_id, name) = match (team, teams.as_slice()) {
            (Some(wanted), _) => teams
                .iter()
                .find(|(_, name)| name == wanted)
                .cloned()
                .ok_or_else(|| TeamError::NoTeam(wanted.to_owned()))?,
            (None, [one]) => one.clone(),
            (None, []) => return Err(TeamError::NotAMember),
            (None, many) => {
                let names: Vec<&str> = many.iter().map(|(_, n)| n.as_str()).collect();
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
        })
    }

    pub(super) fn client(&self) -> &Client {
        &self.client
    }

    pub(super) fn client_mut(&mut self) -> &mut Client {
        &mut self.client
    }

    pub(super) fn team_id(&self) -> i64 {
        self.id
    }

    /// What a notification on the team's channel hints for this team (`None`: another
    /// team's, or not one of ours).
    #[must_use]
    pub fn hint(&self, notice: &tokio_postgres::Notification) -> Option<Hint> {
        if notice.channel() != CHANNEL {
            return None;
        }
        let (team, what) = notice.payload().split_once(' ')?;
        if team.parse::<i64>().ok()? != self.id {
            return None;
        }
        match what {
            "presence" => Some(Hint::Presence),
            "mirror" => Some(Hint::Mirror),
            "ask" => Some(Hint::Ask),
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
        self.client
            .execute(
                &format!(
                    "UPDATE {SCHEMA}.teams SET account = $2 WHERE team_id = $1 AND account IS NULL"
                ),
                &[&self.id, &mine],
            )
            .await?;
        let row = self
            .client
            .query_one(
                &format!("SELECT account FROM {SCHEMA}.teams WHERE team_id = $1"),
                &[&self.id],
            )
            .await?;
        let recorded: Option<String> = row.get(0);
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
                    "SELECT m.member::text,
                       (SELECT max(e.at) FROM {SCHEMA}.events e
                        WHERE e.team_id = m.team_id AND e.member = m.member)
                     FROM {SCHEMA}.members m WHERE m.team_id = $1 ORDER BY m.member"
                ),
                &[&self.id],
            )
            .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Applies `change` to `item_id` as the event `event_id` (made by the client once, so that
    /// sending it again is harmless).
    pub async fn apply(
        &mut self,
        event_id: &str,
        item_id: &str,
        change: &Change,
    ) -> Result<Outcome, TeamError> {
        match self.try_apply(event_id, item_id, change).await {
            // The same event committed by another connection meanwhile (only the event id's
            // own constraint says so: two edits of one note at once are an error to retry).
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

    async fn try_apply(
        &mut self,
        event_id: &str,
        item_id: &str,
        change: &Change,
    ) -> Result<Outcome, TeamError> {
        let team_id = self.id;
        let tx = self.client.transaction().await?;
        let known = tx
            .query_opt(
                &format!("SELECT 1 FROM {SCHEMA}.events WHERE team_id = $1 AND event_id = $2"),
                &[&team_id, &event_id],
            )
            .await?;
        if known.is_some() {
            return Ok(Outcome::AlreadyApplied);
        }
        // A row to change, then the change: a claim's condition is checked on the locked row.
        tx.execute(
            &format!(
                "INSERT INTO {SCHEMA}.items (team_id, item_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
            ),
            &[&team_id, &item_id],
        )
        .await?;
        let changed = change_state(&tx, team_id, item_id, change).await?;
        if !changed {
            let row = tx
                .query_one(
                    &format!(
                        "SELECT owner::text, coalesce(extract(epoch FROM now() - owner_since), 0)::bigint
                         FROM {SCHEMA}.items WHERE team_id = $1 AND item_id = $2"
                    ),
                    &[&team_id, &item_id],
                )
                .await?;
            return Ok(Outcome::Claimed(Claimed {
                owner: row.get(0),
                seconds: row.get(1),
            }));
        }
        let (kind, body) = describe(change);
        let seq: i64 = tx
            .query_one(
                &format!(
                    "INSERT INTO {SCHEMA}.events (team_id, event_id, item_id, kind, body)
                     VALUES ($1, $2, $3, $4, $5) RETURNING seq"
                ),
                &[&team_id, &event_id, &item_id, &kind, &body],
            )
            .await?
            .get(0);
        tx.execute(
            &format!("UPDATE {SCHEMA}.items SET last_seq = $3 WHERE team_id = $1 AND item_id = $2"),
            &[&team_id, &item_id, &seq],
        )
        .await?;
        tx.execute(
            "SELECT pg_notify($1, $2)",
            &[&CHANNEL, &format!("{team_id} {seq}")],
        )
        .await?;
        tx.commit().await?;
        Ok(Outcome::Applied { seq })
    }

    /// The shared state of these items (those never changed are left out).
    pub async fn states(&self, item_ids: &[String]) -> Result<Vec<ItemState>, TeamError> {
        let rows = self
            .client
            .query(
                &format!(
                    "SELECT item_id, owner::text, done, snoozed_until, labels, last_seq
                     FROM {SCHEMA}.items WHERE team_id = $1 AND item_id = ANY($2) ORDER BY item_id"
                ),
                &[&self.id, &item_ids],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| ItemState {
                item_id: r.get(0),
                owner: r.get(1),
                done: r.get(2),
                snoozed_until: r.get(3),
                labels: r.get(4),
                last_seq: r.get(5),
            })
            .collect())
    }
}

/// Changes the item's state as `change` says; false when its condition (a claim's owner) does
/// not hold, and nothing changed.
async fn change_state(
    tx: &tokio_postgres::Transaction<'_>,
    team_id: i64,
    item_id: &str,
    change: &Change,
) -> Result<bool, TeamError> {
    Ok(match change {
        Change::Claim => {
            owner_if(
                tx,
                team_id,
                item_id,
                "owner IS NULL OR owner = current_user",
                None,
                Some(true),
            )
            .await?
        }
        Change::TakeOver { from } => {
            owner_if(
                tx,
                team_id,
                item_id,
                "owner = $3::text::name",
                Some(from),
                Some(true),
            )
            .await?
        }
        Change::Unclaim => {
            owner_if(
                tx,
                team_id,
                item_id,
                "owner = current_user",
                None,
                Some(false),
            )
            .await?
        }
        Change::Assign { to, from } => {
            if !is_member(tx, team_id, to).await? {
                return Err(TeamError::Name(format!("{to} is not a member of the team")));
            }
            let sql = format!(
                "UPDATE {SCHEMA}.items SET owner = $4::text::name, owner_since = now()
                 WHERE team_id = $1 AND item_id = $2 AND owner IS NOT DISTINCT FROM $3::text::name"
            );
            tx.execute(&sql, &[&team_id, &item_id, from, to]).await? == 1
        }
        Change::Done(done) => set(tx, "done = $3", team_id, item_id, done).await?,
        Change::Snooze(until) => set(tx, "snoozed_until = $3", team_id, item_id, until).await?,
        Change::Labels { add, remove } => {
            let sql = format!(
                "UPDATE {SCHEMA}.items SET labels = ARRAY(
                     SELECT DISTINCT l FROM unnest(labels || $3::text[]) AS l
                     WHERE l <> ALL($4::text[]) ORDER BY l)
                 WHERE team_id = $1 AND item_id = $2"
            );
            tx.execute(&sql, &[&team_id, &item_id, add, remove]).await? == 1
        }
        Change::Note { note_id, body } => {
            let sql = format!(
                "INSERT INTO {SCHEMA}.notes (team_id, item_id, note_id, version, body)
                 SELECT $1, $2, $3, coalesce(max(version), 0) + 1, $4 FROM {SCHEMA}.notes
                 WHERE team_id = $1 AND note_id = $3"
            );
            tx.execute(&sql, &[&team_id, &item_id, note_id, body])
                .await?
                == 1
        }
    })
}

/// The event's kind and body for `change`.
fn describe(change: &Change) -> (&'static str, serde_json::Value) {
    match change {
        Change::Claim => ("claim", json!({})),
        Change::TakeOver { from } => ("take-over", json!({ "from": from })),
        Change::Unclaim => ("unclaim", json!({})),
        Change::Assign { to, from } => ("assign", json!({ "to": to, "from": from })),
        Change::Done(done) => ("done", json!({ "done": done })),
        Change::Snooze(until) => ("snooze", json!({ "until": until.map(|t| t.to_string()) })),
        Change::Labels { add, remove } => ("labels", json!({ "add": add, "remove": remove })),
        Change::Note { note_id, body } => ("note", json!({ "note_id": note_id, "body": body })),
    }
}

/// Sets or clears the owner to the member connected (`mine`), where `condition` holds.
async fn owner_if(
    tx: &tokio_postgres::Transaction<'_>,
    team_id: i64,
    item_id: &str,
    condition: &str,
    from: Option<&String>,
    mine: Option<bool>,
) -> Result<bool, TeamError> {
    let owner = if mine == Some(true) {
        "current_user"
    } else {
        "NULL"
    };
    let sql = format!(
        "UPDATE {SCHEMA}.items SET owner = {owner}, owner_since = now()
         WHERE team_id = $1 AND item_id = $2 AND ({condition})"
    );
    let changed = match from {
        Some(from) => tx.execute(&sql, &[&team_id, &item_id, from]).await?,
        None => tx.execute(&sql, &[&team_id, &item_id]).await?,
    };
    Ok(changed == 1)
}

/// Sets one column (`assignment`, with the value as `$3`) of the item.
async fn set<T: tokio_postgres::types::ToSql + Sync>(
    tx: &tokio_postgres::Transaction<'_>,
    assignment: &str,
    team_id: i64,
    item_id: &str,
    value: &T,
) -> Result<bool, TeamError> {
    let sql = format!("UPDATE {SCHEMA}.items SET {assignment} WHERE team_id = $1 AND item_id = $2");
    Ok(tx.execute(&sql, &[&team_id, &item_id, value]).await? == 1)
}

async fn is_member(
    tx: &tokio_postgres::Transaction<'_>,
    team_id: i64,
    member: &str,
) -> Result<bool, TeamError> {
    Ok(tx
        .query_opt(
            &format!(
                "SELECT 1 FROM {SCHEMA}.members WHERE team_id = $1 AND member = $2::text::name"
            ),
            &[&team_id, &member],
        )
        .await?
        .is_some())
}
