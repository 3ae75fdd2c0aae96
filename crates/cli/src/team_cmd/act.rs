//! The triage commands scripts use: `claim`, `unclaim`, `assign ID… --to MEMBER`, `label ID…
//! +x -y`, `link ID… URL [--title TEXT]`, `unlink ID… URL`. Each item's change is recorded in
//! the store's outbox first, so one made while the team's database is away is kept and sent at
//! the next connection; each item is reported (`done`, `lost` with why, or `pending`), and a
//! claim someone else won makes the command fail. Links are kept in the store itself when no
//! team is configured (each item reported `done`).

use std::ffi::OsString;
use std::io::Write;

use clap::Args as ClapArgs;
use jiff::Timestamp;

use crate::CliError;
use crate::context::Context;
use crate::context::team::{connected_for, settings, store};
use crate::output::TeamFormat;
use feedback_core::link::Link;
use feedback_core::text::Clean;
use feedback_team::Change;
use feedback_team::labels::LabelChanges;
use feedback_team_sync::{self as team_sync, Settled, SharedState};

/// `claim` and `unclaim`.
#[derive(Debug, Clone, ClapArgs)]
pub struct ItemsArgs {
    /// The items' ids (`-` reads them from stdin, one a line).
    #[arg(required = true, value_name = "ID")]
    pub ids: Vec<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `assign ID… --to MEMBER`.
#[derive(Debug, Clone, ClapArgs)]
pub struct AssignArgs {
    /// The items' ids (`-` reads them from stdin, one a line).
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
    /// Item ids (`-` reads them from stdin, one a line) and the labels to add (`+name`) and
    /// remove (`-name`; `--` first for one named like a flag, such as `-h`).
    #[arg(required = true, value_name = "ID|+LABEL|-LABEL")]
    pub words: Vec<String>,
    /// The labels to remove: `-name` words, spelled as this option by [`label_removals`] before
    /// the command line is parsed.
    #[arg(long = REMOVE, hide = true, value_name = "LABEL")]
    pub remove: Vec<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `link ID… URL [--title TEXT]`.
#[derive(Debug, Clone, ClapArgs)]
pub struct LinkArgs {
    /// The items' ids (`-` reads them from stdin, one a line), then the address (http or
    /// https) of what was made from them.
    #[arg(required = true, num_args = 2.., value_name = "ID… URL")]
    pub words: Vec<String>,
    /// The link's title (one line, at most 200 characters).
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// `unlink ID… URL`.
#[derive(Debug, Clone, ClapArgs)]
pub struct UnlinkArgs {
    /// The items' ids (`-` reads them from stdin, one a line), then the address of the link to
    /// remove.
    #[arg(required = true, num_args = 2.., value_name = "ID… URL")]
    pub words: Vec<String>,
    #[arg(long, value_enum, default_value_t = TeamFormat::Text)]
    pub format: TeamFormat,
}

/// The hidden option `label`'s `-name` words become.
const REMOVE: &str = "remove-label";

/// The command line with each `-name` word of `label` written as `--remove-label=name`, so that
/// flags parse as flags wherever they stand: a word that starts with `-` cannot otherwise be both
/// a value and followed by options (clap reads every word after such a value as another value).
/// Values of options that take one, `-h`, and every word after `--` stay as they are.
/// `top` is the program's command line definition.
pub fn label_removals(
    top: &clap::Command,
    argv: impl IntoIterator<Item = OsString>,
) -> Vec<OsString> {
    let argv: Vec<OsString> = argv.into_iter().collect();
    let Some(at) = subcommand_at(top, &argv) else {
        return argv;
    };
    let Some(label) = top
        .get_subcommands()
        .find(|c| c.get_name() == "label" && argv[at] == *c.get_name())
    else {
        return argv;
    };
    let takes_value = |word: &str| {
        let Some(name) = word.strip_prefix("--").filter(|n| !n.contains('=')) else {
            return false;
        };
        [top, label]
            .iter()
            .flat_map(|c| c.get_arguments())
            .any(|a| a.get_long() == Some(name) && a.get_action().takes_values())
    };
    let mut out = argv[..=at].to_vec();
    let mut rest = argv[at + 1..].iter();
    while let Some(word) = rest.next() {
        let text = word.to_str().unwrap_or_default();
        if text == "--" {
            out.push(word.clone());
            out.extend(rest.cloned());
            break;
        }
        if takes_value(text) {
            out.push(word.clone());
            out.extend(rest.next().cloned());
        } else if let Some(name) = text
            .strip_prefix('-')
            .filter(|n| !n.is_empty() && !n.starts_with('-') && *n != "h")
        {
            out.push(format!("--{REMOVE}={name}").into());
        } else {
            out.push(word.clone());
        }
    }
    out
}

/// Where the subcommand's name stands in `argv`: the first word that is neither an option nor
/// the value of one (`--store PATH label …`).
fn subcommand_at(top: &clap::Command, argv: &[OsString]) -> Option<usize> {
    let mut at = 1;
    while let Some(word) = argv.get(at).and_then(|w| w.to_str()) {
        if word == "--" {
            return None;
        }
        if let Some(name) = word.strip_prefix("--") {
            let takes_value = !name.contains('=')
                && top
                    .get_arguments()
                    .any(|a| a.get_long() == Some(name) && a.get_action().takes_values());
            at += if takes_value { 2 } else { 1 };
        } else if word.starts_with('-') {
            at += 1;
        } else {
            return Some(at);
        }
    }
    None
}

/// Which triage command.
#[derive(Debug, Clone, Copy)]
pub enum Act<'a> {
    Claim(&'a ItemsArgs),
    Unclaim(&'a ItemsArgs),
    Assign(&'a AssignArgs),
    Label(&'a LabelArgs),
    Link(&'a LinkArgs),
    Unlink(&'a UnlinkArgs),
}

/// `claim`, `unclaim`, `assign`, `label`: each item's change recorded, sent, and reported.
pub async fn act(args: &Context, act: Act<'_>, out: &mut dyn Write) -> Result<(), CliError> {
    let (ids, format) = match act {
        Act::Claim(a) | Act::Unclaim(a) => (a.ids.clone(), a.format),
        Act::Assign(a) => (a.ids.clone(), a.format),
        Act::Label(a) => (label_words(a)?.other, a.format),
        Act::Link(a) => (link_words(&a.words, a.title.as_deref())?.0, a.format),
        Act::Unlink(a) => (link_words(&a.words, None)?.0, a.format),
    };
    let ids = crate::ids_arg::expand(&ids)?;
    let links = matches!(act, Act::Link(_) | Act::Unlink(_));
    let team = if links {
        crate::context::team::configured(args)?
    } else {
        Some(settings(args)?)
    };
    let store = store(args)?;
    let named: Vec<&str> = ids.iter().map(String::as_str).collect();
    crate::context::store::require_stored(&store, &named)?;
    let Some((settings, url)) = team else {
        return keep_here(&store, act, &ids, format, out).await;
    };
    let me = url.role().unwrap_or_default().to_owned();
    let seen = team_sync::shared_states(&store, ids.clone()).await?;
    let changes: Vec<(String, Change)> = seen
        .iter()
        .map(|state| Ok((state.item_id.clone(), change_for(act, state, &me)?)))
        .collect::<Result<_, CliError>>()?;
    let event_ids = team_sync::record(&store, &me, &changes, Timestamp::now()).await?;
    // From here on the changes are kept: a failure to send them or to store the team's answer
    // (a full disk) is said with what was kept, never as though nothing had happened.
    let (team, sent, failed) = match connected_for(&url, &settings, &store, &ids).await {
        Ok((team, sent)) => (team, sent, None),
        Err(error) => (None, team_sync::Sent::default(), Some(error)),
    };
    let after = team_sync::shared_states(&store, ids.clone()).await?;
    let mut reports = Vec::new();
    for ((event_id, state), (item_id, _)) in event_ids.iter().zip(&after).zip(&changes) {
        let outcome = sent
            .settled
            .iter()
            .find(|(id, _, _)| id == event_id)
            .map(|(_, _, settled)| settled.clone());
        let (word, why) = match outcome {
            Some(Settled::Applied) => ("done", None),
            Some(Settled::Lost(why)) => ("lost", Some(why)),
            None => ("pending", None),
        };
        reports.push(Report {
            id: item_id.clone(),
            outcome: word,
            why,
            state: state.clone(),
        });
    }
    write_reports(&reports, format, true, out)?;
    if let Some(error) = failed {
        return Err(crate::context::team::kept_after(&error, &store));
    }
    if team.is_none() {
        eprintln!("{}", crate::context::team::waiting(&store)?);
    }
    if reports.iter().any(|r| r.why.is_some()) {
        return Err(CliError::Other(lost_summary(&reports)));
    }
    Ok(())
}

/// `link` and `unlink` in a store in no team: kept in the store itself, each item `done`.
async fn keep_here(
    store: &feedback_store::Shared,
    act: Act<'_>,
    ids: &[String],
    format: TeamFormat,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let seen = team_sync::shared_states(store, ids.to_vec()).await?;
    let changes: Vec<(String, Change)> = seen
        .iter()
        .map(|state| Ok((state.item_id.clone(), change_for(act, state, "")?)))
        .collect::<Result<_, CliError>>()?;
    let now = Timestamp::now();
    store.write(|s| s.change_links(&changes, now))?;
    let after = team_sync::shared_states(store, ids.to_vec()).await?;
    let reports: Vec<Report> = after
        .into_iter()
        .map(|state| Report {
            id: state.item_id.clone(),
            outcome: "done",
            why: None,
            state,
        })
        .collect();
    write_reports(&reports, format, false, out)
}

/// `link`'s and `unlink`'s words: the item ids and the link (its URL the last word).
fn link_words(words: &[String], title: Option<&str>) -> Result<(Vec<String>, Link), CliError> {
    let Some((url, ids)) = words.split_last().filter(|(_, ids)| !ids.is_empty()) else {
        return Err(CliError::Usage(
            "link and unlink take item ids, then the link's address".to_owned(),
        ));
    };
    if let Some(other) = ids.iter().find(|id| Link::new(id, None).is_ok()) {
        return Err(CliError::Usage(format!(
            "one address per command, after the item ids: {}",
            Clean::line(other)
        )));
    }
    let link = Link::new(url, title).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok((ids.to_vec(), link))
}

/// The line a command with lost changes ends with: how many, and why when one reason holds for
/// all of them (each item's own reason is in its report).
fn lost_summary(reports: &[Report]) -> String {
    let whys: Vec<&str> = reports.iter().filter_map(|r| r.why.as_deref()).collect();
    let count = format!(
        "{} of {} change(s) lost",
        feedback_core::text::output::thousands(whys.len()),
        feedback_core::text::output::thousands(reports.len())
    );
    match whys.split_first() {
        Some((first, rest)) if rest.iter().all(|why| why == first) => {
            format!("{count}: {}", Clean::line(first))
        }
        _ => format!("{count}, each for the reason its line gives"),
    }
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

/// Writes each item's report; `team`: the items' owners and labels are said too (a store in no
/// team has neither).
fn write_reports(
    reports: &[Report],
    format: TeamFormat,
    team: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    match format {
        TeamFormat::Json => {
            let json = serde_json::to_string_pretty(reports)
                .map_err(|e| CliError::Other(e.to_string()))?;
            writeln!(out, "{}", crate::output::terminal_safe_json(json))?;
        }
        TeamFormat::Text => {
            for r in reports {
                let owner = r
                    .state
                    .owner
                    .as_deref()
                    .map_or_else(|| Clean::fixed("unclaimed"), Clean::line);
                let labels = Clean::line(&r.state.labels.join(", "));
                write!(out, "{}  {}", Clean::line(&r.id), r.outcome)?;
                if team {
                    write!(out, "  owner: {owner}")?;
                }
                if !labels.is_empty() {
                    write!(out, "  labels: {labels}")?;
                }
                let links: Vec<Clean> = r.state.links.iter().map(|l| l.link.short_name()).collect();
                if !links.is_empty() {
                    write!(out, "  links: {}", Clean::join(&links, ", "))?;
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
            let LabelChanges { add, remove, .. } = label_words(a)?;
            Change::Labels { add, remove }
        }
        Act::Link(a) => Change::Link(link_words(&a.words, a.title.as_deref())?.1),
        Act::Unlink(a) => Change::Unlink {
            url: link_words(&a.words, None)?.1.url().to_owned(),
        },
    })
}

/// `label`'s words: the item ids, the labels to add (`+x`) and to remove (`-x`).
fn label_words(args: &LabelArgs) -> Result<LabelChanges, CliError> {
    let removals = args.remove.iter().map(|name| format!("-{name}"));
    let words: Vec<String> = args.words.iter().cloned().chain(removals).collect();
    let changes =
        feedback_team::labels::parse(words.iter().map(String::as_str)).map_err(CliError::Usage)?;
    if changes.other.is_empty() || (changes.add.is_empty() && changes.remove.is_empty()) {
        return Err(CliError::Usage(
            "label takes item ids and at least one +label or -label".to_owned(),
        ));
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::Command;

    fn label(words: &[&str]) -> Result<LabelArgs, clap::Error> {
        let argv = std::iter::once("feedback-inbox")
            .chain(words.iter().copied())
            .map(OsString::from);
        let parsed = crate::Args::try_parse_from(label_removals(&crate::command(), argv))?;
        match parsed.command {
            Some(Command::Label(label)) => Ok(label),
            other => panic!("not label: {other:?}"),
        }
    }

    fn words(argv: &[&str]) -> LabelChanges {
        label_words(&label(argv).unwrap()).unwrap()
    }

    #[test]
    fn label_words_split_ids_from_changes() {
        let LabelChanges { other, add, remove } = words(&["label", "fb_1", "+bug", "fb_2", "-ios"]);
        assert_eq!(other, ["fb_1", "fb_2"]);
        assert_eq!(add, ["bug"]);
        assert_eq!(remove, ["ios"]);
        assert!(label_words(&label(&["label", "fb_1"]).unwrap()).is_err());
        assert!(label_words(&label(&["label", "+x"]).unwrap()).is_err());
        assert!(label_words(&label(&["label", "fb_1", "+"]).unwrap()).is_err());
    }

    #[test]
    fn flags_parse_as_flags_wherever_they_stand() {
        let args = label(&["label", "id1", "+wontfix", "--format", "json"]).unwrap();
        assert_eq!(args.format, TeamFormat::Json);
        assert_eq!(args.words, ["id1", "+wontfix"]);
        let args = label(&["label", "--format", "json", "id1", "--", "+x"]).unwrap();
        assert_eq!(args.format, TeamFormat::Json);
        assert_eq!(args.words, ["id1", "+x"]);
        let args = label(&["--store", "s.db", "label", "id1", "-old", "--format=json"]).unwrap();
        assert_eq!(args.format, TeamFormat::Json);
        let changes = label_words(&args).unwrap();
        assert_eq!(
            (changes.other, changes.remove),
            (vec!["id1".to_owned()], vec!["old".to_owned()])
        );
        // After `--` a word named like a flag is a label, and is removed as `-name` says.
        let changes = words(&["label", "id1", "--", "-h", "--format"]);
        assert_eq!(changes.remove, ["h", "-format"]);
        // An unknown flag is an error, never a label.
        assert!(label(&["label", "id1", "+x", "--formt", "json"]).is_err());
    }

    #[test]
    fn other_commands_are_left_alone() {
        let argv: Vec<OsString> = ["feedback-inbox", "search", "-x", "label", "-y"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(label_removals(&crate::command(), argv.clone()), argv);
    }
}
