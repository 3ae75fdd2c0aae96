//! Acting on items, copies and the pipe: one block per marked item, details fetched when never
//! fetched (and what is stored when a fetch fails or the inbox is offline), `|` to the one
//! configured command or a picker.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use super::acting::{command, copies, note};
use crate::action::{Action, Msg};
use crate::effect::{Effect, Handover, Network};
use crate::testkit::{detail, now, started_harness, stored_detail};
use feedback_core::text::Clean;

#[test]
fn copies_of_marked_items_are_one_block_each() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    let effects = act(&mut h, Action::CopyId);
    assert_eq!(
        copies(&effects),
        [("the ids", "id00000\nid00001".to_owned())]
    );
    assert_eq!(h.state.copy_instead.as_deref(), Some("2 items"));
    h.send(Msg::Copied(crate::action::CopyOutcome::Copied {
        what: "the ids",
        how: "to memory",
    }));
    assert_eq!(note(&h), "2 items; copied the ids to memory");
    let effects = act(&mut h, Action::CopyMessage);
    let text = &copies(&effects)[0].1;
    assert!(
        text.contains("number 0:") && text.contains("\n\nMessage number 1"),
        "{text}"
    );
}

#[test]
fn a_markdown_copy_fetches_a_detail_never_fetched_then_reads_the_store_again() {
    let mut h = started_harness(120, 30, 50, true);
    let effects = act(&mut h, Action::CopyMarkdown);
    assert!(
        matches!(&effects[..], [Effect::Network(Network::FetchDetail { id })] if id == "id00000"),
        "{effects:?}"
    );
    // The syncer stores the detail, then answers.
    h.store.write(|s| s.put_detail(&detail(0), now())).unwrap();
    let effects = h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(stored_detail(0))),
    });
    let copied = copies(&effects);
    assert_eq!(copied.len(), 1, "{effects:?}");
    assert_eq!(copied[0].0, "the Markdown block");
    let block = &copied[0].1;
    assert!(
        block.starts_with("> Message number 0: the sync button does nothing\n> second line 0\n\n"),
        "{block}"
    );
    assert!(
        block.contains("- **Issue tracker:** <https://issues.example.com/nimbus/issues/1000>\n"),
        "{block}"
    );
    assert!(
        block.contains("- **Version:** 2.14.1\n- **OS:** iOS 18.2\n- **Locale:** de-DE\n"),
        "{block}"
    );
    // Stored now: the next copy reads the store only; privacy leaves the reporter out.
    h.store.write(|s| s.put_detail(&detail(1), now())).unwrap();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::TogglePrivacy);
    assert!(note(&h).starts_with("Privacy mode on"));
    let effects = act(&mut h, Action::CopyMarkdown);
    let block = &copies(&effects)[0].1;
    assert!(
        !block.contains("Reporter") && !block.contains("user1@"),
        "{block}"
    );
    let effects = act(&mut h, Action::CopyJson);
    let json = &copies(&effects)[0].1;
    assert!(
        json.contains("\"reporter_email\": \"•••@•••\"") && json.contains("\"plan\": \"•••\""),
        "{json}"
    );
}

#[test]
fn a_fetch_that_fails_still_copies_what_is_stored() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    let effects = act(&mut h, Action::CopyLink);
    assert_eq!(
        effects
            .iter()
            .filter(|e| matches!(e, Effect::Network(Network::FetchDetail { .. })))
            .count(),
        2
    );
    h.store.write(|s| s.put_detail(&detail(1), now())).unwrap();
    h.send(Msg::DetailLoaded {
        id: "id00001".into(),
        result: Ok(Box::new(stored_detail(1))),
    });
    let effects = h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Err(crate::action::SyncFailure {
            text: "offline".into(),
            kind: crate::action::FailureKind::Offline,
        }),
    });
    assert_eq!(
        copies(&effects),
        [(
            "the issue-tracker links",
            "https://issues.example.com/nimbus/issues/1001".to_owned()
        )]
    );
    assert_eq!(
        h.state.copy_instead.as_deref(),
        Some("2 items (1 without a link)")
    );
}

#[test]
fn pipe_runs_the_one_command_or_asks_which() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::Pipe);
    assert!(note(&h).contains("[[commands]]"), "{}", note(&h));
    h.state.acting.commands = vec![command("one")];
    h.store.write(|s| s.put_detail(&detail(0), now())).unwrap();
    let effects = act(&mut h, Action::Pipe);
    let [
        Effect::Terminal(Handover::Pipe {
            name,
            argv,
            input,
            items,
            wait,
            capture: None,
        }),
    ] = &effects[..]
    else {
        panic!("{effects:?}");
    };
    assert_eq!((name.as_str(), items.len(), *wait), ("one", 1, true));
    assert_eq!(
        argv[2], "cat > one",
        "the configured argv, nothing of the item"
    );
    let item: feedback_api::FeedbackDetail = serde_json::from_str(input.trim_end()).unwrap();
    assert_eq!(item, detail(0));
    h.send(Msg::Piped {
        name: Clean::fixed("one"),
        items: vec!["id00000".to_owned()],
        result: Ok(Some(0)),
        capture: None,
        output: String::new(),
    });
    assert_eq!(note(&h), "Piped 1 item to one: exit status 0");
    h.send(Msg::Piped {
        name: Clean::fixed("one"),
        items: vec!["id00000".to_owned(), "id00001".to_owned()],
        result: Ok(Some(4)),
        capture: None,
        output: String::new(),
    });
    assert!(h.state.note.as_ref().unwrap().error);
    assert_eq!(note(&h), "Piped 2 items to one: exit status 4");
    // Two commands: the picker asks; `2` picks the second.
    h.state.acting.commands.push(command("two"));
    assert!(act(&mut h, Action::Pipe).is_empty());
    assert!(h.state.acting.picker.is_some());
    let key = KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE);
    let effects = h.send(Msg::PickerInput(key));
    assert!(
        matches!(&effects[..], [Effect::Terminal(Handover::Pipe { name, .. })] if name == "two"),
        "{effects:?}"
    );
    assert!(h.state.acting.picker.is_none());
    act(&mut h, Action::Pipe);
    h.send(Msg::PickerInput(KeyEvent::new(
        KeyCode::Esc,
        KeyModifiers::NONE,
    )));
    assert!(h.state.acting.picker.is_none());
}

#[test]
fn offline_a_markdown_copy_says_it_has_the_list_fields_only() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.sync.offline = Some("no network".into());
    let effects = act(&mut h, Action::CopyMarkdown);
    let copied = copies(&effects);
    assert_eq!(
        copied.len(),
        1,
        "copied at once, nothing fetched: {effects:?}"
    );
    assert!(
        copied[0]
            .1
            .contains("- **Feedback:** id00000 (Nimbus Notes)\n")
    );
    assert_eq!(
        h.state.copy_instead.as_deref(),
        Some("1 item (1 with the list fields only)")
    );
}
