//! The run's team: its settings (`FEEDBACK_TEAM_URL` or `[team]`), the inbox's live link to it,
//! and the connection every team command catches up through (the outbox sent, the replica read),
//! answering from the store when the database cannot be reached.

use jiff::Timestamp;

use super::Context;
use crate::CliError;
use feedback_config::team::{TeamSettings, resolve};
use feedback_core::text::Clean;
use feedback_store::{self as store, Shared, Store};
use feedback_team::{self as team, Team, TeamUrl};
use feedback_team_sync as team_sync;
use feedback_team_sync::live::LiveSettings;

/// The team settings of this command line; a usage error when no team is configured.
pub(crate) fn settings(args: &Context) -> Result<(TeamSettings, TeamUrl), CliError> {
    configured(args)?.ok_or_else(|| {
        let hint = crate::config_path(args)
            .0
            .map_or_else(|| "config.toml".to_owned(), |p| p.display().to_string());
        CliError::Usage(format!(
            "no team configured: set {} or [team] url in {hint}",
            feedback_config::team::ENV_TEAM_URL
        ))
    })
}

/// The team settings of this command line, `None` when no team is configured.
pub(crate) fn configured(args: &Context) -> Result<Option<(TeamSettings, TeamUrl)>, CliError> {
    let loaded = args.config()?;
    let hint = crate::config_path(args)
        .0
        .map_or_else(|| "config.toml".to_owned(), |p| p.display().to_string());
    let env = |name: &str| std::env::var(name).ok();
    let config = loaded.as_ref().and_then(|l| l.file.team.as_ref());
    let Some(settings) = resolve(config, &env, &hint)? else {
        return Ok(None);
    };
    let url: TeamUrl = settings
        .url
        .expose()
        .parse()
        .map_err(|e: team::TeamError| CliError::Usage(format!("{e} (from {})", settings.origin)))?;
    Ok(Some((settings, url)))
}

/// How often the inbox reads the team without a hint (`NOTIFY` may not arrive: a pooler).
pub(crate) const POLL: std::time::Duration = std::time::Duration::from_secs(15);

/// The inbox's live link to the team of this command line, `None` without a team.
pub(crate) fn live_settings(args: &Context) -> Result<Option<LiveSettings>, CliError> {
    Ok(configured(args)?.map(|(settings, url)| LiveSettings {
        url,
        team: settings.team,
        poll: POLL,
        listen: true,
        retry: std::time::Duration::from_secs(2),
        clock: feedback_core::clock::system(),
    }))
}

/// The store this command line names, shared; a usage error with `--no-store`.
pub(crate) fn store(args: &Context) -> Result<Shared, CliError> {
    let store = super::store::open_store(args)?.ok_or_else(|| {
        CliError::Usage(
            "the team's commands keep what they do in the local store: drop --no-store".to_owned(),
        )
    })?;
    Ok(Shared::new(store)?)
}

/// How long a command waits for the team's database before answering from the store.
const CONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Before a command reads triage state from the store (`search`, `stats`): with a team
/// configured, what waits in the outbox is sent and the replica caught up. When the database
/// cannot be reached (or refuses), it is said on stderr and the command answers from what is
/// stored.
pub(crate) async fn catch_up_before_reading(
    args: &Context,
    store: &Shared,
) -> Result<(), CliError> {
    let Some((settings, url)) = configured(args)? else {
        return Ok(());
    };
    if let Err(error) = connected(&url, &settings, store).await {
        eprintln!(
            "warning: the team's state could not be brought up to date ({error}); answering from the local store"
        );
    }
    Ok(())
}

/// How long a command sends changes other than its own before it answers: the rest waits
/// for the inbox or the next command, so a long outbox never holds a command up.
const SEND_BUDGET: std::time::Duration = std::time::Duration::from_secs(3);

/// A connection to the team with the store's replica caught up (the outbox sent first);
/// `None`, said on stderr, when the database cannot be reached.
pub(crate) async fn connected(
    url: &TeamUrl,
    settings: &TeamSettings,
    store: &Shared,
) -> Result<(Option<Team>, team_sync::Sent), CliError> {
    connected_for(url, settings, store, &[]).await
}

/// [`connected`] by a command that changed `own` items: their changes are sent first, then
/// the others for up to [`SEND_BUDGET`].
pub(crate) async fn connected_for(
    url: &TeamUrl,
    settings: &TeamSettings,
    store: &Shared,
    own: &[String],
) -> Result<(Option<Team>, team_sync::Sent), CliError> {
    let opened = tokio::time::timeout(CONNECT_WAIT, Team::open(url, settings.team.as_deref()))
        .await
        .unwrap_or(Err(team::TeamError::Gone));
    let team = match opened {
        Ok(team) => team,
        Err(error) if error.is_unreachable() => {
            eprintln!(
                "warning: cannot reach the team database {} ({error}); answering from the local store",
                Clean::line(&url.describe())
            );
            return Ok((None, team_sync::Sent::default()));
        }
        Err(error) => return Err(error.into()),
    };
    if let Some(rebuilt) = team_sync::join(&team, store).await? {
        eprintln!("{}", read_again(&rebuilt, store)?);
    }
    let until = tokio::time::Instant::now() + SEND_BUDGET;
    let sending = team_sync::Sending::Own(own, until);
    let sent = team_sync::send_some(&team, store, sending, Timestamp::now).await?;
    if sent.pending > 0 {
        eprintln!(
            "note: {} older change(s) still wait in the outbox: the inbox or the next command sends them",
            feedback_core::text::output::thousands(sent.pending)
        );
    }
    match team_sync::catch_up(&team, store, Timestamp::now).await {
        Ok(caught_up) => {
            if let Some(rebuilt) = &caught_up.rebuilt {
                eprintln!("{}", read_again(rebuilt, store)?);
            }
        }
        Err(error) if error.is_unreachable() => {
            eprintln!(
                "warning: the team database went away ({error}); answering from the local store"
            );
            return Ok((None, sent));
        }
        Err(error) => return Err(error.into()),
    }
    // The team's shared templates, for `reply --template` and the inbox offline.
    if let Err(error) = team_sync::templates::refresh(&team, store).await {
        eprintln!("warning: the team's templates could not be read ({error})");
    }
    Ok((Some(team), sent))
}

/// The warning for a replica read again from the team's database.
fn read_again(rebuilt: &store::Rebuilt, store: &Shared) -> Result<String, CliError> {
    let pending = store.read(Store::team_outbox_len)?;
    Ok(format!(
        "warning: {}: this store's copy of the team's state was read again from it; its own {} \
         change(s) waiting to be sent are kept",
        rebuilt.describe(),
        feedback_core::text::output::thousands(pending)
    ))
}

/// "N change(s) wait in the outbox: …", said when the team could not be reached.
pub(crate) fn waiting(store: &Shared) -> Result<String, CliError> {
    let pending = store.read(Store::team_outbox_len)?;
    Ok(format!(
        "{} change(s) wait in the outbox: they are sent at the next connection",
        feedback_core::text::output::thousands(pending)
    ))
}

/// The error of a command whose changes were kept in the store before `error` stopped it from
/// sending them or from storing the team's answer (a full disk): what failed, and what was
/// kept and waits to be sent (each change is applied once however often it is sent).
pub(crate) fn kept_after(error: &CliError, store: &Shared) -> CliError {
    let kept = match store.read(Store::team_outbox_len) {
        Ok(0) => "the changes were kept in the local store and sent".to_owned(),
        Ok(pending) => format!(
            "the changes were kept in the local store: {} wait in its outbox and are sent at \
             the next connection",
            feedback_core::text::output::thousands(pending)
        ),
        Err(_) => "the changes were kept in the local store's outbox and are sent at the next \
             connection"
            .to_owned(),
    };
    CliError::Other(format!("{error}; {kept}"))
}
