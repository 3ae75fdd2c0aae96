//! Where the account comes from: base URL and API key, from flags, environment and
//! `config.toml` (in the platform config folder, or `--config`), with `[profiles.NAME]` tables for
//! people with several accounts.
//!
//! Order: base URL from `--base-url`, else `FEEDBACK_BASE_URL`, else `base_url`; key from
//! `FEEDBACK_API_KEY`, else `api_key_command` (its stdout), else `api_key`, else the key `login`
//! kept (`credentials`: its file beside the config, else the OS keyring). Values in the selected
//! profile override the top-level ones. The key's form is checked here; the key itself never
//! appears in an error.
//!
//! The crate owns the config file (its sections: views, keys, looks, preview, sync, triage, the
//! team's URL, the key command, mail) and its validation, the key `login` keeps (`credentials`:
//! the only crate with the OS keyring), where logs go, and the private files every room writes
//! (`private_files`). It builds on `feedback-core` and `feedback-api` and never imports the store,
//! the team backend, the sync or the inbox.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use thiserror::Error;
use url::Url;

use feedback_api::base_url::{self, BaseUrlError};
use feedback_api::key::{ApiKey, KeyError, redact_keys};

pub mod credentials;
pub mod key_command;
pub mod looks;
pub mod mail;
// The preview pane's setting.
pub mod preview;
pub mod private_files;
pub mod sync;
// The team's database (`[team]`).
pub mod team;
pub mod triage;
// Saved views (`[[views]]`).
pub mod views;

pub const ENV_BASE_URL: &str = "FEEDBACK_BASE_URL";
pub use feedback_core::child_env::ENV_API_KEY;

/// The account settings of one table of `config.toml`.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Account {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_key_command: Option<String>,
    /// Seconds `api_key_command` may run before it is stopped (default 10).
    pub api_key_command_timeout_seconds: Option<u64>,
    /// Items received more than this many days ago are dropped from the local store.
    pub retention_days: Option<u64>,
}

/// Seconds between the inbox's automatic refreshes when the config does not say: new feedback
/// shows without a key, at one list request a minute (paced as the background is).
pub const DEFAULT_REFRESH_SECONDS: u64 = 60;

/// The whole file.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    pub base_url: Option<String>,
    pub api_key: Option<String>,
    pub api_key_command: Option<String>,
    /// Seconds `api_key_command` may run before it is stopped (default 10).
    pub api_key_command_timeout_seconds: Option<u64>,
    /// Items received more than this many days ago are dropped from the local store.
    pub retention_days: Option<u64>,
    /// Seconds between automatic refreshes of the inbox (absent:
    /// [`DEFAULT_REFRESH_SECONDS`]; 0: off).
    #[serde(default)]
    pub refresh_seconds: Option<u64>,
    /// Key bindings of the inbox, checked by `tui::keymap` (which reports lines).
    #[serde(default)]
    pub keys: Option<toml::Table>,
    /// How much of the rate-limit budget the background may use (`[sync]`).
    #[serde(default)]
    pub sync: Option<sync::SyncConfig>,
    /// How the inbox's local triage behaves (`[triage]`).
    #[serde(default)]
    pub triage: Option<triage::TriageConfig>,
    /// Saved views (`[[views]]`), checked by `config::views` (which reports lines).
    #[serde(default)]
    pub views: Option<toml::Value>,
    /// The preview pane beside the list: "auto" (from 160 columns), true or false.
    #[serde(default)]
    pub preview: Option<preview::PreviewSetting>,
    #[serde(default)]
    pub profiles: std::collections::BTreeMap<String, Account>,
    // Acting on items, privacy and looks: see `looks`.
    /// Start the inbox with emails and custom metadata values masked.
    #[serde(default)]
    pub privacy: Option<bool>,
    /// Hints of the screen's keys in the status bar (on unless false).
    #[serde(default)]
    pub hints: Option<bool>,
    /// `default`, `light` or `colorblind`.
    #[serde(default)]
    pub theme: Option<looks::ThemeName>,
    /// What `|` pipes items to.
    #[serde(default)]
    pub commands: Vec<looks::PipeCommand>,
    /// The team's database (`[team]`), where triage state is shared.
    #[serde(default)]
    pub team: Option<team::TeamConfig>,
    /// How replies to reporters leave (`[mail]`).
    #[serde(default)]
    pub mail: Option<mail::MailConfig>,
    /// Replies to start from (`[[templates]]`).
    #[serde(default)]
    pub templates: Vec<mail::Template>,
}

impl ConfigFile {
    /// The top-level account settings (no profile applied).
    #[must_use]
    pub fn account(&self) -> Account {
        Account {
            base_url: self.base_url.clone(),
            api_key: self.api_key.clone(),
            api_key_command: self.api_key_command.clone(),
            api_key_command_timeout_seconds: self.api_key_command_timeout_seconds,
            retention_days: self.retention_days,
        }
    }
}

/// A config file as read from disk.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub path: PathBuf,
    /// The file's text, for checks that report line numbers.
    pub text: String,
    pub file: ConfigFile,
    /// True when other users may read the file.
    pub readable_by_others: bool,
}

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {message}", .path.display())]
    Parse { path: PathBuf, message: String },
    #[error("no profile \"{name}\" in {} (profiles: {available})", .path.display())]
    UnknownProfile {
        name: String,
        path: PathBuf,
        available: String,
    },
    #[error("--profile {0} was given but there is no config file ({1})")]
    ProfileWithoutFile(String, String),
    #[error(
        "no base URL: pass --base-url, set FEEDBACK_BASE_URL, or put base_url in {0} (or try `feedback-inbox demo`)"
    )]
    MissingBaseUrl(String),
    #[error(
        "no API key: run `feedback-inbox login`, set FEEDBACK_API_KEY, or put api_key_command / api_key in {0} (or try `feedback-inbox demo`)"
    )]
    MissingKey(String),
    #[error("{origin}: {source}")]
    BadKey {
        origin: String,
        #[source]
        source: KeyError,
    },
    #[error("{origin}: {source}")]
    BadBaseUrl {
        origin: String,
        #[source]
        source: BaseUrlError,
    },
    #[error("[team] url_command failed: {0}")]
    TeamUrlCommand(String),
    #[error("{0}")]
    Mail(String),
    #[error("api_key_command failed: {0}")]
    KeyCommand(String),
    #[error(
        "api_key_command_timeout_seconds = {0} in {1}: give a number of seconds from 1 to 3600"
    )]
    BadKeyCommandTimeout(u64, String),
    #[error("retention_days = {0} in {1}: give a number of days from 1 to 36500")]
    BadRetention(u64, String),
    #[error("[sync] floor_percent = {0} in {1}: give a share of the limit from 0 to 95")]
    BadFloor(u8, String),
    #[error(
        "[triage] seen_delay_ms = {0} in {1}: at most {max} (a minute)",
        max = triage::MAX_SEEN_DELAY_MS
    )]
    BadSeenDelay(u64, String),
    #[error("{0} is set but is not valid UTF-8; set it to the key itself")]
    NotUnicode(&'static str),
}

/// The platform's config file path (`~/.config/feedback-inbox/config.toml` on Linux).
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    config_dir(
        std::env::var_os("XDG_CONFIG_HOME"),
        cfg!(target_os = "macos"),
        project_dirs().map(|dirs| dirs.config_dir().to_owned()),
    )
    .map(|dir| dir.join("config.toml"))
}

/// The config folder: the platform's (`platform`), but on macOS `$XDG_CONFIG_HOME/feedback-inbox`
/// when that is set to an absolute path, as gh and most terminal tools do there (elsewhere the
/// platform's folder already follows it, or it has no meaning).
fn config_dir(
    xdg_config_home: Option<std::ffi::OsString>,
    macos: bool,
    platform: Option<PathBuf>,
) -> Option<PathBuf> {
    let xdg = xdg_config_home
        .map(PathBuf::from)
        .filter(|p| macos && p.is_absolute());
    match xdg {
        Some(xdg) => Some(xdg.join("feedback-inbox")),
        None => platform,
    }
}

/// The folder logs go to: the platform's state folder (`~/.local/state/feedback-inbox` on
/// Linux), else its local data folder.
#[must_use]
pub fn log_dir() -> Option<PathBuf> {
    let dirs = project_dirs()?;
    Some(
        dirs.state_dir()
            .unwrap_or_else(|| dirs.data_local_dir())
            .to_owned(),
    )
}

/// The log file of the day `now` falls on in UTC (`feedback-inbox.2026-12-06.log`): a new
/// one each day, the oldest beyond [`LOG_FILES_KEPT`] removed.
#[must_use]
pub fn log_file(dir: &Path, now: jiff::Timestamp) -> PathBuf {
    dir.join(format!(
        "{LOG_PREFIX}.{}.{LOG_SUFFIX}",
        now.strftime("%Y-%m-%d")
    ))
}

/// The log files' names: `PREFIX.DATE.SUFFIX`.
pub const LOG_PREFIX: &str = "feedback-inbox";
pub const LOG_SUFFIX: &str = "log";

/// How many days of logs are kept.
pub const LOG_FILES_KEPT: usize = 14;

/// The platform folders of this program.
#[must_use]
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "feedback-inbox")
}

/// Reads `path`; a missing file is `Ok(None)` unless `required`.
pub fn load(path: &Path, required: bool) -> Result<Option<Loaded>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return Ok(None),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    let file = parse(&text).map_err(|message| ConfigError::Parse {
        path: path.to_owned(),
        message,
    })?;
    Ok(Some(Loaded {
        path: path.to_owned(),
        text,
        file,
        readable_by_others: readable_by_others(path),
    }))
}

/// Parses the file's text; the error names the line and column.
pub fn parse(text: &str) -> Result<ConfigFile, String> {
    toml::from_str(text).map_err(|e| {
        let place = e
            .span()
            .map(|span| {
                let line = text[..span.start].matches('\n').count() + 1;
                let column = span.start - text[..span.start].rfind('\n').map_or(0, |i| i + 1) + 1;
                format!("line {line}, column {column}: ")
            })
            .unwrap_or_default();
        // A value is quoted in some messages; if it is a key under the wrong field, hide it.
        redact_keys(&format!("{place}{}", e.message())).into_owned()
    })
}

#[cfg(unix)]
fn readable_by_others(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o044 != 0)
}

#[cfg(not(unix))]
fn readable_by_others(_path: &Path) -> bool {
    false
}

/// Everything the account can come from.
pub struct Sources<'a> {
    pub base_url_flag: Option<&'a str>,
    pub profile: Option<&'a str>,
    pub file: Option<&'a Loaded>,
    /// Environment lookup (injected for tests).
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// Shown in messages where the file would be.
    pub file_hint: String,
    /// Where `login` keeps keys (`credentials::file_beside` the config); `None`: no key kept
    /// by `login` is looked for.
    pub credentials: Option<&'a Path>,
}

/// A usable account.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub base_url: Url,
    pub key: ApiKey,
    /// Where the key came from, for messages ("FEEDBACK_API_KEY", "api_key_command", ...).
    pub key_origin: String,
    /// Things the user should fix but that do not stop the program.
    pub warnings: Vec<String>,
}

/// Picks the base URL and key by the documented order.
pub fn resolve(sources: &Sources<'_>) -> Result<Resolved, ConfigError> {
    let account = selected_account(sources)?;
    let base_url = resolve_base_url(sources, &account)?;
    let timeout = key_command_timeout(&account, &sources.file_hint)?;
    let (key, key_origin, from_file) = resolve_key(sources, &account, timeout)?;
    let mut warnings = Vec::new();
    if let Some(loaded) = sources.file.filter(|l| from_file && l.readable_by_others) {
        warnings.push(format!(
            "{} holds an API key and is readable by other users; run: chmod 600 {}",
            loaded.path.display(),
            loaded.path.display()
        ));
    }
    Ok(Resolved {
        base_url,
        key,
        key_origin,
        warnings,
    })
}

/// The base URL alone, by the documented order (for `login`, which brings its own key).
pub fn base_url(sources: &Sources<'_>) -> Result<Url, ConfigError> {
    resolve_base_url(sources, &selected_account(sources)?)
}

/// The top-level account with the selected profile's values laid over it.
fn selected_account(sources: &Sources<'_>) -> Result<Account, ConfigError> {
    let Some(loaded) = sources.file else {
        return match sources.profile {
            Some(name) => Err(ConfigError::ProfileWithoutFile(
                name.to_owned(),
                sources.file_hint.clone(),
            )),
            None => Ok(Account::default()),
        };
    };
    let mut account = loaded.file.account();
    if let Some(name) = sources.profile {
        let profile =
            loaded
                .file
                .profiles
                .get(name)
                .ok_or_else(|| ConfigError::UnknownProfile {
                    name: name.to_owned(),
                    path: loaded.path.clone(),
                    available: profile_names(&loaded.file),
                })?;
        // A profile that names its own key source replaces both of the top level's.
        if profile.api_key.is_some() || profile.api_key_command.is_some() {
            account.api_key.clone_from(&profile.api_key);
            account.api_key_command.clone_from(&profile.api_key_command);
        }
        if profile.api_key_command_timeout_seconds.is_some() {
            account.api_key_command_timeout_seconds = profile.api_key_command_timeout_seconds;
        }
        if profile.base_url.is_some() {
            account.base_url.clone_from(&profile.base_url);
        }
        if profile.retention_days.is_some() {
            account.retention_days = profile.retention_days;
        }
    }
    Ok(account)
}

fn profile_names(file: &ConfigFile) -> String {
    if file.profiles.is_empty() {
        "none defined".into()
    } else {
        file.profiles.keys().cloned().collect::<Vec<_>>().join(", ")
    }
}

fn resolve_base_url(sources: &Sources<'_>, account: &Account) -> Result<Url, ConfigError> {
    let (raw, origin) = if let Some(flag) = sources.base_url_flag {
        (flag.to_owned(), "--base-url".to_owned())
    } else if let Some(env) = (sources.env)(ENV_BASE_URL).filter(|v| !v.trim().is_empty()) {
        (env, ENV_BASE_URL.to_owned())
    } else if let Some(file) = &account.base_url {
        (file.clone(), format!("base_url in {}", sources.file_hint))
    } else {
        return Err(ConfigError::MissingBaseUrl(sources.file_hint.clone()));
    };
    base_url::normalize(&raw).map_err(|source| ConfigError::BadBaseUrl { origin, source })
}

fn resolve_key(
    sources: &Sources<'_>,
    account: &Account,
    timeout: Duration,
) -> Result<(ApiKey, String, bool), ConfigError> {
    let (raw, origin, from_file) =
        if let Some(env) = (sources.env)(ENV_API_KEY).filter(|v| !v.trim().is_empty()) {
            (env, ENV_API_KEY.to_owned(), false)
        } else if let Some(command) = &account.api_key_command {
            (
                key_command::run(command, timeout)?,
                "the output of api_key_command".to_owned(),
                false,
            )
        } else if let Some(key) = &account.api_key {
            (
                key.clone(),
                format!("api_key in {}", sources.file_hint),
                true,
            )
        } else if let Some((key, place)) = sources
            .credentials
            .and_then(|file| credentials::load(sources.profile, file))
        {
            (key, format!("`feedback-inbox login` ({place})"), false)
        } else {
            return Err(ConfigError::MissingKey(sources.file_hint.clone()));
        };
    let key = ApiKey::parse(&raw).map_err(|source| ConfigError::BadKey {
        origin: origin.clone(),
        source,
    })?;
    Ok((key, origin, from_file))
}

/// The time `api_key_command` may take: [`key_command::TIMEOUT_SECONDS`] (1 s to 1 h), else a
/// configuration error, checked whether or not the command runs.
fn key_command_timeout(account: &Account, file_hint: &str) -> Result<Duration, ConfigError> {
    match account.api_key_command_timeout_seconds {
        None => Ok(key_command::DEFAULT_TIMEOUT),
        Some(seconds) if key_command::TIMEOUT_SECONDS.contains(&seconds) => {
            Ok(Duration::from_secs(seconds))
        }
        Some(seconds) => Err(ConfigError::BadKeyCommandTimeout(
            seconds,
            file_hint.to_owned(),
        )),
    }
}

/// The days `retention_days` allows: one day to a hundred years.
pub(crate) const RETENTION_DAYS: std::ops::RangeInclusive<u64> = 1..=36_500;

/// How long the local store keeps items (`retention_days`, the profile's over the top level's):
/// `None` keeps everything. A value out of [`RETENTION_DAYS`] is a configuration error, so a
/// typo (`0`, `3650000`) never silently empties or ignores the store.
pub fn retention(
    file: Option<&Loaded>,
    profile: Option<&str>,
) -> Result<Option<jiff::SignedDuration>, ConfigError> {
    let Some(loaded) = file else {
        return Ok(None);
    };
    let sources = Sources {
        base_url_flag: None,
        profile,
        file: Some(loaded),
        env: &|_| None,
        file_hint: loaded.path.display().to_string(),
        credentials: None,
    };
    match selected_account(&sources)?.retention_days {
        None => Ok(None),
        Some(days) if RETENTION_DAYS.contains(&days) => Ok(Some(jiff::SignedDuration::from_hours(
            i64::try_from(days * 24).unwrap_or(i64::MAX),
        ))),
        Some(days) => Err(ConfigError::BadRetention(days, sources.file_hint)),
    }
}

#[cfg(test)]
mod tests;
