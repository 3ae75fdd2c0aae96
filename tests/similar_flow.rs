//! `S` from the inbox against the simulator's store: the whole loop over a TestBackend, keys
//! over a channel. The list's first item that has near-duplicates (the simulator's story has
//! families of them) is chosen with `j`, `S` shows them under a heading with the store's count,
//! `Esc` brings the list back as it was. Waits are on conditions with a deadline.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use feedback_inbox::api::Client;
use feedback_inbox::clipboard::MemoryClipboard;
use feedback_inbox::store::{Shared, Store, ViewQuery};
use feedback_inbox::sync::{SyncSettings, Syncer};
use feedback_inbox::tui::{self, keymap::Keymap, similar::MAX_SHOWN};
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
    let (keys, mut rx) = unbounded_channel();
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std_mpsc::channel();
    let syncer = Syncer::new(
        client,
        store.clone(),
        feedback_inbox::clock::system(),
        SyncSettings::default(),
    );
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
async fn s_shows_the_similar_items_with_the_stores_count_and_esc_goes_back() {
    let r = common::rig(300, 10_000).await;
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let app = launch(r.client.clone(), store.clone());
    let new = common::expected_ids(&r.sim, |it| {
        it.feedback.status == feedback_inbox::api::Status::New
    })
    .len();
    let listed = format!("Feedback · new {new} ");
    app.wait_frame("the head synced", |f| {
        f.contains(&listed) && f.contains("as of")
    });
    // The first of the first screen's items that has near-duplicates, and their count.
    let keys = store
        .read(|s| {
            s.view_keys(
                &ViewQuery {
                    status: Some("new".to_owned()),
                    ..ViewQuery::default()
                },
                Some(25),
            )
        })
        .unwrap();
    let (position, total) = keys
        .iter()
        .enumerate()
        .find_map(|(n, &key)| {
            let found = store.read(|s| s.similar(key, MAX_SHOWN)).unwrap().unwrap();
            (found.total > 1).then_some((n, found.total))
        })
        .expect("the simulator's families reach the first screen");
    for _ in 0..position {
        app.press(KeyCode::Char('j'));
    }
    app.press(KeyCode::Char('S'));
    let count = format!("\" · {total} items");
    let frame = app.wait_frame("the similar items", |f| {
        f.contains("Similar to \"") && f.contains(&count)
    });
    assert!(!frame.contains(&listed), "{frame}");
    app.press(KeyCode::Esc);
    app.wait_frame("the list as it was", |f| {
        f.contains(&listed) && !f.contains("Similar to")
    });
    app.press(KeyCode::Char('q'));
    tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}
