//! Whole-screen snapshots of the inbox through ratatui's TestBackend, with fixed data, a fixed
//! clock and UTC, plus explicit checks of the styles a snapshot cannot show.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use feedback_api::{Feedback, Status, Wait, WaitReason};
use feedback_core::text::Clean;
use feedback_store::Shared;
use feedback_tui::action::{Action, FailureKind, Msg, SyncFailure, SyncJob, ViewError};
use feedback_tui::keymap::Keymap;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{
    self, Harness, budget, fill, now, started, started_harness, stored_detail,
};
use feedback_tui::update::{start, update};
use feedback_tui::{layout, render};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Color, Modifier};

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

/// A `width` x `height` inbox whose first query and start-up sync are sent, not answered.
fn starting(width: u16, height: u16) -> AppState {
    let mut state = AppState::new(now(), width, height);
    update(&mut state, Msg::Resize { width, height });
    let _ = start(&mut state);
    state
}

/// The column where `needle` starts on row `y`.
fn column(buffer: &ratatui::buffer::Buffer, y: u16, needle: &str) -> u16 {
    let cells: Vec<&str> = (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect();
    let first = needle.chars().map(|c| c.to_string()).collect::<Vec<_>>();
    let at = cells
        .windows(first.len())
        .position(|w| w.iter().zip(&first).all(|(a, b)| a == b))
        .unwrap_or_else(|| panic!("{needle} not on row {y}: {}", cells.concat()));
    u16::try_from(at).unwrap()
}

fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

fn failed(kind: FailureKind, text: &str) -> Msg {
    Msg::Synced {
        job: SyncJob::Start(Status::New),
        result: Err(SyncFailure {
            text: text.into(),
            kind,
        }),
    }
}

#[test]
fn list_with_sidebar() {
    // The view bar takes the first row above the list; its rows are one lower.
    let state = started(120, 35, 100, false);
    let terminal = draw(&state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120);
    let row = (left + 1..119)
        .map(|x| buffer[(x, 3)].modifier)
        .collect::<Vec<_>>();
    assert!(
        row.iter().all(|m| m.contains(Modifier::REVERSED)),
        "selected row is highlighted across the list"
    );
    assert_eq!(buffer[(left, 1)].fg, Color::Cyan, "focused list border");
    assert!(
        !buffer[(left + 1, 4)].modifier.contains(Modifier::REVERSED),
        "other rows are not"
    );
    assert_eq!(buffer[(0, 0)].fg, Color::DarkGray, "unfocused pane border");
}

#[test]
fn no_color_keeps_focus_and_selection_visible() {
    let mut state = started(120, 35, 100, false);
    state.color = false;
    let terminal = draw(&state);
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120);
    assert_eq!(buffer[(left, 1)].fg, Color::Reset);
    assert!(buffer[(left, 1)].modifier.contains(Modifier::BOLD));
    assert!(buffer[(40, 3)].modifier.contains(Modifier::REVERSED));
    assert!((0..120).all(|x| (0..35).all(|y| buffer[(x, y)].fg == Color::Reset)));
}

#[test]
fn detail_open() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    // Before the service answers: what is stored (the list fields), and that it is fetching.
    insta::assert_snapshot!("detail_from_the_store", draw(&h.state).backend());
    h.send(Msg::DetailLoaded {
        id: "id00001".into(),
        result: Ok(Box::new(stored_detail(1))),
    });
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn help_overlay() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Help);
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn filter_prompt() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("tag:ui num".into()));
    for c in "ber".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    // "number" is highlighted in each row's message, and the title counts the matches.
    let buffer = terminal.backend().buffer();
    let at = column(buffer, 3, "number");
    assert!(buffer[(at, 3)].modifier.contains(Modifier::UNDERLINED));
    assert!(!buffer[(at - 2, 3)].modifier.contains(Modifier::UNDERLINED));
    let title: String = (0..120).map(|x| buffer[(x, 1)].symbol()).collect();
    assert!(title.contains("25 match"), "{title}");
    // And in the detail's message.
    act(&mut h, Action::Open);
    act(&mut h, Action::Open);
    let terminal = draw(&h.state);
    let buffer = terminal.backend().buffer();
    let at = column(buffer, 1, "number");
    assert!(buffer[(at, 1)].modifier.contains(Modifier::UNDERLINED));
    assert!(!buffer[(at - 2, 1)].modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn a_query_error_is_marked_where_it_is() {
    let mut h = started_harness(120, 35, 100, false);
    act(&mut h, Action::Filter);
    // The rest of the text runs ("number", every item) while the half-typed qualifier is wrong.
    h.send(Msg::Paste("number age:<7x".into()));
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let prompt: String = (0..120).map(|x| buffer[(x, 32)].symbol()).collect();
    let at = column(buffer, 32, "age");
    let marked = |x: u16| buffer[(x, 32)].modifier.contains(Modifier::UNDERLINED);
    assert!(!marked(at - 3), "number is fine: {prompt}");
    assert!(
        (at..at + 7).any(marked),
        "the error's span is underlined: {prompt}"
    );
    assert!(prompt.contains('⚠'), "{prompt}");
    // The error takes the room the text leaves: it is read whole.
    assert!(!prompt.contains('…'), "the error is cut: {prompt}");
}

#[test]
fn offline_on_what_is_stored() {
    let mut h = Harness::start(fill(100), 120, 35);
    h.state.sync.as_of = Some(now() - jiff::SignedDuration::from_hours(26));
    h.send(failed(
        FailureKind::Offline,
        "Network error: connection refused",
    ));
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn rate_limited_status() {
    let mut h = started_harness(120, 35, 100, false);
    let state = &mut h.state;
    let reset = now() + jiff::SignedDuration::from_secs(42);
    update(state, budget(120, 0, reset));
    let until = now() + jiff::SignedDuration::from_secs(12);
    update(
        state,
        Msg::Waiting(Wait {
            reason: WaitReason::RateLimited,
            duration: Duration::from_secs(12),
            until,
            capped_from: None,
        }),
    );
    act(&mut h, Action::Bottom);
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    let status: String = (0..120)
        .map(|x| buffer[(x, 34)].symbol().to_owned())
        .collect();
    let at = status.find("0/120").unwrap();
    assert_eq!(
        buffer[(u16::try_from(at).unwrap(), 34)].fg,
        Color::Yellow,
        "low budget is highlighted"
    );
}

#[test]
fn error_panel() {
    let mut h = started_harness(120, 35, 60, false);
    // Another process stored items: the view is read again, and that read fails.
    let revs = feedback_store::Revs {
        items: h.state.sync.items_rev + 1,
        triage: h.state.triage.rev,
    };
    let effects = h.apply(Msg::StoreRevs(Ok(revs)));
    assert!(h.state.list.querying(), "{effects:?}");
    let request_id = h.state.list.query_id;
    h.send(Msg::ViewLoaded {
        request_id,
        result: Err(ViewError::Store("disk I/O error".into())),
    });
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn unauthorized_screen() {
    let mut h = Harness::start(fill(0), 100, 30);
    h.send(failed(
        FailureKind::Refused,
        "The API key was refused (401)",
    ));
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn loading_screen() {
    let state = starting(100, 30);
    insta::assert_snapshot!(draw(&state).backend());
}

#[test]
fn empty_result() {
    let mut h = Harness::start(fill(0), 100, 30);
    h.synced(SyncJob::Start(Status::New), true);
    assert!(
        !h.state.list.fetching(),
        "nothing asked for before the head sync"
    );
    insta::assert_snapshot!(draw(&h.state).backend());
}

#[test]
fn tiny_terminal() {
    let state = started(39, 11, 20, true);
    insta::assert_snapshot!(draw(&state).backend());
}

#[test]
fn smallest_supported_terminal() {
    let state = started(40, 12, 20, true);
    insta::assert_snapshot!(draw(&state).backend());
}

#[test]
fn narrow_terminal() {
    let state = started(60, 20, 100, false);
    insta::assert_snapshot!(draw(&state).backend());
}

#[test]
fn scrolled_long_list_shows_the_right_window() {
    let mut h = started_harness(120, 35, 10_000, true);
    for _ in 0..50 {
        act(&mut h, Action::PageDown);
    }
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    assert_eq!(h.selected_id(), "id01500"); // 50 pages of 30 rows (the bar takes one)
}

fn hostile_items() -> Vec<Feedback> {
    let base = testkit::item(0);
    let with = |id: &str, message: String, f: &dyn Fn(&mut Feedback)| {
        let mut item = base.clone();
        item.id = feedback_api::FeedbackId(id.into());
        item.message = message;
        f(&mut item);
        item
    };
    vec![
        with(
            "esc",
            "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31mred\u{1b}[0m title \u{1b}]52;c;eA==\u{7}".into(),
            &|_| {},
        ),
        with("long", "A".repeat(10_000), &|_| {}),
        with(
            "wide",
            "同期が遅いです 😀👍 نص عربي שלום".into(),
            &|i| i.tags = vec!["ＣＪＫ".into(), "😀".into()],
        ),
        with(
            "bidi",
            "invoice\u{202e}fdp.exe and zero\u{200b}width".into(),
            &|i| {
                i.reporter_email = Some("a\u{1b}[31m@x.example".into());
            },
        ),
        // A status this version does not know: kept in the list it was stored in (`new`), its
        // own value shown in the STATUS column.
        with("enum", "unknown status and platform".into(), &|i| {
            i.status = feedback_api::Status::Other("spam".into());
            if let Some(app) = &mut i.app {
                app.platform = feedback_api::Platform::Other("visionos".into());
            }
        }),
        with("nulls", "no app, no email".into(), &|i| {
            i.app = None;
            i.reporter_email = None;
        }),
    ]
}

#[test]
fn hostile_text_is_inert_and_columns_hold() {
    let store: Shared = fill(0);
    store
        .write(|s| s.put_items(&hostile_items(), now()))
        .unwrap();
    let mut h = Harness::start(store, 120, 20);
    h.synced(SyncJob::Start(Status::New), true);
    assert!(!h.state.list.fetching());
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let buffer = terminal.backend().buffer();
    for cell in buffer.content() {
        assert!(
            feedback_core::text::is_clean(cell.symbol()),
            "{:?}",
            cell.symbol()
        );
    }
    // The row of "long" is selected by its id (the list's order is the store's), and opened.
    while h.selected_id() != "long" {
        let before = h.state.list.selected;
        act(&mut h, Action::MoveDown);
        assert_ne!(h.state.list.selected, before, "long is in the list");
    }
    act(&mut h, Action::Open);
    let mut long = stored_detail(0);
    long.item.feedback.id = feedback_api::FeedbackId("long".into());
    long.item.feedback.message = "A".repeat(10_000);
    h.send(Msg::DetailLoaded {
        id: "long".into(),
        result: Ok(Box::new(long)),
    });
    act(&mut h, Action::PageDown);
    let terminal = draw(&h.state);
    let title: String = (0..120)
        .map(|x| terminal.backend().buffer()[(x, 0)].symbol())
        .collect();
    assert!(title.contains("Feedback long"), "{title}");
    assert!(h.state.detail.as_ref().is_some_and(|d| d.scroll > 0));
    insta::assert_snapshot!("hostile_long_message_detail_scrolled", terminal.backend());
}

/// The cells of row `y` that `style`'s modifier marks, as text.
fn marked(buffer: &ratatui::buffer::Buffer, y: u16, modifier: Modifier) -> String {
    (0..buffer.area.width)
        .filter(|x| buffer[(*x, y)].modifier.contains(modifier))
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

#[test]
fn a_query_error_is_marked_where_it_is_in_a_scrolled_prompt() {
    let mut h = started_harness(60, 20, 100, true);
    act(&mut h, Action::Filter);
    // Longer than the prompt: the text area scrolls to keep the cursor, at the end, in view.
    h.send(Msg::Paste(format!("  {}app:gone", "number ".repeat(8))));
    let terminal = draw(&h.state);
    let buffer = terminal.backend().buffer();
    let prompt: String = (0..60).map(|x| buffer[(x, 17)].symbol()).collect();
    assert!(!prompt.contains("  number"), "scrolled: {prompt}");
    assert_eq!(marked(buffer, 17, Modifier::UNDERLINED), "gone", "{prompt}");
    // Blanks before a short text: the mark is on the error, not beside it.
    act(&mut h, Action::Back);
    act(&mut h, Action::Filter);
    h.send(Msg::Paste("   crash app:gone".into()));
    let terminal = draw(&h.state);
    assert_eq!(
        marked(terminal.backend().buffer(), 17, Modifier::UNDERLINED),
        "gone"
    );
}

#[test]
fn the_prompt_says_how_to_reach_the_help() {
    let mut h = started_harness(120, 35, 10, true);
    act(&mut h, Action::Filter);
    let terminal = draw(&h.state);
    let prompt: String = (0..120)
        .map(|x| terminal.backend().buffer()[(x, 32)].symbol())
        .collect();
    // `?` types a `?` in the prompt: the help is one Esc away.
    assert!(prompt.contains("(Esc, then ? for help)"), "{prompt}");
}

#[test]
fn a_full_screen_error_is_drawn_inert() {
    let mut h = Harness::start(fill(0), 100, 30);
    h.send(failed(
        FailureKind::Refused,
        "refused \u{1b}]52;c;eA==\u{7}\u{1b}[2Jby\u{202e}gpj.exe the server",
    ));
    let terminal = draw(&h.state);
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect();
    // The escapes are shown as `␛`, not as the text of their sequences.
    assert!(screen.contains("refused ␛"), "{screen}");
    assert!(
        !screen.contains("52;c;") && !screen.contains("[2J"),
        "{screen}"
    );
    for cell in terminal.backend().buffer().content() {
        assert!(
            feedback_core::text::is_clean(cell.symbol()),
            "{:?}",
            cell.symbol()
        );
    }
}

#[test]
fn live_arrivals_are_marked_new_and_counted() {
    let mut h = started_harness(120, 20, 100, false);
    h.state.live = true;
    // Scrolled down: at its top the list would show the arrivals at once.
    act(&mut h, Action::PageDown);
    for n in [9001, 9002] {
        let mut fresh = testkit::item(n);
        fresh.received_at =
            now() + jiff::SignedDuration::from_secs(i64::try_from(n - 9000).unwrap());
        fresh.message = format!("Just arrived by webhook ({n})");
        h.store.write(|s| s.put_items(&[fresh], now())).unwrap();
        h.send(Msg::Arrived(Ok(true)));
    }
    // The cursor stayed on its item: the arrivals are above the screen, and the title says so.
    let terminal = draw(&h.state);
    insta::assert_snapshot!("live_arrivals_above", terminal.backend());
    act(&mut h, Action::Top);
    let terminal = draw(&h.state);
    insta::assert_snapshot!("live_arrivals_on_screen", terminal.backend());
    let buffer = terminal.backend().buffer();
    let left = layout::list_left(120);
    assert_eq!(buffer[(left + 1, 4)].symbol(), "•");
    assert_eq!(
        buffer[(left + 1, 4)].fg,
        Color::Green,
        "new rows are marked in green"
    );
    assert_eq!(
        buffer[(left + 1, 5)].symbol(),
        " ",
        "the third row was stored before"
    );
}

/// The help on the smallest supported terminal: taller than the screen, so it scrolls; it
/// wraps rather than cuts, and the title shows how far it is scrolled.
#[test]
fn help_scrolled_on_a_small_terminal() {
    use feedback_tui::runtime::translate;
    use ratatui::crossterm::event::Event;

    let keymap = Keymap::default();
    let mut state = started(40, 12, 100, false);
    update(&mut state, Msg::Action(Action::Help));
    let down = Event::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE));
    for _ in 0..5 {
        let msg = translate(&down, &state, &keymap).unwrap();
        update(&mut state, msg);
    }
    let (_, max) = render::help_scroll_range(40, 12, &keymap, feedback_tui::state::Mode::Normal);
    assert_eq!(state.help_scroll, 5.min(max));
    let terminal = draw(&state);
    insta::assert_snapshot!(terminal.backend());
    let screen = format!("{:?}", terminal.backend().buffer());
    assert!(screen.contains("j/k: 5/"), "{screen}");
    // Scrolled to the end, the last line of the help is on screen, whole.
    let bottom = Event::Key(KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT));
    let msg = translate(&bottom, &state, &keymap).unwrap();
    update(&mut state, msg);
    let screen = format!("{:?}", draw(&state).backend().buffer());
    assert!(screen.contains("[keys]."), "{screen}");
    assert!(
        screen.contains("age:>2w"),
        "the search language too: {screen}"
    );
}

/// The status bar row of a `width`-column screen of `state`.
fn status_row(state: &mut AppState, width: u16) -> String {
    update(state, Msg::Resize { width, height: 20 });
    let terminal = draw(state);
    let buffer = terminal.backend().buffer();
    (0..width).map(|x| buffer[(x, 19)].symbol()).collect()
}

/// A list that is paused, rate limited, low on budget and showing an error, all at once.
fn busy_status() -> AppState {
    let mut h = started_harness(120, 20, 100, false);
    let reset = now() + jiff::SignedDuration::from_secs(24);
    h.send(budget(120, 3, reset));
    // At the end of what is stored with the budget low: paging pauses.
    act(&mut h, Action::Bottom);
    let mut state = h.state;
    assert_eq!(state.list.paging, feedback_tui::state::Paging::Paused);
    state.note = Some(feedback_tui::state::Note {
        text: Clean::fixed("Could not reach the service: connection reset by peer — r to retry"),
        error: true,
        until: None,
    });
    update(
        &mut state,
        Msg::Waiting(Wait {
            reason: WaitReason::Pacing,
            duration: Duration::from_secs(24),
            until: now() + jiff::SignedDuration::from_secs(24),
            capped_from: None,
        }),
    );
    state
}

#[test]
fn status_bar_parts_never_run_into_each_other() {
    let mut state = busy_status();
    let whole = [
        "paging paused: budget low",
        "budget spent; next request in 24s",
        "3/120 ↻24s",
        "q quit ? help",
        "as of 12:00",
    ];
    let mut rows = Vec::new();
    for width in [200, 120, 80, 60, 40] {
        let row = status_row(&mut state, width);
        assert!(!row.contains("low budget"), "{row}");
        let parts = row.split(" · ").flat_map(|p| p.split("   "));
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let note = "Could not reach the service: connection reset by peer — r to retry";
            let known = whole.contains(&part)
                || part.starts_with("● ") && part.ends_with(" unseen")
                || part == "new"
                || note.starts_with(part.trim_end_matches("…(M)").trim_end_matches('…'));
            assert!(known, "{part:?} is not one whole part in {row:?}");
        }
        if width >= 60 {
            assert!(row.contains("budget spent; next request in 24s"), "{row}");
        }
        rows.push(row);
    }
    insta::assert_snapshot!(rows.join("\n"));
}

#[test]
fn filter_chips_share_the_room_they_have() {
    let mut state = started(120, 20, 100, false);
    let chosen = |label: &str| {
        Some(feedback_tui::state::Chosen {
            value: "v".into(),
            label: Clean::line(label),
        })
    };
    state.view.project = chosen("Nimbus Notes — the note-taking app for teams");
    state.view.app = chosen("Nimbus Notes for iOS (TestFlight beta)");
    state.view.tag = chosen("feature-request-from-enterprise");
    let wide = status_row(&mut state, 200);
    for label in [
        "project:Nimbus Notes — the note-taking app for teams",
        "app:Nimbus Notes for iOS (TestFlight beta)",
        "tag:feature-request-from-enterprise",
    ] {
        assert!(
            wide.contains(label),
            "{label} is cut on a wide screen: {wide}"
        );
    }
    let narrow = status_row(&mut state, 100);
    let chips: Vec<usize> = narrow
        .split(" · ")
        .filter(|p| p.ends_with('…'))
        .map(|p| p.chars().count())
        .collect();
    assert_eq!(chips.len(), 3, "{narrow}");
    let (least, most) = (chips.iter().min().unwrap(), chips.iter().max().unwrap());
    assert!(most - least <= 1, "the room is not shared fairly: {narrow}");
    insta::assert_snapshot!(format!("{wide}\n{narrow}"));
}

/// `ctrl-k`, `line` pasted, `Enter`.
fn link(h: &mut Harness, line: &str) {
    act(h, Action::EditLinks);
    h.send(Msg::Paste(line.to_owned()));
    h.send(Msg::LinkInput(KeyEvent::from(KeyCode::Enter)));
}

/// Links on the list (the TICKET column: the newest link's short name, how many more) and in
/// the detail (the Links section), and the link prompt over the detail listing its links; a
/// title's bidi override is inert.
#[test]
fn links_on_the_list_in_the_detail_and_in_the_prompt() {
    let mut h = started_harness(120, 35, 100, false);
    link(
        &mut h,
        "https://tracker.example/TICKET-26944 Crash on start \u{202e}evil",
    );
    link(&mut h, "https://github.com/acme/app/issues/42");
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    link(&mut h, "https://docs.example/guides/sync");
    insta::assert_snapshot!(draw(&h.state).backend());
    h.send(Msg::Resize {
        width: 200,
        height: 12,
    });
    insta::assert_snapshot!("links_on_a_wide_list", draw(&h.state).backend());
    h.send(Msg::Resize {
        width: 120,
        height: 35,
    });
    act(&mut h, Action::Top);
    act(&mut h, Action::Open);
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(stored_detail(0))),
    });
    act(&mut h, Action::Bottom);
    insta::assert_snapshot!("links_in_the_detail", draw(&h.state).backend());
    act(&mut h, Action::EditLinks);
    h.send(Msg::Paste(
        "-https://github.com/acme/app/issues/42".to_owned(),
    ));
    let terminal = draw(&h.state);
    insta::assert_snapshot!("the_link_prompt", terminal.backend());
    for cell in terminal.backend().buffer().content() {
        assert!(
            feedback_core::text::is_clean(cell.symbol()),
            "{:?}",
            cell.symbol()
        );
    }
}

/// `R` on two marked items: the template picker, then the confirm screen (From, To masked in
/// privacy mode, the subject, the first lines with the reporter's message quoted, inert).
#[test]
fn the_reply_composer_and_its_confirm_screen() {
    let mut h = started_harness(120, 35, 10, true);
    for n in 0..3 {
        let mut detail = testkit::detail(n);
        detail.feedback.message = format!("It crashed \u{1b}[2J({n})\nsecond line");
        h.store.write(|s| s.put_detail(&detail, now())).unwrap();
    }
    h.state.mail.settings = Some(feedback_config::mail::MailSettings {
        from: "Ana at Support <support@acme.example>".to_owned(),
        via: feedback_config::mail::Via::Sendmail {
            program: "/usr/sbin/sendmail".to_owned(),
        },
        per_minute: 30,
    });
    h.state.mail.templates = vec![feedback_config::mail::Template {
        name: "fixed".to_owned(),
        subject: Some("Fixed in {version}".to_owned()),
        body: "Hi, it is fixed in the next release.\nThanks for telling us.".to_owned(),
        shared_by: None,
    }];
    // A teammate's shared template, its name hostile: offered after this config's own.
    h.state.mail.team_templates = vec![feedback_config::mail::Template {
        name: "logs\u{1b}[31m please".to_owned(),
        subject: None,
        body: "Could you send us the logs?".to_owned(),
        shared_by: Some("bo".to_owned()),
    }];
    for _ in 0..3 {
        act(&mut h, Action::ToggleMark);
    }
    act(&mut h, Action::Reply);
    insta::assert_snapshot!("reply_template_picker", draw(&h.state).backend());
    let key = |h: &mut Harness, code: KeyCode| h.send(Msg::ReplyInput(KeyEvent::from(code)));
    key(&mut h, KeyCode::Down);
    key(&mut h, KeyCode::Enter);
    key(&mut h, KeyCode::Enter);
    act(&mut h, Action::TogglePrivacy);
    let terminal = draw(&h.state);
    insta::assert_snapshot!("reply_confirm_private", terminal.backend());
    for cell in terminal.backend().buffer().content() {
        assert!(
            feedback_core::text::is_clean(cell.symbol()),
            "{:?}",
            cell.symbol()
        );
    }
}

/// The detail's Replies section: a reply sent (by a teammate's name or this store), one that
/// failed with the server's words, one whose fate is unknown with what to check; the list's
/// TICKET column marks the replied item `↩`.
#[test]
fn replies_in_the_detail_and_on_the_list() {
    use feedback_store::{NewReply, ReplyState};
    let mut h = started_harness(120, 40, 10, true);
    let new = |id: &str, to: &str, subject: &str| NewReply {
        reply_id: id.to_owned(),
        batch: id.to_owned(),
        item_ids: vec!["id00001".to_owned()],
        to: to.to_owned(),
        subject: subject.to_owned(),
        body: "Thanks".to_owned(),
        by: None,
    };
    h.store
        .write(|s| {
            s.queue_replies(
                &[
                    new("r-sent", "user1@example.com", "Fixed in 2.14.2"),
                    new("r-failed", "user1@example.com", "About \u{1b}[2Jyour crash"),
                    new("r-unknown", "user1@example.com", "Did it help?"),
                ],
                now(),
            )?;
            let at = now();
            s.reply_to_send(at)?;
            s.reply_settled("r-sent", ReplyState::Sent, None, at, &[])?;
            s.reply_to_send(at)?;
            s.reply_settled(
                "r-failed",
                ReplyState::Failed,
                Some("550 5.1.1 no such user"),
                at,
                &[],
            )?;
            s.reply_to_send(at)?;
            s.replies_recover()
        })
        .unwrap();
    h.store
        .write(|s| s.put_detail(&testkit::detail(1), now()))
        .unwrap();
    act(&mut h, Action::Reload);
    act(&mut h, Action::MoveDown);
    insta::assert_snapshot!("replied_on_the_list", draw(&h.state).backend());
    act(&mut h, Action::Open);
    h.send(Msg::DetailLoaded {
        id: "id00001".into(),
        result: Ok(Box::new(stored_detail(1))),
    });
    act(&mut h, Action::Bottom);
    let terminal = draw(&h.state);
    insta::assert_snapshot!("replies_in_the_detail", terminal.backend());
    for cell in terminal.backend().buffer().content() {
        assert!(
            feedback_core::text::is_clean(cell.symbol()),
            "{:?}",
            cell.symbol()
        );
    }
}
