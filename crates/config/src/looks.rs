//! What `config.toml` says about acting on items and how the inbox looks: `privacy = true`
//! (start with emails and custom metadata values masked), `theme = "default" | "light" |
//! "colorblind"`, `hints = false` (no hints of the screen's keys in the status bar), and the
//! `[[commands]]` that `|` pipes items to (a name and an argv, run without a shell: no item
//! text ever becomes part of a command line), and what is kept of what each prints
//! (`capture`).

use serde::Deserialize;

/// The colour theme of the inbox (`NO_COLOR` still turns every colour off).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThemeName {
    /// Colours on a dark background.
    #[default]
    Default,
    /// Darker colours for a light background.
    Light,
    /// The Okabe–Ito palette: no meaning rests on telling red from green.
    Colorblind,
}

/// One `[[commands]]` entry: what `|` can pipe the items to.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipeCommand {
    /// Shown in the picker and the status bar: sanitized as the file is read.
    pub name: feedback_core::text::Clean,
    /// The program and its arguments, as given: no shell, no substitution.
    pub argv: Vec<String>,
    /// After the command exits, show "exit N — press a key to return" and wait for a key
    /// before the inbox takes the terminal back, so the command's output can be read (default
    /// true; false for commands that print nothing).
    #[serde(default = "wait_default")]
    pub wait: bool,
    /// What the inbox keeps of what the command prints (its output is shown all the same):
    /// `"link"`, the first http(s) address, linked on every item given; `"note"`, the output,
    /// appended to each item's note.
    #[serde(default)]
    pub capture: Option<Capture>,
}

/// What a `[[commands]]` entry's output is kept as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Capture {
    Link,
    Note,
}

fn wait_default() -> bool {
    true
}

impl PipeCommand {
    /// Why this entry cannot run, if it cannot (an empty argv or program name).
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        match self.argv.first() {
            None => Some(format!("[[commands]] \"{}\": argv is empty", self.name)),
            Some(program) if program.trim().is_empty() => Some(format!(
                "[[commands]] \"{}\": argv starts with an empty program name",
                self.name
            )),
            Some(_) => None,
        }
    }
}

/// The inbox's acting-and-looks settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LooksSettings {
    pub privacy: bool,
    pub theme: ThemeName,
    pub commands: Vec<PipeCommand>,
    /// The status bar's hints of the screen's keys (`hints = false` leaves `? help` alone).
    pub hints: bool,
}

impl Default for LooksSettings {
    fn default() -> Self {
        Self {
            privacy: false,
            theme: ThemeName::default(),
            commands: Vec::new(),
            hints: true,
        }
    }
}

impl LooksSettings {
    /// The settings of a config file; an unusable command is an error naming it.
    pub fn from_file(file: &super::ConfigFile) -> Result<Self, String> {
        if let Some(problem) = file.commands.iter().find_map(PipeCommand::problem) {
            return Err(problem);
        }
        Ok(Self {
            privacy: file.privacy.unwrap_or(false),
            hints: file.hints.unwrap_or(true),
            theme: file.theme.unwrap_or_default(),
            commands: file.commands.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn privacy_theme_and_commands_are_read() {
        let file = crate::parse(
            "privacy = true\ntheme = \"colorblind\"\n\
             [[commands]]\nname = \"save\"\nargv = [\"sh\", \"-c\", \"cat > f\"]\n",
        )
        .unwrap();
        let settings = LooksSettings::from_file(&file).unwrap();
        assert!(settings.privacy);
        assert!(settings.hints, "on unless turned off");
        let off = crate::parse("hints = false").unwrap();
        assert!(!LooksSettings::from_file(&off).unwrap().hints);
        assert_eq!(settings.theme, ThemeName::Colorblind);
        assert_eq!(settings.commands[0].argv, ["sh", "-c", "cat > f"]);
        assert_eq!(settings.commands[0].capture, None);
        let file = crate::parse(
            "[[commands]]\nname = \"file\"\nargv = [\"gh\"]\ncapture = \"link\"\n\
             [[commands]]\nname = \"ask\"\nargv = [\"ask\"]\ncapture = \"note\"\n",
        )
        .unwrap();
        let captures: Vec<_> = LooksSettings::from_file(&file)
            .unwrap()
            .commands
            .iter()
            .map(|c| c.capture)
            .collect();
        assert_eq!(captures, [Some(Capture::Link), Some(Capture::Note)]);
        assert!(
            crate::parse("[[commands]]\nname = \"x\"\nargv = [\"x\"]\ncapture = \"file\"\n")
                .is_err()
        );
        let none = LooksSettings::from_file(&crate::parse("").unwrap()).unwrap();
        assert_eq!(none, LooksSettings::default());
    }

    #[test]
    fn an_unknown_theme_or_an_empty_argv_is_refused() {
        let err = crate::parse("theme = \"neon\"").unwrap_err();
        assert!(err.contains("line 1"), "{err}");
        let file = crate::parse("[[commands]]\nname = \"x\"\nargv = []\n").unwrap();
        let err = LooksSettings::from_file(&file).unwrap_err();
        assert!(err.contains("argv is empty"), "{err}");
    }
}
