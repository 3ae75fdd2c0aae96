//! Logs go to a private file in the platform's state (or local data) folder, never to the
//! screen: one file a day (`feedback-inbox.2026-12-06.log`, the date in UTC), the oldest
//! beyond two weeks removed (tracing-appender's rolling files). The folder is `0700` and the
//! day's file is made `0600` before the appender opens it: logs name items and accounts. The
//! filter comes from `FEEDBACK_LOG` (default `info`); HTTP and PostgreSQL internals are kept at
//! `warn` so request details and statements (a new member's password is part of one) never
//! reach the log.

use std::path::PathBuf;

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;

use feedback_config::private_files::Follow;
use feedback_config::{LOG_FILES_KEPT, LOG_PREFIX, LOG_SUFFIX};

/// Starts file logging; without a writable log folder the program runs without logs. Returns
/// the day's log file when logging started.
#[must_use = "the path tells the user where logs go"]
pub(crate) fn init() -> Option<PathBuf> {
    let dir = feedback_config::log_dir()?;
    feedback_config::private_files::create_dir(&dir).ok()?;
    let path = feedback_config::log_file(&dir, jiff::Timestamp::now());
    // Made private before the appender opens it (it keeps the mode of a file it finds).
    feedback_config::private_files::open_append(&path, Follow::Yes).ok()?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(LOG_PREFIX)
        .filename_suffix(LOG_SUFFIX)
        .max_log_files(LOG_FILES_KEPT)
        .build(&dir)
        .ok()?;
    let wanted = std::env::var("FEEDBACK_LOG").unwrap_or_else(|_| "info".to_owned());
    let filter = EnvFilter::try_new(format!(
        "{wanted},hyper=warn,hyper_util=warn,reqwest=warn,h2=warn,rustls=warn,tokio_postgres=warn"
    ))
    .unwrap_or_else(|_| EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_writer(appender)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .ok()?;
    Some(path)
}
