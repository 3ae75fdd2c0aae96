//! `N` with `$EDITOR` (then `$VISUAL`) set: the note is written to a private temporary file
//! (0600), the terminal is handed over (raw mode, the alternate screen, mouse and paste
//! reporting off; the event reader stopped, so it takes none of the editor's input), the editor
//! runs through `sh -c '$FEEDBACK_INBOX_EDITOR "$1"'` (so `EDITOR="code -w"` works) with the
//! file's path as an argument: no note text is ever on a command line, and none of the
//! inbox's secret variables in its environment ([`feedback_core::child_env`]). Then the terminal is
//! taken back and the file read.

use std::io::{self, Write};
use std::process::Command;

use futures_util::{Stream, StreamExt};
use ratatui::crossterm::event::Event;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::{Terminal, backend::Backend};
use tokio::sync::mpsc::UnboundedSender;

use super::foreground::Foreground;
use crate::action::Msg;
use crate::effect::{Effect, Handover};

/// The editor the user chose: `$EDITOR`, else `$VISUAL` (set and not blank).
#[must_use]
pub(super) fn chosen() -> Option<String> {
    ["EDITOR", "VISUAL"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.trim().is_empty())
}

/// Gives the terminal to another program, with the cursor shown (the inbox hides it; an
/// editor that does not show it itself would be typed into blind).
pub(super) fn release() {
    let mut out = io::stdout();
    let _ = release_to(&mut out);
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// The sequences that hand the screen over.
fn release_to(out: &mut impl Write) -> io::Result<()> {
    execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    )
}

/// Takes the terminal back as the inbox had it.
pub(crate) fn reclaim(mouse: bool) {
    let mut out = io::stdout();
    let _ = enable_raw_mode();
    let _ = execute!(
        out,
        EnterAlternateScreen,
        Clear(ClearType::All),
        EnableBracketedPaste
    );
    if mouse {
        let _ = execute!(out, EnableMouseCapture);
    }
    let _ = out.flush();
}

/// Edits `text` in `editor`; `Ok(None)` when it came back unchanged. The terminal must be
/// released around this call.
#[cfg(test)]
pub(super) fn edit(editor: &str, text: &str) -> Result<Option<String>, String> {
    edit_in(editor, text, &Foreground::default())
}

/// The editor `$EDITOR` names, to be given the file as its last argument, without the
/// secrets' variables. On Unix the shell splits it into words (`code --wait`) and then becomes
/// the editor, so a signal passed on to the child reaches the editor itself, not a shell
/// waiting for it; elsewhere it is split as a shell would and run without one.
// Only the split without a shell can fail.
#[cfg_attr(unix, allow(clippy::unnecessary_wraps))]
fn editor_command(editor: &str) -> Result<Command, String> {
    #[cfg(unix)]
    {
        let mut command = Command::new("sh");
        feedback_core::child_env::scrub(&mut command)
            .arg("-c")
            .arg("exec $FEEDBACK_INBOX_EDITOR \"$1\"")
            .arg("sh")
            .env("FEEDBACK_INBOX_EDITOR", editor);
        Ok(command)
    }
    #[cfg(not(unix))]
    {
        let words = feedback_core::child_env::words(editor)
            .map_err(|e| format!("cannot run the editor: {e}"))?;
        let mut command = Command::new(&words[0]);
        feedback_core::child_env::scrub(&mut command).args(&words[1..]);
        Ok(command)
    }
}

/// [`edit`], passing the editor any terminating signal `foreground` hears meanwhile.
pub(super) fn edit_in(
    editor: &str,
    text: &str,
    foreground: &Foreground,
) -> Result<Option<String>, String> {
    let mut file = tempfile::Builder::new()
        .prefix("feedback-inbox-note-")
        .suffix(".txt")
        .tempfile()
        .map_err(|e| format!("cannot make a file for the note: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("cannot write the note's file: {e}"))?;
    let mut child = editor_command(editor)?
        .arg(file.path())
        .spawn()
        .map_err(|e| format!("cannot run the editor: {e}"))?;
    let status = foreground
        .wait(&mut child)
        .map_err(|e| format!("cannot run the editor: {e}"))?;
    if !status.success() {
        return Err(format!(
            "the editor ended with {status}; the note is unchanged"
        ));
    }
    let edited = std::fs::read_to_string(file.path())
        .map_err(|e| format!("cannot read the note back: {e}"))?;
    // Editors end a file with a newline the note did not have.
    let edited = edited.trim_end_matches(['\n', '\r']).to_owned();
    Ok((edited != text).then_some(edited))
}

/// The terminal's events, and how to open them again after an editor had the terminal (`None`
/// where there is no terminal to hand over: tests).
pub(super) struct Events<E> {
    pub(super) stream: E,
    pub(super) reopen: Option<fn() -> E>,
}

/// The next event; while the events are closed (an editor has the terminal), never.
pub(super) async fn next_event<E>(events: &mut Option<E>) -> Option<io::Result<Event>>
where
    E: Stream<Item = io::Result<Event>> + Unpin,
{
    match events {
        Some(stream) => stream.next().await,
        None => std::future::pending().await,
    }
}

/// What the loop lends the external editor.
pub(super) struct Outside<'a, E> {
    pub(super) events: &'a mut Option<E>,
    pub(super) reopen: Option<fn() -> E>,
    pub(super) tx: &'a UnboundedSender<Msg>,
    /// Passes a terminating signal on to the command that has the terminal.
    pub(super) foreground: &'a Foreground,
}

impl<E> Outside<'_, E> {
    /// Runs the note and reply edits among `effects` (the terminal handed over, the event
    /// reader closed so it takes none of the editor's input), answering each with
    /// `Msg::NoteEdited` or `Msg::ReplyEdited`; returns the other effects.
    pub(super) fn edit_notes<B: Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
        effects: Vec<Effect>,
        mouse: bool,
    ) -> Vec<Effect> {
        let (edits, rest): (Vec<_>, Vec<_>) = effects.into_iter().partition(|e| {
            matches!(
                e,
                Effect::Terminal(Handover::EditNote { .. } | Handover::EditReply { .. })
            )
        });
        for effect in edits {
            let (ids, text) = match effect {
                Effect::Terminal(Handover::EditNote { ids, text }) => (Some(ids), text),
                Effect::Terminal(Handover::EditReply { text }) => (None, text),
                _ => continue,
            };
            let result = match (self.reopen, chosen()) {
                (Some(reopen), Some(chosen)) => {
                    *self.events = None;
                    release();
                    let result = edit_in(&chosen, &text, self.foreground);
                    reclaim(mouse);
                    // The screen is blank again: a blank frame makes ratatui's last frame
                    // match, so the next one is drawn whole (`Terminal::clear` would ask the
                    // terminal for the cursor and wait for its answer).
                    let _ = terminal.draw(|frame| {
                        frame.render_widget(ratatui::widgets::Clear, frame.area());
                    });
                    *self.events = Some(reopen());
                    result
                }
                _ => Err("no terminal to hand to the editor".to_owned()),
            };
            let _ = self.tx.send(match ids {
                Some(ids) => Msg::NoteEdited { ids, result },
                None => Msg::ReplyEdited(result),
            });
        }
        rest
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A script standing in for an editor: appends a line, or fails.
    fn script(dir: &tempfile::TempDir, body: &str) -> String {
        let path = dir.path().join("ed.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        format!("sh {}", path.display())
    }

    #[test]
    fn the_editor_gets_a_private_file_and_its_text_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let seen = dir.path().join("mode");
        let editor = script(
            &dir,
            &format!(
                "stat -c %a \"$1\" > {}; printf 'second line\\n' >> \"$1\"",
                seen.display()
            ),
        );
        // Text that would be dangerous on a command line reaches the file only.
        let note = "first $(touch pwned) `id`; line";
        let edited = edit(&editor, note).unwrap();
        assert_eq!(
            edited.as_deref(),
            Some("first $(touch pwned) `id`; linesecond line")
        );
        assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), "600");
        assert!(!std::path::Path::new("pwned").exists());
    }

    #[test]
    fn the_terminal_is_handed_over_with_the_cursor_shown() {
        let mut out = Vec::new();
        release_to(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("\u{1b}[?1049l"),
            "leaves the alternate screen: {text:?}"
        );
        assert!(
            text.ends_with("\u{1b}[?25h"),
            "then shows the cursor: {text:?}"
        );
    }

    #[test]
    fn the_editor_gets_no_secret_of_the_inbox() {
        let name = "runtime::editor::tests::the_editor_gets_no_secret_of_the_inbox";
        if !feedback_core::child_env::rerun_with_secrets(name) {
            return;
        }
        let var = feedback_core::child_env::TEST_SECRET_VAR;
        feedback_api::webhook::Secret::from_env(var).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let editor = script(
            &dir,
            &format!(
                "printf 'key:%s secret:%s team:%s' \"${{FEEDBACK_API_KEY-none}}\" \"${{{var}-none}}\" \
                 \"${{FEEDBACK_TEAM_URL-none}}\" > \"$1\""
            ),
        );
        let edited = edit(&editor, "note").unwrap();
        assert_eq!(edited.as_deref(), Some("key:none secret:none team:none"));
    }

    #[test]
    fn an_unchanged_note_or_a_failed_editor_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(edit(&script(&dir, "true"), "same").unwrap(), None);
        let err = edit(&script(&dir, "exit 3"), "same").unwrap_err();
        assert!(err.contains("unchanged"), "{err}");
    }
}
