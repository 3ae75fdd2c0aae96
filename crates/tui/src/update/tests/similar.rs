//! The similar list: `S` asks the store off the UI thread and pins the similar items in the
//! list; a stale answer is dropped; none found or a store error says so and changes nothing;
//! `Esc` puts the list back as it was; Enter on a Top issues cluster lists its items and `Esc`
//! goes back to the screen, then to the list; a view key leaves the key set.

use super::{act, newer, store_items};
use crate::action::{Action, Msg};
use crate::effect::{Effect, Read};
use crate::failure::Failure;
use crate::similar::Heading;
use crate::testkit::{Harness, started_harness};
use feedback_store::similar::{Cluster, TopIssues};

/// 40 items that all say the same (the fixture's message); the selection at the end, scrolled.
fn harness() -> Harness {
    let mut h = started_harness(120, 35, 40, true);
    act(&mut h, Action::Bottom);
    h.sent.clear();
    h
}

fn request_id(effects: &[Effect]) -> u64 {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(Read::FindSimilar { request_id, .. }) => Some(*request_id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no FindSimilar in {effects:?}"))
}

/// The list's state that `Esc` must put back.
fn list_place(h: &Harness) -> (usize, usize, Vec<i64>, String) {
    let l = &h.state.list;
    (l.selected, l.offset, l.keys.to_vec(), h.selected_id())
}

#[test]
fn s_lists_the_similar_items_and_esc_puts_the_list_back() {
    let mut h = harness();
    let before = list_place(&h);
    assert!(before.1 > 0, "scrolled: {before:?}");
    let asked = h.apply(Msg::Action(Action::Similar));
    assert!(matches!(
        asked.as_slice(),
        [Effect::Read(Read::FindSimilar { key, .. })] if *key == before.2[before.0]
    ));
    let note = h.state.note.clone().unwrap();
    assert!(
        note.text
            .starts_with("Finding items similar to \"Message number 39")
    );
    assert!(
        h.state.similar.shown.is_none(),
        "nothing changes until the answer"
    );
    h.settle(asked);
    let shown = h.state.similar.shown.clone().unwrap();
    let Heading::Similar { total, apps, .. } = &shown.heading else {
        panic!("{shown:?}")
    };
    assert_eq!(*total, 39, "every other item says the same");
    assert_eq!(apps.iter().map(|(_, n)| n).sum::<usize>(), 39);
    assert_eq!(h.state.list.keys.len(), 39);
    assert!(
        !h.state.list.keys.contains(&before.2[before.0]),
        "not the item itself"
    );
    assert_eq!((h.state.list.selected, h.state.list.offset), (0, 0));
    assert!(h.state.note.is_none());
    assert!(h.state.view_spec().pinned.is_some());
    // The list's keys work there: a row opens, Esc closes it and stays in the key set.
    act(&mut h, Action::MoveDown);
    let second = h.selected_id();
    act(&mut h, Action::Open);
    assert_eq!(h.state.detail.as_ref().unwrap().id, second);
    act(&mut h, Action::Back);
    assert!(h.state.detail.is_none() && h.state.similar.shown.is_some());
    // Esc: back where the list was.
    let effects = act(&mut h, Action::Back);
    assert!(h.state.similar.shown.is_none() && h.state.similar.saved.is_none());
    assert!(
        effects
            .iter()
            .all(|e| !matches!(e, Effect::Read(Read::FindSimilar { .. })))
    );
    assert_eq!(list_place(&h), before);
    assert_eq!(h.state.view_spec().pinned, None);
}

#[test]
fn marks_and_triage_work_in_the_key_set() {
    let mut h = harness();
    act(&mut h, Action::Similar);
    let first = h.selected_id();
    act(&mut h, Action::ToggleMark);
    let keys = h.state.list.keys.clone();
    assert_eq!(
        h.state.acting.marks.ids_in(&keys),
        std::slice::from_ref(&first)
    );
    // `d` acts on the marked item, as in the list.
    act(&mut h, Action::ToggleDone);
    // A done item stays in the key set (the heading counted it), shown done.
    assert_eq!(h.state.list.keys, keys);
    let row = h.state.list.window.get(0).unwrap();
    assert_eq!(*row.id, *first);
    assert!(crate::triage::known(&h.state, &row.id).done, "{row:?}");
}

#[test]
fn a_stale_answer_is_dropped() {
    let mut h = harness();
    // A second `S` makes the first answer stale.
    let first = h.apply(Msg::Action(Action::Similar));
    let old = h.hold(first);
    let second = h.apply(Msg::Action(Action::Similar));
    let new = h.hold(second);
    for answer in old {
        h.send(answer);
    }
    assert!(h.state.similar.shown.is_none());
    assert!(
        h.state.similar.finding.is_some(),
        "the newer one is awaited"
    );
    // The user moved on: the newer answer is dropped too.
    act(&mut h, Action::MoveUp);
    for answer in new {
        h.send(answer);
    }
    assert!(h.state.similar.shown.is_none() && h.state.similar.finding.is_none());
    assert_eq!(h.state.list.keys.len(), 40);
    assert!(h.state.note.is_none(), "the finding note went with it");
    // Esc while finding: not wanted either.
    let asked = h.apply(Msg::Action(Action::Similar));
    let answers = h.hold(asked);
    act(&mut h, Action::Back);
    for answer in answers {
        h.send(answer);
    }
    assert!(h.state.similar.shown.is_none());
}

#[test]
fn an_item_like_no_other_says_so() {
    let mut h = started_harness(120, 35, 40, true);
    let mut odd = newer(1).remove(0);
    odd.message = "Zebra quokka xylophone".into();
    store_items(&h, &[odd]);
    h.send(Msg::Arrived(Ok(true)));
    act(&mut h, Action::Top);
    assert_eq!(h.selected_id(), "id01000");
    act(&mut h, Action::Similar);
    assert!(h.state.similar.shown.is_none());
    let note = h.state.note.clone().unwrap();
    assert_eq!(
        note.text,
        "No other stored item is like \"Zebra quokka xylophone\""
    );
    assert!(!note.error);
    assert_eq!(h.state.list.keys.len(), 41);
}

#[test]
fn a_store_error_shows_and_loses_nothing() {
    let mut h = harness();
    let before = list_place(&h);
    let asked = h.apply(Msg::Action(Action::Similar));
    h.send(Msg::SimilarFound {
        request_id: request_id(&asked),
        result: Err(Failure::store("disk I/O error")),
    });
    let note = h.state.note.clone().unwrap();
    assert!(note.error && note.text == "Cannot find similar items: store store.db: disk I/O error");
    assert!(h.state.similar.shown.is_none());
    assert_eq!(list_place(&h), before);
}

#[test]
fn s_in_the_detail_and_esc_back_to_it() {
    let mut h = harness();
    act(&mut h, Action::Open);
    let open = h.state.detail.as_ref().unwrap().id.clone();
    act(&mut h, Action::Similar);
    assert!(h.state.detail.is_none() && h.state.similar.shown.is_some());
    act(&mut h, Action::Back);
    assert_eq!(h.state.detail.as_ref().unwrap().id, open);
}

#[test]
fn a_view_key_leaves_the_key_set_for_that_view() {
    let mut h = harness();
    act(&mut h, Action::Similar);
    assert!(h.state.similar.shown.is_some());
    let effects = h.apply(Msg::Action(Action::View(2)));
    assert!(h.state.similar.shown.is_none() && h.state.similar.saved.is_none());
    let spec = super::saved_views::query(&effects);
    assert_eq!((spec.search.as_str(), spec.pinned), ("is:starred", None));
}

fn cluster(keys: Vec<i64>) -> Cluster {
    Cluster {
        label: "Message number 3: the sync button does nothing".into(),
        keys,
        apps: vec![(Some("Nimbus Notes for iOS".into()), 3)],
        first_seen: None,
        last_seen: None,
        series: vec![0; 30],
    }
}

#[test]
fn enter_on_a_cluster_lists_its_items_and_esc_goes_back_step_by_step() {
    let mut h = harness();
    let before = list_place(&h);
    let effects = act(&mut h, Action::TopIssues);
    let Some(Effect::TopIssues { request_id, .. }) = effects.first() else {
        panic!("{effects:?}")
    };
    let keys: Vec<i64> = before.2[3..6].to_vec();
    h.send(Msg::TopIssuesLoaded {
        request_id: *request_id,
        result: Ok(Box::new(TopIssues {
            clusters: vec![cluster(vec![1]), cluster(keys.clone())],
            total_clusters: 2,
            items: 4,
        })),
    });
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Open);
    assert!(h.state.top_issues.is_none(), "the screen steps aside");
    assert_eq!(h.state.list.keys.to_vec(), keys, "newest first, as given");
    let shown = h.state.similar.shown.clone().unwrap();
    assert!(matches!(shown.heading, Heading::Cluster { count: 3, .. }));
    assert_eq!(h.selected_id(), "id00003");
    act(&mut h, Action::Quit);
    assert!(!h.state.quit, "q steps back from a key set");
    let screen = h.state.top_issues.as_ref().unwrap();
    assert_eq!(screen.selected, 1, "its selection kept");
    assert_eq!(list_place(&h), before, "the list under it as it was");
    act(&mut h, Action::Back);
    assert!(h.state.top_issues.is_none());
    assert_eq!(list_place(&h), before);
}

#[test]
fn the_store_changing_keeps_the_key_set_and_esc_shows_the_list_as_it_is_now() {
    let mut h = harness();
    act(&mut h, Action::Similar);
    let pinned = h.state.list.keys.clone();
    store_items(&h, &newer(1));
    h.send(Msg::Arrived(Ok(true)));
    assert_eq!(h.state.list.keys, pinned, "a key set is not a query");
    act(&mut h, Action::Back);
    assert_eq!(h.state.list.keys.len(), 41);
    assert_eq!(h.selected_id(), "id00039", "the selection kept on its item");
    assert_eq!(h.state.list.new_count, 1);
}

#[test]
fn the_search_key_leaves_the_key_set_for_the_prompt() {
    let mut h = harness();
    act(&mut h, Action::Similar);
    act(&mut h, Action::Filter);
    assert!(h.state.similar.shown.is_none());
    assert!(h.state.text_filter.as_ref().is_some_and(|f| f.editing));
    assert_eq!(h.state.view_spec().pinned, None);
}

#[test]
fn help_opens_over_top_issues_and_closing_it_comes_back_to_the_screen() {
    let mut h = harness();
    act(&mut h, Action::TopIssues);
    act(&mut h, Action::Help);
    assert!(h.state.help, "? shows the keys there too");
    assert!(h.state.top_issues.is_some());
    act(&mut h, Action::Back);
    assert!(!h.state.help);
    assert!(
        h.state.top_issues.is_some(),
        "Esc closes the help, not the screen"
    );
}
