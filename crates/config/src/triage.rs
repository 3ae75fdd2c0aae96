//! `[triage]` in `config.toml`: how the inbox's local triage behaves. `seen_delay_ms` is how
//! long an opened detail must be shown before its item counts as seen (a glance through items
//! does not mark them), `advance_after_action` moves the selection to the next item after a
//! triage key that takes the item out of the view (done, snooze), as mail readers do, and `first_run = "from-now"` starts a new store with the
//! items received before its first sync seen (a new account's history is not a to-do list).

use serde::Deserialize;

use super::ConfigError;

/// The `[triage]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TriageConfig {
    /// Milliseconds a detail is shown before its item is marked seen (default 1000).
    pub seen_delay_ms: Option<u64>,
    /// Move to the next item after a triage action (default true).
    pub advance_after_action: Option<bool>,
    /// What a new store's items start as (default: unseen).
    pub first_run: Option<FirstRun>,
}

/// What the items received before a new store's first sync start as.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum FirstRun {
    /// Unseen, every one.
    #[default]
    AllUnseen,
    /// Seen: only what arrives from the first sync on is unseen.
    FromNow,
}

/// How long an opened detail must be shown before its item counts as seen, by default.
pub const SEEN_DELAY_MS: u64 = 1000;

/// The longest delay allowed (a minute): longer would never mark anything.
pub(crate) const MAX_SEEN_DELAY_MS: u64 = 60_000;

/// The inbox's triage settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TriageSettings {
    pub seen_delay_ms: u64,
    pub advance_after_action: bool,
    pub first_run: FirstRun,
}

impl Default for TriageSettings {
    fn default() -> Self {
        Self {
            seen_delay_ms: SEEN_DELAY_MS,
            advance_after_action: true,
            first_run: FirstRun::AllUnseen,
        }
    }
}

impl TriageConfig {
    /// The settings this table makes of the defaults; a delay over a minute is an error naming
    /// the file (`file_hint`).
    pub fn settings(&self, file_hint: &str) -> Result<TriageSettings, ConfigError> {
        let default = TriageSettings::default();
        let seen_delay_ms = match self.seen_delay_ms {
            None => default.seen_delay_ms,
            Some(ms) if ms <= MAX_SEEN_DELAY_MS => ms,
            Some(ms) => return Err(ConfigError::BadSeenDelay(ms, file_hint.to_owned())),
        };
        Ok(TriageSettings {
            seen_delay_ms,
            advance_after_action: self
                .advance_after_action
                .unwrap_or(default.advance_after_action),
            first_run: self.first_run.unwrap_or(default.first_run),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn defaults_and_limits() {
        let none = TriageConfig::default().settings("c.toml").unwrap();
        assert_eq!(none, TriageSettings::default());
        assert_eq!(
            (none.seen_delay_ms, none.advance_after_action),
            (1000, true)
        );
        let set: TriageConfig =
            toml::from_str("seen_delay_ms = 0\nadvance_after_action = false").unwrap();
        let set = set.settings("c.toml").unwrap();
        assert_eq!((set.seen_delay_ms, set.advance_after_action), (0, false));
        let long = TriageConfig {
            seen_delay_ms: Some(60_001),
            ..TriageConfig::default()
        };
        let err = long.settings("c.toml").unwrap_err().to_string();
        assert!(
            err.contains("seen_delay_ms") && err.contains("c.toml"),
            "{err}"
        );
        assert!(toml::from_str::<TriageConfig>("advance = true").is_err());
        let from_now: TriageConfig = toml::from_str("first_run = \"from-now\"").unwrap();
        let from_now = from_now.settings("c.toml").unwrap();
        assert_eq!(from_now.first_run, FirstRun::FromNow);
        assert_eq!(none.first_run, FirstRun::AllUnseen);
        assert!(toml::from_str::<TriageConfig>("first_run = \"later\"").is_err());
    }
}
