//! The team backend: triage state a support team shares (owner, done, snooze, notes, labels)
//! kept in PostgreSQL, while each member's SQLite store stays the read model. Every change is
//! an event (an append-only table with a client-made id, so sending one twice stores it once)
//! and the state per item is written beside it in the same transaction. Who acted is the
//! database's word: each member connects as their own role; row-level security keeps teams
//! apart. See `schema` for the tables and their policies.
//!
//! It is the only crate that depends on tokio-postgres, and no driver type crosses its public
//! API (an administrator's connection is an [`Admin`], a hint on the team's channel a
//! [`Notice`]): all SQL for PostgreSQL lives here, as all SQL for SQLite lives in
//! `feedback-store`. It builds on `feedback-core` and `feedback-api` and never imports the store
//! or anything above it.

mod actions;
mod admin;
mod connect;
mod diagnose;
mod events;
pub mod labels;
mod mirror;
mod mirror_status;
mod presence;
pub mod schema;
mod templates;

pub use actions::{Change, Claimed, Hint, ItemState, Outcome, Team};
pub use admin::{
    AddedMember, RemovedMember, add_member, create_team, drop_member_role, remove_member,
    reset_password, set_shared_mirror,
};
pub use connect::{Admin, Notice, TeamUrl, connect};
pub use diagnose::{Diagnosis, NOTIFY_WAIT};
pub use events::Position;
pub use feedback_core::team_event::{EventChange, TeamEvent};
pub use mirror::{LEASE_SECONDS, Lease, MirrorItem, MirrorWrite, Syncer};
pub use mirror_status::{MirrorPosition, MirrorStatus};
pub use presence::{PRESENCE_EXPIRY_SECONDS, Presence};
pub use templates::SharedTemplate;

/// Why a team operation failed. The database's own message is kept (it never holds the
/// password: the URL is not part of it).
#[derive(Debug, thiserror::Error)]
pub enum TeamError {
    #[error("the team database: {}", said(.0))]
    Db(#[from] tokio_postgres::Error),
    /// The connection ended (the server went away, or the network).
    #[error("the connection to the team database ended")]
    Gone,
    #[error("the team URL: {0}")]
    Url(String),
    #[error("{0}")]
    Name(String),
    #[error("cannot reach the team database securely: {0}")]
    Tls(String),
    #[error(
        "the team database has schema version {found}{}; this feedback-inbox ({}) knows up to \
         {known}: {}",
        by.as_deref().map(|v| format!(", from feedback-inbox {}", feedback_core::text::Clean::line(v))).unwrap_or_default(),
        feedback_core::release::VERSION,
        feedback_core::release::install(by.as_deref())
    )]
    NewerSchema {
        found: i32,
        known: i32,
        /// The version that brought the schema there, when it said.
        by: Option<String>,
    },
    #[error("the team database has no team schema: run `feedback-inbox team init NAME` first")]
    NoSchema,
    #[error(
        "the team database has schema version {found}; this version of feedback-inbox needs \
         {needed}: its admin runs `feedback-inbox team init NAME` to upgrade it"
    )]
    OlderSchema { found: i32, needed: i32 },
    #[error("no team named {0:?} is visible to this role")]
    NoTeam(String),
    #[error("this role is in several teams ({0}): name one with [team] team = \"NAME\"")]
    ManyTeams(String),
    #[error("this role is in no team: ask your team's lead to run `team add-member`")]
    NotAMember,
    #[error(
        "the team serves another feedback account ({team}); this store mirrors {store}: use a \
         store of the team's account"
    )]
    OtherAccount { team: String, store: String },
    #[error("the team's mirror: {0}")]
    Json(#[from] serde_json::Error),
}

/// What a database error says: the server's own message ("the database system is shutting
/// down"), or the client's with its cause ("error connecting to server: Connection refused"),
/// where the error's own text alone is only "db error".
fn said(error: &tokio_postgres::Error) -> String {
    use tokio_postgres::error::SqlState;
    if let Some(db) = error.as_db_error() {
        // A timeout says what it waited for, and that waiting again may do.
        let code = db.code();
        return if *code == SqlState::LOCK_NOT_AVAILABLE {
            format!(
                "waited {} s for a lock another session holds (a teammate's open transaction, \
                 or a stuck process); nothing was changed, try again",
                connect::LOCK_TIMEOUT_SECONDS
            )
        } else if *code == SqlState::QUERY_CANCELED {
            format!(
                "the statement ran longer than {} s and was stopped; nothing was changed, try again",
                connect::STATEMENT_TIMEOUT_SECONDS
            )
        } else if *code == SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT {
            format!(
                "the server ended a transaction left idle over {} s (the process was stopped)",
                connect::IDLE_IN_TRANSACTION_SECONDS
            )
        } else {
            db.message().to_owned()
        };
    }
    match std::error::Error::source(error) {
        Some(cause) => format!("{error}: {cause}"),
        None => error.to_string(),
    }
}

impl TeamError {
    /// The database could not be reached, the connection broke (no server answered what was
    /// asked), or the server is shutting down, starting up or full: worth asking again later.
    #[must_use]
    pub fn is_unreachable(&self) -> bool {
        use tokio_postgres::error::SqlState;
        match self {
            Self::Db(error) => {
                error.as_db_error().is_none()
                    || error.is_closed()
                    || error.code().is_some_and(|code| {
                        [
                            SqlState::ADMIN_SHUTDOWN,
                            SqlState::CRASH_SHUTDOWN,
                            SqlState::CANNOT_CONNECT_NOW,
                            SqlState::TOO_MANY_CONNECTIONS,
                        ]
                        .contains(code)
                    })
            }
            Self::Tls(_) | Self::Gone => true,
            _ => false,
        }
    }

    /// The server refused for now, not for good: a serialization failure, a deadlock, two edits
    /// of one note at once, a lock or statement timeout, or the server shutting down.
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        use tokio_postgres::error::SqlState;
        let Self::Db(error) = self else {
            return false;
        };
        error.code().is_some_and(|code| {
            [
                SqlState::T_R_SERIALIZATION_FAILURE,
                SqlState::T_R_DEADLOCK_DETECTED,
                SqlState::UNIQUE_VIOLATION,
                SqlState::LOCK_NOT_AVAILABLE,
                SqlState::QUERY_CANCELED,
                SqlState::ADMIN_SHUTDOWN,
                SqlState::CRASH_SHUTDOWN,
                SqlState::CANNOT_CONNECT_NOW,
            ]
            .contains(code)
        })
    }
}
