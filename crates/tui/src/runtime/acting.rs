//! The runtime's side of acting on items: the store reads of marked and gathered items (on the
//! reading thread), and `|`: the command runs without a shell (`std::process::Command` with
//! the configured argv; no item text is ever on its command line, no secret variable in its
//! environment: [`feedback_core::child_env`]), the terminal handed over
//! as for `$EDITOR`, the items as JSON lines on its stdin; its exit status comes back as
//! `Msg::Piped`, with what it printed when its entry captures it (shown all the same).

use std::io::Write;
use std::process::{Command, Stdio};

use ratatui::{Terminal, backend::Backend};

use super::editor::{Outside, reclaim, release};
use super::foreground::Foreground;
use super::reads::Task;
use crate::action::Msg;
use crate::effect::{Effect, Handover};
use crate::failure::Failure;
use crate::team::TeamShown;
use feedback_core::text::Clean;
use feedback_store::Shared;

/// `Read::ResolveMarks`: the ids of these marked items.
pub(super) fn resolve_marks(store: &Shared, request_id: u64, keys: Vec<i64>) -> Task {
    let store = store.clone();
    Box::new(move || Msg::MarksResolved {
        request_id,
        result: store
            .read(|s| s.items(&keys))
            .map(|items| {
                items
                    .into_iter()
                    .map(|i| (i.key, i.feedback.id.as_str().to_owned()))
                    .collect()
            })
            .map_err(Failure::from),
    })
}

/// `Read::ViewIds`: the ids of the items with these keys, in their order.
pub(super) fn view_ids(store: &Shared, request_id: u64, keys: std::sync::Arc<[i64]>) -> Task {
    let store = store.clone();
    Box::new(move || Msg::ViewIds {
        request_id,
        result: store
            .read(|s| s.items(&keys))
            .map(|items| items.into_iter().map(|i| i.feedback.id.0).collect())
            .map_err(Failure::from),
    })
}

/// `Read::Gather`: these items' stored details with their triage and team states.
pub(super) fn gather(store: &Shared, request_id: u64, ids: Vec<String>) -> Task {
    let store = store.clone();
    Box::new(move || Msg::Gathered {
        request_id,
        result: store
            .read(|s| {
                let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
                let mut triage = s.triage_of(&ids)?;
                let owned: Vec<String> = ids.iter().map(|id| (*id).to_owned()).collect();
                let mut team = TeamShown::read_touched(s, &owned)?;
                let mut out = Vec::with_capacity(ids.len());
                for id in ids {
                    if let Some(detail) = s.detail(id)? {
                        out.push(crate::acting::GatheredItem {
                            detail,
                            triage: triage.remove(id).unwrap_or_default(),
                            team: team.remove(id),
                        });
                    }
                }
                Ok::<_, feedback_store::StoreError>(out)
            })
            .map_err(Failure::from),
    })
}

/// Runs `argv` with `input` on its stdin and waits for it: its exit code (`None`: a signal
/// ended it), or why it could not run. A command that stops reading early is not an error
/// (the rest of the input is dropped).
pub fn run_command(argv: &[String], input: &str) -> Result<Option<i32>, Clean> {
    run_command_in(argv, input, &Foreground::default(), None).map(|(code, _)| code)
}

/// The most of a command's output kept for `capture` (what it prints past that is still shown).
pub const CAPTURE_MAX_BYTES: usize = 64 * 1024;

/// How a command's output is read for `capture`: passed on to `show` as it comes (the
/// terminal, so the user sees it as without capture), the first [`CAPTURE_MAX_BYTES`] kept.
pub struct Captured<'a> {
    pub show: Option<&'a mut (dyn Write + Send)>,
}

/// [`run_command`], passing the command any terminating signal `foreground` hears meanwhile;
/// with `capture`, its output is read (and shown through it) and comes back with its status.
fn run_command_in(
    argv: &[String],
    input: &str,
    foreground: &Foreground,
    capture: Option<Captured<'_>>,
) -> Result<(Option<i32>, String), Clean> {
    let (program, rest) = argv
        .split_first()
        .ok_or_else(|| Clean::fixed("the command's argv is empty"))?;
    let mut command = Command::new(program);
    feedback_core::child_env::scrub(&mut command)
        .args(rest)
        .stdin(Stdio::piped());
    if capture.is_some() {
        command.stdout(Stdio::piped());
    }
    let mut child = command.spawn().map_err(|e| Clean::line(&e.to_string()))?;
    let stdin = child.stdin.take();
    let stdout = child.stdout.take();
    std::thread::scope(|scope| {
        // Written on a thread of its own: a command that writes a lot before it reads cannot
        // block us both.
        let writer = stdin.map(|mut stdin| {
            let input = input.as_bytes();
            scope.spawn(move || {
                let _ = stdin.write_all(input);
            })
        });
        let reader = stdout
            .zip(capture)
            .map(|(out, capture)| scope.spawn(move || read_output(out, capture)));
        let status = foreground
            .wait(&mut child)
            .map_err(|e| Clean::line(&e.to_string()));
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        let output = reader.and_then(|r| r.join().ok()).unwrap_or_default();
        status.map(|status| (status.code(), output))
    })
}

/// Reads a command's output to its end: shown as it comes, the first [`CAPTURE_MAX_BYTES`]
/// kept (as text: bytes that are no UTF-8 become U+FFFD).
fn read_output(mut out: impl std::io::Read, capture: Captured<'_>) -> String {
    let Captured { mut show } = capture;
    let mut kept = Vec::new();
    let mut chunk = [0_u8; 8192];
    loop {
        match out.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if let Some(show) = show.as_mut() {
                    let _ = show.write_all(&chunk[..n]).and_then(|()| show.flush());
                }
                let room = CAPTURE_MAX_BYTES.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// What the terminal shows once a `|` command exited, while it waits for a key.
#[must_use]
pub(crate) fn exit_line(result: &Result<Option<i32>, Clean>) -> String {
    let how = match result {
        Ok(Some(code)) => format!("exit {code}"),
        Ok(None) => "killed by a signal".to_owned(),
        Err(message) => format!("could not run: {message}"),
    };
    format!("{how} — press a key to return")
}

/// Shows [`exit_line`] under the command's output and waits for `key` (one key press), so the
/// output can be read before the inbox takes the screen back.
pub(crate) fn after_command(
    out: &mut impl Write,
    result: &Result<Option<i32>, Clean>,
    key: impl FnOnce() -> std::io::Result<()>,
) -> std::io::Result<()> {
    write!(out, "\r\n{}\r\n", exit_line(result))?;
    out.flush()?;
    key()
}

/// How often the wait for a key looks for a signal.
const KEY_POLL: std::time::Duration = std::time::Duration::from_millis(100);

/// Waits for one key press on the terminal (raw mode for the moment, so any key will do), or
/// for a terminating signal (then the inbox quits at once).
fn any_key(foreground: &Foreground) -> std::io::Result<()> {
    use ratatui::crossterm::event::{self, Event, KeyEventKind};
    ratatui::crossterm::terminal::enable_raw_mode()?;
    let result = loop {
        if foreground.signalled().is_some() {
            break Ok(());
        }
        match event::poll(KEY_POLL).and_then(|ready| ready.then(event::read).transpose()) {
            Ok(Some(Event::Key(key))) if key.kind == KeyEventKind::Press => break Ok(()),
            Ok(_) => {}
            Err(e) => break Err(e),
        }
    };
    let _ = ratatui::crossterm::terminal::disable_raw_mode();
    result
}

impl<E> Outside<'_, E> {
    /// Runs the pipes among `effects`, the terminal handed over while each runs (when there is
    /// a terminal: tests drive the loop without one, and the command runs all the same),
    /// answering each with `Msg::Piped`; returns the other effects.
    pub(super) fn pipes<B: Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
        effects: Vec<Effect>,
        mouse: bool,
    ) -> Vec<Effect> {
        let (pipes, rest): (Vec<_>, Vec<_>) = effects
            .into_iter()
            .partition(|e| matches!(e, Effect::Terminal(Handover::Pipe { .. })));
        for effect in pipes {
            let Effect::Terminal(Handover::Pipe {
                name,
                argv,
                input,
                items,
                wait,
                capture,
            }) = effect
            else {
                continue;
            };
            let ran = match self.reopen {
                Some(reopen) => {
                    *self.events = None;
                    release();
                    // What the command prints reaches the terminal as it would uncaptured.
                    let mut shown = std::io::stdout();
                    let captured = capture.map(|_| Captured {
                        show: Some(&mut shown),
                    });
                    let ran = run_command_in(&argv, &input, self.foreground, captured);
                    if wait && self.foreground.signalled().is_none() {
                        let foreground = self.foreground;
                        let status = ran.as_ref().map(|(code, _)| *code).map_err(Clone::clone);
                        let _ =
                            after_command(&mut std::io::stdout(), &status, || any_key(foreground));
                    }
                    reclaim(mouse);
                    let _ = terminal.draw(|frame| {
                        frame.render_widget(ratatui::widgets::Clear, frame.area());
                    });
                    *self.events = Some(reopen());
                    ran
                }
                None => {
                    let captured = capture.map(|_| Captured { show: None });
                    run_command_in(&argv, &input, self.foreground, captured)
                }
            };
            let (result, output) = match ran {
                Ok((code, output)) => (Ok(code), output),
                Err(why) => (Err(why), String::new()),
            };
            let _ = self.tx.send(Msg::Piped {
                name,
                items,
                result,
                capture,
                output,
            });
        }
        rest
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn argv(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn the_command_gets_the_input_on_stdin_and_its_status_comes_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let script = format!("cat > '{}'; exit 3", out.display());
        let code = run_command(&argv(&["sh", "-c", &script]), "{\"a\":1}\n").unwrap();
        assert_eq!(code, Some(3));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"a\":1}\n");
    }

    #[test]
    fn a_captured_commands_output_is_shown_as_it_comes_and_kept_up_to_a_cap() {
        let mut shown = Vec::new();
        let script = "cat > /dev/null; echo Filed https://t.example/T-1; head -c 70000 /dev/zero | tr '\\0' x";
        let (code, kept) = run_command_in(
            &argv(&["sh", "-c", script]),
            "{}\n",
            &Foreground::default(),
            Some(Captured {
                show: Some(&mut shown),
            }),
        )
        .unwrap();
        assert_eq!(code, Some(0));
        assert!(
            kept.starts_with("Filed https://t.example/T-1\n"),
            "{}",
            &kept[..40]
        );
        assert_eq!(kept.len(), CAPTURE_MAX_BYTES);
        assert_eq!(
            shown.len(),
            "Filed https://t.example/T-1\n".len() + 70_000,
            "all of it shown"
        );
    }

    #[test]
    fn after_a_command_the_exit_line_shows_and_one_key_is_awaited() {
        let mut out = Vec::new();
        let mut keys = 0;
        after_command(&mut out, &Ok(Some(3)), || {
            keys += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(keys, 1);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "\r\nexit 3 — press a key to return\r\n"
        );
        assert_eq!(
            exit_line(&Ok(None)),
            "killed by a signal — press a key to return"
        );
        assert_eq!(
            exit_line(&Err(Clean::fixed("no \u{1b}[31mfile"))),
            "could not run: no ␛file — press a key to return"
        );
    }

    #[test]
    fn a_piped_command_gets_no_secret_of_the_inbox() {
        let name = "runtime::acting::tests::a_piped_command_gets_no_secret_of_the_inbox";
        if !feedback_core::child_env::rerun_with_secrets(name) {
            return;
        }
        let var = feedback_core::child_env::TEST_SECRET_VAR;
        feedback_api::webhook::Secret::from_env(var).unwrap();
        let check = format!(
            "test -z \"${{FEEDBACK_API_KEY+set}}\" || exit 10; test -z \"${{{var}+set}}\" || exit 11; \
             test -z \"${{FEEDBACK_TEAM_URL+set}}\" || exit 12"
        );
        assert_eq!(
            run_command(&argv(&["sh", "-c", &check]), "").unwrap(),
            Some(0)
        );
    }

    #[test]
    fn a_missing_program_or_an_early_exit_is_reported_plainly() {
        let err = run_command(&argv(&["/nonexistent/prog"]), "x").unwrap_err();
        assert!(!err.is_empty());
        let big = "x".repeat(1 << 20);
        assert_eq!(run_command(&argv(&["true"]), &big).unwrap(), Some(0));
        assert!(run_command(&[], "x").is_err());
    }
}

#[cfg(test)]
mod translate_tests {
    #![allow(clippy::unwrap_used)]

    use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

    use crate::action::{Action, Msg};
    use crate::keymap::Keymap;
    use crate::state::AppState;

    #[test]
    fn the_pipe_picker_takes_every_key_while_open() {
        let mut state = AppState::new(crate::testkit::now(), 120, 30);
        let keymap = Keymap::default();
        let q = Event::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
        assert!(matches!(
            super::super::translate(&q, &state, &keymap),
            Some(Msg::Action(Action::Quit))
        ));
        state.acting.picker = Some(crate::acting::PipePicker::default());
        assert!(matches!(
            super::super::translate(&q, &state, &keymap),
            Some(Msg::PickerInput(_))
        ));
    }
}
