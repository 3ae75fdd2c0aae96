//! The detail and the item actions: shown from the store at once, refreshed from the service,
//! links from the stored delivery (offline too), fetched when none was ever stored.

use super::{act, offline};
use crate::action::{Action, CopyOutcome, Msg};
use crate::effect::{Effect, Local, Network};
use crate::state::Load;
use crate::testkit::{Harness, detail, now, started_harness, stored_detail};
use feedback_core::text::Clean;

fn fetches(effects: &[Effect]) -> usize {
    effects
        .iter()
        .filter(|e| matches!(e, Effect::Network(Network::FetchDetail { .. })))
        .count()
}

fn store_detail(h: &Harness, n: usize) {
    h.store.write(|s| s.put_detail(&detail(n), now())).unwrap();
}

#[test]
fn enter_shows_the_stored_item_at_once_and_refreshes_it() {
    let mut h = started_harness(120, 35, 100, false);
    let effects = act(&mut h, Action::Open);
    assert_eq!(fetches(&effects), 1);
    let view = h.state.detail.as_ref().unwrap();
    assert_eq!(view.load, Load::Loaded, "the list fields are stored");
    assert_eq!(view.detail_at, None);
    assert!(view.refreshing);
    let shown = &h.state.details["id00000"];
    assert!(shown.detail.metadata.built_in.is_empty());
    // The service's detail, stored by the syncer, comes back and is shown.
    store_detail(&h, 0);
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(stored_detail(0))),
    });
    let view = h.state.detail.as_ref().unwrap();
    assert_eq!(view.detail_at, Some(now()));
    assert!(!view.refreshing);
    assert_eq!(
        h.state.details["id00000"].detail.metadata.custom["plan"],
        "pro"
    );
}

#[test]
fn a_failed_refresh_keeps_the_stored_detail_and_says_why() {
    let mut h = started_harness(120, 35, 100, false);
    store_detail(&h, 0);
    act(&mut h, Action::Open);
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Err(offline()),
    });
    let view = h.state.detail.as_ref().unwrap();
    assert_eq!(view.load, Load::Loaded);
    assert_eq!(view.detail_at, Some(now()), "as of the stored fetch");
    assert!(
        h.state
            .note
            .as_ref()
            .unwrap()
            .text
            .contains("Cannot refresh")
    );
    assert!(h.state.sync.offline.is_some());
}

#[test]
fn y_copies_the_stored_link_without_the_network() {
    let mut h = started_harness(120, 35, 100, false);
    store_detail(&h, 0);
    let effects = act(&mut h, Action::CopyLink);
    assert_eq!(
        effects,
        vec![Effect::Local(Local::Copy {
            what: "the issue-tracker link",
            text: Clean::fixed("https://issues.example.com/nimbus/issues/1000")
        })]
    );
}

#[test]
fn y_fetches_the_links_when_none_were_ever_stored() {
    let mut h = started_harness(120, 35, 100, false);
    let effects = act(&mut h, Action::CopyLink);
    assert_eq!(fetches(&effects), 1);
    store_detail(&h, 0);
    let effects = h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(stored_detail(0))),
    });
    assert!(effects.contains(&Effect::Local(Local::Copy {
        what: "the issue-tracker link",
        text: Clean::fixed("https://issues.example.com/nimbus/issues/1000")
    })));
    // Offline, with no stored links: it says why.
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::CopyLink);
    h.send(Msg::DetailLoaded {
        id: "id00001".into(),
        result: Err(offline()),
    });
    let note = h.state.note.as_ref().unwrap();
    assert!(
        note.error && note.text.contains("Cannot fetch the item's links"),
        "{note:?}"
    );
}

#[test]
fn an_item_without_issue_link_says_so() {
    let mut h = started_harness(120, 35, 100, false);
    let mut bare = stored_detail(0);
    bare.delivery
        .as_mut()
        .unwrap()
        .retain(|d| d.channel != feedback_api::Channel::IssueTracker);
    act(&mut h, Action::CopyLink);
    let effects = h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(bare)),
    });
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Local(Local::Copy { .. })))
    );
    assert_eq!(
        h.state.note.as_ref().unwrap().text,
        "This item has no issue-tracker link"
    );
}

#[test]
fn shift_y_and_i_copy_message_and_id() {
    let mut h = started_harness(120, 35, 100, false);
    let effects = act(&mut h, Action::CopyMessage);
    assert!(
        matches!(&effects[..], [Effect::Local(Local::Copy { what: "the message", text })] if text.starts_with("Message number 0"))
    );
    assert_eq!(
        act(&mut h, Action::CopyId),
        vec![Effect::Local(Local::Copy {
            what: "the id",
            text: Clean::fixed("id00000")
        })]
    );
    h.send(Msg::Copied(CopyOutcome::Failed {
        what: "the message",
        reason: "too large".into(),
    }));
    assert!(h.state.note.as_ref().unwrap().error);
}

#[test]
fn o_opens_web_links_only_and_copies_instead_without_a_browser() {
    let mut h = started_harness(120, 35, 100, false);
    store_detail(&h, 0);
    let url = "https://issues.example.com/nimbus/issues/1000";
    assert_eq!(
        act(&mut h, Action::OpenLink),
        vec![Effect::Local(Local::OpenUrl { url: url.into() })]
    );
    h.state.can_open_browser = false;
    assert_eq!(
        act(&mut h, Action::OpenLink),
        vec![Effect::Local(Local::Copy {
            what: "the issue-tracker link",
            text: Clean::line(url)
        })]
    );
    let mut evil = detail(1);
    evil.delivery[1].external_url = Some("file:///etc/passwd".into());
    h.store.write(|s| s.put_detail(&evil, now())).unwrap();
    h.state.can_open_browser = true;
    act(&mut h, Action::MoveDown);
    let effects = act(&mut h, Action::OpenLink);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Local(Local::OpenUrl { .. })))
    );
    assert!(h.state.note.as_ref().unwrap().error);
}

#[test]
fn detail_text_is_sanitized_on_the_way_in() {
    let mut h = started_harness(120, 35, 100, false);
    let mut hostile = stored_detail(0);
    hostile.item.feedback.message = "\u{1b}]52;c;eA==\u{7}hi".into();
    hostile
        .metadata
        .custom
        .insert("k\u{1b}[2J".into(), "v\u{202e}".into());
    act(&mut h, Action::Open);
    h.send(Msg::DetailLoaded {
        id: "id00000".into(),
        result: Ok(Box::new(hostile)),
    });
    let d = &h.state.details["id00000"].detail;
    assert_eq!(d.feedback.message, "␛hi");
    assert!(
        d.metadata
            .custom
            .iter()
            .all(|(k, v)| feedback_core::text::is_clean(k) && feedback_core::text::is_clean(v))
    );
}
