//! The team's commands: `team init`, `team add-member`, `team status`, `team log`, `team
//! template` (and, in
//! [`act`], the triage commands scripts use: `claim`, `unclaim`, `assign`, `label`). The team's
//! settings and the connection every one of them catches up through are the run's context's
//! (`context::team`). Every name, label and note a teammate wrote is sanitized before it is
//! printed.

mod act;
mod mirror_status;
mod templates;

pub use act::{Act, AssignArgs, ItemsArgs, LabelArgs, LinkArgs, UnlinkArgs, act, label_removals};
pub use templates::TemplateCommand;

use std::io::Write;

use clap::{Args as ClapArgs, Subcommand, ValueEnum};
use jiff::Timestamp;

use super::CliError;
use crate::context::Context;
use crate::context::team::{connected, settings, store};
use crate::output::TeamFormat;
use feedback_core::team_event::TeamEvent;
use feedback_core::text::Clean;
use feedback_team::{self as team, AddedMember, Team};
use feedback_team_sync::{self as team_sync, TeamSyncError};

/// A setting the whole team shares (`team set`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TeamSetting {
    SharedMirror,
}

/// `on` or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

#[derive(Debug, Clone, ClapArgs)]
pub struct TeamArgs {
    #[command(subcommand)]
    pub command: TeamCommand,
}

#[derive(Debug, Clone, Subcommand)]
pub enum TeamCommand {
    /// Create the team NAME (and the schema, when the database has none), connected as a role
    /// that may create schemas and roles. Needs no API key or store.
    Init {
        name: String,
        /// The team shares one mirror of the account: one member's process walks the service's
        /// API for everyone and every member's store follows the team's database.
        #[arg(long)]
        shared_mirror: bool,
    },
    /// Change a setting the whole team shares: `shared-mirror on` (one member's process walks
    /// the service's API for the team, every member's store follows the team's database) or
    /// `off` (each member syncs on their own).
    Set {
        #[arg(value_enum)]
        setting: TeamSetting,
        #[arg(value_enum)]
        value: Switch,
    },
    /// Make MEMBER (a database role) a member of the team: creates its login role and prints
    /// its password once, or prints the SQL a DBA runs when this role may not create roles.
    AddMember {
        member: String,
        #[arg(long, value_name = "NAME")]
        team: String,
    },
    /// Take MEMBER out of the team: the team's items are no longer theirs to read or change
    /// (their history stays); the members' role is revoked when they are in no other team.
    RemoveMember {
        member: String,
        #[arg(long, value_name = "NAME")]
        team: String,
    },
    /// The team, its members, what waits to be sent, and the last event.
    Status {
        #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
        format: TeamFormat,
    },
    /// The history of one item (who did what, when), or the team's latest events.
    Log {
        id: Option<String>,
        /// How many of the latest events, without an ID.
        #[arg(long, default_value_t = 50)]
        limit: usize,
        #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
        format: TeamFormat,
    },
    /// The reply templates the team shares (offered by every member's `R` and `reply
    /// --template`): list, share or remove them.
    Template {
        #[command(subcommand)]
        command: TemplateCommand,
    },
}

impl From<team::TeamError> for CliError {
    fn from(error: team::TeamError) -> Self {
        match error {
            team::TeamError::Url(_)
            | team::TeamError::Name(_)
            | team::TeamError::NoTeam(_)
            | team::TeamError::ManyTeams(_)
            | team::TeamError::NotAMember
            | team::TeamError::NoSchema
            | team::TeamError::NewerSchema { .. }
            | team::TeamError::OlderSchema { .. }
            | team::TeamError::OtherAccount { .. } => Self::Usage(error.to_string()),
            other => Self::Other(other.to_string()),
        }
    }
}

impl From<TeamSyncError> for CliError {
    fn from(error: TeamSyncError) -> Self {
        match error {
            TeamSyncError::Team(team) => team.into(),
            TeamSyncError::Store(store) => Self::Store(store),
            other @ TeamSyncError::OtherTeamPending { .. } => Self::Usage(other.to_string()),
            other => Self::Other(other.to_string()),
        }
    }
}

/// Runs a `team` subcommand.
pub async fn run(args: &Context, team: &TeamArgs, out: &mut dyn Write) -> Result<(), CliError> {
    match &team.command {
        TeamCommand::Init {
            name,
            shared_mirror,
        } => {
            let (_, url) = settings(args)?;
            let mut client = team::connect(&url).await?;
            let team_id = team::create_team(&mut client, name).await?;
            if *shared_mirror {
                team::set_shared_mirror(&client, team_id, true).await?;
            }
            let version = client.schema_version().await?.unwrap_or(0);
            writeln!(
                out,
                "team {} is ready in {} (schema version {version}{})",
                Clean::line(name),
                Clean::line(&url.describe()),
                if *shared_mirror {
                    "; one mirror of the account for the team"
                } else {
                    ""
                }
            )?;
            writeln!(
                out,
                "next: feedback-inbox team add-member MEMBER --team {}",
                Clean::line(name)
            )?;
            Ok(())
        }
        TeamCommand::AddMember { member, team: name } => add_member(args, member, name, out).await,
        TeamCommand::RemoveMember { member, team: name } => {
            remove_member(args, member, name, out).await
        }
        TeamCommand::Set {
            setting: TeamSetting::SharedMirror,
            value,
        } => {
            let (settings, url) = settings(args)?;
            let team = Team::open(&url, settings.team.as_deref()).await?;
            let shared = *value == Switch::On;
            team.set_shared_mirror(shared).await?;
            let said = if shared {
                "one member's process walks the service's API for the team; every member's \
                 store follows the team's database"
            } else {
                "each member syncs on their own"
            };
            writeln!(
                out,
                "team {}: shared mirror {}: {said}",
                Clean::line(team.name()),
                if shared { "on" } else { "off" }
            )?;
            Ok(())
        }
        TeamCommand::Status { format } => status(args, *format, out).await,
        TeamCommand::Log { id, limit, format } => {
            log(args, id.as_deref(), *limit, *format, out).await
        }
        TeamCommand::Template { command } => templates::run(args, command, out).await,
    }
}

/// `team add-member MEMBER --team NAME`: the member's login role made (its password and the
/// connection string to hand over, shown once) or joined, or the SQL a DBA runs.
async fn add_member(
    args: &Context,
    member: &str,
    name: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (_, url) = settings(args)?;
    let mut client = team::connect(&url).await?;
    let member_shown = Clean::line(member);
    match team::add_member(&mut client, name, member).await? {
        AddedMember::Created { password } => {
            writeln!(
                out,
                "created the login role {member_shown}, a member of team {}",
                Clean::line(name)
            )?;
            writeln!(
                out,
                "its password (shown once, pass it on privately): {password}"
            )?;
            let line = url.for_member(member, &password);
            writeln!(
                out,
                "{member_shown} connects with this (it holds the password):\n\n  \
                 export {}={}\n\nor in their config.toml:\n\n  [team]\n  url = {}\n",
                feedback_config::team::ENV_TEAM_URL,
                Clean::line(&shell_words::quote(&line)),
                Clean::line(&toml::Value::String(line.clone()).to_string()),
            )?;
        }
        AddedMember::Existing => writeln!(
            out,
            "{member_shown} (an existing role) is a member of team {}",
            Clean::line(name)
        )?,
        AddedMember::NeedsDba { sql } => {
            writeln!(
                out,
                "this role may not create roles; a DBA runs:\n\n{sql}\n"
            )?;
            writeln!(out, "then run this command again")?;
        }
    }
    Ok(())
}

/// `team remove-member MEMBER --team NAME`.
async fn remove_member(
    args: &Context,
    member: &str,
    name: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (_, url) = settings(args)?;
    let mut client = team::connect(&url).await?;
    let (member_shown, name_shown) = (Clean::line(member), Clean::line(name));
    match team::remove_member(&mut client, name, member).await? {
        team::RemovedMember::Removed { revoked } => {
            writeln!(
                out,
                "{member_shown} is no longer a member of team {name_shown}; their \
                 history stays"
            )?;
            if revoked {
                writeln!(
                    out,
                    "in no other team, the role lost the members' access to the team \
                     tables (the login role itself is kept)"
                )?;
            }
            Ok(())
        }
        team::RemovedMember::NotAMember => Err(CliError::Usage(format!(
            "{member_shown} is not a member of team {name_shown}"
        ))),
    }
}

/// `team status`.
async fn status(args: &Context, format: TeamFormat, out: &mut dyn Write) -> Result<(), CliError> {
    let (settings, url) = settings(args)?;
    let store = store(args)?;
    let (team, _) = connected(&url, &settings, &store).await?;
    let members = match &team {
        Some(team) => Some(team.members_with_activity().await?),
        None => None,
    };
    let mirror = match &team {
        Some(team) => Some(team.mirror_status().await?),
        None => None,
    };
    let replica = store.read(feedback_store::Store::team_replica)?;
    let pending = store.read(feedback_store::Store::team_outbox)?.len();
    let lost = store.read(feedback_store::Store::team_lost)?;
    let newest = store.read(|s| s.team_recent(1))?.pop();
    let now = Timestamp::now();
    match format {
        TeamFormat::Json => {
            let json = serde_json::json!({
                "team": replica.as_ref().map(|r| r.team.clone()),
                "member": replica.as_ref().map(|r| r.member.clone()),
                "database": url.describe(),
                "reachable": team.is_some(),
                "members": members.as_ref().map(|m| m.iter().map(|(name, at)| serde_json::json!({
                    "member": name,
                    "last_active": at.map(|t| t.to_string()),
                })).collect::<Vec<_>>()),
                "pending": pending,
                "lost": lost.iter().map(|l| serde_json::json!({
                    "id": l.item_id, "why": l.why, "at": l.at.to_string(),
                })).collect::<Vec<_>>(),
                "last_event": newest.as_ref().map(event_json),
                "caught_up_at": replica.as_ref().and_then(|r| r.caught_up_at).map(|t| t.to_string()),
                "mirror": mirror.as_ref().map(mirror_status::json),
            });
            let json =
                serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", super::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            match &replica {
                Some(r) => writeln!(
                    out,
                    "team {} · you are {} · {}",
                    Clean::line(&r.team),
                    Clean::line(&r.member),
                    Clean::line(&url.describe())
                )?,
                None => writeln!(
                    out,
                    "no team replica yet · {}",
                    Clean::line(&url.describe())
                )?,
            }
            match &members {
                Some(members) => {
                    let shown: Vec<String> = members
                        .iter()
                        .map(|(name, at)| match at {
                            Some(at) => format!(
                                "{} (last acted {})",
                                Clean::line(name),
                                seconds_ago(now, *at)
                            ),
                            None => format!("{} (no action yet)", Clean::line(name)),
                        })
                        .collect();
                    writeln!(out, "members: {}", shown.join(", "))?;
                }
                None => writeln!(
                    out,
                    "members: unknown (the team database cannot be reached)"
                )?,
            }
            writeln!(out, "outbox: {pending} pending · lost: {}", lost.len())?;
            for l in &lost {
                writeln!(
                    out,
                    "  lost {}: {}",
                    Clean::line(&l.item_id),
                    Clean::line(&l.why)
                )?;
            }
            match &newest {
                Some(e) => writeln!(out, "last event: {}", event_line(e, now))?,
                None => writeln!(out, "last event: none yet")?,
            }
            if let Some(at) = replica.as_ref().and_then(|r| r.caught_up_at) {
                writeln!(out, "caught up {}", seconds_ago(now, at))?;
            }
            for line in mirror.iter().flat_map(|m| mirror_status::lines(m, now)) {
                writeln!(out, "{line}")?;
            }
        }
    }
    // Reported: they need not be again.
    let reported: Vec<String> = lost.into_iter().map(|l| l.event_id).collect();
    store.write(|s| s.team_lost_reported(&reported))?;
    Ok(())
}

/// `team log [ID]`.
async fn log(
    args: &Context,
    id: Option<&str>,
    limit: usize,
    format: TeamFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (settings, url) = settings(args)?;
    let store = store(args)?;
    connected(&url, &settings, &store).await?;
    let events = match id {
        Some(id) => store.read(|s| s.team_history(id))?,
        None => store.read(|s| s.team_recent(limit))?,
    };
    let now = Timestamp::now();
    match format {
        TeamFormat::Json => {
            let json: Vec<serde_json::Value> = events.iter().map(event_json).collect();
            let json =
                serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", super::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            if events.is_empty() {
                writeln!(out, "no events")?;
            }
            for e in &events {
                writeln!(out, "{}", event_line(e, now))?;
            }
        }
    }
    Ok(())
}

fn event_json(e: &TeamEvent) -> serde_json::Value {
    serde_json::json!({
        "seq": e.seq,
        "event_id": e.event_id,
        "member": e.member,
        "id": e.item_id,
        "kind": e.change.kind(),
        "change": e.change.body_json(),
        // To the second, as the service's own times are.
        "at": e.at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
    })
}

/// `2026-11-27 04:30Z  ana  claimed fb_1`, with what changed.
fn event_line(e: &TeamEvent, now: Timestamp) -> String {
    format!(
        "{}  {}  {}  {}  ({})",
        super::output::short_time(e.at),
        Clean::line(&e.member),
        Clean::line(&e.item_id),
        team_sync::history::describe(&e.change),
        seconds_ago(now, e.at)
    )
}

fn seconds_ago(now: Timestamp, then: Timestamp) -> String {
    team_sync::ago(now.as_second() - then.as_second())
}
