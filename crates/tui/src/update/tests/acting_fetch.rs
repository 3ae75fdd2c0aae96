//! Copies and pipes of many never-fetched items: a few requests out at a time, at most
//! twenty per action, the progress in the note, and what went without details counted.

use super::act;
use super::acting::{copies, note};
use crate::action::{Action, Msg};
use crate::effect::{Effect, Handover, Network};
use crate::testkit::{Harness, now, started_harness, stored_detail};
use crate::update::acting::fetch::{FETCH_AT_ONCE, FETCH_CAP};

fn fetches(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Network(Network::FetchDetail { id }) => Some(id.clone()),
            _ => None,
        })
        .collect()
}

/// The syncer stores item `id`'s detail and answers.
fn answer(h: &mut Harness, id: &str) -> Vec<Effect> {
    let n: usize = id.trim_start_matches("id").parse().unwrap();
    let detail = crate::testkit::detail(n);
    h.store.write(|s| s.put_detail(&detail, now())).unwrap();
    h.send(Msg::DetailLoaded {
        id: id.to_owned(),
        result: Ok(Box::new(stored_detail(n))),
    })
}

#[test]
fn a_copy_of_thirty_unfetched_items_fetches_twenty_four_at_a_time() {
    let mut h = started_harness(120, 30, 50, true);
    for _ in 0..30 {
        act(&mut h, Action::ToggleMark);
    }
    let mut out = fetches(&act(&mut h, Action::CopyMarkdown));
    assert_eq!(out.len(), FETCH_AT_ONCE, "{out:?}");
    assert!(note(&h).contains("0 / 20"), "{}", note(&h));
    assert!(
        note(&h).contains("10 more use what is stored"),
        "{}",
        note(&h)
    );
    let mut asked = out.clone();
    let mut copied = Vec::new();
    while let Some(id) = out.pop() {
        let effects = answer(&mut h, &id);
        let more = fetches(&effects);
        assert!(more.len() <= 1, "one answer, one more request: {effects:?}");
        let outstanding = h
            .state
            .acting
            .gathering
            .as_ref()
            .map_or(0, |g| g.fetching.len());
        assert!(outstanding <= FETCH_AT_ONCE);
        asked.extend(more.iter().cloned());
        out.extend(more);
        copied.extend(copies(&effects));
    }
    assert_eq!(asked.len(), FETCH_CAP);
    asked.sort();
    asked.dedup();
    assert_eq!(asked.len(), FETCH_CAP, "each asked once");
    assert_eq!(copied.len(), 1, "the copy runs once every fetch is in");
    assert!(
        copied[0].1.contains("> Message number 29"),
        "every marked item has its block"
    );
    assert_eq!(
        h.state.copy_instead.as_deref(),
        Some("30 items (10 with the list fields only)")
    );
}

#[test]
fn progress_counts_the_answers() {
    let mut h = started_harness(120, 30, 50, true);
    for _ in 0..6 {
        act(&mut h, Action::ToggleMark);
    }
    let out = fetches(&act(&mut h, Action::CopyJson));
    assert_eq!(out.len(), FETCH_AT_ONCE);
    answer(&mut h, &out[0]);
    assert!(
        note(&h).starts_with("Fetching details: 1 / 6…"),
        "{}",
        note(&h)
    );
}

#[test]
fn y_and_i_reach_the_marked_items_and_never_a_pane_s_row() {
    let mut h = started_harness(120, 30, 50, true);
    act(&mut h, Action::ToggleMark);
    act(&mut h, Action::ToggleMark);
    // With marks, `i` gathers the two marked ids (not the selected third row).
    let effects = act(&mut h, Action::CopyId);
    let copied = copies(&effects);
    assert_eq!(copied.len(), 1, "{effects:?}");
    assert_eq!(copied[0].1, "id00000\nid00001");
    // `o` opens one link: with marks it says so.
    act(&mut h, Action::OpenLink);
    assert!(
        note(&h).starts_with("o opens one item's link"),
        "{}",
        note(&h)
    );
    // From a pane, `Y` reaches no list row: it says to Tab to the list.
    act(&mut h, Action::Back);
    act(&mut h, Action::FocusPrev);
    let effects = act(&mut h, Action::CopyMessage);
    assert!(copies(&effects).is_empty(), "{effects:?}");
    assert!(note(&h).contains("Tab to it"), "{}", note(&h));
}

#[test]
fn a_commands_wait_setting_goes_with_its_pipe() {
    let mut h = started_harness(120, 30, 50, true);
    h.store
        .write(|s| s.put_detail(&crate::testkit::detail(0), now()))
        .unwrap();
    let mut quiet = super::acting::command("quiet");
    quiet.wait = false;
    h.state.acting.commands = vec![quiet];
    let effects = act(&mut h, Action::Pipe);
    assert!(
        matches!(
            &effects[..],
            [Effect::Terminal(Handover::Pipe { wait: false, .. })]
        ),
        "{effects:?}"
    );
}

#[test]
fn counts_in_notes_are_grouped_by_thousands() {
    let mut h = started_harness(120, 35, 10, true);
    h.send(Msg::Enqueued(Ok(feedback_store::Enqueued {
        added: 1145,
        pending: 1145,
    })));
    assert_eq!(
        note(&h),
        "Fetching 1,145 details in the background; e cancels"
    );
    h.send(Msg::QueueCleared(Ok(4947)));
    assert_eq!(note(&h), "Enrichment cancelled: 4,947 details not fetched");
}
