//! `feedback-inbox reply ID… (--body-file FILE | --template NAME) [--subject TEXT] [--dry-run]
//! [--yes]`: one reply per distinct reporter of the items (`-` reads ids from stdin), composed
//! from a template or a file with the reporter's message quoted below, kept in the store's
//! outbox before anything leaves, then sent by `[mail]` (paced) and reported: what was sent,
//! to how many, what was skipped (no address, or not one), and what was not sent, and why.
//! `--send-waiting` sends what earlier sends left waiting (the server was away). Exit 0 when
//! every reply was sent, 1 naming those that were not, 2 for bad usage (nothing kept or sent).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args as ClapArgs;
use jiff::Timestamp;

use crate::CliError;
use crate::context::Context;
use crate::output::TeamFormat;
use feedback_config::mail::{MailSettings, Template};
use feedback_config::team::TeamSettings;
use feedback_core::text::Clean;
use feedback_mail::sender::{Outcome, Sending, send_waiting};
use feedback_mail::template::{self, Values};
use feedback_mail::transport::Mailer;
use feedback_store::{NewReply, ReplyState, Shared};
use feedback_team::TeamUrl;

/// The most of a body file read.
const BODY_MAX_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, ClapArgs)]
#[command(group(
    clap::ArgGroup::new("text").args(["body_file", "template"]).multiple(false)
))]
pub struct ReplyArgs {
    /// The items whose reporters to answer (`-`: read ids from stdin, one a line).
    #[arg(value_name = "ID", required_unless_present_any = ["send_waiting", "resend"])]
    pub ids: Vec<String>,
    /// The reply's text, from this file (UTF-8, at most 64 KiB).
    #[arg(long, value_name = "FILE", required_unless_present_any = ["template", "send_waiting", "resend"])]
    pub body_file: Option<PathBuf>,
    /// The reply's text from this `[[templates]]` entry (its name).
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// The subject (default: the template's, else "Re: your feedback on {app}").
    #[arg(long, value_name = "TEXT")]
    pub subject: Option<String>,
    /// Show what would be sent, and to whom; keep and send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Send without asking (needed when stdin is not a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Send the replies earlier sends left waiting (no ids).
    #[arg(long, conflicts_with_all = ["ids", "body_file", "template", "subject"])]
    pub send_waiting: bool,
    /// Send again a reply whose fate is unknown (its sender was killed mid-send) or that
    /// failed, by its id, once you checked it did not arrive.
    #[arg(long, value_name = "REPLY_ID", conflicts_with_all = ["ids", "body_file", "template", "subject", "send_waiting"])]
    pub resend: Option<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// An item no reply goes to: its id, and why.
type Skipped = (String, String);

/// One reply to be kept: to whom, about which items, and its text.
#[derive(Debug, Clone)]
struct Draft {
    to: String,
    item_ids: Vec<String>,
    subject: String,
    body: String,
}

/// `reply`.
pub async fn run(args: &Context, reply: &ReplyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let settings = mail_settings(args)?;
    let store = crate::context::team::store(args)?;
    // Read once (its URL may come from a command): the member who replies, and whom to tell.
    let team = crate::context::team::configured(args)?;
    if let Some(reply_id) = &reply.resend
        && !store.write(|s| s.reply_retry(reply_id))?
    {
        return Err(CliError::Usage(format!(
            "no reply {} whose fate is unknown or that failed",
            Clean::line(reply_id)
        )));
    }
    if reply.send_waiting || reply.resend.is_some() {
        let outcomes = send(team.as_ref(), &settings, &store).await?;
        report(&outcomes, &[], 0, reply.format, out)?;
        return unknown_said(&store);
    }
    let ids = crate::ids_arg::expand(&reply.ids)?;
    let named: Vec<&str> = ids.iter().map(String::as_str).collect();
    crate::context::store::require_stored(&store, &named)?;
    // The team's state (who answered whom) and shared templates, as they are now.
    crate::context::team::catch_up_before_reading(args, &store).await?;
    let text = reply_text(args, reply, &store)?;
    let member = team
        .as_ref()
        .and_then(|(_, url)| url.role().map(str::to_owned));
    let agent = member.clone().or_else(|| {
        feedback_mail::compose::from(&settings.from)
            .ok()
            .and_then(|m| m.name)
    });
    let (drafts, skipped) = drafts(
        &store,
        &ids,
        &text,
        reply.subject.as_deref(),
        agent.as_deref(),
    )?;
    if drafts.is_empty() {
        return Err(CliError::Other(format!(
            "nothing to send: none of the {} item(s) has a reporter's address",
            ids.len()
        )));
    }
    answered_said(&store, &drafts, member.as_deref(), Timestamp::now())?;
    if reply.dry_run {
        return dry_run(&drafts, &skipped, &settings, out);
    }
    if !reply.yes {
        confirm(&drafts, &settings, reply.ids.iter().any(|i| i == "-"))?;
    }
    let batch = uuid::Uuid::new_v4().to_string();
    let replies: Vec<NewReply> = drafts
        .iter()
        .map(|d| NewReply {
            reply_id: uuid::Uuid::new_v4().to_string(),
            batch: batch.clone(),
            item_ids: d.item_ids.clone(),
            to: d.to.clone(),
            subject: d.subject.clone(),
            body: d.body.clone(),
            by: member.clone(),
        })
        .collect();
    store.write(|s| s.queue_replies(&replies, Timestamp::now()))?;
    let outcomes = send(team.as_ref(), &settings, &store).await?;
    let kept = store.read(|s| s.replies_of_batch(&batch))?;
    let not_sent: Vec<&feedback_store::Reply> = kept
        .iter()
        .filter(|r| r.state != ReplyState::Sent)
        .collect();
    report(&outcomes, &not_sent, skipped.len(), reply.format, out)?;
    unknown_said(&store)?;
    if not_sent.is_empty() {
        return Ok(());
    }
    let addresses: Vec<String> = not_sent
        .iter()
        .map(|r| Clean::line(&r.to).to_string())
        .collect();
    Err(CliError::Other(format!(
        "{} of {} replies not sent: {}",
        not_sent.len(),
        kept.len(),
        addresses.join(", ")
    )))
}

/// `[mail]`, for a command that sends.
fn mail_settings(args: &Context) -> Result<MailSettings, CliError> {
    let loaded = args.config()?;
    let settings = MailSettings::from_config(loaded.and_then(|l| l.file.mail.as_ref()))?;
    match settings {
        Some(settings) if settings.via == feedback_config::mail::Via::Mailto => Err(CliError::Usage(
            "[mail] mailto hands replies to the desktop's mail client, from the inbox; `reply` needs smtp_url or sendmail".to_owned(),
        )),
        Some(settings) => Ok(settings),
        None => Err(CliError::Usage(
            "no [mail] in config.toml: set from and smtp_url (or sendmail) to send replies".to_owned(),
        )),
    }
}

/// A reply's text from `path`: UTF-8, at most [`BODY_MAX_BYTES`].
///
/// # Errors
/// The file cannot be read, is too long, or is not UTF-8 text.
pub(crate) fn body_file(path: &std::path::Path) -> Result<String, CliError> {
    let bytes =
        std::fs::read(path).map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    if bytes.len() > BODY_MAX_BYTES {
        return Err(CliError::Usage(format!(
            "{}: a reply is at most 64 KiB",
            path.display()
        )));
    }
    String::from_utf8(bytes)
        .map_err(|_| CliError::Usage(format!("{}: not UTF-8 text", path.display())))
}

/// The template (or the body file's text, as a template without a subject).
fn reply_text(args: &Context, reply: &ReplyArgs, store: &Shared) -> Result<Template, CliError> {
    if let Some(path) = &reply.body_file {
        let body = body_file(path)?;
        return Ok(Template {
            name: String::new(),
            subject: None,
            body,
            shared_by: None,
        });
    }
    let name = reply.template.as_deref().unwrap_or_default();
    let loaded = args.config()?;
    let mut all = feedback_config::mail::templates(
        loaded
            .map(|l| l.file.templates.as_slice())
            .unwrap_or_default(),
    )?;
    // The team's shared ones after this config's own (whose name wins).
    all.extend(
        store
            .read(feedback_store::Store::team_templates)?
            .into_iter()
            .map(|t| Template {
                name: t.name,
                subject: t.subject,
                body: t.body,
                shared_by: Some(t.shared_by),
            }),
    );
    all.iter()
        .find(|t| t.name.trim().eq_ignore_ascii_case(name.trim()))
        .cloned()
        .ok_or_else(|| {
            let names: Vec<String> = all
                .iter()
                .map(|t| Clean::line(&t.name).to_string())
                .collect();
            CliError::Usage(format!(
                "no template named \"{}\" (in config.toml and the team's: {})",
                Clean::line(name),
                if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                }
            ))
        })
}

/// One draft per distinct reporter (their first item the one it is about), and the items
/// skipped with why.
fn drafts(
    store: &Shared,
    ids: &[String],
    text: &Template,
    subject: Option<&str>,
    agent: Option<&str>,
) -> Result<(Vec<Draft>, Vec<Skipped>), CliError> {
    let links = store.read(|s| feedback_team_sync::links_now(s, ids))?;
    let mut by_address: BTreeMap<String, usize> = BTreeMap::new();
    let mut drafts: Vec<Draft> = Vec::new();
    let mut skipped = Vec::new();
    for id in ids {
        let Some(detail) = store.read(|s| s.detail(id))? else {
            skipped.push((id.clone(), "no longer stored".to_owned()));
            continue;
        };
        let item = &detail.item.feedback;
        let Some(email) = item
            .reporter_email
            .as_deref()
            .filter(|e| !e.trim().is_empty())
        else {
            skipped.push((id.clone(), "no reporter's address".to_owned()));
            continue;
        };
        let to = match feedback_mail::compose::reporter(email) {
            Ok(to) => to.to_string(),
            Err(why) => {
                skipped.push((id.clone(), why.to_string()));
                continue;
            }
        };
        if let Some(&at) = by_address.get(&to.to_lowercase()) {
            drafts[at].item_ids.push(id.clone());
            continue;
        }
        let values = Values {
            app: item.app.as_ref().map(|a| a.name.clone()),
            version: detail.metadata.built_in.get("appVersion").cloned(),
            ticket: links
                .get(id)
                .and_then(|l| l.iter().max_by_key(|l| l.at))
                .map(|l| l.link.url().to_owned()),
            agent: agent.map(str::to_owned),
            id: id.clone(),
            project: Some(item.project.name.clone()),
        };
        let fill = |t: &str| template::fill(t, &values).map_err(|e| CliError::Usage(e.to_string()));
        let subject = fill(
            subject
                .or(text.subject.as_deref())
                .unwrap_or(template::DEFAULT_SUBJECT),
        )?;
        let subject = feedback_mail::compose::subject(&subject)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        let written = item.received_at.strftime("%Y-%m-%d").to_string();
        let body = template::with_quote(&fill(&text.body)?, &item.message, &written);
        by_address.insert(to.to_lowercase(), drafts.len());
        drafts.push(Draft {
            to,
            item_ids: vec![id.clone()],
            subject,
            body,
        });
    }
    Ok((drafts, skipped))
}

/// Says on stderr, before anything is sent, which of these reporters a teammate (anyone but
/// `member`) answered in the last day, as the inbox's `R` does.
fn answered_said(
    store: &Shared,
    drafts: &[Draft],
    member: Option<&str>,
    now: Timestamp,
) -> Result<(), CliError> {
    let ids: Vec<String> = drafts.iter().flat_map(|d| d.item_ids.clone()).collect();
    let states = store.read(|s| feedback_team_sync::states_now(s, &ids))?;
    let day_ago = now - jiff::SignedDuration::from_hours(24);
    for reply in states.iter().flat_map(|s| &s.replies) {
        let theirs = reply.by.as_deref().is_some_and(|by| Some(by) != member);
        if theirs && reply.state == "sent" && reply.at > day_ago {
            eprintln!(
                "warning: {} replied to {} {} ago: {}",
                Clean::line(reply.by.as_deref().unwrap_or_default()),
                Clean::line(&reply.to),
                feedback_core::timefmt::age(now, reply.at),
                Clean::line(&reply.subject)
            );
        }
    }
    Ok(())
}

/// `--dry-run`: what would be sent, to whom; nothing kept.
fn dry_run(
    drafts: &[Draft],
    skipped: &[(String, String)],
    settings: &MailSettings,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    writeln!(
        out,
        "Would send {} from {}:",
        counted(drafts.len(), "reply", "replies"),
        Clean::line(&settings.from)
    )?;
    for d in drafts {
        writeln!(
            out,
            "  to {}  ({})  {}",
            Clean::line(&d.to),
            Clean::line(&d.item_ids.join(", ")),
            Clean::line(&d.subject)
        )?;
        for line in Clean::text(&d.body).lines().take(3) {
            writeln!(out, "    {line}")?;
        }
    }
    for (id, why) in skipped {
        writeln!(out, "  skip {}: {}", Clean::line(id), Clean::line(why))?;
    }
    writeln!(out, "Nothing was kept or sent (--dry-run).")?;
    Ok(())
}

/// Asks on the terminal before sending; refuses when there is none to ask on.
fn confirm(drafts: &[Draft], settings: &MailSettings, ids_on_stdin: bool) -> Result<(), CliError> {
    if ids_on_stdin || !std::io::stdin().is_terminal() {
        return Err(CliError::Usage(
            "reply sends mail: give --yes to send without asking (or --dry-run to look first)"
                .to_owned(),
        ));
    }
    let first: Vec<String> = drafts
        .iter()
        .take(3)
        .map(|d| Clean::line(&d.to).to_string())
        .collect();
    let more = drafts.len().saturating_sub(3);
    let to = if more > 0 {
        format!("{} and {more} more", first.join(", "))
    } else {
        first.join(", ")
    };
    eprint!(
        "Send {} from {} to {to}? [y/N] ",
        counted(drafts.len(), "reply", "replies"),
        Clean::line(&settings.from)
    );
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    if answer.trim().eq_ignore_ascii_case("y") || answer.trim().eq_ignore_ascii_case("yes") {
        Ok(())
    } else {
        Err(CliError::Usage("not sent".to_owned()))
    }
}

/// Says on stderr which replies may or may not have left (their sender was killed between
/// handing them over and recording the answer): never sent again on their own.
fn unknown_said(store: &Shared) -> Result<(), CliError> {
    let unknown = store.read(|s| s.replies_in(ReplyState::Unknown))?;
    for r in unknown.iter().take(5) {
        eprintln!(
            "warning: reply {} to {} may or may not have left (its sender ended mid-send): check the mail server's log or ask the reporter; `reply --resend {}` sends it again",
            Clean::line(&r.reply_id),
            Clean::line(&r.to),
            Clean::line(&r.reply_id)
        );
    }
    if unknown.len() > 5 {
        eprintln!("warning: and {} more replies like it", unknown.len() - 5);
    }
    Ok(())
}

/// Sends what waits in the outbox; with a team, each sent reply is recorded for it (in the
/// transaction that marks it sent) and the team is told at once (or at the next connection).
async fn send(
    team: Option<&(TeamSettings, TeamUrl)>,
    settings: &MailSettings,
    store: &Shared,
) -> Result<Vec<Outcome>, CliError> {
    let member = team
        .as_ref()
        .and_then(|(_, url)| url.role().map(str::to_owned));
    let share: Option<feedback_mail::sender::Sharing> = member.map(|member| {
        Box::new(move |reply: &feedback_store::Reply| {
            feedback_team_sync::reply_outbox(&member, reply, Timestamp::now())
        }) as feedback_mail::sender::Sharing
    });
    let sending = Sending {
        mailer: Mailer::new(settings).map_err(|e| CliError::Usage(e.to_string()))?,
        from: feedback_mail::compose::from(&settings.from)
            .map_err(|e| CliError::Usage(e.to_string()))?,
        per_minute: settings.per_minute,
        share,
    };
    let outcomes = send_waiting(store, &sending, &Timestamp::now)
        .await
        .map_err(|e| CliError::Other(e.to_string()))?;
    if let Some((settings, url)) = team {
        let items: Vec<String> = outcomes
            .iter()
            .filter(|o| o.state == ReplyState::Sent)
            .flat_map(|o| o.reply.item_ids.clone())
            .collect();
        if !items.is_empty()
            && let Err(error) =
                crate::context::team::connected_for(url, settings, store, &items).await
        {
            eprintln!(
                "warning: the team will hear of the replies at the next connection ({error})"
            );
        }
    }
    Ok(outcomes)
}

/// Each reply tried (sent, failed, waiting), those of this send not tried, and what was
/// skipped; text or JSON.
fn report(
    outcomes: &[Outcome],
    not_tried: &[&feedback_store::Reply],
    skipped: usize,
    format: TeamFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let word = |state: ReplyState| match state {
        ReplyState::Sent => "sent",
        ReplyState::Waiting => "waiting",
        ReplyState::Failed => "failed",
        ReplyState::Sending | ReplyState::Unknown => "unknown",
    };
    let tried: Vec<&str> = outcomes.iter().map(|o| o.reply.reply_id.as_str()).collect();
    let waiting = not_tried
        .iter()
        .filter(|r| !tried.contains(&r.reply_id.as_str()));
    match format {
        TeamFormat::Json => {
            let mut rows: Vec<serde_json::Value> = outcomes
                .iter()
                .map(|o| {
                    serde_json::json!({
                        "reply_id": o.reply.reply_id,
                        "to": o.reply.to,
                        "items": o.reply.item_ids,
                        "outcome": word(o.state),
                        "why": o.why,
                    })
                })
                .collect();
            rows.extend(waiting.map(|r| {
                serde_json::json!({
                    "reply_id": r.reply_id, "to": r.to, "items": r.item_ids,
                    "outcome": word(r.state), "why": r.why,
                })
            }));
            let json = serde_json::to_string_pretty(&serde_json::json!({
                "replies": rows,
                "skipped": skipped,
            }))
            .map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", crate::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            for o in outcomes {
                let why = o
                    .why
                    .as_deref()
                    .map(|w| format!(": {}", Clean::line(w)))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "{}  {}  ({}){why}",
                    word(o.state),
                    Clean::line(&o.reply.to),
                    Clean::line(&o.reply.item_ids.join(", "))
                )?;
            }
            for r in waiting {
                writeln!(
                    out,
                    "{}  {}  (not tried yet)",
                    word(r.state),
                    Clean::line(&r.to)
                )?;
            }
            let sent = outcomes
                .iter()
                .filter(|o| o.state == ReplyState::Sent)
                .count();
            let mut summary = format!("{} sent", counted(sent, "reply", "replies"));
            if skipped > 0 {
                let _ = write!(
                    summary,
                    ", {} skipped (no reporter's address)",
                    counted(skipped, "item", "items")
                );
            }
            writeln!(out, "{summary}")?;
        }
    }
    Ok(())
}

fn counted(n: usize, one: &str, many: &str) -> String {
    let n_text = feedback_core::text::output::thousands(n);
    format!("{n_text} {}", if n == 1 { one } else { many })
}
