//! The status bar's messages: informational notes that clear themselves, errors that stay until
//! dismissed, and what a copy says.

use super::after;
use crate::action::CopyOutcome;
use crate::state::{AppState, Note};
use feedback_core::text::Clean;

/// Informational notes disappear after this long.
const NOTE_SECONDS: i64 = 5;

/// The copy's outcome, after the reason a copy was made instead of opening a link, if any.
pub(super) fn on_copied(state: &mut AppState, outcome: CopyOutcome) {
    let instead = state.copy_instead.take();
    let (text, failed) = match outcome {
        CopyOutcome::Copied { what, how } => (format!("copied {what} {how}"), false),
        CopyOutcome::Sent { what, how } => (format!("sent {what} {how}"), false),
        CopyOutcome::Failed { what, reason } => (format!("could not copy {what}: {reason}"), true),
    };
    let text = match instead {
        Some(reason) => format!("{reason}; {text}"),
        None => capitalise(&text),
    };
    if failed {
        error(state, text);
    } else {
        info(state, text);
    }
}

/// Shows an informational note that clears itself.
pub(crate) fn info(state: &mut AppState, text: impl AsRef<str>) {
    let until = Some(after(state.now, NOTE_SECONDS.unsigned_abs()));
    show(
        state,
        Note {
            text: Clean::line(text.as_ref()),
            error: false,
            until,
        },
    );
}

/// Shows an error until dismissed.
pub(crate) fn error(state: &mut AppState, text: impl AsRef<str>) {
    show(
        state,
        Note {
            text: Clean::line(text.as_ref()),
            error: true,
            until: None,
        },
    );
}

/// Puts `note` on the status bar, and in the message log: every note goes through here.
pub(crate) fn show(state: &mut AppState, note: Note) {
    state.log.push(state.now, &note.text, note.error);
    state.note = Some(note);
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
