//! The triage commands scripts use: `claim`, `unclaim`, `assign ID… --to MEMBER`, `label ID…
//! +x -y`. Each item's change is recorded in the store's outbox first, so one made while the
//! team's database is away is kept and sent at the next connection; each item is reported
//! (`done`, `lost` with why, or `pending`), and a claim someone else won makes the command fail.

use std::io::Write;

use clap::Args as ClapArgs;
use jiff::Timestamp;

use super::{TeamFormat, connected, settings, store};
use crate::cli::{Args, CliError};
use crate::team::Change;
use crate::team::labels::LabelChanges;
use crate::team_sync::{self, Settled, SharedState};
use crate::text::Clean;

/// `claim` and `unclaim`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ItemsArgs {
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `assign ID… --to MEMBER`.
#[derive(Debug, Clone, ClapArgs)]
pub struct AssignArgs {
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    /// The member to give the items to (`me` for yourself).
    #[arg(long, value_name = "MEMBER")]
    pub to: String,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `label ID… +x -y`.
#[derive(Debug, Clone, ClapArgs)]
pub struct LabelArgs {
    /// Item ids, then the labels to add (`+name`) and remove (`-name`).
    #[arg(
        required = true,
        value_name = "ID|+LABEL|-LABEL",
        allow_hyphen_values = true
    )]
    pub words: Vec<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// Which triage command.
#[derive(Debug, Clone, Copy)]
pub enum Act<'a> {
    Claim(&'a ItemsArgs),
    Unclaim(&'a ItemsArgs),
    Assign(&'a AssignArgs),
    Label(&'a LabelArgs),
}

/// `claim`, `unclaim`, `assign`, `label`: each item's change recorded, sent, and reported.
pub async fn act(args: &Args, act: Act<'_>, out: &mut dyn Write) -> Result<(), CliError> {
    let (settings, url) = settings(args)?;
    let store = store(args)?;
    let (ids, format) = match act {
        Act::Claim(a) | Act::Unclaim(a) => (a.ids.clone(), a.format),
        Act::Assign(a) => (a.ids.clone(), a.format),
        Act::Label(a) => (label_words(&a.words)?.other, a.format),
    };
    let me = url.role().unwrap_or_default().to_owned();
    let seen = team_sync::shared_states(&store, ids.clone()).await?;
    let changes: Vec<(String, Change)> = seen
        .iter()
        .map(|state| Ok((state.item_id.clone(), change_for(act, state, &me)?)))
        .collect::<Result<_, CliError>>()?;
    let event_ids = team_sync::record(&store, &me, &changes, Timestamp::now()).await?;
    let (team, sent) = connected(&url, &settings, &store).await?;
    let after = team_sync::shared_states(&store, ids.clone()).await?;
    let mut lost = 0;
    let mut reports = Vec::new();
    for ((event_id, state), (item_id, _)) in event_ids.iter().zip(&after).zip(&changes) {
        let outcome = sent
            .settled
            .iter()
            .find(|(id, _, _)| id == event_id)
            .map(|(_, _, settled)| settled.clone());
        let (word, why) = match outcome {
            Some(Settled::Applied) => ("done", None),
            Some(Settled::Lost(why)) => {
                lost += 1;
                ("lost", Some(why))
            }
            None => ("pending", None),
        };
        reports.push(Report {
            id: item_id.clone(),
            outcome: word,
            why,
            state: state.clone(),
        });
    }
    write_reports(&reports, format, out)?;
    if team.is_none() {
        let pending = store.read(|s| s.team_outbox().map(|o| o.len()))?;
        eprintln!("{pending} change(s) wait in the outbox: they are sent at the next connection");
    }
    if lost > 0 {
        return Err(CliError::Other(format!(
            "{lost} of {} change(s) lost: someone changed the item first",
            reports.len()
        )));
    }
    Ok(())
}

/// One item's report.
#[derive(Debug, serde::Serialize)]
struct Report {
    id: String,
    /// `done`, `lost` or `pending`.
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(flatten)]
    state: SharedState,
}

fn write_reports(
    reports: &[Report],
    format: TeamFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match format {
        TeamFormat::Json => {
            let json = serde_json::to_string_pretty(reports)
                .map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", crate::cli::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            for r in reports {
                let owner = r
                    .state
                    .owner
                    .as_deref()
                    .map_or_else(|| Clean::fixed("unclaimed"), Clean::line);
                let labels = Clean::line(&r.state.labels.join(", "));
                write!(out, "{}  {}  owner: {owner}", Clean::line(&r.id), r.outcome)?;
                if !labels.is_empty() {
                    write!(out, "  labels: {labels}")?;
                }
                if let Some(why) = &r.why {
                    write!(out, "  ({})", Clean::line(why))?;
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

/// The change `act` makes to an item whose state `state` shows.
fn change_for(act: Act<'_>, state: &SharedState, me: &str) -> Result<Change, CliError> {
    Ok(match act {
        Act::Claim(_) => Change::Claim,
        Act::Unclaim(_) => Change::Unclaim,
        Act::Assign(a) => Change::Assign {
            to: if a.to == "me" {
                me.to_owned()
            } else {
                a.to.clone()
            },
            from: state.owner.clone(),
        },
        Act::Label(a) => {
            let LabelChanges { add, remove, .. } = label_words(&a.words)?;
            Change::Labels { add, remove }
        }
    })
}

/// `label`'s words: the item ids, the labels to add (`+x`) and to remove (`-x`).
fn label_words(words: &[String]) -> Result<LabelChanges, CliError> {
    let changes =
        crate::team::labels::parse(words.iter().map(String::as_str)).map_err(CliError::Usage)?;
    if changes.other.is_empty() || (changes.add.is_empty() && changes.remove.is_empty()) {
        return Err(CliError::Usage(
            "label takes item ids and at least one +label or -label".to_owned(),
        ));
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_words_split_ids_from_changes() {
        let words: Vec<String> = ["fb_1", "+bug", "fb_2", "-ios"]
            .iter()
            .map(|w| (*w).to_owned())
            .collect();
        let LabelChanges { other, add, remove } = label_words(&words).unwrap();
        assert_eq!(other, ["fb_1", "fb_2"]);
        assert_eq!(add, ["bug"]);
        assert_eq!(remove, ["ios"]);
        assert!(label_words(&["fb_1".to_owned()]).is_err());
        assert!(label_words(&["+x".to_owned()]).is_err());
        assert!(label_words(&["fb_1".to_owned(), "+".to_owned()]).is_err());
    }
}
