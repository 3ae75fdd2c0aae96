//! Figures of the inbox over a big store (not timed tests: run by hand, `--ignored`):
//! `build_big_store` fills a store of `INBOX_SCALE_ITEMS` (default 1,000,000) generated items
//! once, then `inbox_over_a_big_store` starts the whole inbox over it with the service
//! unreachable and prints the time to the first frame with rows, a status switch, a search,
//! a key while a query runs, and the resident memory. Run each in its own process:
//! `cargo test --test inbox -- --ignored --test-threads 1 inbox_scale::build`, then `… inbox_scale::inbox`.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use feedback_api::{ApiKey, Client, Feedback, RetryPolicy};
use feedback_clipboard::MemoryClipboard;
use feedback_sim as sim;
use feedback_store::{Shared, Store};
use feedback_sync::{SyncSettings, Syncer};
use feedback_tui::{self as tui, keymap::Keymap};
use jiff::Timestamp;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use tokio::sync::mpsc::unbounded_channel;

fn items() -> usize {
    std::env::var("INBOX_SCALE_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000)
}

fn path() -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    PathBuf::from(target)
        .join("bench-data")
        .join(format!("inbox-{}.sqlite3", items()))
}

#[test]
#[ignore = "builds a big store for inbox_over_a_big_store (minutes)"]
fn build_big_store() {
    let path = path();
    if path.exists() {
        return;
    }
    let anchor: Timestamp = "2026-11-01T12:00:00Z".parse().unwrap();
    let started = Instant::now();
    let data = sim::data::generate(11, items(), anchor);
    let all: Vec<Feedback> = data.items().map(|d| d.feedback).collect();
    let partial = path.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let mut store = Store::open(&partial).unwrap();
    store.put_projects(&data.projects).unwrap();
    store.put_apps(&data.apps, None).unwrap();
    for chunk in all.chunks(1000) {
        store.put_items(chunk, anchor).unwrap();
    }
    drop(store);
    std::fs::rename(&partial, &path).unwrap();
    eprintln!("built {} items in {:?}", all.len(), started.elapsed());
}

/// The list's title counts the rows of `status` (the view's answer is on screen).
fn counted(frame: &str, status: &str) -> bool {
    let title = format!("Feedback · {status} · ");
    frame
        .split(&title)
        .nth(1)
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

fn resident_mib() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: usize = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096 / 1_048_576
}

#[test]
#[ignore = "needs build_big_store first; prints figures"]
fn reads_over_a_big_store() {
    use feedback_tui::runtime::reads::{self, Shape};
    use feedback_tui::state::{Anchor, ViewSpec};

    let timed = |what: &str, run: &mut dyn FnMut()| {
        let started = Instant::now();
        run();
        eprintln!("{what}: {:?}", started.elapsed());
    };
    let mut store = None;
    timed("open the store", &mut || {
        store = Some(Store::open(&path()).unwrap());
    });
    let store = store.unwrap();
    let cx = feedback_store::search::Context {
        now: Timestamp::now(),
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let fresh = |s: &Store, status: &str| {
        let state = feedback_sync::status_state(s, &status.into()).ok()?;
        Some(feedback_tui::action::Freshness {
            status: status.to_owned(),
            synced_at: state.synced_at,
            complete: state.complete,
        })
    };
    let none = |_: &Store, _: &str| None;
    for status in ["new", "archived"] {
        let spec = ViewSpec {
            status: status.into(),
            ..ViewSpec::default()
        };
        for (what, limit) in [("first screen", Some(95)), ("whole view", None)] {
            timed(&format!("{status}: {what}"), &mut || {
                let shape = Shape { rows: 31, limit };
                let data = reads::query(&store, &spec, &Anchor::default(), shape, &cx, &none);
                eprintln!("  {} keys", data.unwrap().keys.len());
            });
        }
        timed(&format!("{status}: freshness (sync state)"), &mut || {
            let _ = fresh(&store, status);
        });
        timed(&format!("{status}: panes"), &mut || {
            reads::panes(&store, status, None).unwrap();
        });
    }
    for search in ["crash", "crash OR the", "tag:bug", "-the"] {
        let spec = ViewSpec {
            status: "new".into(),
            search: search.into(),
            ..ViewSpec::default()
        };
        timed(&format!("search {search:?}"), &mut || {
            let shape = Shape {
                rows: 31,
                limit: None,
            };
            let data = reads::query(&store, &spec, &Anchor::default(), shape, &cx, &none);
            eprintln!("  {} keys", data.unwrap().keys.len());
        });
    }
}

type Keys = tokio::sync::mpsc::UnboundedSender<std::io::Result<Event>>;
type Frames = std_mpsc::Receiver<(Instant, String)>;

/// The inbox over the big store, the service unreachable (a closed port).
fn launch() -> (Keys, Frames, tokio::task::JoinHandle<std::io::Result<()>>) {
    let store = Shared::new(Store::open(&path()).unwrap()).unwrap();
    let key = ApiKey::parse(sim::DEMO_KEY).unwrap();
    let client = Client::builder("http://127.0.0.1:9", key)
        .unwrap()
        .retry_policy(RetryPolicy {
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_millis(4),
            ..RetryPolicy::default()
        })
        .build()
        .unwrap();
    let syncer = Syncer::new(
        client,
        store.clone(),
        feedback_core::clock::system(),
        SyncSettings::default(),
    );
    let (keys, mut rx) = unbounded_channel();
    let events = Box::pin(futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)));
    let (frame_tx, frames) = std_mpsc::channel::<(Instant, String)>();
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
        let mut terminal = Terminal::new(TestBackend::new(160, 45)).unwrap();
        tui::drive(&mut terminal, events, options, |buffer| {
            let text: String = buffer
                .content()
                .iter()
                .map(ratatui::buffer::Cell::symbol)
                .collect();
            let _ = frame_tx.send((Instant::now(), text));
        })
        .await
    });
    (keys, frames, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs build_big_store first; prints figures"]
async fn inbox_over_a_big_store() {
    let started = Instant::now();
    let (keys, frames, task) = launch();
    let wait = |what: &str, ready: &dyn Fn(&str) -> bool| -> Instant {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok((at, frame)) = frames.recv_timeout(Duration::from_millis(100))
                && ready(&frame)
            {
                return at;
            }
        }
        panic!("no frame with {what}");
    };
    let first = wait("rows", &|f| {
        f.contains("Feedback · new") && f.contains("│  ")
    });
    eprintln!(
        "first frame with rows: {:?} after opening the store",
        first - started
    );
    let whole = wait("the whole view", &|f| counted(f, "new"));
    eprintln!(
        "the whole view counted: {:?} after opening the store",
        whole - started
    );
    eprintln!("resident after the first frame: {} MiB", resident_mib());
    let key = |c: KeyCode| Event::Key(KeyEvent::new(c, KeyModifiers::NONE));
    let sent = Instant::now();
    keys.send(Ok(key(KeyCode::Char('s')))).unwrap();
    let shown = wait("archived rows", &|f| counted(f, "archived"));
    eprintln!("status switch to new rows on screen: {:?}", shown - sent);
    let sent = Instant::now();
    keys.send(Ok(key(KeyCode::Char('s')))).unwrap();
    let shown = wait("new rows", &|f| counted(f, "new"));
    eprintln!("status switch back: {:?}", shown - sent);
    keys.send(Ok(key(KeyCode::Char('/')))).unwrap();
    let sent = Instant::now();
    keys.send(Ok(Event::Paste("crash".into()))).unwrap();
    let typed = wait("the prompt", &|f| f.contains("/ crash"));
    let matched = wait("matches", &|f| f.contains(" match"));
    eprintln!(
        "search `crash`: prompt drawn after {:?}, matches after {:?}",
        typed - sent,
        matched - sent
    );
    // A key while a broad query runs: the frame with it does not wait for the query.
    let sent = Instant::now();
    keys.send(Ok(Event::Paste(" OR the".into()))).unwrap();
    keys.send(Ok(key(KeyCode::Esc))).unwrap();
    keys.send(Ok(key(KeyCode::Char('?')))).unwrap();
    let help = wait("the help", &|f| f.contains("Keys ("));
    eprintln!(
        "keys drawn while a query runs: help after {:?}",
        help - sent
    );
    eprintln!("resident at the end: {} MiB", resident_mib());
    keys.send(Ok(key(KeyCode::Char('?')))).unwrap();
    keys.send(Ok(key(KeyCode::Char('q')))).unwrap();
    tokio::time::timeout(Duration::from_secs(30), task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}
