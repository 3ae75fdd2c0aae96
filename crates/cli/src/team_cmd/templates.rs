//! `team template list|share|remove`: the reply templates the team shares, offered by every
//! member's `R` and `reply --template` after their own `[[templates]]`. Sharing and removing
//! need the team's database; the list answers from the store's copy when it cannot be reached.
//! A template is checked before it is shared (its name one line, its subject one line, its
//! variables known), so no member's reply fails on it later.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use jiff::Timestamp;

use crate::CliError;
use crate::context::Context;
use crate::context::team::{connected, settings, store};
use crate::output::TeamFormat;
use feedback_core::text::Clean;
use feedback_team_sync as team_sync;

/// The longest template text the team keeps, in characters.
const BODY_MAX_CHARS: usize = 20_000;

#[derive(Debug, Clone, Subcommand)]
pub enum TemplateCommand {
    /// The team's templates (as last read, when the database cannot be reached).
    List {
        #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
        format: TeamFormat,
    },
    /// Share a template under NAME, replacing the team's of that name: its text from
    /// `--body-file`, or this config's `[[templates]]` entry NAME with `--from-config`.
    Share {
        name: String,
        #[arg(long, value_name = "FILE", required_unless_present = "from_config")]
        body_file: Option<PathBuf>,
        /// The subject (default: `Re: your feedback on {app}`).
        #[arg(long, conflicts_with = "from_config")]
        subject: Option<String>,
        #[arg(long, conflicts_with = "body_file")]
        from_config: bool,
    },
    /// Stop sharing the team's template NAME.
    Remove { name: String },
}

/// `team template …`.
pub(super) async fn run(
    args: &Context,
    command: &TemplateCommand,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match command {
        TemplateCommand::List { format } => list(args, *format, out).await,
        TemplateCommand::Share {
            name,
            body_file,
            subject,
            from_config,
        } => {
            let (subject, body) = if *from_config {
                from_config_file(args, name)?
            } else {
                let path = body_file.as_deref().ok_or_else(|| {
                    CliError::Usage(
                        "share a template from --body-file FILE or --from-config".to_owned(),
                    )
                })?;
                (subject.clone(), crate::reply_cmd::body_file(path)?)
            };
            let (name, subject, body) = checked(name, subject.as_deref(), &body)?;
            let team = online(args).await?;
            team.put_template(&name, subject.as_deref(), &body).await?;
            team_sync::templates::refresh(&team, &store(args)?).await?;
            writeln!(
                out,
                "shared the template {} with team {}",
                Clean::line(&name),
                Clean::line(team.name())
            )?;
            Ok(())
        }
        TemplateCommand::Remove { name } => {
            let team = online(args).await?;
            let removed = team.remove_template(name.trim()).await?;
            team_sync::templates::refresh(&team, &store(args)?).await?;
            if !removed {
                return Err(CliError::Usage(format!(
                    "team {} shares no template named \"{}\"",
                    Clean::line(team.name()),
                    Clean::line(name)
                )));
            }
            writeln!(
                out,
                "team {} no longer shares the template {}",
                Clean::line(team.name()),
                Clean::line(name.trim())
            )?;
            Ok(())
        }
    }
}

/// The team, connected (its outbox sent, its replica caught up); an error when it cannot be
/// reached, since the change would be lost.
async fn online(args: &Context) -> Result<feedback_team::Team, CliError> {
    let (settings, url) = settings(args)?;
    let (team, _) = connected(&url, &settings, &store(args)?).await?;
    team.ok_or_else(|| {
        CliError::Usage(
            "the team database cannot be reached: templates are shared and removed online"
                .to_owned(),
        )
    })
}

/// This config's `[[templates]]` entry `name`: its subject and body.
fn from_config_file(args: &Context, name: &str) -> Result<(Option<String>, String), CliError> {
    let loaded = args.config()?;
    let own = feedback_config::mail::templates(
        loaded
            .map(|l| l.file.templates.as_slice())
            .unwrap_or_default(),
    )?;
    own.into_iter()
        .find(|t| t.name.trim().eq_ignore_ascii_case(name.trim()))
        .map(|t| (t.subject, t.body))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "config.toml has no [[templates]] entry named \"{}\"",
                Clean::line(name)
            ))
        })
}

/// The template as the team keeps it: its name trimmed and one line of 1 to 64 characters,
/// its subject (when given) a subject a reply may have, its text at most
/// [`BODY_MAX_CHARS`], and every variable of both known.
fn checked(
    name: &str,
    subject: Option<&str>,
    body: &str,
) -> Result<(String, Option<String>, String), CliError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(CliError::Usage(format!(
            "a template's name is one line of 1 to 64 characters: \"{}\"",
            Clean::line(name)
        )));
    }
    if body.trim().is_empty() || body.chars().count() > BODY_MAX_CHARS {
        return Err(CliError::Usage(format!(
            "a template's text is 1 to {BODY_MAX_CHARS} characters"
        )));
    }
    let values = feedback_mail::template::Values::default();
    let subject = match subject {
        Some(subject) => {
            feedback_mail::template::fill(subject, &values)
                .map_err(|e| CliError::Usage(format!("the subject: {e}")))?;
            Some(
                feedback_mail::compose::subject(subject)
                    .map_err(|e| CliError::Usage(format!("the subject: {e}")))?,
            )
        }
        None => None,
    };
    feedback_mail::template::fill(body, &values)
        .map_err(|e| CliError::Usage(format!("the text: {e}")))?;
    Ok((name.to_owned(), subject, body.to_owned()))
}

/// `team template list`.
async fn list(args: &Context, format: TeamFormat, out: &mut dyn Write) -> Result<(), CliError> {
    let (settings, url) = settings(args)?;
    let store = store(args)?;
    // Connecting reads the templates into the store; unreachable, the copy answers.
    connected(&url, &settings, &store).await?;
    let templates = store.read(feedback_store::Store::team_templates)?;
    match format {
        TeamFormat::Json => {
            let json: Vec<serde_json::Value> = templates
                .iter()
                .map(|t| {
                    serde_json::json!({
                        "name": t.name,
                        "subject": t.subject,
                        "body": t.body,
                        "shared_by": t.shared_by,
                        "at": t.at.to_string(),
                    })
                })
                .collect();
            let json =
                serde_json::to_string_pretty(&json).map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", crate::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text if templates.is_empty() => {
            writeln!(
                out,
                "the team shares no templates: `team template share NAME --body-file FILE`"
            )?;
        }
        TeamFormat::Text => {
            let now = Timestamp::now();
            for t in &templates {
                let first = t.body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                writeln!(
                    out,
                    "{}  subject: {}  shared by {} ({})\n    {}",
                    Clean::line(&t.name),
                    Clean::line(
                        t.subject
                            .as_deref()
                            .unwrap_or(feedback_mail::template::DEFAULT_SUBJECT)
                    ),
                    Clean::line(&t.shared_by),
                    team_sync::ago(now.as_second() - t.at.as_second()),
                    feedback_core::width::fit(Clean::line(first).as_str(), 72)
                )?;
            }
        }
    }
    Ok(())
}
