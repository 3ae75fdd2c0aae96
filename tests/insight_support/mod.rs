//! What the insight tests share: an inbox over 40 items spread over 32 days (some with their
//! details), the picker driven by keys, and the screen drawn as text.
#![allow(clippy::unwrap_used, dead_code)]

use feedback_api::FeedbackDetail;
use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{Harness, item, now, started_harness};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

pub fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

pub fn key(h: &mut Harness, code: KeyCode) {
    h.send(Msg::InsightInput(KeyEvent::new(code, KeyModifiers::NONE)));
}

pub fn typed(h: &mut Harness, text: &str) {
    for c in text.chars() {
        key(h, KeyCode::Char(c));
    }
}

/// Item `n`'s detail, received `n * 19` hours before now (so the 40 items span 32 days), with
/// a version, an OS, a locale and a custom plan that vary.
pub fn spread_detail(n: usize) -> FeedbackDetail {
    let mut feedback = item(n);
    feedback.received_at = now() - jiff::SignedDuration::from_hours(i64::try_from(n).unwrap() * 19);
    let plan = ["pro", "free", "team plan"][n % 3];
    let version = ["2.14.1", "2.13.0"][n % 2];
    serde_json::from_value(serde_json::json!({
        "id": feedback.id, "message": feedback.message, "reporter_email": feedback.reporter_email,
        "status": "new", "received_at": feedback.received_at, "tags": feedback.tags,
        "app": feedback.app, "project": feedback.project,
        "metadata": {"built_in": {"appVersion": version, "iOSVersion": "18.2", "locale": "de-DE"},
                     "custom": {"plan": plan}},
        "delivery": []
    }))
    .unwrap()
}

/// An inbox over 40 items spread over 32 days; the details (metadata) of the first `details`
/// of them are stored, the others are listed only.
pub fn harness(width: u16, height: u16, details: usize) -> Harness {
    let mut h = started_harness(width, height, 0, true);
    h.store.write(|s| {
        for n in 0..40 {
            let detail = spread_detail(n);
            if n < details {
                s.put_detail(&detail, now()).unwrap();
            } else {
                let mut listed = item(n);
                listed.received_at = detail.feedback.received_at;
                s.put_items(&[listed], now()).unwrap();
            }
        }
    });
    // The store changed: the list is queried again.
    h.send(Msg::Arrived(Ok(true)));
    h.state.note = None;
    assert_eq!(h.state.visible_len(), 40);
    h
}

/// Opens the picker, types `kind` and groups by the first choice.
pub fn group_by(h: &mut Harness, kind: &str) {
    h.group_by(kind);
}

pub fn groups(h: &Harness) -> Vec<(Option<String>, u64)> {
    let grouped = h.state.insight.grouped.as_ref().unwrap();
    let pivot = grouped.pivot.as_ref().unwrap();
    pivot
        .groups
        .iter()
        .map(|g| (g.key.clone(), g.count))
        .collect()
}

pub fn queued(h: &Harness) -> u64 {
    h.store.read(feedback_store::Store::queued_details).unwrap()
}

/// The status bar's row.
pub fn status_row(state: &AppState) -> String {
    let terminal = draw(state);
    let buffer = terminal.backend().buffer();
    let y = buffer.area.height - 1;
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol().to_owned())
        .collect()
}
