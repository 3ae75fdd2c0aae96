//! A panic is a bug: the user is told so in plain words, where the log is and what to attach to
//! a report, after the inbox's hooks restored the terminal (they run first). The panic itself,
//! with where it happened, goes to the log. Unlike a crash-dump crate, nothing is written to a
//! world-readable temporary file: the message may quote a customer's text, so it stays in the
//! private log. With `RUST_BACKTRACE` set, Rust's own report is printed instead, for developers.

use std::path::{Path, PathBuf};

/// Where bugs are reported.
const ISSUES: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/issues");

/// Installs the hook; `log` is the log file's path, when logging started.
pub(crate) fn report_panics(log: Option<PathBuf>) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        tracing::error!(%info, "panic");
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            previous(info);
            return;
        }
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprint!(
            "{}",
            report(feedback_cli::version::long(), &what, &at, log.as_deref())
        );
    }));
}

/// What the user reads after a panic of `what` at `at`.
fn report(version: &str, what: &str, at: &str, log: Option<&Path>) -> String {
    let what = feedback_core::text::Clean::line(what);
    let log = match log {
        Some(path) => format!(
            "The log is {} (its last lines say what led here).",
            feedback_core::text::Clean::line(&path.display().to_string())
        ),
        None => "No log was written (its folder could not be made).".to_owned(),
    };
    format!(
        "\nfeedback-inbox {version} stopped on a bug: {what} ({at}).\n\
         Your store and settings are as they were; what you did before is saved.\n\
         {log}\n\n\
         Please report it at {ISSUES} with:\n  \
         - the output of `feedback-inbox version --format json`,\n  \
         - what you did just before, and this message,\n  \
         - the log's last lines: they hold no key or password, but may name items and \
         reporters, so read them before you send them.\n\
         Run with RUST_BACKTRACE=1 to print where in the code it happened.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_says_what_happened_where_the_log_is_and_what_to_attach() {
        let said = report(
            "0.2.0 (a1b2c3d 2026-12-04)",
            "index out of bounds \u{1b}]52;c;aGk=\u{7}",
            "crates/tui/src/render.rs:12",
            Some(Path::new(
                "/home/ana/.local/state/feedback-inbox/feedback-inbox.log",
            )),
        );
        assert!(said.contains("feedback-inbox 0.2.0 (a1b2c3d 2026-12-04) stopped on a bug"));
        assert!(said.contains("(crates/tui/src/render.rs:12)"));
        assert!(
            said.contains("The log is /home/ana/.local/state/feedback-inbox/feedback-inbox.log")
        );
        assert!(said.contains("https://github.com/feedback-inbox/feedback-inbox/issues"));
        assert!(said.contains("version --format json"));
        // A panic's message may quote untrusted text: it reaches the terminal inert.
        assert!(
            !said.contains('\u{1b}') && !said.contains('\u{7}'),
            "{said:?}"
        );
        let without_log = report("0.2.0", "x", "a.rs:1", None);
        assert!(without_log.contains("No log was written"));
    }
}
