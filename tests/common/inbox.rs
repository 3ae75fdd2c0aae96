//! The whole inbox over a `TestBackend`, keys sent over a channel and every frame's text
//! received back: the flow tests drive it against the simulator, waiting on conditions with a
//! deadline.

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use feedback_api::Client;
use feedback_clipboard::MemoryClipboard;
use feedback_store::Shared;
use feedback_sync::{SyncSettings, Syncer};
use feedback_tui::{self as tui, keymap::Keymap};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

pub struct App {
    pub keys: UnboundedSender<std::io::Result<Event>>,
    pub frames: std_mpsc::Receiver<String>,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

pub fn text(buffer: &Buffer) -> String {
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

pub fn launch(client: Client, store: Shared) -> App {
    launch_with(client, store, SyncSettings::default())
}

pub fn launch_with(client: Client, store: Shared, sync: SyncSettings) -> App {
    let (keys, mut rx) = unbounded_channel();
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std_mpsc::channel();
    let syncer = Syncer::new(client, store.clone(), feedback_core::clock::system(), sync);
    let options = tui::Options {
        store,
        syncer: Arc::new(syncer),
        keymap: Keymap::default(),
        refresh_seconds: 0,
        triage: feedback_config::triage::TriageSettings::default(),
        views: feedback_config::views::ViewsSettings::default(),
        preview: feedback_config::preview::PreviewSetting::default(),
        clipboard: Box::new(MemoryClipboard::default()),
        arrivals: None,
        waits: None,
        looks: feedback_config::looks::LooksSettings::default(),
        team: None,
        mail: None,
        templates: Vec::new(),
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
    pub fn press(&self, code: KeyCode) {
        let key = KeyEvent::new(code, KeyModifiers::NONE);
        self.keys.send(Ok(Event::Key(key))).unwrap();
    }

    pub fn typed(&self, text: &str) {
        for c in text.chars() {
            self.press(KeyCode::Char(c));
        }
    }

    /// The first frame that satisfies `ready`.
    pub fn wait_frame(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
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
