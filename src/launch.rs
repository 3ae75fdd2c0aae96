//! The room above the command line and the inbox: it runs a parsed command line with the inbox's
//! screen as the one way the command line opens it. `cli` prepares what it owns (account,
//! store, syncer, webhook receivers, the config file's settings); this adds what only the screen
//! knows (its key map, the system clipboard) and runs `tui::run`.

use std::sync::Arc;

use feedback_cli::screen::{Inbox, Screen};
use feedback_cli::{self as cli, Args, CliError};
use feedback_clipboard::SystemClipboard;
use feedback_config::Loaded;
use feedback_tui::{self as tui, Ended, keymap::Keymap};

/// Runs a parsed command line; the inbox, when it asks for it, on the terminal. The run's
/// future (every command's state machine) is large: it lives on the heap.
pub(crate) async fn run(args: Args) -> Result<(), CliError> {
    Box::pin(cli::run(args, &Terminal)).await
}

/// The inbox drawn on the terminal by [`feedback_tui`].
pub(crate) struct Terminal;

impl Screen for Terminal {
    type Keys = Keymap;

    /// The defaults with the config file's `[keys]` table applied; a bad key or action name is
    /// a usage error naming its line.
    fn keys(&self, config: Option<&Loaded>) -> Result<Keymap, CliError> {
        let Some(loaded) = config else {
            return Ok(Keymap::default());
        };
        Keymap::from_config(&loaded.text, &loaded.path.display().to_string())
            .map_err(|e| CliError::Usage(format!("config: {e}")))
    }

    async fn open(&self, inbox: Inbox<Keymap>) -> Result<(), CliError> {
        let settings = inbox.settings;
        let options = tui::Options {
            store: inbox.store,
            syncer: match inbox.walk {
                Some(walk) => Arc::new(tui::TeamSyncer::new((*inbox.syncer).clone(), walk)),
                None => inbox.syncer,
            },
            keymap: settings.keys,
            refresh_seconds: settings.refresh_seconds,
            triage: settings.triage,
            views: settings.views,
            preview: settings.preview,
            clipboard: Box::new(SystemClipboard::new()),
            arrivals: inbox.arrivals,
            waits: Some(inbox.waits),
            looks: settings.looks,
            team: inbox.team,
            mail: settings.mail,
            templates: settings.templates,
        };
        match tui::run(options).await? {
            Ended::Quit => Ok(()),
            Ended::Signal(number) => Err(CliError::Signal(number)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(dir: &tempfile::TempDir, text: &str) -> Loaded {
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        feedback_config::load(&path, true).unwrap().unwrap()
    }

    #[test]
    fn the_example_configs_keys_are_the_screens_and_a_bad_one_is_a_usage_error() {
        let dir = tempfile::tempdir().unwrap();
        let example = loaded(&dir, include_str!("../assets/config.example.toml"));
        assert!(Terminal.keys(Some(&example)).is_ok());
        assert!(Terminal.keys(None).is_ok());
        let bad = loaded(&dir, "[keys]\nno_such_action = \"x\"\n");
        let error = Terminal.keys(Some(&bad)).unwrap_err();
        assert!(matches!(error, CliError::Usage(_)), "{error}");
        assert!(error.to_string().starts_with("config: "), "{error}");
    }
}
