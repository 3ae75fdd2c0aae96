//! What every command takes: one run's context, made once from the command line. It holds the
//! parsed arguments and the config file they name, read once on first need (a command that needs
//! no config never reads it, and a bad file fails only the commands that need it); the store's
//! path and opening (`store`) and the team's settings and connection (`team`) are read from it.
//! Commands take the context, never each other: a command's module is not a library of helpers.

pub(crate) mod store;
pub(crate) mod team;

use std::sync::OnceLock;

use crate::{Args, CliError};
use feedback_config as config;

/// One run: the command line and the config file it names.
#[derive(Debug)]
pub struct Context {
    args: Args,
    /// The config file, once read (`None` inside: there is none and none was asked for).
    loaded: OnceLock<Option<config::Loaded>>,
}

impl Context {
    #[must_use]
    pub fn new(args: Args) -> Self {
        Self {
            args,
            loaded: OnceLock::new(),
        }
    }

    /// The command line as parsed.
    #[must_use]
    pub fn args(&self) -> &Args {
        &self.args
    }

    /// The config file `config_path` names, read on the first call and kept for the run; `None`
    /// when there is none and none was asked for. A file that does not read is an error each
    /// time it is asked for (nothing is kept).
    pub(crate) fn config(&self) -> Result<Option<&config::Loaded>, CliError> {
        if let Some(loaded) = self.loaded.get() {
            return Ok(loaded.as_ref());
        }
        let read = match crate::config_path(&self.args) {
            (Some(path), required) => config::load(&path, required)?,
            (None, _) => None,
        };
        Ok(self.loaded.get_or_init(|| read).as_ref())
    }
}

/// The arguments are read through the context (`args.store`, `args.profile`).
impl std::ops::Deref for Context {
    type Target = Args;

    fn deref(&self) -> &Args {
        &self.args
    }
}
