//! Logs go to a private file (`0600` in a `0700` folder: they name items and accounts) in the
//! platform's state (or data) folder, never to the screen. The filter
//! comes from `FEEDBACK_LOG` (default `info`); HTTP and PostgreSQL internals are kept at `warn`
//! so request details and statements (a new member's password is part of one) never reach the
//! log.

use std::path::PathBuf;
use std::sync::Mutex;

use tracing_subscriber::EnvFilter;

use feedback_config::private_files::Follow;

/// The log file's path.
#[must_use]
pub(crate) fn log_path() -> Option<PathBuf> {
    let dirs = feedback_config::project_dirs()?;
    let dir = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Some(dir.join("feedback-inbox.log"))
}

/// Starts file logging; without a writable log file the program runs without logs. Returns the
/// log file's path when logging started.
#[must_use = "the path tells the user where logs go"]
pub(crate) fn init() -> Option<PathBuf> {
    let path = log_path()?;
    feedback_config::private_files::create_dir(path.parent()?).ok()?;
    let (file, _) = feedback_config::private_files::open_append(&path, Follow::Yes).ok()?;
    let wanted = std::env::var("FEEDBACK_LOG").unwrap_or_else(|_| "info".to_owned());
    let filter = EnvFilter::try_new(format!(
        "{wanted},hyper=warn,hyper_util=warn,reqwest=warn,h2=warn,rustls=warn,tokio_postgres=warn"
    ))
    .unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .ok()?;
    Some(path)
}
