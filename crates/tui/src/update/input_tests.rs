//! Unit tests of input that is not a plain key action: Ctrl-C on every screen, bracketed paste,
//! the help overlay's scrolling, clicks over overlays, countdown redraws, copy and browser notes.
//! Events go through `runtime::translate` with the default key map, as in the running inbox.

use std::time::Duration;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::*;
use crate::action::{Action, CopyOutcome, Msg};
use crate::effect::{Effect, Local, Read};
use crate::keymap::Keymap;
use crate::runtime::translate;
use crate::state::{Fatal, Focus};
use crate::testkit::{budget, now, started};
use feedback_api::{Status, Wait, WaitReason};
use feedback_core::text::Clean;

/// Translates `event` as the running inbox would and applies the result.
fn send(state: &mut AppState, event: &Event) -> Option<Vec<Effect>> {
    let msg = translate(event, state, &Keymap::default())?;
    Some(update(state, msg))
}

fn key(c: char) -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

fn ctrl_c() -> Event {
    Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))
}

fn prompt_text(state: &AppState) -> String {
    state.text_filter.as_ref().unwrap().input.lines().join("\n")
}

fn note(state: &AppState) -> String {
    state
        .note
        .as_ref()
        .map(|n| n.text.to_string())
        .unwrap_or_default()
}

fn with_detail_open() -> AppState {
    let mut state = started(120, 35, 100, false);
    update(&mut state, Msg::Action(Action::Open));
    update(
        &mut state,
        Msg::DetailLoaded {
            id: "id00000".into(),
            result: Ok(Box::new(crate::testkit::stored_detail(0))),
        },
    );
    state
}

/// Every screen and prompt of the inbox.
fn screens() -> Vec<(&'static str, AppState)> {
    let list = started(120, 35, 100, false);
    let mut prompt = list.clone();
    send(&mut prompt, &key('/'));
    send(&mut prompt, &key('a'));
    let mut help = list.clone();
    send(&mut help, &key('?'));
    let mut pane = list.clone();
    update(&mut pane, Msg::Action(Action::FocusNext));
    let mut fatal = list.clone();
    fatal.fatal = Some(Fatal {
        title: "Key rejected".into(),
        body: Clean::fixed("401"),
    });
    vec![
        ("list", list),
        ("prompt", prompt),
        ("detail", with_detail_open()),
        ("help", help),
        ("pane", pane),
        ("fatal", fatal),
    ]
}

#[test]
fn ctrl_c_quits_from_every_screen_and_prompt() {
    for (name, mut state) in screens() {
        assert!(!state.quit, "{name}");
        let effects = send(&mut state, &ctrl_c()).expect("ctrl-c is never dropped");
        assert!(effects.is_empty(), "{name}");
        assert!(state.quit, "ctrl-c quits from the {name}");
    }
}

#[test]
fn q_still_means_back_in_the_detail_and_text_in_the_prompt() {
    let mut state = with_detail_open();
    send(&mut state, &key('q'));
    assert!(state.detail.is_none() && !state.quit);
    send(&mut state, &key('/'));
    send(&mut state, &key('q'));
    assert_eq!(prompt_text(&state), "q");
    assert!(!state.quit);
}

#[test]
fn a_paste_into_the_prompt_is_text_and_never_runs_keys() {
    let mut state = started(120, 35, 100, false);
    send(&mut state, &key('/'));
    let effects = send(&mut state, &Event::Paste("KINGFISHER\nsq".into())).unwrap();
    // The only effect is the search over the store, of the pasted text.
    assert!(
        matches!(effects.as_slice(), [Effect::Read(Read::Query { spec, .. })] if spec.search == "KINGFISHER sq")
    );
    assert_eq!(prompt_text(&state), "KINGFISHER sq");
    assert!(!state.quit, "the q was not a key");
    assert_eq!(
        state.view.listed_status(),
        Status::New,
        "the s was not a key"
    );
    assert!(state.text_filter.as_ref().unwrap().editing);
    assert_eq!(state.view.search, "KINGFISHER sq");
}

#[test]
fn a_pasted_line_break_or_control_character_is_neutralised() {
    let mut state = started(120, 35, 100, false);
    send(&mut state, &key('/'));
    send(
        &mut state,
        &Event::Paste("number 7\r\n\tsync\x1b]52;c;x\x07".into()),
    );
    let text = prompt_text(&state);
    assert!(
        !text.contains(['\n', '\r', '\t', '\x1b', '\x07']),
        "{text:?}"
    );
    assert!(text.starts_with("number 7 "), "{text:?}");
}

#[test]
fn a_huge_paste_is_capped_and_says_so() {
    let mut state = started(120, 35, 100, false);
    send(&mut state, &key('/'));
    send(&mut state, &key('m'));
    let huge = "é".repeat(512 * 1024) + "\nq";
    send(&mut state, &Event::Paste(huge));
    let text = prompt_text(&state);
    assert!(text.len() <= PROMPT_MAX_BYTES, "{}", text.len());
    assert!(text.len() >= PROMPT_MAX_BYTES - 1, "{}", text.len());
    assert!(text.starts_with("mé"));
    assert!(!state.quit);
    assert!(note(&state).contains("Paste cut"), "{}", note(&state));
    send(&mut state, &Event::Paste("more".repeat(100)));
    let more = prompt_text(&state);
    assert!(more.len() <= PROMPT_MAX_BYTES && more.starts_with(&text));
}

#[test]
fn typed_keys_stop_at_the_prompts_size_but_editing_keys_still_work() {
    let mut state = started(120, 35, 100, false);
    send(&mut state, &key('/'));
    send(&mut state, &Event::Paste("x".repeat(PROMPT_MAX_BYTES - 1)));
    send(&mut state, &key('y'));
    send(&mut state, &key('z'));
    let text = prompt_text(&state);
    assert_eq!(text.len(), PROMPT_MAX_BYTES);
    assert!(text.ends_with("xy"));
    assert!(note(&state).contains("prompt is full"), "{}", note(&state));
    let backspace = Event::Key(KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE));
    send(&mut state, &backspace);
    assert!(prompt_text(&state).ends_with("xx"));
    send(&mut state, &key('q'));
    assert!(prompt_text(&state).ends_with("xq"));
    assert!(!state.quit);
}

#[test]
fn a_paste_outside_the_prompt_is_ignored_with_a_note() {
    for (name, mut state) in screens() {
        if name == "prompt" {
            continue;
        }
        let selected = state.list.selected;
        let effects = send(&mut state, &Event::Paste("jjjGsq".into())).unwrap();
        assert!(effects.is_empty(), "{name}");
        assert!(!state.quit, "{name}");
        assert_eq!(state.list.selected, selected, "{name}");
        assert_eq!(state.view.listed_status(), Status::New, "{name}");
        assert!(note(&state).starts_with("Paste ignored"), "{name}");
    }
}

/// A 40×12 inbox (the smallest supported) with the help open: taller than the screen.
fn small_help() -> (AppState, u16) {
    let mut state = started(40, 12, 100, false);
    send(&mut state, &key('?'));
    let (_, max) =
        crate::render::help_scroll_range(40, 12, &Keymap::default(), crate::state::Mode::Normal);
    assert!(max > 5, "the help is taller than a small screen ({max})");
    (state, max)
}

#[test]
fn the_help_scrolls_with_keys_and_the_wheel_within_its_length() {
    let (mut state, max) = small_help();
    send(&mut state, &key('j'));
    send(&mut state, &key('j'));
    assert_eq!(state.help_scroll, 2);
    send(&mut state, &key('k'));
    assert_eq!(state.help_scroll, 1);
    send(&mut state, &key('G'));
    assert_eq!(state.help_scroll, max);
    send(&mut state, &key('j'));
    assert_eq!(state.help_scroll, max, "never past the end");
    send(&mut state, &key('k'));
    assert_eq!(state.help_scroll, max - 1, "k moves at once after G");
    send(&mut state, &key('g'));
    assert_eq!(state.help_scroll, 0);
    let page = Event::Key(KeyEvent::new(KeyCode::PageDown, KeyModifiers::NONE));
    send(&mut state, &page);
    let (rows, _) =
        crate::render::help_scroll_range(40, 12, &Keymap::default(), crate::state::Mode::Normal);
    assert_eq!(state.help_scroll, rows.min(max), "one screen of help");
    for _ in 0..rows {
        send(&mut state, &wheel(MouseEventKind::ScrollUp));
    }
    assert_eq!(state.help_scroll, 0);
    send(&mut state, &wheel(MouseEventKind::ScrollDown));
    assert_eq!(state.help_scroll, 3);
    assert_eq!(
        state.list.selected, 0,
        "the list under the help did not move"
    );
    send(
        &mut state,
        &Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
    );
    assert!(!state.help);
    assert_eq!(state.help_scroll, 0, "reopened help starts at the top");
}

fn wheel(kind: MouseEventKind) -> Event {
    mouse(kind, 60, 10)
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> Event {
    Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

#[test]
fn clicks_do_not_reach_the_list_under_the_detail_help_or_fatal_screen() {
    let click = || mouse(MouseEventKind::Down(MouseButton::Left), 60, 10);
    for (name, mut state) in screens() {
        let covered = matches!(name, "detail" | "help" | "fatal");
        let selected = state.list.selected;
        send(&mut state, &click());
        if covered {
            assert_eq!(state.list.selected, selected, "{name}");
            // Even a click message that got through is dropped by update.
            update(&mut state, Msg::ClickRow(10));
            assert_eq!(state.list.selected, selected, "{name}");
        }
    }
    let mut list = started(120, 35, 100, false);
    send(&mut list, &click());
    // The view bar above the list moves its rows one down.
    assert_eq!(list.list.selected, 7, "on the list itself a click selects");
    assert_eq!(list.focus, Focus::List);
}

/// A state showing the rate-limit budget with its reset 37 s away, redrawn once.
fn budget_shown() -> AppState {
    let mut state = started(120, 35, 100, true);
    update(
        &mut state,
        budget(60, 42, now() + jiff::SignedDuration::from_secs(37)),
    );
    state.dirty = false;
    state
}

fn tick(state: &mut AppState, after_ms: i64) -> bool {
    update(
        state,
        Msg::Tick(now() + jiff::SignedDuration::from_millis(after_ms)),
    );
    std::mem::replace(&mut state.dirty, false)
}

#[test]
fn the_reset_countdown_redraws_when_its_second_changes_and_only_then() {
    let mut state = budget_shown();
    let dirty: Vec<bool> = [250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250]
        .iter()
        .map(|&ms| tick(&mut state, ms))
        .collect();
    // 37 s left: 36.75 shows 36 (redraw), then 36 until 35.75 shows 35, and so on.
    assert_eq!(
        dirty,
        [true, false, false, false, true, false, false, false, true]
    );
}

#[test]
fn the_wait_countdown_redraws_each_second_and_when_it_ends() {
    let mut state = started(120, 35, 100, true);
    update(
        &mut state,
        Msg::Waiting(Wait {
            reason: WaitReason::Pacing,
            duration: Duration::from_secs(2),
            until: now() + jiff::SignedDuration::from_secs(2),
            capped_from: None,
        }),
    );
    state.dirty = false;
    let dirty: Vec<bool> = [250, 500, 1000, 1250, 1500, 2000, 2250]
        .iter()
        .map(|&ms| tick(&mut state, ms))
        .collect();
    assert_eq!(dirty, [true, false, false, true, false, true, false]);
    assert!(state.wait.is_none());
}

#[test]
fn an_idle_inbox_without_countdowns_does_not_redraw_on_ticks() {
    let mut state = started(120, 35, 100, true);
    state.dirty = false;
    assert!(
        ![250, 500, 1250, 5000]
            .iter()
            .any(|&ms| tick(&mut state, ms))
    );
}

#[test]
fn an_osc52_copy_says_it_was_sent_and_on_what_it_depends() {
    let mut state = started(120, 35, 100, false);
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Sent {
            what: "the id",
            how: feedback_clipboard::CopyMethod::Osc52 { in_tmux: true }.how(),
        }),
    );
    assert_eq!(
        note(&state),
        "Sent the id as OSC 52; tmux passes it on only with set-clipboard on"
    );
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Copied {
            what: "the id",
            how: feedback_clipboard::CopyMethod::TmuxBuffer.how(),
        }),
    );
    assert_eq!(note(&state), "Copied the id to tmux's paste buffer");
}

#[test]
fn o_without_a_browser_says_why_and_that_the_link_was_copied() {
    let mut state = with_detail_open();
    state.can_open_browser = false;
    state.no_browser_reason = "over SSH";
    let url = "https://issues.example.com/nimbus/issues/1000";
    let effects = send(&mut state, &key('o')).unwrap();
    assert_eq!(
        effects,
        [Effect::Local(Local::Copy {
            what: "the issue-tracker link",
            text: Clean::line(url)
        })]
    );
    assert!(note(&state).contains("over SSH"), "{}", note(&state));
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Copied {
            what: "the issue-tracker link",
            how: "to tmux's paste buffer",
        }),
    );
    assert_eq!(
        note(&state),
        "Not opened (over SSH); copied the issue-tracker link to tmux's paste buffer"
    );
}

#[test]
fn a_browser_that_fails_to_open_says_why_and_the_link_is_copied_instead() {
    let mut state = with_detail_open();
    let url = "https://issues.example.com/nimbus/issues/1000";
    let effects = update(
        &mut state,
        Msg::Opened {
            url: url.into(),
            result: Err("xdg-open: not found".into()),
        },
    );
    assert_eq!(
        effects,
        [Effect::Local(Local::Copy {
            what: "the issue-tracker link",
            text: Clean::line(url)
        })]
    );
    update(
        &mut state,
        Msg::Copied(CopyOutcome::Failed {
            what: "the issue-tracker link",
            reason: "no clipboard available: closed".into(),
        }),
    );
    let last = state.note.clone().unwrap();
    assert!(last.error);
    assert_eq!(
        last.text,
        "Could not open the browser (xdg-open: not found); \
         could not copy the issue-tracker link: no clipboard available: closed"
    );
}
