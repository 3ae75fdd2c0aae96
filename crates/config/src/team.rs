//! `[team]`: the team's PostgreSQL database, where a support team shares triage state. The URL
//! comes from `FEEDBACK_TEAM_URL`, else `url_command` (its stdout, run like `api_key_command`),
//! else `url`; `team` names one team when the role is in several. The URL may hold a password:
//! it is kept in [`TeamUrlText`], whose `Debug` never shows it, and no error quotes it.

use serde::Deserialize;

use super::ConfigError;

pub use feedback_core::child_env::ENV_TEAM_URL;

/// The `[team]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TeamConfig {
    /// `postgres://ROLE@HOST/DATABASE` (or a `key=value` connection string).
    pub url: Option<String>,
    /// A command whose first line of output is the URL (a password manager).
    pub url_command: Option<String>,
    /// The team, when the role is in several.
    pub team: Option<String>,
}

/// The team URL's text, as configured: possibly with a password in it.
#[derive(Clone, PartialEq, Eq)]
pub struct TeamUrlText(String);

impl TeamUrlText {
    /// The text, for the one parser that takes it (never for a message).
    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for TeamUrlText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TeamUrlText(<redacted>)")
    }
}

/// Where the team is, when one is configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamSettings {
    pub url: TeamUrlText,
    /// Where the URL came from, for messages (`FEEDBACK_TEAM_URL`, `url_command`, `url in …`).
    pub origin: String,
    pub team: Option<String>,
}

/// The team settings by the documented order; `None` when no team is configured.
///
/// # Errors
/// `url_command` failed (its message never holds its output).
pub fn resolve(
    config: Option<&TeamConfig>,
    env: &dyn Fn(&str) -> Option<String>,
    file_hint: &str,
) -> Result<Option<TeamSettings>, ConfigError> {
    let team = config.and_then(|c| c.team.clone());
    let (url, origin) = if let Some(url) = env(ENV_TEAM_URL).filter(|v| !v.trim().is_empty()) {
        (url, ENV_TEAM_URL.to_owned())
    } else if let Some(command) = config.and_then(|c| c.url_command.as_deref()) {
        let url = super::key_command::run(command, super::key_command::DEFAULT_TIMEOUT).map_err(
            |error| match error {
                ConfigError::KeyCommand(why) => ConfigError::TeamUrlCommand(
                    why.replace(" (api_key_command_timeout_seconds)", ""),
                ),
                other => other,
            },
        )?;
        (url, "the output of [team] url_command".to_owned())
    } else if let Some(url) = config.and_then(|c| c.url.clone()) {
        (url, format!("[team] url in {file_hint}"))
    } else {
        return Ok(None);
    };
    Ok(Some(TeamSettings {
        url: TeamUrlText(url.trim().to_owned()),
        origin,
        team,
    }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn config(url: Option<&str>, command: Option<&str>) -> TeamConfig {
        TeamConfig {
            url: url.map(str::to_owned),
            url_command: command.map(str::to_owned),
            team: Some("support".to_owned()),
        }
    }

    #[test]
    fn the_environment_wins_then_the_command_then_the_url() {
        let file = config(
            Some("postgres://ana@file/db"),
            Some("echo postgres://ana@cmd/db"),
        );
        let env =
            |name: &str| (name == ENV_TEAM_URL).then(|| "postgres://ana:secret@env/db".to_owned());
        let chosen = resolve(Some(&file), &env, "config.toml").unwrap().unwrap();
        assert_eq!(chosen.url.expose(), "postgres://ana:secret@env/db");
        assert_eq!(chosen.origin, ENV_TEAM_URL);
        assert_eq!(chosen.team.as_deref(), Some("support"));

        let none = |_: &str| None;
        let chosen = resolve(Some(&file), &none, "config.toml").unwrap().unwrap();
        assert_eq!(chosen.url.expose(), "postgres://ana@cmd/db");

        let file = config(Some("postgres://ana@file/db"), None);
        let chosen = resolve(Some(&file), &none, "config.toml").unwrap().unwrap();
        assert_eq!(chosen.url.expose(), "postgres://ana@file/db");
        assert_eq!(chosen.origin, "[team] url in config.toml");

        assert_eq!(resolve(None, &none, "config.toml").unwrap(), None);
    }

    #[test]
    fn the_url_never_shows_in_debug() {
        let env = |_: &str| Some("postgres://ana:hunter2@db/support".to_owned());
        let chosen = resolve(None, &env, "config.toml").unwrap().unwrap();
        let shown = format!("{chosen:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
    }

    #[test]
    fn a_failing_command_is_an_error_that_names_the_command() {
        let file = config(None, Some("exit 3"));
        let error = resolve(Some(&file), &|_: &str| None, "config.toml").unwrap_err();
        assert!(error.to_string().contains("url_command"), "{error}");
    }
}
