//! `preview` in `config.toml`: whether the inbox shows the preview pane beside the list —
//! `"auto"` (the default: from 160 columns), `true` or `false`. `p` switches it until restart.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Unexpected, Visitor};

/// Whether the preview is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PreviewSetting {
    /// From 160 columns (`tui::reading::PREVIEW_AUTO_WIDTH`).
    #[default]
    Auto,
    On,
    Off,
}

impl<'de> Deserialize<'de> for PreviewSetting {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Setting)
    }
}

/// Reads `"auto"`, `true` or `false`, and names them when the value is something else.
struct Setting;

impl Visitor<'_> for Setting {
    type Value = PreviewSetting;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("\"auto\", true or false")
    }

    fn visit_bool<E: de::Error>(self, on: bool) -> Result<Self::Value, E> {
        Ok(if on {
            PreviewSetting::On
        } else {
            PreviewSetting::Off
        })
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        if text == "auto" {
            Ok(PreviewSetting::Auto)
        } else {
            Err(E::invalid_value(Unexpected::Str(text), &self))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PreviewSetting;
    use crate::ConfigFile;

    fn preview(text: &str) -> Result<Option<PreviewSetting>, String> {
        toml::from_str::<ConfigFile>(text)
            .map(|f| f.preview)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn preview_is_auto_true_or_false() {
        assert_eq!(preview(""), Ok(None));
        assert_eq!(
            preview("preview = \"auto\""),
            Ok(Some(PreviewSetting::Auto))
        );
        assert_eq!(preview("preview = true"), Ok(Some(PreviewSetting::On)));
        assert_eq!(preview("preview = false"), Ok(Some(PreviewSetting::Off)));
        for bad in ["preview = \"wide\"", "preview = 1"] {
            let error = preview(bad).unwrap_err();
            assert!(error.contains("\"auto\", true or false"), "{error}");
        }
    }
}
