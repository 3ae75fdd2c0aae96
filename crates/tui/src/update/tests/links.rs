//! `ctrl-k` links the marked items (or the selected one) to a ticket, or removes a link
//! (`-URL`): kept in the store in no team, recorded in the team's outbox with one; shown on the
//! rows and in the detail once durable; undone by `U`; a line that is no link keeps the prompt
//! open with why.

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::act;
use super::acting::note;
use super::team::team_harness;
use crate::action::{Action, Msg};
use crate::testkit::{Harness, started_harness};
use feedback_store::Store;
use feedback_team::Change;

const TICKET: &str = "https://tracker.example/TICKET-26944";

fn key(h: &mut Harness, code: KeyCode) {
    h.send(Msg::LinkInput(KeyEvent::from(code)));
}

/// `ctrl-k`, `line` pasted, `Enter`.
fn link(h: &mut Harness, line: &str) {
    act(h, Action::EditLinks);
    h.send(Msg::Paste(line.to_owned()));
    key(h, KeyCode::Enter);
}

/// The links item `id` shows, as (short name, title).
fn shown(h: &Harness, id: &str) -> Vec<(String, Option<String>)> {
    h.state
        .triage
        .overlay
        .team(id)
        .map(|s| {
            s.links
                .iter()
                .map(|l| {
                    (
                        l.short.to_string(),
                        l.title.as_ref().map(ToString::to_string),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn stored(h: &Harness, id: &str) -> Vec<String> {
    h.store
        .read(|s| s.links(&[id.to_owned()]))
        .unwrap()
        .iter()
        .map(|r| r.link.url().to_owned())
        .collect()
}

#[test]
fn in_no_team_a_link_is_kept_in_the_store_shown_and_undone() {
    let mut h = started_harness(140, 30, 20, true);
    link(&mut h, &format!("{TICKET}  Crash on start"));
    assert_eq!(h.state.link_prompt, None);
    assert_eq!(note(&h), "Linked id00000 to TICKET-26944; U undoes");
    assert_eq!(stored(&h, "id00000"), [TICKET]);
    assert_eq!(
        shown(&h, "id00000"),
        [("TICKET-26944".to_owned(), Some("Crash on start".to_owned()))]
    );
    assert_eq!(h.selected_id(), "id00000", "a link leaves the selection");

    // Two marked items, one ticket (a mark moves down).
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    link(&mut h, "https://github.com/acme/app/issues/7");
    assert_eq!(note(&h), "Linked 2 items to app#7; U undoes");
    assert_eq!(
        stored(&h, "id00001"),
        ["https://github.com/acme/app/issues/7"]
    );
    assert_eq!(stored(&h, "id00000").len(), 2);

    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: link to app#7 of 2 items");
    assert_eq!(stored(&h, "id00000"), [TICKET]);
    assert!(stored(&h, "id00001").is_empty());
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: link to TICKET-26944 of id00000");
    assert!(stored(&h, "id00000").is_empty());
    assert!(shown(&h, "id00000").is_empty());
}

#[test]
fn an_unlink_is_undone_by_the_link_it_removed_title_and_all() {
    let mut h = started_harness(140, 30, 20, true);
    link(&mut h, &format!("{TICKET} Crash"));
    link(&mut h, &format!("-{TICKET}"));
    assert_eq!(note(&h), "Unlinked TICKET-26944 from id00000; U undoes");
    assert!(stored(&h, "id00000").is_empty());
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: unlink of TICKET-26944 of id00000");
    assert_eq!(
        shown(&h, "id00000"),
        [("TICKET-26944".to_owned(), Some("Crash".to_owned()))]
    );
}

#[test]
fn a_line_that_is_no_link_keeps_the_prompt_open_and_esc_closes_it() {
    let mut h = started_harness(140, 30, 20, true);
    for bad in [
        "javascript:alert(1)",
        "crash report",
        "",
        "file:///etc/passwd",
    ] {
        act(&mut h, Action::EditLinks);
        h.send(Msg::Paste(bad.to_owned()));
        key(&mut h, KeyCode::Enter);
        let prompt = h.state.link_prompt.as_ref().expect("still open");
        assert!(prompt.error.is_some(), "{bad:?}");
        key(&mut h, KeyCode::Esc);
        assert_eq!(h.state.link_prompt, None);
    }
    assert!(stored(&h, "id00000").is_empty());
    // Typed, a key at a time; a control character pasted is a space, never typed.
    act(&mut h, Action::EditLinks);
    for c in "https://t.example/T-1".chars() {
        key(&mut h, KeyCode::Char(c));
    }
    h.send(Msg::Paste(" two\u{1b}[2Jwords".to_owned()));
    key(&mut h, KeyCode::Enter);
    assert_eq!(
        shown(&h, "id00000"),
        [("T-1".to_owned(), Some("two [2Jwords".to_owned()))]
    );
}

#[test]
fn with_a_team_a_link_is_the_teams_pending_until_sent_and_undone_by_an_unlink() {
    let mut h = team_harness(&[]);
    link(&mut h, TICKET);
    assert_eq!(note(&h), "Linked id00000 to TICKET-26944; U undoes");
    let outbox = |h: &Harness| -> Vec<Change> {
        h.store
            .read(Store::team_outbox)
            .unwrap()
            .into_iter()
            .map(|e| e.change.unwrap())
            .collect()
    };
    assert!(matches!(&outbox(&h)[..], [Change::Link(l)] if l.url() == TICKET));
    assert!(stored(&h, "id00000").is_empty(), "not the store's own");
    let links = &h.state.triage.overlay.team("id00000").unwrap().links;
    assert!(links[0].pending);
    assert_eq!(
        links[0].by.as_ref().map(ToString::to_string).as_deref(),
        Some("ana")
    );
    act(&mut h, Action::UndoTriage);
    assert_eq!(note(&h), "Undone: link to TICKET-26944 of id00000");
    assert_eq!(
        outbox(&h)[1],
        Change::Unlink {
            url: TICKET.to_owned()
        }
    );
    assert!(shown(&h, "id00000").is_empty());
}

#[test]
fn tab_completes_the_ticket_qualifiers_and_the_tickets_on_the_rows() {
    use ratatui::crossterm::event::KeyModifiers;
    let mut h = started_harness(140, 30, 20, true);
    link(&mut h, TICKET);
    act(&mut h, Action::Filter);
    for c in "has:tic".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Tab,
        KeyModifiers::NONE,
    )));
    let text = || {
        h.state
            .text_filter
            .as_ref()
            .map(crate::state::TextFilter::text)
    };
    assert_eq!(text().as_deref(), Some("has:ticket"));
    for c in " ticket:TI".chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    h.send(Msg::FilterInput(KeyEvent::new(
        KeyCode::Tab,
        KeyModifiers::NONE,
    )));
    assert_eq!(
        h.state
            .text_filter
            .as_ref()
            .map(crate::state::TextFilter::text)
            .as_deref(),
        Some("has:ticket ticket:TICKET-26944")
    );
}
