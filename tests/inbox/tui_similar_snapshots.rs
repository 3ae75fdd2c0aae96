//! Snapshots of the similar list (`S`): the ordinary list pinned to the items like the selected
//! one, under a heading that quotes it (sanitized, cut), counts them and names their apps, at
//! 100 (the sidebar hidden, for the preview's room) and 160 columns with the preview on; the selected item's message is hostile. Fixed data
//! and clock.
#![allow(clippy::unwrap_used)]

use crate::hostile;

use feedback_api::{AppRef, Feedback, FeedbackId, Platform};
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::reading::preview_on;
use feedback_tui::render;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{Harness, item, now, started_harness};
use jiff::SignedDuration;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

const SPLASH: &str = "App closes itself right after the splash screen";
/// Escapes (a clipboard write, a screen clear), a bidi override: none may reach the terminal.
const HOSTILE: &str = "\u{1b}]52;c;ZXZpbA==\u{7}App closes itself\u{202e} right after the \
                       splash screen\u{1b}[2J\nsecond line";

fn app(name: &str, platform: Platform) -> AppRef {
    AppRef {
        id: format!("00000000-0000-4000-8000-{:012}", name.len()),
        name: name.to_owned(),
        platform,
    }
}

/// Feedback `n` minutes newer than the fixture's newest, saying `message`, from `app`.
fn newer(n: i64, message: &str, app: AppRef) -> Feedback {
    let mut f = item(usize::try_from(500 + n).unwrap());
    f.id = FeedbackId(format!("splash{n:02}"));
    f.received_at = now() + SignedDuration::from_mins(n);
    message.clone_into(&mut f.message);
    f.app = Some(app);
    f
}

/// The fixture's 20 items, six that say the splash screen line from three apps, and the newest,
/// hostile, selected; `S` answered.
fn similar_list(width: u16) -> Harness {
    let mut h = started_harness(width, 24, 20, true);
    let mut items = vec![newer(60, HOSTILE, app("Trailhead", Platform::Ios))];
    for (n, name) in [
        (1, "Trailhead"),
        (2, "Pathfinder"),
        (3, "Trailhead"),
        (4, "Beacon"),
        (5, "Pathfinder"),
        (6, "Trailhead"),
    ] {
        let text = format!("{SPLASH} (report {n})");
        items.push(newer(n, &text, app(name, Platform::Android)));
    }
    h.store.write(|s| s.put_items(&items, now())).unwrap();
    h.send(Msg::Arrived(Ok(true)));
    h.send(Msg::Action(Action::Top));
    assert_eq!(h.selected_id(), "splash60");
    h.send(Msg::Action(Action::Similar));
    // The preview reads the selected item once the selection rests.
    h.send(Msg::Tick(now() + SignedDuration::from_secs(1)));
    h.send(Msg::Tick(now() + SignedDuration::from_secs(2)));
    h.state.note = None;
    h
}

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

fn row(terminal: &Terminal<TestBackend>, y: u16) -> String {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

#[test]
fn similar_list_at_160_columns_with_the_preview() {
    let h = similar_list(160);
    assert!(preview_on(&h.state), "the preview is on");
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let title = row(&terminal, 1);
    assert!(
        title.contains("Similar to \"␛App closes")
            && title.contains("\" · 6 items · Trailhead 3, Pathfinder 2"),
        "{title}"
    );
    hostile::assert_screen_inert("the similar list", &h.state);
    // The words the likeness was measured on are marked in the rows, the spaces between not.
    let second = row(&terminal, 4);
    let at = second.find("closes").unwrap();
    let x = u16::try_from(second[..at].chars().count()).unwrap();
    let buffer = terminal.backend().buffer();
    assert_ne!(buffer[(x, 4)].style(), buffer[(x - 1, 4)].style());
}

#[test]
fn privacy_masks_the_similar_lists_emails() {
    let mut h = similar_list(160);
    assert!(text(&draw(&h.state)).contains("user506@example.com"));
    h.send(Msg::Action(Action::TogglePrivacy));
    assert!(h.state.similar.shown.is_some(), "P keeps the key set");
    let screen = text(&draw(&h.state));
    assert!(
        !screen.contains("@example.com") && screen.contains("•••@•••"),
        "{screen}"
    );
}

fn text(terminal: &Terminal<TestBackend>) -> String {
    (0..terminal.backend().buffer().area.height)
        .map(|y| row(terminal, y) + "\n")
        .collect()
}

#[test]
fn similar_list_at_100_columns_with_the_preview() {
    let mut h = similar_list(100);
    if !preview_on(&h.state) {
        h.send(Msg::Action(Action::TogglePreview));
    }
    // The preview needs 90 columns beside the sidebar: `b` hides the sidebar.
    h.send(Msg::Action(Action::ToggleSidebar));
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let title = row(&terminal, 1);
    assert!(
        title.contains("Similar to \"␛App")
            && title.contains("· 6 items")
            && title.contains(" Preview "),
        "{title}"
    );
    hostile::assert_screen_inert("the similar list at 100 columns", &h.state);
}
