//! How the loop reports its end: a terminating signal by number (the CLI exits 128 + it once
//! it has cleaned up), a quit as such.

use futures_util::{StreamExt, stream};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::*;
use feedback_api::{ApiKey, Client};
use feedback_clipboard::MemoryClipboard;
use feedback_store::Store;
use feedback_sync::{SyncSettings, Syncer};

/// Options for a loop over an empty in-memory store whose requests go nowhere (nothing
/// listens on the discard port).
fn options() -> Options {
    let key = ApiKey::parse(feedback_sim::DEMO_KEY).unwrap();
    let client = Client::builder("http://127.0.0.1:9", key)
        .unwrap()
        .build()
        .unwrap();
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let syncer = Syncer::new(
        client,
        store.clone(),
        feedback_core::clock::system(),
        SyncSettings::default(),
    );
    Options {
        store,
        syncer: std::sync::Arc::new(syncer),
        keymap: Keymap::default(),
        refresh_seconds: 0,
        triage: feedback_config::triage::TriageSettings::default(),
        views: feedback_config::views::ViewsSettings::default(),
        preview: feedback_config::preview::PreviewSetting::default(),
        clipboard: Box::new(MemoryClipboard::default()),
        arrivals: None,
        waits: None,
        looks: feedback_config::looks::LooksSettings::default(),
        mail: None,
        templates: Vec::new(),
        team: None,
    }
}

#[tokio::test]
async fn a_terminating_signal_ends_the_loop_and_is_reported_by_number() {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let events = stream::pending::<io::Result<Event>>();
    let ended = drive_until(
        &mut terminal,
        super::editor::Events {
            stream: events,
            reopen: None,
        },
        options(),
        |_| {},
        async { 15 },
    )
    .await
    .unwrap();
    assert_eq!(ended, Ended::Signal(15));
}

#[tokio::test]
async fn q_ends_the_loop_as_a_quit() {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let q = Event::Key(KeyEvent::new(
        KeyCode::Char('q'),
        ratatui::crossterm::event::KeyModifiers::NONE,
    ));
    let events = stream::iter([Ok(q)]).chain(stream::pending());
    let stop = std::future::pending();
    let ended = drive_until(
        &mut terminal,
        super::editor::Events {
            stream: events,
            reopen: None,
        },
        options(),
        |_| {},
        stop,
    )
    .await
    .unwrap();
    assert_eq!(ended, Ended::Quit);
}

#[tokio::test]
async fn a_triage_key_just_before_quitting_is_committed_before_the_loop_returns() {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let press = |c| {
        Ok(Event::Key(KeyEvent::new(
            KeyCode::Char(c),
            ratatui::crossterm::event::KeyModifiers::NONE,
        )))
    };
    let events = stream::iter([press('d'), press('q')]).chain(stream::pending());
    let store = crate::testkit::fill(3);
    let options = Options {
        store: store.clone(),
        ..options()
    };
    let ended = drive_until(
        &mut terminal,
        super::editor::Events {
            stream: events,
            reopen: None,
        },
        options,
        |_| {},
        std::future::pending(),
    )
    .await
    .unwrap();
    assert_eq!(ended, Ended::Quit);
    assert!(store.read(|s| s.triage("id00000")).unwrap().done);
}
