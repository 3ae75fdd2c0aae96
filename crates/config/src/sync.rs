//! `[sync]` in `config.toml`: how much of the rate-limit budget the background may use. The
//! background (backfill of deeper pages, the reconcile walk of `new`) never takes the remaining
//! budget under `floor_percent` of the limit, and yields to anything the user asks for; with
//! `background = false` only what the user asks for is fetched.

use serde::Deserialize;

use super::ConfigError;

/// The `[sync]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SyncConfig {
    /// Fetch deeper pages and re-check statuses in the background (default true).
    pub background: Option<bool>,
    /// The share of the limit, in percent, the background always leaves (default 20).
    pub floor_percent: Option<u8>,
}

/// The floors `floor_percent` allows: the background may use all of the budget (0) or none of
/// it but the last 5% (95).
pub const FLOOR_PERCENT: std::ops::RangeInclusive<u8> = 0..=95;

/// The background's share of the budget, as configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackgroundShare {
    pub background: bool,
    pub floor_percent: u8,
}

impl Default for BackgroundShare {
    fn default() -> Self {
        Self {
            background: true,
            floor_percent: 20,
        }
    }
}

impl SyncConfig {
    /// The share this table sets over the defaults; a floor out of [`FLOOR_PERCENT`] is an
    /// error naming the file (`file_hint`).
    pub fn share(&self, file_hint: &str) -> Result<BackgroundShare, ConfigError> {
        let default = BackgroundShare::default();
        let floor_percent = match self.floor_percent {
            None => default.floor_percent,
            Some(p) if FLOOR_PERCENT.contains(&p) => p,
            Some(p) => return Err(ConfigError::BadFloor(p, file_hint.to_owned())),
        };
        Ok(BackgroundShare {
            background: self.background.unwrap_or(default.background),
            floor_percent,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::ConfigFile;

    fn parse(text: &str) -> ConfigFile {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn the_sync_table_sets_the_background_and_its_floor() {
        let file = parse("[sync]\nbackground = false\nfloor_percent = 35\n");
        let share = file.sync.unwrap_or_default().share("c.toml").unwrap();
        assert_eq!(
            share,
            BackgroundShare {
                background: false,
                floor_percent: 35
            }
        );
        let none = parse("").sync.unwrap_or_default().share("c.toml").unwrap();
        assert_eq!(none, BackgroundShare::default());
    }

    #[test]
    fn a_floor_out_of_range_or_an_unknown_key_is_an_error() {
        let err = parse("[sync]\nfloor_percent = 96\n")
            .sync
            .unwrap()
            .share("c.toml")
            .unwrap_err();
        assert!(
            err.to_string().contains("floor_percent = 96 in c.toml"),
            "{err}"
        );
        assert!(toml::from_str::<ConfigFile>("[sync]\nfloor = 3\n").is_err());
    }
}
