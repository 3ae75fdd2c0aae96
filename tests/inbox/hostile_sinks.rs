//! The hostile corpus (`assets/hostile_strings.json`) in every server field, enumerations
//! included, against every sink a person sees: whole TUI screens (list,
//! panes, status bar, detail), the clipboard payloads, the CLI's table, CSV and text output,
//! error messages as printed on stderr, and the webhook receiver's line per event. One checker
//! judges them all, independently of the sanitizer's own classification.
#![allow(clippy::unwrap_used)]

use crate::common;
use crate::hostile;

use std::process::Command;
use std::sync::Arc;

use feedback_api::webhook::event::{Event, Submission};
use feedback_api::{ApiError, Feedback, FeedbackDetail, FeedbackId, Status};
use feedback_tui::action::{Action, FailureKind, Msg, SyncFailure, SyncJob};
use feedback_tui::effect::{Effect, Local};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::testkit::now;
use hostile::{
    Corpus, assert_inert, assert_inert_tsv, assert_screen_inert, corpus, hostile_detail,
    hostile_inbox, hostile_item, hostile_items, hostile_new_items, stored,
};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[test]
fn list_panes_and_status_bar_keep_hostile_text_inert() {
    for (width, height) in [(200, 50), (100, 30), (60, 20)] {
        let items = hostile_new_items();
        let mut h = hostile_inbox(width, height, &items);
        assert!(h.state.visible_len() > 0);
        let what = format!("list {width}x{height}");
        for _ in 0..8 {
            assert_screen_inert(&what, &h.state);
            h.send(Msg::Action(Action::PageDown));
        }
        // Each pane focused and scrolled, its entries chosen as filters (status bar chips).
        for _pane in 0..3 {
            h.send(Msg::Action(Action::FocusNext));
            for _ in 0..4 {
                h.send(Msg::Action(Action::Open));
                assert_screen_inert(&format!("{what}, pane chosen"), &h.state);
                for _ in 0..7 {
                    h.send(Msg::Action(Action::MoveDown));
                }
            }
        }
    }
}

#[test]
fn status_notes_echoing_server_text_stay_inert() {
    for s in corpus() {
        let mut h = hostile_inbox(120, 30, &[]);
        let body = serde_json::json!({ "error": s, "message": s }).to_string();
        let err = ApiError::from_response(500, body.as_bytes(), Some(&s));
        assert_inert("an API error as printed on stderr", &err.to_string(), false);
        let results = [
            Err::<(), _>(Arc::new(err)),
            Err(Arc::new(ApiError::Network { reason: s.clone() })),
        ];
        for result in results {
            let failure = result.map_err(|e: Arc<ApiError>| SyncFailure {
                text: e.to_string(),
                kind: FailureKind::Other,
            });
            h.send(Msg::Synced {
                job: SyncJob::Head(Status::New),
                result: failure.map(|()| feedback_tui::action::Synced::default()),
            });
            assert_screen_inert("an error note", &h.state);
        }
        h.send(Msg::Opened {
            url: s.clone(),
            result: Err(s.clone()),
        });
        assert_screen_inert("a browser failure note", &h.state);
    }
}

#[test]
fn detail_and_clipboard_keep_hostile_text_inert() {
    for item in hostile_items() {
        let id = item.id.0.clone();
        // Listed under `new`; the detail the service sends has the hostile status.
        let mut listed = item.clone();
        listed.status = Status::New;
        let mut h = hostile_inbox(120, 40, &[listed]);
        h.send(Msg::Action(Action::Open));
        let result = Ok(Box::new(stored(hostile_detail(item))));
        h.send(Msg::DetailLoaded {
            id: id.clone(),
            result,
        });
        assert!(h.state.detail.is_some(), "{id:?} is listed and opened");
        for _ in 0..4 {
            assert_screen_inert("detail", &h.state);
            h.send(Msg::Action(Action::PageDown));
        }
        for action in [
            Action::CopyMessage,
            Action::CopyLink,
            Action::CopyId,
            Action::OpenLink,
        ] {
            for effect in h.send(Msg::Action(action)) {
                match effect {
                    Effect::Local(Local::Copy { text, .. }) => {
                        assert_inert("clipboard", &text, true);
                    }
                    Effect::Local(Local::OpenUrl { url }) => assert_inert("browser", &url, false),
                    _ => {}
                }
            }
            assert_screen_inert("after an item action", &h.state);
        }
    }
}

#[test]
fn show_text_keeps_hostile_text_inert() {
    let tz = jiff::tz::TimeZone::UTC;
    for item in hostile_items() {
        let text = feedback_cli::show::render_text(&hostile_detail(item), now(), &tz);
        assert_inert("show --format text", &text, true);
    }
}

#[test]
fn webhook_event_lines_keep_hostile_text_inert() {
    for s in corpus() {
        let submission = Submission {
            id: FeedbackId(s.clone()),
            app_id: s.clone(),
            app_name: s.clone(),
            project_id: s.clone(),
            project_name: s.clone(),
            message: s.clone(),
            email: Some(s.clone()),
            metadata: feedback_api::webhook::event::WebhookMetadata::default(),
            received_at: now(),
        };
        let created = Event::FeedbackCreated(submission);
        assert_inert("webhook event line", &created.to_string(), false);
        let body = serde_json::json!({ "feedback": { "id": s } });
        let other = Event::Other {
            name: s.clone(),
            body,
        };
        assert_inert("webhook unknown event line", &other.to_string(), false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cli_table_csv_and_show_keep_hostile_text_inert() {
    let r = common::rig(0, 10_000).await;
    let items: Vec<FeedbackDetail> = corpus()
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let mut item = hostile_item(n, format!("h{n:03}"), s);
            if n % 2 == 0 {
                item.status = Status::New; // listed by default; the odd ones show their status
            }
            hostile_detail(item)
        })
        .collect();
    r.sim.state().write().replace_items(items);
    let run = |args: &[&str]| {
        let home = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("FEEDBACK_BASE_URL", r.sim.base_url())
            .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert_inert(&format!("stderr of {args:?}"), &stderr, true);
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run(&["list", "--all"]);
    assert!(table.lines().count() > 30, "{table}");
    assert_inert_tsv("list table", &table);
    let csv = run(&["list", "--all", "--format", "csv"]);
    assert_inert("list csv", &csv.replace("\r\n", "\n"), true);
    for id in ["h001", "h003", "h051", "h055"] {
        let text = run(&["show", id]);
        assert!(text.contains("Status"), "{text}");
        assert_inert("show", &text, true);
    }
}

/// Point 17: emoji sequences and other clusters in the app, tags and message columns never
/// move the columns after them.
#[test]
fn list_columns_hold_after_emoji_clusters() {
    let c: Corpus =
        serde_json::from_str(include_str!("../../assets/hostile_strings.json")).unwrap();
    let items: Vec<Feedback> = c
        .kept
        .iter()
        .chain(&c.hostile)
        .enumerate()
        .map(|(n, s)| {
            let mut item = hostile_item(n, format!("c{n:03}"), &s.repeat(3));
            item.status = Status::New;
            item.reporter_email = Some("§mark@example.com".to_owned());
            item
        })
        .collect();
    let rows = items.len();
    let mut h = hostile_inbox(200, u16::try_from(rows).unwrap() + 8, &items);
    // The preview (on by itself at 200 columns) would take the email column's place.
    h.send(Msg::Action(Action::TogglePreview));
    let state = h.state;
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, &state, &Keymap::default()))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let marks: Vec<(u16, Option<u16>)> = (0..state.height)
        .map(|y| {
            (
                y,
                (0..state.width).find(|&x| buffer[(x, y)].symbol() == "§"),
            )
        })
        .filter(|(_, x)| x.is_some())
        .collect();
    assert_eq!(marks.len(), rows, "every row shows its email");
    let first = marks[0].1;
    for (y, x) in &marks {
        let row: String = (0..state.width).map(|x| buffer[(x, *y)].symbol()).collect();
        assert_eq!(*x, first, "row {y} moved its email column: {row:?}");
    }
}

/// `stats` in every format over hostile tags, apps and metadata (names and values): the table
/// and CSV sanitize, JSON escapes for terminals yet keeps the raw values, and a hostile
/// `meta.KEY` echoed back (summary, JSON `by`) stays inert.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_table_csv_and_json_keep_hostile_text_inert() {
    let r = common::rig(0, 10_000).await;
    let all = corpus();
    let items: Vec<FeedbackDetail> = all
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let mut item = hostile_item(n, format!("h{n:03}"), s);
            // A sync mirrors the two statuses the service lists.
            item.status = if n % 2 == 0 {
                Status::New
            } else {
                Status::Archived
            };
            hostile_detail(item)
        })
        .collect();
    r.sim.state().write().replace_items(items);
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.sqlite3");
    let run = |args: &[&str]| {
        let home = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
            .arg("--store")
            .arg(&store)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .env("TZ", "UTC")
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .env("XDG_STATE_HOME", home.path().join("state"))
            .env("FEEDBACK_BASE_URL", r.sim.base_url())
            .env("FEEDBACK_API_KEY", feedback_sim::DEMO_KEY)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?}: {stderr}");
        assert_inert(&format!("stderr of {args:?}"), &stderr, true);
        String::from_utf8(out.stdout).unwrap()
    };
    run(&["sync"]);
    // Every item's detail: its hostile metadata names and values stored.
    run(&[
        "search",
        "tag:bug",
        "--with-detail",
        "--fields",
        "id,metadata",
        "--format",
        "jsonl",
    ]);
    // A hostile key typed back as `meta.KEY` (an argument holds no NUL).
    let typed: Vec<String> = all
        .iter()
        .filter(|s| !s.contains('\0') && !s.is_empty())
        .take(6)
        .map(|s| format!("meta.{s}"))
        .collect();
    let mut pivots = vec!["tag", "app", "platform", "meta.key", "os", "version"];
    pivots.extend(typed.iter().map(String::as_str));
    for by in pivots {
        let table = run(&["stats", "--by", by]);
        assert_inert_tsv(&format!("stats table by {by}"), &table);
        let csv = run(&["stats", "--by", by, "--format", "csv"]);
        assert_inert(
            &format!("stats csv by {by}"),
            &csv.replace("\r\n", "\n"),
            true,
        );
        let json = run(&["stats", "--by", by, "--format", "json"]);
        assert_inert(&format!("stats json by {by}"), &json, true);
        let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(parsed["by"], by);
    }
    // JSON escapes, it does not rewrite: every hostile value comes back as sent.
    let json = run(&["stats", "--by", "meta.key", "--format", "json"]);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    let keys: Vec<&str> = parsed["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["key"].as_str())
        .collect();
    assert_eq!(parsed["covered"], all.len());
    for s in &all {
        assert!(keys.contains(&s.as_str()), "{s:?} missing from {keys:?}");
    }
}
