//! Rows drawn cell by cell are compared with the `Line` of spans the list drew before, kept
//! here as the reference: symbols and styles, for plain, wide, joined, combining, RTL and
//! hostile text, at every column layout.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use super::*;
use crate::testkit::{item, now};
use feedback_api::{Feedback, FeedbackId, Platform, Status};
use feedback_core::width::truncate;

fn app_needs(app: usize) -> Needs {
    Needs {
        app,
        ..Needs::default()
    }
}

/// The row as the list drew it before rows were written cell by cell.
fn reference_row_line(
    state: &AppState,
    row: &Row,
    columns: &Columns,
    theme: Theme,
) -> Line<'static> {
    let mut spans = vec![Span::styled(
        format!("{:>4} ", age(state.now, row.received_at)),
        theme.dim(),
    )];
    let marks = crate::triage::glyphs(&state.triage.overlay.shown(&row.id), state.now);
    spans.push(Span::styled(fit(&marks, MARKS) + " ", theme.accent()));
    if columns.owner > 0 {
        // The rule: ◎ when another member looks, ~ while a change waits, then the owner; the
        // accent for this member's own items.
        let team = state.team.as_ref().unwrap();
        let shown = state
            .triage
            .overlay
            .team(&row.id)
            .cloned()
            .unwrap_or_default();
        let looking = team
            .present
            .iter()
            .any(|p| p.member != team.member && p.item.as_deref() == Some(&*row.id));
        let glyphs = format!(
            "{}{}",
            if looking { "◎" } else { "" },
            if shown.pending { "~" } else { "" },
        );
        let name = feedback_core::text::sanitize_line(shown.owner.as_deref().unwrap_or(""));
        let budget = columns.owner - width(&glyphs);
        let text = glyphs + &columns.owners.show(&name, budget);
        let style = if shown.owner.as_deref() == Some(team.member.as_str()) {
            theme.accent()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(fit(&text, columns.owner) + " ", style));
    }
    if columns.ticket > 0 {
        // The rule: ⧉ and the newest link's short name, then how many more links there are.
        let shown = state
            .triage
            .overlay
            .team(&row.id)
            .cloned()
            .unwrap_or_default();
        let text = shown
            .links
            .iter()
            .max_by_key(|l| l.at)
            .map(|newest| match shown.links.len() {
                _ if columns.ticket == 1 => "⧉".to_owned(),
                1 => format!("⧉{}", newest.short),
                n => format!("⧉{} +{}", newest.short, n - 1),
            })
            .unwrap_or_default();
        spans.push(Span::styled(fit(&text, columns.ticket) + " ", theme.link()));
    }
    if columns.status > 0 {
        let status = &*row.status;
        let shown = if status == state.view.listed() {
            ""
        } else {
            status
        };
        spans.push(Span::styled(
            fit(shown, columns.status - 1) + " ",
            theme.warn(),
        ));
    }
    if columns.app > 0 {
        let app = row.app.as_deref().unwrap_or("—");
        match app.rsplit_once(" · ") {
            // The name is cut, the platform kept.
            Some((name, platform)) if width(app) > columns.app => {
                let platform_cells = (width(platform) + 3).min(columns.app - 4);
                let name = fit(name, columns.app - platform_cells);
                spans.push(Span::styled(name, theme.accent()));
                let platform = format!(" · {} ", fit(platform, platform_cells - 3));
                spans.push(Span::styled(platform, theme.accent()));
            }
            _ => spans.push(Span::styled(fit(app, columns.app) + " ", theme.accent())),
        }
    }
    if columns.tags > 0 {
        let tags = &*row.tags_label;
        spans.push(Span::styled(fit(tags, columns.tags) + " ", theme.dim()));
    }
    spans.push(Span::raw(fit(first_line(&row.message), columns.message)));
    if columns.email > 0 {
        spans.push(Span::styled(
            format!(
                " {}",
                truncate(row.email.as_deref().unwrap_or(""), columns.email - 1)
            ),
            theme.dim(),
        ));
    }
    Line::from(spans)
}

const MESSAGES: &[&str] = &[
    "Message number 1: the sync button does nothing\nsecond line",
    "\n\n  \nafter blank lines",
    "",
    "short",
    "Grüße aus Köln — ça marche pas · Привет",
    "␛]0;pwned␛␛[2J␛[31mred␛[0m title ␛]52;c;eA==␛",
    "invoice�fdp.exe and zero�width",
    "同期が遅いです 😀👍 نص عربي שלום",
    "ASCII first for a long while before the wide part: 同期が遅いです",
    "family 👨‍👩‍👧 and flags 🇩🇪🇫🇷 and ❤\u{fe0f}",
    "cafe\u{301} and \u{301} alone",
    "tab\tand bell\u{7}",
];

fn feedback(n: usize) -> Feedback {
    let mut item = item(n);
    item.id = FeedbackId(format!("row{n}"));
    item.message = MESSAGES[n % MESSAGES.len()].to_owned();
    match n % 7 {
        0 => item.status = Status::Other("spam".into()),
        1 => item.status = Status::Other("エスカレーション済み".into()),
        2 => item.tags = vec!["ＣＪＫ".into(), "😀".into()],
        3 => item.reporter_email = Some("名前@例え.jp".into()),
        4 => item.reporter_email = Some(format!("{}@example.com", "x".repeat(40))),
        5 => {
            if let Some(app) = &mut item.app {
                app.name = "Nimbus 📝 Notes".into();
                app.platform = Platform::Other("visionos".into());
            }
        }
        _ => {}
    }
    item.received_at =
        now() - jiff::SignedDuration::from_secs(i64::try_from(n * n * 997).unwrap_or(0));
    item
}

fn state() -> AppState {
    let mut state = AppState::new(now(), 200, 50);
    state.list.window.rows = (0..60)
        .map(|n| {
            Row::new(&feedback_store::StoredItem {
                key: i64::try_from(n).unwrap_or(0),
                feedback: feedback(n),
                seen: now(),
            })
        })
        .collect();
    state
}

fn draw(rect: Rect, selected: Option<Style>, draw: impl FnOnce(&mut Buffer)) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, rect.right() + 2, 1));
    if let Some(style) = selected {
        buf.set_style(rect, style);
    }
    draw(&mut buf);
    buf
}

#[test]
fn rows_are_drawn_exactly_as_the_line_of_spans() {
    let state = state();
    for color in [true, false] {
        let theme = Theme::new(color);
        for cells in [8, 39, 69, 70, 84, 109, 110, 150, 198] {
            let rect = Rect::new(2, 0, cells, 1);
            for show_status in [false, true] {
                let columns =
                    Columns::new(usize::from(cells), show_status, false, app_needs(26), false);
                for selected in [
                    None,
                    Some(theme.selected(true)),
                    Some(theme.selected(false)),
                ] {
                    for row in &state.list.window.rows {
                        let ours = draw(rect, selected, |buf| {
                            draw_row(buf, rect, &state, (row, false), &columns, theme);
                        });
                        let reference = draw(rect, selected, |buf| {
                            reference_row_line(&state, row, &columns, theme).render(rect, buf);
                        });
                        assert_eq!(ours, reference, "{:?} in {cells} cells", row.message);
                    }
                }
            }
        }
    }
}

#[test]
fn thousands_are_grouped() {
    for (n, text) in [
        (0, "0"),
        (999, "999"),
        (1000, "1,000"),
        (1_284, "1,284"),
        (1_000_000, "1,000,000"),
    ] {
        assert_eq!(thousands(n), text);
    }
    assert_eq!(thousands(-1_234_567_i64), "-1,234,567");
    assert_eq!(thousands(-12_i64), "-12");
    assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
}

#[test]
fn the_platform_is_never_the_part_cut_and_one_app_drops_the_column() {
    let state = state();
    let columns = Columns::new(120, false, false, app_needs(26), false);
    let row = &state.list.window.rows[0];
    let rect = Rect::new(0, 0, 120, 1);
    let buf = draw(rect, None, |buf| {
        draw_row(buf, rect, &state, (row, false), &columns, Theme::new(false));
    });
    let text: String = (0..120).map(|x| buf[(x, 0)].symbol().to_owned()).collect();
    assert!(text.contains("Nimbus Notes fo… · ios "), "{text}");
    assert_eq!(Columns::new(120, false, true, app_needs(26), false).app, 0);
    assert!(Columns::new(120, false, true, app_needs(26), false).message > columns.message);
}

#[test]
fn a_search_that_pins_one_app_drops_the_app_column_too() {
    let mut h = crate::testkit::started_harness(120, 20, 10, false);
    h.send(crate::action::Msg::Action(crate::action::Action::Filter));
    for c in "app:nimbus-ios".chars() {
        h.send(crate::action::Msg::FilterInput(
            ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char(c)),
        ));
    }
    let shown = |h: &crate::testkit::Harness| {
        let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 20)).unwrap();
        t.draw(|f| super::super::render(f, &h.state, &crate::keymap::Keymap::default()))
            .unwrap();
        format!("{:?}", t.backend())
    };
    assert!(!shown(&h).contains(" APP "), "{}", shown(&h));
    h.send(crate::action::Msg::Action(crate::action::Action::Back));
    h.send(crate::action::Msg::Action(crate::action::Action::Back));
    assert!(shown(&h).contains("APP"));
}

/// The APP column follows the room: on a narrow list (80 columns with the side panes) it keeps
/// the platform where the tags go; on a wide one it grows to what the names need, not more.
#[test]
fn the_app_column_keeps_the_platform_when_narrow_and_grows_when_wide() {
    let state = state();
    let row = &state.list.window.rows[0];
    let text_of = |cells: u16, columns: &Columns| {
        let rect = Rect::new(0, 0, cells, 1);
        let buf = draw(rect, None, |buf| {
            draw_row(buf, rect, &state, (row, false), columns, Theme::new(false));
        });
        (0..cells)
            .map(|x| buf[(x, 0)].symbol().to_owned())
            .collect::<String>()
    };
    let narrow = Columns::new(54, false, false, app_needs(26), false);
    assert_eq!((narrow.app, narrow.tags), (APP_NARROW_CELLS, 0));
    assert!(
        text_of(54, &narrow).contains("… · ios "),
        "{}",
        text_of(54, &narrow)
    );
    let wide = Columns::new(198, false, false, app_needs(26), false);
    assert_eq!(wide.app, 26, "as wide as the widest name, no wider");
    assert!(text_of(198, &wide).contains("Nimbus Notes for iOS · ios "));
    assert_eq!(
        Columns::new(198, false, false, app_needs(70), false).app,
        APP_MAX_CELLS
    );
    assert_eq!(
        Columns::new(120, false, false, app_needs(70), false).app,
        APP_CELLS
    );
    assert_eq!(Columns::new(30, false, false, app_needs(26), false).app, 0);
}

/// The `n`th row's links: none, one, or three (the newest a GitHub issue), in turn.
fn links(n: usize) -> Vec<feedback_team_sync::SharedLink> {
    let link = |url: &str, second: i64| feedback_team_sync::SharedLink {
        link: feedback_core::link::Link::new(url, None).unwrap(),
        by: None,
        at: jiff::Timestamp::from_second(second).unwrap(),
        pending: false,
    };
    match n % 3 {
        0 => Vec::new(),
        1 => vec![link("https://tracker.example/TICKET-26944", 5)],
        _ => vec![
            link("https://tracker.example/APP-1", 1),
            link("https://github.com/acme/app/issues/4242", 9),
            link("https://docs.example/a-very-long-guide-name", 3),
        ],
    }
}

/// With a team: the OWNER column (◎ another member looking, ~ a change waiting, the owner,
/// this member's own in the accent) from 86 cells, and the TICKET column (the newest link's
/// short name; the glyph alone below 90 cells), drawn as the line of spans would be, and a
/// teammate's hostile name inert.
#[test]
fn the_owner_column_is_drawn_exactly_as_the_line_of_spans() {
    use crate::team::{TeamShown, TeamState};
    use feedback_team_sync::SharedState;
    let mut state = state();
    let mut team = TeamState::new("ana");
    team.set_present(vec![feedback_team::Presence {
        member: "bo".to_owned(),
        item_id: Some(state.list.window.rows[3].id.to_string()),
        replying: false,
    }]);
    state.team = Some(team);
    let owners = [
        Some("ana"),
        Some("bo\u{1b}[2Jx"),
        Some("cyrille-the-last"),
        Some("cyrille-the-long"),
        None,
    ];
    let shown = state
        .list
        .window
        .rows
        .iter()
        .enumerate()
        .map(|(n, row)| {
            let shared = SharedState {
                item_id: row.id.to_string(),
                owner: owners[n % 5].map(str::to_owned),
                labels: Vec::new(),
                notes: Vec::new(),
                links: links(n),
                replies: Vec::new(),
                pending: n % 3 == 0,
            };
            (row.id.to_string(), TeamShown::from(shared))
        })
        .collect();
    state.triage.overlay.team_read(shown, true);
    let needs = Needs {
        app: 26,
        owner: 20,
        labels: 0,
        ticket: 16,
    };
    assert_eq!(Columns::new(59, false, false, needs, true).owner, 0);
    assert_eq!(Columns::new(89, false, false, needs, true).ticket, 1);
    assert_eq!(Columns::new(90, false, false, needs, true).ticket, 16);
    for color in [true, false] {
        let theme = Theme::new(color);
        for cells in [60, 86, 119, 120, 198] {
            let rect = Rect::new(2, 0, cells, 1);
            let mut columns = Columns::new(usize::from(cells), false, false, needs, true);
            let names = owners.map(|o| feedback_core::text::sanitize_line(o.unwrap_or("")));
            columns.owners = OwnerNames::new(names.iter().map(|n| &**n));
            assert!(columns.owner > 0);
            for row in &state.list.window.rows[..8] {
                let ours = draw(rect, None, |buf| {
                    draw_row(buf, rect, &state, (row, false), &columns, theme);
                });
                let reference = draw(rect, None, |buf| {
                    reference_row_line(&state, row, &columns, theme).render(rect, buf);
                });
                assert_eq!(ours, reference, "{:?} in {cells} cells", row.id);
                let text: String = ours
                    .content()
                    .iter()
                    .map(ratatui::buffer::Cell::symbol)
                    .collect();
                assert!(!text.contains('\u{1b}'), "{text}");
            }
        }
    }
}
