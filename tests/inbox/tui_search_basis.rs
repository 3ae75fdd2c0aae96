//! A search that reads details (`version:`, `os:`, `locale:`, `meta.KEY:`, `has:link`) in the
//! inbox: the list's title says on how many of the items it is about the store holds details,
//! and `e` fetches the missing ones of those items (not of the matches, which have theirs).
//! Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use crate::insight_support;

use feedback_tui::action::{Action, Msg};
use feedback_tui::testkit::Harness;
use insight_support::{act, draw, harness, queued};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn search(h: &mut Harness, text: &str) {
    act(h, Action::Filter);
    for c in text.chars() {
        h.send(Msg::FilterInput(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    act(h, Action::Open);
}

/// The list's title row (the top border of the list).
fn title(h: &Harness) -> String {
    let screen = draw(&h.state).backend().to_string();
    screen
        .lines()
        .find(|l| l.contains("Feedback ·"))
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_version_search_says_what_it_is_based_on_and_e_fetches_the_rest() {
    // 40 items, the details of 12 stored: versions 2.14.1 and 2.13.0 in turn.
    let mut h = harness(120, 30, 12);
    search(&mut h, "version:2.14.1");
    assert_eq!(h.state.visible_len(), 6);
    let title = title(&h);
    assert!(
        title.contains("6 matches · based on 12 of 40 with details · e fetches the rest"),
        "{title}"
    );
    // e queues the 28 items the search is about whose details are missing.
    act(&mut h, Action::Enrich);
    assert_eq!(queued(&h), 28);
    let title = self::title(&h);
    assert!(
        title.contains("12 of 40 with details · fetching details (e cancels)"),
        "{title}"
    );
}

/// On a narrow list the basis gives up its first words, then its key hint, rather than be cut
/// by the border mid-word.
#[test]
fn a_narrow_list_shortens_the_basis_instead_of_cutting_it() {
    for (width, says) in [
        (
            120,
            "· based on 12 of 40 with details · e fetches the rest ",
        ),
        (76, "· 12 of 40 with details · e fetches the rest "),
        (70, "· based on 12 of 40 with details "),
        (58, "· 12 of 40 with details "),
    ] {
        let mut h = harness(width, 30, 12);
        search(&mut h, "version:2.14.1");
        let title = title(&h);
        assert!(title.contains(says), "{width}: {title}");
        assert!(!title.contains('…'), "{width}: {title}");
    }
}

#[test]
fn with_every_detail_stored_the_title_says_so_and_a_plain_search_says_nothing() {
    let mut h = harness(120, 30, 40);
    search(&mut h, "version:2.13.0 -locale:fr");
    let title = title(&h);
    assert!(
        title.contains("20 matches · based on 40 of 40 with details"),
        "{title}"
    );
    assert!(!title.contains("e fetches"), "{title}");
    let mut h = harness(120, 30, 12);
    search(&mut h, "-zzzz");
    let title = self::title(&h);
    assert!(title.contains("40 match"), "{title}");
    assert!(!title.contains("based on"), "{title}");
}
