//! Snapshots of reading and moving: the preview pane, the detail's position and
//! scroll line, wrapped metadata, the hidden sidebar with the filters in the list's title, a
//! screen under 100 columns, type-ahead in a pane, and the help scrolled with wrapped rows.
#![allow(clippy::unwrap_used)]

use feedback_tui::action::{Action, Msg};
use feedback_tui::keymap::Keymap;
use feedback_tui::reading::TypeKey;
use feedback_tui::render;
use feedback_tui::state::AppState;
use feedback_tui::testkit::{self, Harness, now, started_harness, stored_detail};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(state: &AppState) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
    terminal
        .draw(|frame| render::render(frame, state, &Keymap::default()))
        .unwrap();
    terminal
}

fn act(h: &mut Harness, action: Action) {
    h.send(Msg::Action(action));
}

/// The service's detail of item `n` (or `detail`), stored and delivered.
fn fetched(h: &mut Harness, n: usize, detail: Option<feedback_api::FeedbackDetail>) {
    let detail = detail.unwrap_or_else(|| testkit::detail(n));
    h.store.write(|s| s.put_detail(&detail, now())).unwrap();
    let mut stored = stored_detail(n);
    stored.metadata = detail.metadata.clone();
    h.send(Msg::DetailLoaded {
        id: format!("id{n:05}"),
        result: Ok(Box::new(stored)),
    });
}

fn row(terminal: &Terminal<TestBackend>, y: u16) -> String {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

#[test]
fn preview_pane_at_160_columns() {
    let mut h = started_harness(160, 30, 100, false);
    fetched(&mut h, 0, None);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    // The view bar spans the list and the preview; their tops line up under it.
    assert!(row(&terminal, 0).contains("1 Inbox"));
    let top = row(&terminal, 1);
    assert!(
        top.contains(" Preview ") && top.contains("1 / 100") && top.contains(" Feedback "),
        "{top}"
    );
}

#[test]
fn detail_header_with_position_and_more_below() {
    let mut h = started_harness(100, 16, 100, false);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    fetched(&mut h, 2, None);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    assert!(row(&terminal, 0).contains("id00002 · 3 / 100"));
    let bottom = row(&terminal, 14);
    assert!(
        bottom.contains("lines 1–13 of") && bottom.contains("more below"),
        "{bottom}"
    );
}

#[test]
fn long_metadata_values_wrap_under_their_column() {
    let mut h = started_harness(100, 30, 100, false);
    let mut detail = testkit::detail(0);
    detail.metadata.custom.insert(
        "userAgent".into(),
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, \
         like Gecko) Version/18.2 Mobile/15E148 Safari/604.1"
            .into(),
    );
    act(&mut h, Action::Open);
    fetched(&mut h, 0, Some(detail));
    act(&mut h, Action::Bottom);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    // The continuation starts under the value, not at the border.
    let screen: Vec<String> = (0..30).map(|y| row(&terminal, y)).collect();
    let first = screen.iter().position(|l| l.contains("userAgent")).unwrap();
    let cells = |line: &str| line.chars().collect::<Vec<char>>();
    let line = cells(&screen[first]);
    let value_at = (0..line.len())
        .find(|&x| line[x..].starts_with(&['M', 'o', 'z']))
        .unwrap();
    let next = cells(&screen[first + 1]);
    assert_eq!(next[value_at - 1], ' ', "{}", screen[first + 1]);
    assert_eq!(next[value_at], 'A', "{}", screen[first + 1]);
}

#[test]
fn hidden_sidebar_keeps_the_filters_in_the_list_title() {
    let mut h = started_harness(120, 20, 100, false);
    act(&mut h, Action::FocusNext); // Projects
    act(&mut h, Action::Open); // Nimbus Notes
    act(&mut h, Action::FocusNext);
    act(&mut h, Action::FocusNext); // Apps
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open); // Nimbus Notes for iOS
    act(&mut h, Action::ToggleSidebar);
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    // Row 0 is the view bar.
    let title = row(&terminal, 1);
    assert!(
        title.contains("project: Nimbus Notes") && title.contains("app: Nimbus Notes for iOS"),
        "{title}"
    );
    assert!(!row(&terminal, 2).contains("APP"), "one app: no APP column");
}

#[test]
fn under_100_columns_the_sidebar_hides_itself() {
    let h = started_harness(90, 20, 100, false);
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    assert!(row(&terminal, 0).starts_with("[1 Inbox"));
    assert!(row(&terminal, 1).starts_with("┌ Feedback"));
}

#[test]
fn type_ahead_in_a_pane() {
    let mut h = started_harness(120, 20, 100, false);
    act(&mut h, Action::FocusPrev); // Tags
    h.send(Msg::TypeAhead(TypeKey::Char('c')));
    h.send(Msg::TypeAhead(TypeKey::Char('r')));
    h.state.note = None;
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    let screen: String = (0..20).map(|y| row(&terminal, y)).collect();
    assert!(screen.contains("Tags ⌕cr"), "{screen}");
    let tags = &h.state.tags;
    assert_eq!(tags.entries[tags.selected].label, "crash");
}

#[test]
fn help_scrolled_with_descriptions_wrapped_under_their_column() {
    let mut h = started_harness(60, 20, 100, false);
    act(&mut h, Action::Help);
    let (_, max) = render::help_scroll_range(
        60,
        20,
        &Keymap::default(),
        feedback_tui::state::Mode::Normal,
    );
    h.send(Msg::HelpScroll { lines: 4, max });
    let terminal = draw(&h.state);
    insta::assert_snapshot!(terminal.backend());
    assert!(row(&terminal, 19).contains("more"));
}

/// Privacy mode masks the reporter and custom metadata values in the preview pane too.
#[test]
fn privacy_masks_the_preview_pane() {
    let mut h = started_harness(160, 40, 100, false);
    let mut detail = testkit::detail(0);
    detail.feedback.reporter_email = Some("jane.secret@example.com".into());
    detail
        .metadata
        .custom
        .insert("plan".into(), "enterprise-secret".into());
    h.store.write(|s| s.put_detail(&detail, now())).unwrap();
    let mut stored = stored_detail(0);
    stored.item.feedback.reporter_email = detail.feedback.reporter_email.clone();
    stored.metadata = detail.metadata.clone();
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(stored)),
    });
    let screen = |h: &Harness| -> String {
        let terminal = draw(&h.state);
        (0..h.state.height)
            .map(|y| row(&terminal, y))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let open = screen(&h);
    assert!(open.contains(" Preview "), "{open}");
    assert!(
        open.contains("jane.secret@") && open.contains("enterprise-secret"),
        "shown without privacy:\n{open}"
    );
    act(&mut h, Action::TogglePrivacy);
    let private = screen(&h);
    assert!(private.contains(" Preview "), "{private}");
    assert!(
        !private.contains("jane.secret") && !private.contains("enterprise-secret"),
        "masked in the preview:\n{private}"
    );
    assert!(
        private.contains(feedback_tui::privacy::MASKED_EMAIL),
        "{private}"
    );
}
