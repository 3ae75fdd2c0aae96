//! Enrichment from the inbox against the simulator: the whole loop over a TestBackend, keys
//! over a channel. `=` groups the view by version ("based on 0 of N items"), `e` queues the
//! view's missing details, the background fetches them, and the coverage line follows until
//! every item is covered. Waits are on conditions with a deadline.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use feedback_inbox::api::Client;
use feedback_inbox::clipboard::MemoryClipboard;
use feedback_inbox::store::{Shared, Store, ViewQuery};
use feedback_inbox::sync::{SyncSettings, Syncer};
use feedback_inbox::tui::{self, keymap::Keymap};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

struct App {
    keys: UnboundedSender<std::io::Result<Event>>,
    frames: std_mpsc::Receiver<String>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

fn launch(client: Client, store: Shared) -> App {
    launch_with(client, store, SyncSettings::default())
}

fn launch_with(client: Client, store: Shared, sync: SyncSettings) -> App {
    let (keys, mut rx) = unbounded_channel();
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std_mpsc::channel();
    let syncer = Syncer::new(client, store.clone(), feedback_inbox::clock::system(), sync);
    let options = tui::Options {
        store,
        syncer: Arc::new(syncer),
        keymap: Keymap::default(),
        refresh_seconds: 0,
        triage: feedback_inbox::config::triage::TriageSettings::default(),
        views: feedback_inbox::config::views::ViewsSettings::default(),
        preview: feedback_inbox::config::preview::PreviewSetting::default(),
        clipboard: Box::new(MemoryClipboard::default()),
        arrivals: None,
        waits: None,
        looks: feedback_inbox::config::looks::LooksSettings::default(),
    };
    let task = tokio::spawn(async move {
        let mut terminal = Terminal::new(TestBackend::new(140, 35)).unwrap();
        tui::drive(&mut terminal, events, options, |buffer| {
            let _ = frame_tx.send(text(buffer));
        })
        .await
    });
    App { keys, frames, task }
}

impl App {
    fn press(&self, code: KeyCode) {
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        self.keys.send(Ok(Event::Key(key))).unwrap();
    }

    fn typed(&self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// The first frame that satisfies `ready`.
    fn wait_frame(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut last = String::new();
        while Instant::now() < deadline {
            if let Ok(frame) = self.frames.recv_timeout(Duration::from_millis(100)) {
                if ready(&frame) {
                    return frame;
                }
                last = frame;
            }
        }
        panic!("timed out waiting for {what}; last frame:\n{last}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_fetches_the_views_details_in_the_background_and_the_coverage_follows() {
    let r = common::rig(40, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let app = launch(r.client.clone(), store.clone());
    let new = common::expected_ids(&r.sim, |it| {
        it.feedback.status == feedback_inbox::api::Status::New
    })
    .len();
    app.wait_frame("the head synced", |f| {
        f.contains(&format!("Feedback · new {new} ")) && f.contains("as of")
    });
    app.press(KeyCode::Char('='));
    app.typed("version");
    app.press(KeyCode::Enter);
    let total = format!("of {new} items");
    app.wait_frame("the version groups, uncovered", |f| {
        f.contains("Grouped by version") && f.contains(&format!("based on 0 {total}"))
    });
    app.press(KeyCode::Char('e'));
    app.wait_frame("the enrichment's progress", |f| {
        f.contains("details ") && f.contains(&format!("/{new}"))
    });
    let frame = app.wait_frame("every detail fetched", |f| {
        f.contains(&format!("Details fetched: {new}"))
    });
    assert!(!frame.contains("based on 0 "), "{frame}");
    let coverage = store
        .read(|s| {
            s.detail_coverage(&ViewQuery {
                status: Some("new".to_owned()),
                ..ViewQuery::default()
            })
        })
        .unwrap();
    assert_eq!(coverage.with_detail, coverage.total);
    // The groups follow the details that came (throttled): every item with metadata counts.
    let with_metadata = common::expected_ids(&r.sim, |it| {
        it.feedback.status == feedback_inbox::api::Status::New
            && !(it.metadata.built_in.is_empty() && it.metadata.custom.is_empty())
    })
    .len();
    assert!(with_metadata > 0);
    app.wait_frame("the coverage line updated", |f| {
        f.contains(&format!("based on {with_metadata} {total}"))
    });
    app.press(KeyCode::Char('q'));
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_with_background_sync_off_says_so_instead_of_queueing() {
    let r = common::rig(20, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let sync = SyncSettings {
        background: false,
        ..SyncSettings::default()
    };
    let app = launch_with(r.client.clone(), store.clone(), sync);
    app.wait_frame("the head synced", |f| f.contains("as of"));
    app.press(KeyCode::Char('e'));
    app.wait_frame("why e does nothing", |f| {
        f.contains("Background sync is off ([sync] background = false)")
    });
    assert_eq!(store.read(Store::queued_details).unwrap(), 0);
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}
