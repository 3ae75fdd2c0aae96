//! A command's failure: one line for stderr and an exit code scripts can branch on. The line
//! never carries a key: anything of the key's form is redacted, wherever it came from (a key in
//! the wrong variable, in a URL, in a server message).

use std::process::ExitCode;

use thiserror::Error;

use feedback_api::ApiError;
use feedback_config::ConfigError;
use feedback_store::StoreError;

/// Exit codes: 1 other failure, 2 bad usage or configuration (or a store of another account or
/// a newer version), 3 key rejected (401/403), 4 not found, 5 rate limited, 128 + n ended by
/// signal n.
#[derive(Debug, Error)]
pub enum CliError {
    #[error("{}", redacted(.0))]
    Api(#[from] ApiError),
    #[error("{}", redacted(.0))]
    Config(#[from] ConfigError),
    #[error("{}", redacted(.0))]
    Io(#[from] std::io::Error),
    /// Bad usage or setup (exit 2), such as an unset secret variable or a bad config file.
    #[error("{}", redacted(.0))]
    Usage(String),
    /// The local store could not be opened, read or written.
    #[error("{}", redacted(.0))]
    Store(#[from] StoreError),
    #[error("{}", redacted(.0))]
    Other(String),
    /// Ended by a terminating signal, after cleaning up: not a failure to report, but the exit
    /// status is 128 + the signal's number, as for a process the signal killed.
    #[error("ended by signal {0}")]
    Signal(i32),
}

fn redacted(shown: &impl std::fmt::Display) -> String {
    feedback_api::key::redact_keys(&shown.to_string()).into_owned()
}

impl CliError {
    /// A failure of the machine, the store or the service rather than an answer to what was
    /// asked (exit 1): the log says more, so the user is pointed to it.
    #[must_use]
    pub fn log_says_more(&self) -> bool {
        matches!(self, Self::Io(_) | Self::Store(_) | Self::Api(_))
            && self.exit_code() == ExitCode::FAILURE
    }

    #[must_use]
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(match self {
            Self::Api(ApiError::InvalidParameter { .. } | ApiError::Setup(_))
            | Self::Config(_)
            | Self::Store(StoreError::TooNew { .. } | StoreError::AccountMismatch { .. })
            | Self::Usage(_) => 2,
            Self::Api(ApiError::Unauthorized | ApiError::IndiePlanRequired) => 3,
            Self::Api(ApiError::NotFound { .. }) => 4,
            Self::Api(ApiError::RateLimited { .. }) => 5,
            Self::Signal(number) => u8::try_from(number.saturating_add(128)).unwrap_or(1),
            _ => 1,
        })
    }

    /// True when stdout was closed by the reader (`| head`): not worth an error line.
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Self::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// An unset or empty secret variable is a setup problem (exit 2).
impl From<feedback_api::webhook::verify::SecretError> for CliError {
    fn from(error: feedback_api::webhook::verify::SecretError) -> Self {
        Self::Usage(error.to_string())
    }
}

/// A sync's failure: the API's error keeps its exit code; the store's too.
impl From<feedback_sync::SyncError> for CliError {
    fn from(error: feedback_sync::SyncError) -> Self {
        use feedback_sync::SyncError;
        match error {
            SyncError::Api(api) => std::sync::Arc::try_unwrap(api)
                .map_or_else(|shared| Self::Other(shared.to_string()), Self::Api),
            SyncError::Store(store) => Self::Store(store),
            other => Self::Other(other.to_string()),
        }
    }
}

impl From<csv::Error> for CliError {
    fn from(error: csv::Error) -> Self {
        match error.into_kind() {
            csv::ErrorKind::Io(io) => Self::Io(io),
            other => Self::Other(format!("{other:?}")),
        }
    }
}

impl From<serde_json::Error> for CliError {
    fn from(error: serde_json::Error) -> Self {
        if error.is_io() {
            Self::Io(error.into())
        } else {
            Self::Other(error.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_terminating_signal_exits_with_128_plus_its_number() {
        for (number, status) in [(1, 129), (2, 130), (3, 131), (15, 143)] {
            assert_eq!(CliError::Signal(number).exit_code(), ExitCode::from(status));
        }
    }
}
