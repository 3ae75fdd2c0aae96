//! Snapshots of the Top issues screen: computing with its progress, the clusters (count,
//! sparkline, sanitized label, apps, first and last seen, the selection), without colour, and
//! a failure. Fixed data and clock.
#![allow(clippy::unwrap_used)]

use jiff::{SignedDuration, Timestamp};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use feedback_store::similar::{Cluster, TopIssues};
use feedback_tui::render::theme::Theme;
use feedback_tui::render::top_issues::render;
use feedback_tui::top_issues::TopIssuesScreen;

fn now() -> Timestamp {
    "2026-11-20T15:00:00Z".parse().unwrap()
}

fn ago(hours: i64) -> Timestamp {
    now() - SignedDuration::from_hours(hours)
}

fn cluster(
    label: &str,
    count: usize,
    apps: &[(&str, usize)],
    series: Vec<u32>,
    first: i64,
) -> Cluster {
    Cluster {
        label: label.to_owned(),
        keys: (0..i64::try_from(count).unwrap()).collect(),
        apps: apps
            .iter()
            .map(|(a, n)| (Some((*a).to_owned()), *n))
            .collect(),
        first_seen: Some(ago(first)),
        last_seen: Some(ago(2)),
        series,
    }
}

fn top() -> TopIssues {
    let rising: Vec<u32> = (0..30).map(|d| if d > 22 { d * 2 } else { 1 }).collect();
    let flat: Vec<u32> = (0..30).map(|d| u32::from(d % 3 == 0)).collect();
    TopIssues {
        clusters: vec![
            cluster(
                "App closes itself right after the splash screen",
                214,
                &[
                    ("Trailhead iOS", 120),
                    ("Trailhead Android", 80),
                    ("Summit", 14),
                ],
                rising,
                24 * 20,
            ),
            cluster(
                "Can't log in with Google\u{1b}[31m since the update",
                37,
                &[("Summit", 37)],
                flat.clone(),
                24 * 9,
            ),
            cluster(
                "Dark mode switches back to light after a restart",
                5,
                &[],
                flat,
                30,
            ),
        ],
        total_clusters: 41,
        items: 3267,
    }
}

fn draw(screen: &TopIssuesScreen, color: bool) -> Terminal<TestBackend> {
    draw_at(screen, color, 110, 3267)
}

fn draw_at(
    screen: &TopIssuesScreen,
    color: bool,
    width: u16,
    view_items: usize,
) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, 8)).unwrap();
    let theme = Theme::new(color);
    terminal
        .draw(|frame| render(frame, frame.area(), screen, now(), view_items, theme))
        .unwrap();
    terminal
}

/// Row `y` of the screen as text.
fn row(terminal: &Terminal<TestBackend>, y: u16) -> String {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol().to_owned())
        .collect()
}

#[test]
fn at_80_columns_the_label_keeps_its_room_and_a_capped_view_says_so() {
    let mut screen = TopIssuesScreen::computing(1);
    screen.on_loaded(1, Ok(top()));
    let terminal = draw_at(&screen, true, 80, 1_000_000);
    insta::assert_snapshot!(terminal.backend());
    assert!(
        row(&terminal, 0).contains("41 clusters of the newest 3,267 of 1,000,000 items"),
        "{}",
        row(&terminal, 0)
    );
    assert!(row(&terminal, 1).contains("items") && row(&terminal, 1).contains("issue"));
    // No sparkline below 100 columns; the seen column stays; the label keeps 40 cells.
    let first = row(&terminal, 2);
    assert!(
        first.contains("App closes itself right after the splas…"),
        "{first}"
    );
    assert!(!first.contains('█') && first.contains("2w–2h"), "{first}");
    // At 60 the seen column goes too.
    let narrow = draw_at(&screen, true, 60, 3267);
    assert!(!row(&narrow, 2).contains("2w–2h"), "{}", row(&narrow, 2));
    assert!(row(&narrow, 0).contains("of 3,267 items"));
}

#[test]
fn a_squeezed_sparkline_keeps_the_newest_days() {
    let mut screen = TopIssuesScreen::computing(1);
    // Only today has items: the last cell of the sparkline must show it.
    let mut today = vec![0; 30];
    today[29] = 9;
    let mut top = top();
    top.clusters[0].series = today;
    screen.on_loaded(1, Ok(top));
    let terminal = draw_at(&screen, true, 102, 3267);
    let first = row(&terminal, 2);
    assert!(first.contains('█'), "today's bar is drawn: {first}");
}

#[test]
fn computing_shows_its_progress() {
    let mut screen = TopIssuesScreen::computing(7);
    assert!(screen.on_progress(7, 40));
    assert!(
        !screen.on_progress(6, 90),
        "a stale request's progress is dropped"
    );
    insta::assert_snapshot!(draw(&screen, true).backend());
}

#[test]
fn clusters_largest_first_with_sparkline_apps_and_seen() {
    let mut screen = TopIssuesScreen::computing(1);
    assert!(screen.on_loaded(1, Ok(top())));
    screen.move_by(1);
    assert_eq!(screen.selected_keys().map(<[i64]>::len), Some(37));
    let terminal = draw(&screen, true);
    insta::assert_snapshot!(terminal.backend());
    // The escape sequence in a label never reaches the terminal.
    let text: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect();
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn without_colour_the_selection_still_shows() {
    let mut screen = TopIssuesScreen::computing(1);
    screen.on_loaded(1, Ok(top()));
    screen.move_by(5);
    assert_eq!(screen.selected, 2);
    screen.move_by(-9);
    assert_eq!(screen.selected, 0);
    let terminal = draw(&screen, false);
    let buffer = terminal.backend().buffer();
    assert!(
        buffer
            .content()
            .iter()
            .all(|c| c.fg == ratatui::style::Color::Reset)
    );
    insta::assert_snapshot!(terminal.backend());
}

#[test]
fn a_failure_says_so_and_stale_answers_are_dropped() {
    let mut screen = TopIssuesScreen::computing(3);
    assert!(!screen.on_loaded(2, Ok(top())));
    assert!(screen.result.is_none());
    assert!(screen.on_loaded(
        3,
        Err(feedback_tui::failure::Failure::store("database is locked"))
    ));
    insta::assert_snapshot!(draw(&screen, true).backend());
}

/// `T` asks for the view's clusters; the computation's progress and answer (run as the
/// executor runs it) show on the screen; moving chooses a cluster and the list below does
/// not move; `Esc` goes back to the list; a stale answer is dropped.
#[test]
fn t_opens_the_screen_progress_shows_and_esc_goes_back() {
    use feedback_store::search::Context;
    use feedback_tui::action::{Action, Msg};
    use feedback_tui::effect::Effect;
    use feedback_tui::keymap::Keymap;
    use feedback_tui::runtime::top_issues::compute;
    use feedback_tui::testkit::started_harness;

    let mut h = started_harness(100, 16, 30, true);
    let selected = h.state.list.selected;
    let effects = h.send(Msg::Action(Action::TopIssues));
    let [
        Effect::TopIssues {
            request_id,
            spec,
            now,
        },
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!(h.state.top_issues.as_ref().map(|s| s.progress), Some(0));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let cx = Context {
        now: *now,
        tz: jiff::tz::TimeZone::UTC,
        views: std::sync::Arc::default(),
    };
    let result = h
        .store
        .read(|s| compute(s, spec, &cx, *request_id, &tx))
        .unwrap();
    let mut percents = Vec::new();
    while let Ok(msg) = rx.try_recv() {
        if let Msg::TopIssuesProgress { percent, .. } = &msg {
            percents.push(*percent);
        }
        h.send(msg);
    }
    assert_eq!(percents.last(), Some(&100));
    assert_eq!(h.state.top_issues.as_ref().map(|s| s.progress), Some(100));
    let items: usize = result.clusters.iter().map(|c| c.keys.len()).sum();
    assert_eq!(items, result.items);
    assert!(result.items > 0);
    // A stale answer changes nothing.
    h.send(Msg::TopIssuesLoaded {
        request_id: request_id - 1,
        result: Ok(Box::new(TopIssues::default())),
    });
    assert!(h.state.top_issues.as_ref().unwrap().result.is_none());
    h.send(Msg::TopIssuesLoaded {
        request_id: *request_id,
        result: Ok(Box::new(result.clone())),
    });
    assert_eq!(
        h.state.top_issues.as_ref().unwrap().result.as_ref(),
        Some(&feedback_tui::top_issues::Issues::from(result.clone()))
    );
    h.send(Msg::Action(Action::MoveDown));
    let moved = usize::from(result.clusters.len() > 1);
    assert_eq!(h.state.top_issues.as_ref().unwrap().selected, moved);
    assert_eq!(
        h.state.list.selected, selected,
        "the list under the screen stays"
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 16)).unwrap();
    terminal
        .draw(|frame| feedback_tui::render::render(frame, &h.state, &Keymap::default()))
        .unwrap();
    insta::assert_snapshot!("inbox_with_top_issues", terminal.backend());
    // The wheel moves the selection as the move keys do; the list under it stays.
    let last = result.clusters.len() - 1;
    h.send(Msg::Scroll(3));
    assert_eq!(
        h.state.top_issues.as_ref().unwrap().selected,
        (moved + 3).min(last)
    );
    h.send(Msg::Scroll(-30));
    assert_eq!(h.state.top_issues.as_ref().unwrap().selected, 0);
    assert_eq!(h.state.list.selected, selected);
    h.send(Msg::Action(Action::Back));
    assert!(h.state.top_issues.is_none());
    // `T` is bound by default and listed for the palette.
    assert_eq!(Keymap::default().key_for(Action::TopIssues), "T");
}
