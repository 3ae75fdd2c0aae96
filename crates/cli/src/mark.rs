//! `feedback-inbox mark ID… --seen --star --done --snooze 2h --note TEXT`: the inbox's triage
//! keys for scripts. Each flag sets (not toggles) one part of the state, so running a command
//! twice leaves what running it once does. Every item must be in the local store (nothing is
//! written otherwise); all the changes are one transaction, committed before anything is
//! printed. With a team, done, snooze and the note go to the team's outbox in that
//! transaction, and are sent at once when the team's database answers (kept for the next
//! connection when it does not).

use std::io::Write;

use clap::Args as ClapArgs;
use jiff::Timestamp;
use serde::Serialize;

use super::CliError;
use super::output::TeamFormat;
use crate::context::Context;
use feedback_core::text::Clean;
use feedback_store::{Triage, TriageChange};

#[derive(Debug, Clone, ClapArgs)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "each flag is one of the command's switches, as clap reads them"
)]
#[command(group(
    clap::ArgGroup::new("change")
        .required(true)
        .multiple(true)
        .args(["seen", "unseen", "star", "unstar", "done", "undone", "snooze", "wake", "note"])
))]
pub struct MarkArgs {
    /// The items' ids (`-` reads them from stdin, one a line).
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// Mark seen.
    #[arg(long, conflicts_with = "unseen")]
    pub seen: bool,
    /// Mark unseen.
    #[arg(long)]
    pub unseen: bool,
    /// Star.
    #[arg(long, conflicts_with = "unstar")]
    pub star: bool,
    /// Remove the star.
    #[arg(long)]
    pub unstar: bool,
    /// Mark done.
    #[arg(long, conflicts_with = "undone")]
    pub done: bool,
    /// Mark not done.
    #[arg(long)]
    pub undone: bool,
    /// Snooze for this long: 45m, 2h, 3d, 1w (a minute to a year).
    #[arg(long, value_name = "FOR", conflicts_with = "wake")]
    pub snooze: Option<String>,
    /// End a snooze.
    #[arg(long)]
    pub wake: bool,
    /// Set the note (an empty TEXT removes it; at most 16 KiB is kept).
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

impl MarkArgs {
    /// The changes the flags ask for, in a fixed order; a bad `--snooze` is a usage error.
    pub fn changes(&self, now: Timestamp) -> Result<Vec<TriageChange>, CliError> {
        let mut changes = Vec::new();
        let flag = |on: bool, off: bool| (on || off).then_some(on);
        if let Some(on) = flag(self.seen, self.unseen) {
            changes.push(TriageChange::Seen(on));
        }
        if let Some(on) = flag(self.star, self.unstar) {
            changes.push(TriageChange::Starred(on));
        }
        if let Some(on) = flag(self.done, self.undone) {
            changes.push(TriageChange::Done(on));
        }
        if let Some(length) = &self.snooze {
            let length = feedback_core::timefmt::snooze_length(length)
                .map_err(|e| CliError::Usage(format!("--snooze: {e}")))?;
            let until = now
                .checked_add(length)
                .map_err(|e| CliError::Usage(format!("--snooze: {e}")))?;
            changes.push(TriageChange::Snooze(Some(until)));
        } else if self.wake {
            changes.push(TriageChange::Snooze(None));
        }
        if let Some(note) = &self.note {
            let (kept, cut) = feedback_store::capped_note(note);
            if cut {
                eprintln!("warning: --note: only the first 16 KiB kept");
            }
            changes.push(TriageChange::Note(Some(kept.to_owned())));
        }
        Ok(changes)
    }
}

/// One item's state after the command, as printed.
#[derive(Debug, Serialize)]
struct Marked {
    id: String,
    seen: bool,
    starred: bool,
    done: bool,
    snoozed_until: Option<Timestamp>,
    note: Option<String>,
}

/// Runs `mark`.
pub async fn run(args: &Context, mark: &MarkArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let now = Timestamp::now();
    let changes = mark.changes(now)?;
    let store = crate::context::store::open_store(args)?.ok_or_else(|| {
        CliError::Usage("mark keeps what it does in the local store: drop --no-store".to_owned())
    })?;
    let store = feedback_store::Shared::new(store)?;
    let given = crate::ids_arg::expand(&mark.ids)?;
    let ids: Vec<&str> = given.iter().map(String::as_str).collect();
    crate::context::store::require_stored(&store, &ids)?;
    let team = crate::context::team::configured(args)?;
    let member = team
        .as_ref()
        .and_then(|(_, url)| url.role())
        .map(str::to_owned);
    let each: Vec<(String, TriageChange)> = given
        .iter()
        .flat_map(|id| changes.iter().map(move |c| (id.clone(), c.clone())))
        .collect();
    let share = feedback_team_sync::triage_outbox(member.as_deref(), &each, now);
    let after = store.write(|s| {
        s.set_triage_each_shared(&each, now, &share)?;
        s.triage_of(&ids)
    })?;
    let marked: Vec<Marked> = given
        .iter()
        .map(|id| marked(id, after.get(id).cloned().unwrap_or_default(), now))
        .collect();
    write(&marked, mark.format, out)?;
    if let (Some((settings, url)), false) = (&team, share.is_empty()) {
        // The marks are kept whatever happens now: a failure to share them says so.
        match crate::context::team::connected_for(url, settings, &store, &given).await {
            Ok((Some(_), _)) => {}
            Ok((None, _)) => eprintln!("{}", crate::context::team::waiting(&store)?),
            Err(error) => return Err(crate::context::team::kept_after(&error, &store)),
        }
    }
    Ok(())
}

fn marked(id: &str, triage: Triage, now: Timestamp) -> Marked {
    Marked {
        id: id.to_owned(),
        seen: triage.seen,
        starred: triage.starred,
        done: triage.done,
        snoozed_until: triage.snoozed_until.filter(|until| *until > now),
        note: triage.note,
    }
}

fn write(marked: &[Marked], format: TeamFormat, out: &mut dyn Write) -> Result<(), CliError> {
    match format {
        TeamFormat::Json => {
            let json = serde_json::to_string_pretty(marked)?;
            writeln!(out, "{}", crate::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            for m in marked {
                let mut words = vec![if m.seen { "seen" } else { "unseen" }.to_owned()];
                if m.starred {
                    words.push("starred".to_owned());
                }
                if m.done {
                    words.push("done".to_owned());
                }
                if let Some(until) = m.snoozed_until {
                    words.push(format!(
                        "snoozed until {}",
                        crate::output::short_time(until)
                    ));
                }
                if let Some(note) = &m.note {
                    words.push(format!(
                        "note: {}",
                        Clean::line(crate::output::first_line(note))
                    ));
                }
                writeln!(out, "{}  {}", Clean::line(&m.id), words.join("  "))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use clap::Parser;

    use super::*;

    fn parse(words: &[&str]) -> Result<MarkArgs, clap::Error> {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            mark: MarkArgs,
        }
        let argv = std::iter::once("mark").chain(words.iter().copied());
        Cli::try_parse_from(argv).map(|c| c.mark)
    }

    #[test]
    fn flags_set_each_part_once_and_a_change_is_required() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let args = parse(&["fb_1", "fb_2", "--seen", "--star", "--snooze", "2h"]).unwrap();
        assert_eq!(args.ids, ["fb_1", "fb_2"]);
        assert_eq!(
            args.changes(now).unwrap(),
            [
                TriageChange::Seen(true),
                TriageChange::Starred(true),
                TriageChange::Snooze(Some("2026-11-20T14:00:00Z".parse().unwrap())),
            ]
        );
        let args = parse(&["fb_1", "--undone", "--wake", "--note", ""]).unwrap();
        assert_eq!(
            args.changes(now).unwrap(),
            [
                TriageChange::Done(false),
                TriageChange::Snooze(None),
                TriageChange::Note(Some(String::new())),
            ]
        );
        assert!(parse(&["fb_1"]).is_err(), "no change");
        assert!(parse(&["--seen"]).is_err(), "no id");
        assert!(parse(&["fb_1", "--seen", "--unseen"]).is_err());
        assert!(parse(&["fb_1", "--snooze", "2h", "--wake"]).is_err());
        let bad = parse(&["fb_1", "--snooze", "2y"]).unwrap().changes(now);
        assert!(matches!(bad, Err(CliError::Usage(m)) if m.contains("bad duration")));
    }
}
