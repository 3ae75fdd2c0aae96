//! The whole inbox loop against the simulator: a TestBackend terminal, scripted key events over
//! a channel, and frames observed as they are drawn. Waits are on conditions with a deadline.
#![allow(clippy::unwrap_used)]

use crate::common;

use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use std::sync::Arc;

use feedback_api::{Client, Status};
use feedback_clipboard::MemoryClipboard;
use feedback_core::text::Clean;
use feedback_sim::{FaultKind, Route};
use feedback_store::{Shared, Store};
use feedback_sync::{SyncSettings, Syncer};
use feedback_tui::{self as tui, keymap::Keymap};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

struct App {
    keys: UnboundedSender<std::io::Result<Event>>,
    frames: std_mpsc::Receiver<String>,
    clipboard: MemoryClipboard,
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

fn memory_store() -> Shared {
    Shared::new(Store::open_memory().unwrap()).unwrap()
}

fn launch(client: Client) -> App {
    launch_with(client, memory_store(), None)
}

fn launch_with(
    client: Client,
    store: Shared,
    arrivals: Option<UnboundedReceiver<feedback_tui::Arrival>>,
) -> App {
    let (keys, rx) = unbounded_channel();
    let mut rx = rx;
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std_mpsc::channel();
    let clipboard = MemoryClipboard::default();
    let syncer = Syncer::new(
        client,
        store.clone(),
        feedback_core::clock::system(),
        SyncSettings::default(),
    );
    let options = tui::Options {
        store,
        syncer: Arc::new(syncer),
        keymap: Keymap::default(),
        refresh_seconds: 0,
        triage: feedback_config::triage::TriageSettings::default(),
        views: feedback_config::views::ViewsSettings::default(),
        preview: feedback_config::preview::PreviewSetting::default(),
        clipboard: Box::new(clipboard.clone()),
        arrivals,
        waits: None,
        looks: feedback_config::looks::LooksSettings::default(),
        team: None,
        mail: None,
        templates: Vec::new(),
    };
    let task = tokio::spawn(async move {
        let mut terminal = Terminal::new(TestBackend::new(120, 35)).unwrap();
        tui::drive(&mut terminal, events, options, |buffer| {
            let _ = frame_tx.send(text(buffer));
        })
        .await
    });
    App {
        keys,
        frames,
        clipboard,
        task,
    }
}

/// How many items of `status` the simulator holds.
fn count(sim: &feedback_sim::SimHandle, status: &Status) -> usize {
    common::expected_ids(sim, |it| it.feedback.status == *status).len()
}

impl App {
    fn key(&self, c: char) {
        let code = KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        self.keys.send(Ok(Event::Key(code))).unwrap();
    }

    fn enter(&self) {
        self.keys
            .send(Ok(Event::Key(KeyEvent::new(
                KeyCode::Enter,
                KeyModifiers::NONE,
            ))))
            .unwrap();
    }

    /// The first frame that satisfies `ready`.
    fn wait_frame(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
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

    async fn quit(self) {
        self.key('q');
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_are_handled_and_drawn_while_the_list_request_is_stalled() {
    let r = common::rig(300, 10_000).await;
    r.sim.faults().add(
        Route::FeedbackList,
        FaultKind::Latency(Duration::from_secs(120)),
        Some(1),
    );
    let app = launch(r.client.clone());
    app.wait_frame("the empty store, syncing", |f| {
        f.contains("Nothing stored for these filters yet: syncing…")
    });
    app.key('?');
    let frame = app.wait_frame("the help overlay", |f| {
        f.contains("Keys (") && f.contains("next row / scroll down")
    });
    assert!(
        frame.contains("syncing…"),
        "the page is still stalled:\n{frame}"
    );
    app.key('?');
    app.wait_frame("help closed", |f| !f.contains("Keys ("));
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loads_pages_opens_detail_and_copies_the_link() {
    let r = common::rig(300, 10_000).await;
    let app = launch(r.client.clone());
    let new = count(&r.sim, &Status::New);
    app.wait_frame("the head synced", |f| {
        f.contains(&title("new", new)) && f.contains("as of")
    });
    let oldest = common::expected_ids(&r.sim, |it| it.feedback.status == Status::New)
        .pop()
        .unwrap();
    app.key('G');
    app.enter();
    app.wait_frame("the oldest new item", |f| {
        f.contains(&format!("Feedback {oldest}"))
    });
    app.key('q');
    app.key('g');
    let (id, link) = {
        let data = r.sim.state().read();
        let first = data
            .items()
            .find(|it| it.feedback.status == feedback_api::Status::New)
            .unwrap();
        (
            first.feedback.id.0.clone(),
            first.issue_tracker_url().map(str::to_owned),
        )
    };
    app.enter();
    app.wait_frame("the detail, fetched", |f| {
        f.contains(&format!("Feedback {id}")) && f.contains("details as of")
    });
    app.key('y');
    match link {
        Some(link) => {
            app.wait_frame("the copy note", |f| {
                f.contains("Copied the issue-tracker link")
            });
            assert_eq!(app.clipboard.copied.lock().unwrap().as_slice(), [link]);
        }
        None => {
            app.wait_frame("the no-link note", |f| f.contains("no issue-tracker link"));
        }
    }
    app.key('i');
    app.wait_frame("the id copy note", |f| f.contains("Copied the id"));
    assert_eq!(app.clipboard.copied.lock().unwrap().last().unwrap(), &id);
    app.key('q');
    app.wait_frame("the list", |f| f.contains("AGE"));
    app.quit().await;
    assert_eq!(
        r.sim.stats().route(Route::FeedbackItem),
        2,
        "one detail request per item opened"
    );
}

/// Top new item of the simulator.
fn newest_new_id(sim: &feedback_sim::SimHandle) -> String {
    common::expected_ids(sim, |it| it.feedback.status == feedback_api::Status::New).remove(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_arrivals_appear_on_top_without_moving_the_cursor() {
    use feedback_api::webhook::{DEFAULT_TOLERANCE, Event, Secret};
    use feedback_sim::submit::Submitter;
    use feedback_sim::webhooks::{Plan, Sender, WebhookTarget};
    use feedback_webhook::receiver::{self, Notice, ReceiverConfig};
    use feedback_webhook::seen::Seen;

    let r = common::rig(300, 10_000).await;
    let secret = Secret::new(b"live-secret".to_vec()).unwrap();
    let (notice_tx, mut notices) = unbounded_channel();
    let config = ReceiverConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        secret: secret.clone(),
        tolerance: DEFAULT_TOLERANCE,
        seen: Seen::memory(),
        store: None,
        jsonl: None,
        clock: r.clock.clone(),
    };
    let handle = receiver::start(config, notice_tx).await.unwrap();
    let (tx, arrivals) = unbounded_channel();
    tokio::spawn(async move {
        while let Some(Notice::Accepted { event, .. }) = notices.recv().await {
            if let Event::FeedbackCreated(s) = *event {
                let arrival = feedback_tui::Arrival {
                    submission: s,
                    stored: false,
                };
                tx.send(arrival).unwrap();
            }
        }
    });
    let target = WebhookTarget {
        url: handle.url(),
        secret,
        plan: Plan::Indie,
        time_scale: 1.0,
        duplicates: true,
        timeout: Duration::from_secs(5),
    };
    let sender = Sender::new(target, r.clock.clone()).unwrap();
    let mut submitter = Submitter::new(std::sync::Arc::clone(r.sim.state()), 5, Some(sender));
    let old_top = newest_new_id(&r.sim);
    let new = count(&r.sim, &Status::New);
    let app = launch_with(r.client.clone(), memory_store(), Some(arrivals));
    app.wait_frame("the head synced", |f| {
        f.contains(&title("new", new)) && f.contains("live: 0 arrived")
    });
    let fresh = submitter.submit_and_deliver(None).feedback.id.0;
    // The list is at its top: the arrival shows above the selected item, which stays selected.
    app.wait_frame("the arrival", |f| {
        f.contains("live: 1 arrived") && f.contains(&format!("{} · 1 new", title("new", new + 1)))
    });
    app.enter();
    app.wait_frame("the detail of the item under the cursor", |f| {
        f.contains(&format!("Feedback {old_top}"))
    });
    app.key('q');
    app.key('g');
    app.enter();
    app.wait_frame("the detail of the new item", |f| {
        f.contains(&format!("Feedback {fresh}"))
    });
    app.key('q');
    app.quit().await;
    handle.shutdown().await;
}

impl App {
    fn send(&self, event: Event) {
        self.keys.send(Ok(event)).unwrap();
    }

    fn ctrl_c(&self) {
        self.send(Event::Key(KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL,
        )));
    }

    /// The loop ends on its own (no `q` sent).
    async fn ends(self) {
        tokio::time::timeout(Duration::from_secs(10), self.task)
            .await
            .expect("the inbox quit")
            .unwrap()
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paste_fills_the_prompt_without_running_keys_and_ctrl_c_quits_from_it() {
    let r = common::rig(300, 10_000).await;
    let app = launch(r.client.clone());
    let new = count(&r.sim, &Status::New);
    app.wait_frame("the head synced", |f| f.contains(&title("new", new)));
    app.key('/');
    app.send(Event::Paste("KINGFISHER\nsq".into()));
    let frame = app.wait_frame("the pasted prompt", |f| f.contains("KINGFISHER sq"));
    assert!(
        frame.contains(" new "),
        "the s did not switch status:\n{frame}"
    );
    assert!(!app.task.is_finished(), "the q did not quit");
    app.ctrl_c();
    app.ends().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_quits_from_the_detail() {
    let r = common::rig(300, 10_000).await;
    let app = launch(r.client.clone());
    let new = count(&r.sim, &Status::New);
    app.wait_frame("the head synced", |f| f.contains(&title("new", new)));
    app.enter();
    app.wait_frame("the detail", |f| f.contains("Metadata (built-in)"));
    app.ctrl_c();
    app.ends().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_after_more_than_a_page_of_new_items_shows_them_all_on_top() {
    use feedback_sim::submit::Submitter;

    let r = common::rig(300, 10_000).await;
    let app = launch(r.client.clone());
    let new = count(&r.sim, &Status::New);
    app.wait_frame("the head synced", |f| f.contains(&title("new", new)));
    let mut submitter = Submitter::new(Arc::clone(r.sim.state()), 7, None);
    for _ in 0..150 {
        submitter.submit();
    }
    app.key('r');
    app.wait_frame("every new item", |f| {
        f.contains(&format!("{} · 150 new", title("new", new + 150)))
    });
    app.quit().await;
}

/// An error from the event stream ends the loop with that error, and only after the requests
/// in flight are cancelled: a server that never answers sees each of their connections closed
/// (well before the client's own 30 s read timeout).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_stream_error_cancels_the_requests_in_flight() {
    use tokio::io::AsyncReadExt;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (opened_tx, mut opened) = unbounded_channel();
    let (closed_tx, mut closed) = unbounded_channel();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let (opened_tx, closed_tx) = (opened_tx.clone(), closed_tx.clone());
            tokio::spawn(async move {
                // Reads the request, never answers, and says when the client hangs up.
                let mut buffer = vec![0; 4096];
                let mut told = false;
                while let Ok(n @ 1..) = socket.read(&mut buffer).await {
                    if !told {
                        told = opened_tx.send(n).is_ok();
                    }
                }
                let _ = closed_tx.send(());
            });
        }
    });
    let key = feedback_api::ApiKey::parse(feedback_sim::DEMO_KEY).unwrap();
    let client = feedback_api::Client::builder(&url, key)
        .unwrap()
        .build()
        .unwrap();
    let app = launch(client);
    // The start-up sync's first request (discovery: the projects).
    tokio::time::timeout(Duration::from_secs(10), opened.recv())
        .await
        .expect("a request reaches the server");
    app.keys
        .send(Err(std::io::Error::other("the terminal is gone")))
        .unwrap();
    let result = tokio::time::timeout(Duration::from_secs(10), app.task)
        .await
        .expect("the loop ends")
        .unwrap();
    assert_eq!(result.unwrap_err().to_string(), "the terminal is gone");
    tokio::time::timeout(Duration::from_secs(10), closed.recv())
        .await
        .expect("the cancelled request hangs up");
}

/// With the service unreachable (a closed port), the inbox starts on what is stored: the first
/// frame shows the stored rows of the last view, it says it is offline, and searching,
/// filtering and switching status all work on the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starts_offline_from_a_filled_store_and_searches_and_filters() {
    use feedback_tui::state::ViewSpec;
    use feedback_tui::testkit::{self, PaneData};

    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("store.db")).unwrap()).unwrap();
    let synced = jiff::Timestamp::from_second(jiff::Timestamp::now().as_second()).unwrap();
    let mut items: Vec<_> = (0..500).map(testkit::item).collect();
    for item in items.iter_mut().skip(400) {
        item.status = Status::Archived;
    }
    store.write(|s| {
        s.put_items(&items, testkit::now()).unwrap();
        if let [PaneData::Projects(projects), PaneData::Apps(apps), _] = testkit::panes() {
            s.put_projects(&projects).unwrap();
            s.put_apps(&apps, None).unwrap();
        }
        // The last run showed the `ui` tag.
        let ui = feedback_tui::state::Chosen {
            value: "ui".into(),
            label: Clean::fixed("ui"),
        };
        let view = ViewSpec {
            status: "new".into(),
            tag: Some(ui),
            ..ViewSpec::default()
        };
        s.save_view(&view).unwrap();
        // The last run synced `new` a moment ago: the first frame says so, from the store.
        s.write(|tx| feedback_store::sync_state::set_synced(tx, "new", synced.as_second()))
            .unwrap();
    });
    let key = feedback_api::ApiKey::parse(feedback_sim::DEMO_KEY).unwrap();
    let client = Client::builder("http://127.0.0.1:9", key)
        .unwrap()
        .retry_policy(feedback_api::RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(4),
            ..feedback_api::RetryPolicy::default()
        })
        .build()
        .unwrap();
    let app = launch_with(client, store, None);
    let first = app.frames.recv_timeout(Duration::from_secs(10)).unwrap();
    assert!(
        first.contains("Feedback · new") && first.contains("Message number 1:"),
        "the first frame shows the stored rows of the last view:\n{first}"
    );
    let counted = app.wait_frame("the whole view, counted", |f| {
        f.contains("Feedback · new · 100 items ")
    });
    assert!(first.contains("tag:ui"), "{first}");
    // In local time, as the inbox shows it (the date too, should midnight pass meanwhile).
    let local =
        synced.to_zoned(jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC));
    let hh_mm = local.strftime("%H:%M").to_string();
    assert!(
        first.contains(&format!("as of {hh_mm}"))
            || first.contains(&format!("as of {}", local.strftime("%Y-%m-%d %H:%M"))),
        "the first frame says how fresh the store is ({hh_mm}):\n{first}"
    );
    // The refresh may have failed before the count arrived: then that frame says so already.
    if !counted.contains("offline") {
        app.wait_frame("offline", |f| f.contains("offline"));
    }
    // Search the store.
    app.key('/');
    app.send(Event::Paste("second line 13".into()));
    app.wait_frame("one match", |f| {
        f.contains("Feedback · new · 1 match ") && f.contains("Message number 13:")
    });
    app.send(Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
    // Filters: the Tags pane (counts of stored `new` items), clear the tag, then archived.
    app.wait_frame("the list again", |f| {
        f.contains("Feedback · new · 100 items ")
    });
    app.send(Event::Key(KeyEvent::new(
        KeyCode::BackTab,
        KeyModifiers::SHIFT,
    )));
    app.key('x');
    app.wait_frame("every stored new item", |f| {
        f.contains("Feedback · new · 400 items ")
    });
    app.key('s');
    app.wait_frame("the stored archived items", |f| {
        f.contains("Feedback · archived · 100 items ") && f.contains("Message number 400:")
    });
    app.quit().await;
}

/// On an empty store (a first run, the demo, `--no-store`) the start-up sync stores the head's
/// first page only, so the first rows wait for discovery and one list request, not ten pages;
/// the rest of the head is a gap that backfill walks. A store synced before walks the head.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_start_up_sync_of_an_empty_store_waits_for_one_page_only() {
    use feedback_tui::SyncPort;
    use feedback_tui::action::SyncJob;

    let r = common::rig(300, 10_000).await;
    let settings = SyncSettings {
        page_size: 20,
        background: false,
        ..SyncSettings::default()
    };
    let store = memory_store();
    let syncer = Syncer::new(r.client.clone(), store.clone(), r.clock.clone(), settings);
    let new = count(&r.sim, &Status::New);
    assert!(new > 40, "{new}");
    let done = syncer.run(SyncJob::Start(Status::New)).await.unwrap();
    assert_eq!(done.added, 20, "one page, not the head's ten");
    let fresh = done.freshness.unwrap();
    assert!(fresh.synced_at.is_some() && !fresh.complete);
    let user = |status| SyncJob::Backfill { status, user: true };
    let page = syncer.run(user(Status::New)).await.unwrap();
    assert_eq!(page.added, 20, "the rest is backfill's");
    let again = syncer.run(SyncJob::Start(Status::New)).await.unwrap();
    assert_eq!(
        again.added, 0,
        "synced before: the head, where nothing is new"
    );
}

/// The list's title for a status and its count of rows: `Feedback · new · 1,234 items`.
fn title(status: &str, rows: usize) -> String {
    format!(
        "Feedback · {status} · {}",
        feedback_core::text::output::counted(rows, "item")
    )
}

/// How soon the first rows of an empty store show (the demo's case): the figure is printed
/// (`--nocapture`); the frame wait's deadline fails the test when they never come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_store_shows_its_first_rows_after_one_page() {
    let r = common::rig(5000, 10_000).await;
    let started = Instant::now();
    let app = launch(r.client.clone());
    app.wait_frame("the first rows", |f| {
        f.split("Feedback · new · ")
            .nth(1)
            .is_some_and(|rest| rest.starts_with(|c: char| ('1'..='9').contains(&c)))
    });
    eprintln!("first rows of 5000 after {:?}", started.elapsed());
    app.quit().await;
}
