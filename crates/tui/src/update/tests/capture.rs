//! A `|` command whose entry captures what it prints: `capture = "link"` links the first
//! http(s) address it printed on every item it was given (one ticket for a cluster),
//! `capture = "note"` appends what it printed (sanitized, capped) to each item's note; only
//! of a command that exited 0, and undone by `U` like the key's.

use super::act;
use super::acting::note;
use crate::action::{Action, Msg};
use crate::testkit::{Harness, started_harness};
use feedback_config::looks::Capture;
use feedback_core::text::Clean;

fn piped(h: &mut Harness, ids: &[&str], code: i32, capture: Capture, output: &str) {
    h.send(Msg::Piped {
        name: Clean::fixed("file-ticket"),
        items: ids.iter().map(|id| (*id).to_owned()).collect(),
        result: Ok(Some(code)),
        capture: Some(capture),
        output: output.to_owned(),
    });
}

fn links(h: &Harness, id: &str) -> Vec<String> {
    h.store
        .read(|s| s.links(&[id.to_owned()]))
        .unwrap()
        .iter()
        .map(|r| r.link.url().to_owned())
        .collect()
}

fn stored_note(h: &Harness, id: &str) -> Option<String> {
    h.store.read(|s| s.triage(id)).unwrap().note
}

#[test]
fn the_first_link_a_command_prints_is_linked_on_every_item_it_was_given() {
    let mut h = started_harness(120, 30, 20, true);
    let output = "Creating issue in acme/app\n\u{1b}[32m✓\u{1b}[0m \
                  https://tracker.example/TICKET-26944\nalso https://other.example/x\n";
    piped(&mut h, &["id00000", "id00001"], 0, Capture::Link, output);
    assert_eq!(note(&h), "Linked 2 items to TICKET-26944; U undoes");
    for id in ["id00000", "id00001"] {
        assert_eq!(links(&h, id), ["https://tracker.example/TICKET-26944"]);
    }
    act(&mut h, Action::UndoTriage);
    assert!(links(&h, "id00000").is_empty() && links(&h, "id00001").is_empty());
}

#[test]
fn nothing_is_kept_of_a_command_that_failed_or_printed_no_link() {
    let mut h = started_harness(120, 30, 20, true);
    piped(
        &mut h,
        &["id00000"],
        1,
        Capture::Link,
        "https://tracker.example/T-1\n",
    );
    assert_eq!(
        note(&h),
        "Piped 1 item to file-ticket: exit status 1; nothing kept"
    );
    piped(
        &mut h,
        &["id00000"],
        0,
        Capture::Link,
        "done: ftp://x.example/a javascript:alert(1)",
    );
    assert!(
        note(&h).contains("printed no http(s) link to keep"),
        "{}",
        note(&h)
    );
    piped(&mut h, &["id00000"], 2, Capture::Note, "it broke");
    assert!(links(&h, "id00000").is_empty());
    assert_eq!(stored_note(&h, "id00000"), None);
}

#[test]
fn what_a_command_prints_is_appended_to_each_note_inert_and_undone() {
    let mut h = started_harness(120, 30, 20, true);
    act(&mut h, Action::EditNote);
    h.send(Msg::Paste("asked for logs".to_owned()));
    h.send(Msg::TriageInput(ratatui::crossterm::event::KeyEvent::from(
        ratatui::crossterm::event::KeyCode::Enter,
    )));
    assert_eq!(
        stored_note(&h, "id00000").as_deref(),
        Some("asked for logs")
    );
    piped(
        &mut h,
        &["id00000", "id00001"],
        0,
        Capture::Note,
        "\nSummary: \u{1b}]52;c;ZXZpbA==\u{7}sync fails on\u{202e} iOS 18\n\n",
    );
    assert_eq!(
        note(&h),
        "Noted what file-ticket printed on 2 items; U undoes"
    );
    let first = stored_note(&h, "id00000").unwrap();
    assert!(
        first.starts_with("asked for logs\n\nSummary: "),
        "{first:?}"
    );
    assert!(first.ends_with("iOS 18"), "{first:?}");
    for c in first.chars() {
        assert!(
            c == '\n' || (!c.is_control() && c != '\u{202e}'),
            "{c:?} in {first:?}"
        );
    }
    assert!(stored_note(&h, "id00001").unwrap().starts_with("Summary: "));
    act(&mut h, Action::UndoTriage);
    assert_eq!(
        stored_note(&h, "id00000").as_deref(),
        Some("asked for logs")
    );
    assert_eq!(stored_note(&h, "id00001"), None);
}
